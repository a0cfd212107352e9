/**
 * The reveal, for the jury at the award ceremony: the frozen board, then one
 * hidden result per step, bottom team first, as the ICPC resolver does
 * (src/contests/reveal.ts decides the order). Next/Back step; the revealed
 * cell and its team are highlighted.
 */
import { useState } from "react";
import { Link } from "wouter";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { Page } from "../components/shell/Page.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { ScoreboardTable } from "./Scoreboard.tsx";

export default function RevealPage({ contestId }: { contestId: string }) {
  const trpc = useTRPC();
  const [step, setStep] = useState(0);
  const query = useQuery({ ...trpc.contests.reveal.queryOptions({ id: contestId, step }), placeholderData: keepPreviousData });
  const data = query.data;
  return (
    <Page title="Reveal" width="wide" pageClassName="scoreboard-page">
        <div className="page-heading sb-heading">
          <h1 className="page-title">Reveal</h1>
          <p className="sb-status">
            {data && (
              <span data-testid="reveal-progress">
                Step {data.step} of {data.total}
              </span>
            )}
            <button type="button" className="btn btn-ghost btn-sm" disabled={step === 0} onClick={() => setStep((s) => Math.max(0, s - 1))}>
              Back
            </button>
            <button type="button" className="btn btn-primary btn-sm" disabled={!data || data.step >= data.total} onClick={() => setStep((s) => s + 1)}>
              Next
            </button>
            <Link href={`/contests/${contestId}`} className="text-link">
              Back to the contest
            </Link>
          </p>
        </div>
        <QueryState query={query} loading="Loading the frozen board..." error="Failed to load the reveal (it starts once the contest is over)">
          {(d) => <ScoreboardTable board={d} highlight={d.revealed} />}
        </QueryState>
    </Page>
  );
}
