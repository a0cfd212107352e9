/**
 * What a page shows when it cannot show itself: not allowed (the viewer is
 * signed in but lacks the right: the server answered 403, or the client knows
 * from `auth.me`'s rights), not found (404, or an unknown address) or failed.
 * `ErrorState` is the block inside a page; `ErrorPage` is a whole page with
 * the site header.
 */
import { Link } from "wouter";
import { Page } from "./Page.tsx";
import { useT } from "../../i18n/index.tsx";
import { common } from "../../i18n/catalog/common/index.ts";

export type ErrorKind = "forbidden" | "notFound" | "failed";

/** Each kind's big code and its messages' keys. */
const TEXT = {
  forbidden: { code: "403", title: "error.forbidden.title", says: "error.forbidden.says" },
  notFound: { code: "404", title: "error.notFound.title", says: "error.notFound.says" },
  failed: { code: null, title: "error.failed.title", says: "error.failed.says" },
} as const;

export function ErrorState({ kind, detail }: { kind: ErrorKind; detail?: string }) {
  const t = useT(common);
  const text = TEXT[kind];
  return (
    <section className="error-state" aria-labelledby="error-title">
      <p className="not-found-code" aria-hidden="true">
        {text.code ?? t("error.failed.code")}
      </p>
      <h1 id="error-title">{t(text.title)}</h1>
      <p className="muted">{detail ?? t(text.says)}</p>
      <div className="error-actions">
        <Link href="/problems" className="btn btn-primary">
          {t("error.goToProblems")}
        </Link>
        <Link href="/" className="btn btn-ghost">
          {t("error.home")}
        </Link>
      </div>
    </section>
  );
}

export function ErrorPage({ kind, detail }: { kind: ErrorKind; detail?: string }) {
  const t = useT(common);
  return (
    <Page title={t(TEXT[kind].title)}>
      <ErrorState kind={kind} detail={detail} />
    </Page>
  );
}

/** The error kind for a failed request's HTTP status (403 → forbidden, 404 → notFound, else failed). */
export function errorKindOf(status: number | null): ErrorKind {
  return status === 403 ? "forbidden" : status === 404 ? "notFound" : "failed";
}
