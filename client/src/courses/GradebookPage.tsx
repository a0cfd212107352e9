/**
 * The gradebook of one assignment (staff): students × problems with each
 * student's best score, verdict, attempts and late mark, totals per student
 * and per problem, kept live while students submit (a subscription sends
 * only the changed cells). Clicking a cell shows that student's submissions
 * and code. Teachers export the grades as CSV and the best submissions as a zip.
 */
import { Page } from "../components/shell/Page.tsx";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { TestTable } from "../components/TestTable.tsx";
import { useTRPC, useTRPCClient, type RouterOutputs } from "../lib/trpc.ts";
import { formatKib, formatMs } from "../lib/verdicts.ts";
import { DateTime } from "../components/DateTime.tsx";
import { VerdictBadge } from "../components/VerdictBadge.tsx";
import { useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";
import { StudentProgressLink } from "../progress/StudentProgressLink.tsx";
import { ReviewLink, RubricsLink } from "../grading/links.tsx";
import { DrawnNote, LateDaysCell, LateDaysHeading, SlotHeading } from "./pools/GradebookLateDays.tsx";

const CodeBlock = lazy(() => import("../components/CodeBlock.tsx").then((m) => ({ default: m.CodeBlock })));

type Gradebook = RouterOutputs["assignments"]["gradebook"];
type Cell = Gradebook["cells"][number];
const key = (userId: string, problemId: string) => `${userId}\u0000${problemId}`;

export default function GradebookPage({ assignmentId }: { assignmentId: string }) {
  const t = useT(courses);
  const trpc = useTRPC();
  const client = useTRPCClient();
  const query = useQuery({ ...trpc.assignments.gradebook.queryOptions({ id: assignmentId }), refetchOnWindowFocus: false });
  const assignment = useQuery(trpc.assignments.byId.queryOptions({ id: assignmentId }));
  const course = useQuery({ ...trpc.courses.byId.queryOptions({ id: assignment.data?.courseId ?? "" }), enabled: Boolean(assignment.data) });
  const teacher = course.data ? course.data.role === "owner" || course.data.role === "instructor" || course.data.role === null : false;
  const [cells, setCells] = useState<Map<string, Cell>>(new Map());
  const [live, setLive] = useState<"connecting" | "live" | "offline">("connecting");
  const [selected, setSelected] = useState<{ userId: string; problemId: string } | null>(null);
  // Students with a flagged similarity pair: their cell links to the pair (staff only; the server refuses others).
  const flags = useQuery({ ...trpc.similarity.flags.queryOptions({ assignmentId }), retry: false });
  const flagOf = useMemo(() => new Map((flags.data ?? []).map((f) => [key(f.userId, f.problemId), f])), [flags.data]);

  // The matrix starts from the read, then follows the stream from the read's version.
  useEffect(() => {
    if (!query.data) return;
    setCells(new Map(query.data.cells.map((c) => [key(c.userId, c.problemId), c])));
    const known = new Set(query.data.students.map((s) => s.userId));
    const sub = client.assignments.gradebookUpdates.subscribe(
      { id: assignmentId, version: query.data.version },
      {
        onStarted: () => setLive("live"),
        onData: (batch) => {
          // A student who joined after the read has no row yet: read the whole gradebook again (rare).
          if (batch.cells.some((c) => !known.has(c.userId))) void query.refetch();
          setCells((prev) => {
            const next = new Map(prev);
            for (const c of batch.cells) next.set(key(c.userId, c.problemId), c);
            return next;
          });
        },
        onError: () => setLive("offline"),
      },
    );
    return () => sub.unsubscribe();
  }, [client, assignmentId, query.data, query.refetch]);

  const totals = useMemo(() => {
    const byStudent = new Map<string, number>();
    const byProblem = new Map<string, { sum: number; solved: number }>();
    for (const c of cells.values()) {
      byStudent.set(c.userId, (byStudent.get(c.userId) ?? 0) + c.score);
      const p = byProblem.get(c.problemId) ?? { sum: 0, solved: 0 };
      p.sum += c.score;
      if (c.verdict === "AC") p.solved++;
      byProblem.set(c.problemId, p);
    }
    return { byStudent, byProblem };
  }, [cells]);

  return (
    <Page title={query.data ? t("gradebook.documentTitleOf", { title: query.data.assignment.title }) : t("gradebook.documentTitle")} width="wide">
        <QueryState query={query} loading={t("gradebook.loading")} error={t("gradebook.loadFailed")}>
          {(g) => {
            // One column per slot (a pool's cell is the problem given to each student), and the late days when the course gives some.
            const titleOf = (id: string) => g.problems.find((p) => p.problemId === id)?.title ?? "";
            const showLateDays = g.lateDays.allowed > 0 || Object.keys(g.lateDays.spent).length > 0;
            return (
            <>
              <div className="page-heading gradebook-heading">
                <div>
                  <h1 className="page-title">{t("gradebook.title", { title: g.assignment.title })}</h1>
                  <p className="muted">
                    {t("gradebook.counts", { students: g.students.length, problems: g.problems.length })} ·{" "}
                    <span className={`live-dot live-${live}`} role="status" aria-live="polite">
                      {live === "live" ? t("gradebook.live") : live === "connecting" ? t("gradebook.connecting") : t("gradebook.offline")}
                    </span>{" "}
                    · <Link href={`/assignments/${assignmentId}`}>{t("gradebook.assignment")}</Link>
                  </p>
                </div>
                {teacher && (
                  <div className="card-actions">
                    <a className="btn btn-primary btn-sm" href={`/api/assignments/${assignmentId}/grades?format=csv`} download>
                      {t("gradebook.exportCsv")}
                    </a>
                    <a className="btn btn-ghost btn-sm" href={`/api/assignments/${assignmentId}/best-submissions.zip`} download>
                      {t("gradebook.bestZip")}
                    </a>
                    <RubricsLink assignmentId={assignmentId} />
                  </div>
                )}
              </div>
              <div className="gradebook-wrap">
                <table className="data-table gradebook" aria-label={t("gradebook.table")}>
                  <thead>
                    <tr>
                      <th scope="col">{t("gradebook.student")}</th>
                      {g.slots.map((slot, i) => (
                        <th key={slot.slot} scope="col">
                          <SlotHeading index={i} problemIds={slot.problemIds} titleOf={titleOf} points={slot.points} />
                        </th>
                      ))}
                      {showLateDays && (
                        <th scope="col">
                          <LateDaysHeading />
                        </th>
                      )}
                      <th scope="col">{t("gradebook.total")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {g.students.map((s) => (
                      <tr key={s.userId} data-testid="gradebook-row">
                        <th scope="row">
                          {s.firstName} {s.lastName}
                          <span className="muted block">{s.email}</span>
                          {assignment.data && <StudentProgressLink courseId={assignment.data.courseId} userId={s.userId} name={`${s.firstName} ${s.lastName}`} />}
                        </th>
                        {g.slots.map((slot, i) => {
                          const p = { problemId: g.drawn[s.userId]?.[i] ?? slot.problemIds[0]!, title: titleOf(g.drawn[s.userId]?.[i] ?? slot.problemIds[0]!) };
                          // A recomputation (an extension, late days) writes a 0 cell for untouched problems: still "not attempted".
                          const found = cells.get(key(s.userId, p.problemId));
                          const c = found && found.attempts > 0 ? found : undefined;
                          return (
                            <td key={slot.slot} className={c ? (c.verdict === "AC" ? "cell-ac" : "cell-fail") : "cell-none"}>
                              {c ? (
                                <>
                                  <button type="button" className="cell-button" onClick={() => setSelected({ userId: s.userId, problemId: p.problemId })}>
                                    <span className="sr-only">
                                      {t(c.late ? "gradebook.cellLate" : "gradebook.cell", {
                                        student: `${s.firstName} ${s.lastName}`,
                                        problem: p.title,
                                        score: c.score,
                                        verdict: c.verdict ?? t("gradebook.judging"),
                                        attempts: c.attempts,
                                      })}
                                    </span>
                                    <strong aria-hidden="true">{c.score}</strong>
                                    <span className="cell-meta" aria-hidden="true">
                                      {c.verdict ?? "…"} · {c.attempts}
                                      {c.late && <span className="late-mark"> · {t("gradebook.late")}</span>}
                                    </span>
                                  </button>
                                  {slot.problemIds.length > 1 && <DrawnNote title={p.title} />}
                                  {flagOf.has(key(s.userId, p.problemId)) && (
                                    <Link
                                      href={`/similarity/${flagOf.get(key(s.userId, p.problemId))!.reportId}/pairs/${flagOf.get(key(s.userId, p.problemId))!.pairId}`}
                                      className="similarity-flag"
                                      title={flagOf.get(key(s.userId, p.problemId))!.note || t("gradebook.flagged")}
                                    >
                                      ⚑ {t("gradebook.similarity")}
                                    </Link>
                                  )}
                                </>
                              ) : (
                                <span className="muted">—</span>
                              )}
                            </td>
                          );
                        })}
                        {showLateDays && (
                          <LateDaysCell
                            assignmentId={assignmentId}
                            userId={s.userId}
                            student={`${s.firstName} ${s.lastName}`}
                            days={g.lateDays.spent[s.userId] ?? 0}
                            onRefunded={() => void query.refetch()}
                          />
                        )}
                        <td className="total" data-testid="total">
                          {Math.round((totals.byStudent.get(s.userId) ?? 0) * 100) / 100}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th scope="row">{t("gradebook.footer")}</th>
                      {g.slots.map((slot) => {
                        const sums = { sum: 0, solved: 0 };
                        for (const id of slot.problemIds) {
                          sums.sum += totals.byProblem.get(id)?.sum ?? 0;
                          sums.solved += totals.byProblem.get(id)?.solved ?? 0;
                        }
                        return (
                          <td key={slot.slot}>
                            {g.students.length ? Math.round((sums.sum / g.students.length) * 10) / 10 : 0} · {sums.solved}
                          </td>
                        );
                      })}
                      {showLateDays && <td />}
                      <td />
                    </tr>
                  </tfoot>
                </table>
              </div>
              {selected && (
                <StudentSubmissions
                  assignmentId={assignmentId}
                  userId={selected.userId}
                  problemId={selected.problemId}
                  title={`${g.students.find((s) => s.userId === selected.userId)?.email ?? ""} · ${g.problems.find((p) => p.problemId === selected.problemId)?.title ?? ""}`}
                  onClose={() => setSelected(null)}
                />
              )}
            </>
            );
          }}
        </QueryState>
      </Page>
  );
}

function StudentSubmissions(props: { assignmentId: string; userId: string; problemId: string; title: string; onClose: () => void }) {
  const trpc = useTRPC();
  const t = useT(courses);
  const list = useQuery(trpc.assignments.studentSubmissions.queryOptions({ assignmentId: props.assignmentId, userId: props.userId, problemId: props.problemId }));
  return (
    <section className="card student-submissions" aria-labelledby="student-subs-title">
      <div className="ai-panel-head">
        <h2 id="student-subs-title">{props.title}</h2>
        <button type="button" className="btn btn-ghost btn-sm" onClick={props.onClose}>
          {t("gradebook.close")}
        </button>
      </div>
      <QueryState query={list} loading={t("gradebook.submissionsLoading")} error={t("gradebook.submissionsFailed")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("gradebook.noSubmissions")}</p>}>
        {(subs) => (
          <ol className="submission-list">
            {subs.map((s) => (
              <li key={s._id} className="submission-card">
                <p>
                  <VerdictBadge verdict={s.verdict} /> · <DateTime value={s.createdAt} mode="auto" /> · {formatMs(s.timeMs)} · {formatKib(s.memoryKib)} <ReviewLink submissionId={s._id} />
                </p>
                <Suspense fallback={<pre className="pre-box">{s.code}</pre>}>
                  <CodeBlock code={s.code} language={s.language} />
                </Suspense>
                {s.tests.length > 0 && <TestTable tests={s.tests} caption={t("gradebook.perTest")} />}
              </li>
            ))}
          </ol>
        )}
      </QueryState>
    </section>
  );
}
