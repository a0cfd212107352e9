/** Contests the viewer may see, as running, upcoming and past, with a link to create one. */
import { Page } from "../components/shell/Page.tsx";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useNow } from "../courses/useNow.ts";
import { useAuth } from "../lib/auth.tsx";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { contestClock, contestPhase } from "./format.ts";
import { DateTime } from "../components/DateTime.tsx";
import { useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

type Item = RouterOutputs["contests"]["list"][number];

function Section({ title, items, now }: { title: string; items: Item[]; now: number }) {
  const t = useT(contests);
  if (items.length === 0) return null;
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <ul className="contest-list">
        {items.map((c) => (
          <li key={c.id} className="card contest-item">
            <Link href={`/contests/${c.shortName}`} className="contest-title">
              {c.title}
            </Link>
            <span className="muted">
              <DateTime value={c.startsAt} withZone /> · {c.scoring.toUpperCase()}
              {c.courseId && <> · {t("list.courseContest")}</>}
            </span>
            <strong>{contestClock(c.startsAt, c.endsAt, now, t).text}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ContestsPage() {
  const trpc = useTRPC();
  const { user } = useAuth();
  const now = useNow(1000);
  const t = useT(contests);
  const query = useQuery(trpc.contests.list.queryOptions());
  const rights = useQuery({ ...trpc.courses.mine.queryOptions(), enabled: user !== null });
  return (
    <Page title={t("list.title")}>
        <div className="page-heading">
          <h1 className="page-title">{t("list.title")}</h1>
          {(rights.data?.canCreateCourses || rights.data?.isAdmin) && (
            <Link href="/contests/new" className="btn btn-primary btn-sm">
              {t("list.new")}
            </Link>
          )}
        </div>
        <QueryState query={query} loading={t("list.loading")} error={t("list.error")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("list.empty")}</p>}>
          {(list) => (
            <>
              <Section title={t("list.running")} items={list.filter((c) => contestPhase(c.startsAt, c.endsAt, now) === "running")} now={now} />
              <Section title={t("list.upcoming")} items={list.filter((c) => contestPhase(c.startsAt, c.endsAt, now) === "upcoming").reverse()} now={now} />
              <Section title={t("list.past")} items={list.filter((c) => contestPhase(c.startsAt, c.endsAt, now) === "over")} now={now} />
            </>
          )}
        </QueryState>
      </Page>
  );
}
