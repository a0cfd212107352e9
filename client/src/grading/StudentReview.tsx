/**
 * The student's side of a released review: the grade, the rubric items staff
 * picked, the code with each comment under its line, and the regrade
 * requests, with a form to ask for one (a reason is required).
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TextArea } from "../kit/index.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import { CodeWithComments } from "./CodeWithComments.tsx";
import { RegradeList } from "./RegradeList.tsx";
import { signed, type Review } from "./review-types.ts";

export function StudentReview({ r }: { r: Review }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ask = useMutation(trpc.grading.requestRegrade.mutationOptions());
  const { notice, run } = useNotice();
  const [reason, setReason] = useState("");
  const picked = r.rubric.items.filter((i) => r.review?.itemIds.includes(i.id));
  const comments = r.review?.comments ?? [];

  async function onAsk(e: FormEvent) {
    e.preventDefault();
    const ok = await run(() => ask.mutateAsync({ id: r.submission.id, reason }), { success: t("regrade.sent"), error: t("regrade.sendFailed") });
    if (ok) {
      setReason("");
      await queryClient.invalidateQueries({ queryKey: trpc.grading.review.queryKey({ id: r.submission.id }) });
    }
  }

  return (
    <div className="review-grid">
      <section aria-labelledby="code-title">
        <h2 id="code-title">{t("code.title")}</h2>
        <p className="muted">{t("student.commentCount", { count: comments.length })}</p>
        <CodeWithComments code={r.submission.code} comments={comments} />
      </section>
      <aside className="card" aria-labelledby="grade-title">
        <h2 id="grade-title">{t("student.gradeTitle")}</h2>
        <p className="review-points">{t("review.points", { points: r.points ?? 0, max: r.maxPoints })}</p>
        {r.review?.releasedAt && (
          <p className="muted">
            {t("student.releasedAt")} <DateTime value={r.review.releasedAt} mode="auto" />
          </p>
        )}
        <p className="muted">{r.rubric.mode === "add" ? t("student.modeAdd", { judge: r.judgePoints }) : t("student.modeReplace")}</p>
        {r.review?.overridePoints !== null && r.review?.overridePoints !== undefined && <p>{t("student.override", { points: r.review.overridePoints })}</p>}
        <h3>{t("student.items")}</h3>
        {picked.length === 0 ? (
          <p className="muted">{t("student.noItems")}</p>
        ) : (
          <ul>
            {picked.map((i) => (
              <li key={i.id}>{t("staff.item", { points: signed(i.points), description: i.description })}</li>
            ))}
          </ul>
        )}
        <h3>{t("regrade.title")}</h3>
        <RegradeList requests={r.regradeRequests} />
        <FormMessage notice={notice} />
        {r.rights.requestRegrade && (
          <form onSubmit={onAsk} aria-labelledby="regrade-form-title">
            <h3 id="regrade-form-title">{t("regrade.askTitle")}</h3>
            <TextArea label={t("regrade.reason")} description={t("regrade.reasonHint")} value={reason} onChange={(e) => setReason(e.target.value)} rows={4} maxLength={4000} required />
            <button type="submit" className="btn btn-primary btn-sm" disabled={ask.isPending}>
              {t("regrade.ask")}
            </button>
          </form>
        )}
      </aside>
    </div>
  );
}
