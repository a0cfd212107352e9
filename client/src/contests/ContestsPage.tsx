/** Contests the viewer may see, as running, upcoming and past, with a link to create one. */
import { Page } from "../components/shell/Page.tsx";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useNow } from "../courses/useNow.ts";
import { useAuth } from "../lib/auth.tsx";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { contestClock } from "./format.ts";
import { DateTime } from "../components/DateTime.tsx";

type Item = RouterOutputs["contests"]["list"][number];

function Section({ title, items, now }: { title: string; items: Item[]; now: number }) {
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
              {c.courseId ? " · course contest" : ""}
            </span>
            <strong>{contestClock(c.startsAt, c.endsAt, now).text}</strong>
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
  const query = useQuery(trpc.contests.list.queryOptions());
  const rights = useQuery({ ...trpc.courses.mine.queryOptions(), enabled: user !== null });
  return (
    <Page title={"Contests"}>
        <div className="page-heading">
          <h1 className="page-title">Contests</h1>
          {(rights.data?.canCreateCourses || rights.data?.isAdmin) && (
            <Link href="/contests/new" className="btn btn-primary btn-sm">
              New contest
            </Link>
          )}
        </div>
        <QueryState query={query} loading="Loading contests..." error="Failed to fetch contests" isEmpty={(l) => l.length === 0} empty={<p className="muted">No contests yet.</p>}>
          {(list) => (
            <>
              <Section title="Running" items={list.filter((c) => contestClock(c.startsAt, c.endsAt, now).phase === "running")} now={now} />
              <Section title="Upcoming" items={list.filter((c) => contestClock(c.startsAt, c.endsAt, now).phase === "upcoming").reverse()} now={now} />
              <Section title="Past" items={list.filter((c) => contestClock(c.startsAt, c.endsAt, now).phase === "over")} now={now} />
            </>
          )}
        </QueryState>
      </Page>
  );
}
