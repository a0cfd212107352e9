/** The balloon list, for the jury's runners: each team's first solve of each problem, oldest first, marked when delivered. */
import { Checkbox } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { Link } from "wouter";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { minutes } from "./format.ts";

export default function BalloonsPage({ contestId }: { contestId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const query = useQuery({ ...trpc.contests.balloons.queryOptions({ id: contestId }), refetchInterval: 10_000 });
  const mark = async (teamId: string, problemId: string, delivered: boolean) => {
    await client.contests.markBalloon.mutate({ id: contestId, teamId, problemId, delivered });
    await qc.invalidateQueries({ queryKey: trpc.contests.balloons.queryKey({ id: contestId }) });
  };
  return (
    <Page title={"Balloons"}>
        <div className="page-heading">
          <h1 className="page-title">Balloons</h1>
          <p>
            <Link href={`/contests/${contestId}`} className="text-link">
              Back to the contest
            </Link>
          </p>
        </div>
        <QueryState query={query} loading="Loading balloons..." error="Failed to fetch the balloons" isEmpty={(l) => l.length === 0} empty={<p className="muted">No problem solved yet.</p>}>
          {(list) => (
            <div className="table-scroll">
              <table className="data-table" aria-label="Balloons">
                <thead>
                  <tr>
                    <th scope="col">Minute</th>
                    <th scope="col">Problem</th>
                    <th scope="col">Team</th>
                    <th scope="col">Delivered</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((b) => (
                    <tr key={`${b.teamId}:${b.problemId}`} data-testid="balloon">
                      <td>{minutes(b.solvedAtMs)}</td>
                      <td>
                        <span className="sb-balloon" style={b.color ? { background: b.color } : undefined} aria-hidden="true" /> {b.label}
                        {b.firstToSolve && <strong> · first to solve</strong>}
                      </td>
                      <td>{b.teamName}</td>
                      <td>
                        <Checkbox
                          label={
                            <>
                              delivered<span className="sr-only">: {b.label} to {b.teamName}</span>
                            </>
                          }
                          checked={b.deliveredAt !== null}
                          onChange={(e) => void mark(b.teamId, b.problemId, e.target.checked)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryState>
      </Page>
  );
}
