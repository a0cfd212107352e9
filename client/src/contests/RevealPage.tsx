/**
 * The reveal, for the jury at the award ceremony: the frozen board, then one
 * hidden result per step, bottom team first, as the ICPC resolver does
 * (src/contests/reveal.ts decides the order). Next/Back step; the revealed
 * cell and its team are highlighted. Before the contest is over the page says
 * when the reveal opens instead of asking for it (the server refuses it then).
 */
import { useState } from "react";
import { Link } from "wouter";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DateTime } from "../components/DateTime.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { Page } from "../components/shell/Page.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { ScoreboardTable } from "./Scoreboard.tsx";
import { T, useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

export default function RevealPage({ contestId }: { contestId: string }) {
  const trpc = useTRPC();
  const t = useT(contests);
  const [step, setStep] = useState(0);
  const contest = useQuery(trpc.contests.byId.queryOptions({ id: contestId }));
  const notOver = contest.data !== undefined && contest.data.phase !== "over";
  const query = useQuery({ ...trpc.contests.reveal.queryOptions({ id: contestId, step }), placeholderData: keepPreviousData, enabled: contest.isSuccess && !notOver });
  const data = query.data;
  const endsAtMs = contest.data ? Date.parse(contest.data.startsAt) + contest.data.durationMinutes * 60_000 : null;
  return (
    <Page title={t("reveal.title")} width="wide" pageClassName="scoreboard-page">
        <div className="page-heading sb-heading">
          <h1 className="page-title">{t("reveal.title")}</h1>
          <p className="sb-status">
            {data && (
              <span data-testid="reveal-progress">
                {t("reveal.step", { step: data.step, total: data.total })}
              </span>
            )}
            <button type="button" className="btn btn-ghost btn-sm" disabled={notOver || step === 0} onClick={() => setStep((s) => Math.max(0, s - 1))}>
              {t("reveal.back")}
            </button>
            <button type="button" className="btn btn-primary btn-sm" disabled={notOver || !data || data.step >= data.total} onClick={() => setStep((s) => s + 1)}>
              {t("reveal.next")}
            </button>
            <Link href={`/contests/${contestId}`} className="text-link">
              {t("nav.backToContest")}
            </Link>
          </p>
        </div>
        {contest.isError ? (
          <QueryState query={contest} loading={t("reveal.loadingContest")} error={t("page.error")}>
            {() => null}
          </QueryState>
        ) : notOver && endsAtMs !== null ? (
          <p className="alert alert-info" role="status" data-testid="reveal-not-yet">
            <T ns={contests} k="reveal.notYet" components={{ 0: <DateTime value={endsAtMs} withZone /> }} />
          </p>
        ) : (
          <QueryState query={query} loading={t("reveal.loading")} error={t("reveal.error")}>
            {(d) => <ScoreboardTable board={d} highlight={d.revealed} />}
          </QueryState>
        )}
    </Page>
  );
}
