/**
 * The course's regrade requests for staff (`/courses/:id/regrades`), oldest
 * first: each with the student, the assignment and problem, the reason, a link
 * to the review, and (while open) a form to accept, optionally with new
 * points for the problem, or decline, always with an answer.
 */
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { NumberField, RadioGroup, Select, TextArea } from "../kit/index.ts";
import { useNotice } from "../lib/notice.ts";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import "./grading.css";

type Filter = "open" | "accepted" | "declined" | "all";
type Queued = RouterOutputs["grading"]["regradeQueue"][number];
const STATUS = { open: "regrade.statusOpen", accepted: "regrade.statusAccepted", declined: "regrade.statusDeclined" } as const;

export default function RegradeQueuePage({ courseId }: { courseId: string }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const [status, setStatus] = useState<Filter>("open");
  const query = useQuery({ ...trpc.grading.regradeQueue.queryOptions({ courseId, status }), retry: false });
  const course = useQuery({ ...trpc.courses.byId.queryOptions({ id: courseId }), retry: false });
  // The outcome shows above the list: an answered request leaves the "waiting" list with its form.
  const { notice, run } = useNotice();
  return (
    <Page title={t("queue.documentTitle")}>
      <div className="page-heading">
        <div>
          <h1 className="page-title">{t("queue.title")}</h1>
          {course.data && (
            <p className="muted">
              <Link href={`/courses/${courseId}`}>{course.data.title}</Link>
            </p>
          )}
        </div>
      </div>
      <Select label={t("queue.filter")} value={status} onChange={(e) => setStatus(e.target.value as Filter)}>
        <option value="open">{t("queue.filterOpen")}</option>
        <option value="accepted">{t("queue.filterAccepted")}</option>
        <option value="declined">{t("queue.filterDeclined")}</option>
        <option value="all">{t("queue.filterAll")}</option>
      </Select>
      <FormMessage notice={notice} />
      <QueryState query={query} loading={t("queue.loading")} error={t("queue.loadFailed")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("queue.empty")}</p>}>
        {(list) => (
          <ol className="regrade-list" aria-label={t("queue.listLabel")}>
            {list.map((q) => (
              <li key={q.id} className="card" data-testid="queue-item">
                <QueueItem q={q} courseId={courseId} run={run} />
              </li>
            ))}
          </ol>
        )}
      </QueryState>
    </Page>
  );
}

function QueueItem({ q, courseId, run }: { q: Queued; courseId: string; run: ReturnType<typeof useNotice>["run"] }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const answer = useMutation(trpc.grading.answerRegrade.mutationOptions());
  const [status, setStatus] = useState<"accepted" | "declined">("accepted");
  const [words, setWords] = useState("");
  const [points, setPoints] = useState("");
  const name = `${q.student.firstName} ${q.student.lastName}`.trim();

  async function onAnswer(e: FormEvent) {
    e.preventDefault();
    const n = points.trim() === "" ? undefined : Number(points);
    const ok = await run(() => answer.mutateAsync({ id: q.id, status, answer: words, ...(status === "accepted" && n !== undefined ? { points: n } : {}) }), {
      success: t("queue.answered"),
      error: t("queue.answerFailed"),
    });
    if (ok) await queryClient.invalidateQueries({ queryKey: trpc.grading.regradeQueue.queryKey({ courseId }).slice(0, 1) });
  }

  return (
    <article aria-labelledby={`q-${q.id}`}>
      <h2 id={`q-${q.id}`} className="h3">
        {t("queue.itemTitle", { student: name, problem: q.problemTitle, assignment: q.assignmentTitle })}
      </h2>
      <p className="muted">
        {t(STATUS[q.status])} · <DateTime value={q.createdAt} mode="auto" /> · <Link href={`/submissions/${q.submissionId}/review`}>{t("queue.openReview")}</Link>
      </p>
      <p className="regrade-reason" dir="auto">
        {q.reason}
      </p>
      {q.answer !== null && (
        <div className="review-comment" role="note" aria-label={t("regrade.answerLabel")}>
          <p dir="auto">{q.answer}</p>
          {q.points !== null && <p>{t("regrade.newPoints", { points: q.points })}</p>}
        </div>
      )}
      {q.status === "open" && (
        <form onSubmit={onAnswer} aria-label={t("queue.answerFormLabel", { student: name })}>
          <RadioGroup
            label={t("queue.decision")}
            value={status}
            onChange={setStatus}
            inline
            options={[
              { value: "accepted", label: t("queue.accept") },
              { value: "declined", label: t("queue.decline") },
            ]}
          />
          <TextArea label={t("queue.answer")} value={words} onChange={(e) => setWords(e.target.value)} rows={3} maxLength={4000} required />
          {status === "accepted" && (
            <NumberField label={t("queue.points")} description={t("queue.pointsHint")} value={points} onChange={(e) => setPoints(e.target.value)} min={0} step="any" />
          )}
          <button type="submit" className="btn btn-primary btn-sm" disabled={answer.isPending}>
            {t("queue.send")}
          </button>
        </form>
      )}
    </article>
  );
}
