/**
 * One assignment: its problems with the student's status on each, the due
 * time in the viewer's time zone with a live countdown, the late penalty and
 * the feedback and AI policies; links solve each problem inside the assignment.
 */
import { Page } from "../components/shell/Page.tsx";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { AI_WORDS, countdown, FEEDBACK_WORDS, stateLabel } from "./format.ts";
import { useNow } from "./useNow.ts";
import { useTRPC } from "../lib/trpc.ts";
import { verdictName } from "../lib/verdicts.ts";
import { DateTime } from "../components/DateTime.tsx";

export default function AssignmentPage({ assignmentId }: { assignmentId: string }) {
  const trpc = useTRPC();
  const now = useNow(15_000);
  const query = useQuery(trpc.assignments.byId.queryOptions({ id: assignmentId }));
  return (
    <Page title={query.data?.title ?? "Assignment"}>
        <QueryState query={query} loading="Loading assignment..." error="Failed to fetch the assignment">
          {(a) => (
            <>
              <div className="page-heading">
                <h1 className="page-title">{a.title}</h1>
                <p>
                  <span className={`state-badge state-${a.state}`}>{stateLabel(a.state, a.window.dueAt, a.window.close, now)}</span>{" "}
                  <Link href={`/courses/${a.courseId}`} className="text-link">
                    Back to the course
                  </Link>
                </p>
              </div>
              <section className="card assignment-facts" aria-label="Deadlines and policies">
                <dl className="facts">
                  <dt>Opens</dt>
                  <dd>
                    <DateTime value={a.opensAt} withZone />
                  </dd>
                  {a.window.dueAt && (
                    <>
                      <dt>Due</dt>
                      <dd data-testid="due">
                        <DateTime value={a.window.dueAt} withZone />
                        {a.window.extended && " (your extension)"}
                        {countdown(a.window.dueAt, now) && <strong className="countdown"> · due {countdown(a.window.dueAt, now)}</strong>}
                      </dd>
                    </>
                  )}
                  {a.window.close && a.window.close !== a.window.dueAt && (
                    <>
                      <dt>Late submissions until</dt>
                      <dd>
                        <DateTime value={a.window.close} withZone /> ({a.latePenaltyPercent}% off per started {a.latePenaltyUnit})
                      </dd>
                    </>
                  )}
                  <dt>Scoring</dt>
                  <dd>{a.scoring === "partial" ? "Partial: the share of hidden tests passed" : "All or nothing: only Accepted scores"}</dd>
                  <dt>Feedback</dt>
                  <dd>
                    {FEEDBACK_WORDS[a.feedback]}
                    {a.feedbackAfterClose && ` (after the close: ${FEEDBACK_WORDS[a.feedbackAfterClose]?.toLowerCase()})`}
                  </dd>
                  <dt>AI review</dt>
                  <dd>{AI_WORDS[a.aiPolicy]}</dd>
                </dl>
                {a.description && <p className="statement-text">{a.description}</p>}
              </section>
              <section aria-labelledby="problems-title">
                <h2 id="problems-title">Problems</h2>
                {a.problems.length === 0 ? (
                  <p className="muted">The problems appear when the assignment opens (<DateTime value={a.opensAt} withZone />).</p>
                ) : (
                  <div className="table-scroll">
                  <table className="data-table">
                    <thead>
                      <tr>
                        <th scope="col">Problem</th>
                        <th scope="col">Points</th>
                        {a.myScore && <th scope="col">Your best</th>}
                        {a.myScore && <th scope="col">Status</th>}
                      </tr>
                    </thead>
                    <tbody>
                      {a.problems.map((p) => {
                        const mine = a.myScore?.problems[p.problemId];
                        return (
                          <tr key={p.problemId}>
                            <td>
                              <Link href={`/solve/${p.problemId}?assignment=${a.id}`}>{p.title}</Link>
                            </td>
                            <td>{p.points}</td>
                            {a.myScore && <td>{mine ? mine.score : "—"}</td>}
                            {a.myScore && (
                              <td>
                                {mine ? `${mine.verdict ? verdictName(mine.verdict) : "Judging"}${mine.late ? " (late)" : ""} · ${mine.attempts} attempt${mine.attempts === 1 ? "" : "s"}` : "Not attempted"}
                              </td>
                            )}
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                  </div>
                )}
                {a.myScore && (
                  <p className="score-line">
                    Total: <strong>{a.myScore.total}</strong> / {a.totalPoints}
                  </p>
                )}
                {!a.myScore && (
                  <div className="card-actions">
                    <Link href={`/assignments/${a.id}/gradebook`} className="btn btn-primary btn-sm">
                      Gradebook
                    </Link>
                    <Link href={`/assignments/${a.id}/similarity`} className="btn btn-ghost btn-sm">
                      Similarity
                    </Link>
                    <Link href={`/assignments/${a.id}/edit`} className="btn btn-ghost btn-sm">
                      Edit
                    </Link>
                  </div>
                )}
              </section>
            </>
          )}
        </QueryState>
      </Page>
  );
}
