/**
 * What a page shows when it cannot show itself: not allowed (the viewer is
 * signed in but lacks the right: the server answered 403, or the client knows
 * from `auth.me`'s rights), not found (404, or an unknown address) or failed.
 * `ErrorState` is the block inside a page; `ErrorPage` is a whole page with
 * the site header.
 */
import { Link } from "wouter";
import { Page } from "./Page.tsx";

export type ErrorKind = "forbidden" | "notFound" | "failed";

const TEXT: Record<ErrorKind, { code: string; title: string; says: string }> = {
  forbidden: { code: "403", title: "Not allowed", says: "Your account is not allowed to see this page. If you think it should be, ask the course's instructor or a site administrator." },
  notFound: { code: "404", title: "Page not found", says: "The page you are looking for does not exist or has moved." },
  failed: { code: "Error", title: "Something went wrong", says: "The page could not be loaded. Try again in a moment." },
};

export function ErrorState({ kind, detail }: { kind: ErrorKind; detail?: string }) {
  const t = TEXT[kind];
  return (
    <section className="error-state" aria-labelledby="error-title">
      <p className="not-found-code" aria-hidden="true">
        {t.code}
      </p>
      <h1 id="error-title">{t.title}</h1>
      <p className="muted">{detail ?? t.says}</p>
      <div className="error-actions">
        <Link href="/problems" className="btn btn-primary">
          Go to problems
        </Link>
        <Link href="/" className="btn btn-ghost">
          Home
        </Link>
      </div>
    </section>
  );
}

export function ErrorPage({ kind, detail }: { kind: ErrorKind; detail?: string }) {
  return (
    <Page title={TEXT[kind].title}>
      <ErrorState kind={kind} detail={detail} />
    </Page>
  );
}

/** The error kind for a failed request's HTTP status (403 → forbidden, 404 → notFound, else failed). */
export function errorKindOf(status: number | null): ErrorKind {
  return status === 403 ? "forbidden" : status === 404 ? "notFound" : "failed";
}
