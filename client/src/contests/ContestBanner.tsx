/** On the solving page opened from a contest: the problem's label, the contest clock, and the way back. */
import { Suspense } from "react";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { useNow } from "../courses/useNow.ts";
import { useTRPC } from "../lib/trpc.ts";
import { contestClock, windowOf } from "./format.ts";
import { useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

/** The banner; while its words load in another locale it is left out, so the solving page never waits for it. */
export function ContestBanner(props: { contestId: string; problemId: string }) {
  return (
    <Suspense fallback={null}>
      <Banner {...props} />
    </Suspense>
  );
}

function Banner({ contestId, problemId }: { contestId: string; problemId: string }) {
  const trpc = useTRPC();
  const now = useNow(1000);
  const t = useT(contests);
  const contest = useQuery(trpc.contests.byId.queryOptions({ id: contestId })).data;
  if (!contest) return null;
  const label = contest.problems.find((p) => p.problemId === problemId)?.label;
  const w = windowOf(contest);
  return (
    <div className="assignment-banner" role="note" data-testid="contest-banner">
      <strong>
        {contest.title}
        {label && <> · {t("banner.problem", { label })}</>}
      </strong>{" "}
      · <span data-testid="contest-clock">{contestClock(w.startsAt, w.endsAt, now, t).text}</span> · {t("banner.submitNote")}{" "}
      <Link href={`/contests/${contest.shortName}`} className="text-link">
        {t("nav.backToContest")}
      </Link>
    </div>
  );
}
