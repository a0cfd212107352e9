/**
 * One assignment: its problems with the student's status on each, the due
 * time in the viewer's time zone with a live countdown, the late penalty and
 * the feedback and AI policies; links solve each problem inside the assignment.
 */
import { Page } from "../components/shell/Page.tsx";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { aiWords, feedbackCase, feedbackWords, stateLabel, timeLeft } from "./format.ts";
import { useNow } from "./useNow.ts";
import { useTRPC } from "../lib/trpc.ts";
import { verdictName } from "../lib/verdicts.ts";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";
import { MyReviews, RubricsLink } from "../grading/links.tsx";
import { analyticsNs } from "../i18n/catalog/analytics/index.ts";
import { LateDaysControl } from "./pools/LateDaysControl.tsx";
import { PoolDraws } from "./pools/PoolDraws.tsx";
import { ExamPanel } from "./exam/ExamPanel.tsx";
import { ExamAccessLog } from "./exam/ExamAccessLog.tsx";

export default function AssignmentPage({ assignmentId }: { assignmentId: string }) {
  const t = useT(courses);
  const ta = useT(analyticsNs);
  const trpc = useTRPC();
  const now = useNow(15_000);
  const query = useQuery(trpc.assignments.byId.queryOptions({ id: assignmentId }));
  return (
    <Page title={query.data?.title ?? t("assignment.documentTitle")}>
        <QueryState query={query} loading={t("assignment.loading")} error={t("assignment.loadFailed")}>
          {(a) => {
            const left = timeLeft(a.window.dueAt, now, t);
            return (
            <>
              <div className="page-heading">
                <h1 className="page-title">{a.title}</h1>
                <p>
                  <span className={`state-badge state-${a.state}`}>{stateLabel(a.state, a.window.dueAt, a.window.close, now, t)}</span>{" "}
                  <Link href={`/courses/${a.courseId}`} className="text-link">
                    {t("assignment.backToCourse")}
                  </Link>
                </p>
              </div>
              <section className="card assignment-facts" aria-label={t("assignment.facts")}>
                <dl className="facts">
                  <dt>{t("assignment.opens")}</dt>
                  <dd>
                    <DateTime value={a.opensAt} withZone />
                  </dd>
                  {a.window.dueAt && (
                    <>
                      <dt>{t("assignment.due")}</dt>
                      <dd data-testid="due">
                        {a.window.extended ? (
                          <T ns={courses} k="assignment.extended" values={{ due: <DateTime value={a.window.dueAt} withZone /> }} />
                        ) : (
                          <DateTime value={a.window.dueAt} withZone />
                        )}
                        {left && <strong className="countdown"> · {t("assignment.dueCountdown", { duration: left })}</strong>}
                      </dd>
                    </>
                  )}
                  {a.window.close && a.window.close !== a.window.dueAt && (
                    <>
                      <dt>{t("assignment.lateUntil")}</dt>
                      <dd>
                        <T
                          ns={courses}
                          k="assignment.latePenalty"
                          values={{ close: <DateTime value={a.window.close} withZone />, percent: a.latePenaltyPercent, unit: a.latePenaltyUnit }}
                        />
                      </dd>
                    </>
                  )}
                  <dt>{t("assignment.scoring")}</dt>
                  <dd>{a.scoring === "partial" ? t("assignment.scoringPartial") : t("assignment.scoringAll")}</dd>
                  <dt>{t("assignment.feedback")}</dt>
                  <dd>
                    {a.feedbackAfterClose
                      ? t("assignment.feedbackAfterClose", { level: feedbackWords(a.feedback, t), after: feedbackCase(a.feedbackAfterClose) })
                      : feedbackWords(a.feedback, t)}
                  </dd>
                  <dt>{t("assignment.ai")}</dt>
                  <dd>{aiWords(a.aiPolicy, t)}</dd>
                </dl>
                {a.description && <p className="statement-text">{a.description}</p>}
              </section>
              <LateDaysControl assignment={a} />
              {a.myScore && a.exam.needsStart && <ExamPanel assignment={a} />}
              <section aria-labelledby="problems-title">
                <h2 id="problems-title">{t("assignment.problems")}</h2>
                {a.problems.length === 0 ? (
                  <p className="muted">
                    <T ns={courses} k="assignment.problemsLater" values={{ opens: <DateTime value={a.opensAt} withZone /> }} />
                  </p>
                ) : (
                  <div className="table-scroll">
                  <table className="data-table">
                    <thead>
                      <tr>
                        <th scope="col">{t("assignment.problem")}</th>
                        <th scope="col">{t("assignment.points")}</th>
                        {a.myScore && <th scope="col">{t("assignment.best")}</th>}
                        {a.myScore && <th scope="col">{t("assignment.status")}</th>}
                      </tr>
                    </thead>
                    <tbody>
                      {a.problems.map((p) => {
                        const mine = a.myScore?.problems[p.problemId];
                        const verdict = mine ? (mine.verdict ? verdictName(mine.verdict) : t("assignment.judging")) : "";
                        return (
                          <tr key={p.problemId}>
                            <td>
                              <Link href={`/solve/${p.problemId}?assignment=${a.id}`}>{p.title}</Link>
                            </td>
                            <td>{p.points}</td>
                            {a.myScore && <td>{mine ? mine.score : "—"}</td>}
                            {a.myScore && (
                              <td>
                                {!mine
                                  ? t("assignment.notAttempted")
                                  : mine.late
                                    ? t("assignment.attemptsLate", { verdict, attempts: mine.attempts })
                                    : t("assignment.attempts", { verdict, attempts: mine.attempts })}
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
                    <T ns={courses} k="assignment.total" values={{ score: a.myScore.total, total: a.totalPoints }} components={{ 0: <strong /> }} />
                  </p>
                )}
                {a.myScore && <MyReviews assignmentId={a.id} />}
                {!a.myScore && (
                  <div className="card-actions">
                    <Link href={`/assignments/${a.id}/gradebook`} className="btn btn-primary btn-sm">
                      {t("assignment.gradebook")}
                    </Link>
                    <Link href={`/assignments/${a.id}/analytics`} className="btn btn-ghost btn-sm">
                      {ta("link.fromAssignment")}
                    </Link>
                    <Link href={`/assignments/${a.id}/similarity`} className="btn btn-ghost btn-sm">
                      {t("assignment.similarity")}
                    </Link>
                    <Link href={`/assignments/${a.id}/edit`} className="btn btn-ghost btn-sm">
                      {t("assignment.edit")}
                    </Link>
                    <RubricsLink assignmentId={a.id} />
                  </div>
                )}
              </section>
              {!a.myScore && a.problems.length > 1 && <PoolDraws assignmentId={a.id} slotNumbers={[...new Set(a.problems.map((p) => p.slot))].sort((x, y) => x - y)} />}
              {!a.myScore && (a.exam.needsStart || a.exam.addressRestricted || a.exam.sebRequired) && <ExamAccessLog assignmentId={a.id} oneSession={a.exam.oneSession} />}
            </>
            );
          }}
        </QueryState>
      </Page>
  );
}
