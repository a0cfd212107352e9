/**
 * Staff's side of a review: pick rubric items (the grade updates as they
 * pick), comment on lines (typed, or taken from the course's comment bank,
 * optionally saved to it), set the points by hand, save as a draft, release
 * it to the student or take a release back (teachers). Regrade requests of
 * this submission are listed with a link to the course's queue.
 */
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Checkbox, NumberField, Select, TextArea } from "../kit/index.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import { CodeWithComments } from "./CodeWithComments.tsx";
import { RegradeList } from "./RegradeList.tsx";
import { previewPoints, signed, type LineComment, type Review } from "./review-types.ts";

export function StaffReview({ r }: { r: Review }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(trpc.grading.saveReview.mutationOptions());
  const addToBank = useMutation(trpc.grading.addComment.mutationOptions());
  const bank = useQuery({ ...trpc.grading.commentBank.queryOptions({ courseId: r.submission.courseId }), enabled: r.rights.grade });
  const { notice, run } = useNotice();
  const [picked, setPicked] = useState<Set<string>>(() => new Set(r.review?.itemIds ?? []));
  const [comments, setComments] = useState<LineComment[]>(() => r.review?.comments ?? []);
  const [override, setOverride] = useState(r.review?.overridePoints === null || r.review?.overridePoints === undefined ? "" : String(r.review.overridePoints));
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState("");
  const [keep, setKeep] = useState(false);
  const released = Boolean(r.review?.releasedAt);
  const overridePoints = override.trim() === "" ? null : Number(override);
  const points = previewPoints(
    r.rubric.mode,
    r.judgePoints,
    r.rubric.items.filter((i) => picked.has(i.id)).map((i) => i.points),
    overridePoints !== null && Number.isFinite(overridePoints) ? overridePoints : null,
    r.maxPoints,
  );

  function toggle(id: string) {
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function openComment(line: number) {
    setEditing(line);
    setDraft("");
    setKeep(false);
    // The editor below the code takes the focus (it is where the typing goes).
    setTimeout(() => document.getElementById("line-comment-text")?.focus(), 0);
  }

  async function onAddComment(e: FormEvent) {
    e.preventDefault();
    if (editing === null || !draft.trim()) return;
    const text = draft.trim();
    if (keep) {
      const ok = await run(() => addToBank.mutateAsync({ courseId: r.submission.courseId, text }), { error: t("staff.bankFailed") });
      if (ok === undefined) return;
      await queryClient.invalidateQueries({ queryKey: trpc.grading.commentBank.queryKey({ courseId: r.submission.courseId }) });
    }
    setComments((prev) => [...prev, { line: editing, text }].sort((a, b) => a.line - b.line));
    setEditing(null);
  }

  async function submit(release?: boolean) {
    const result = await run(
      () =>
        save.mutateAsync({
          id: r.submission.id,
          itemIds: [...picked],
          comments,
          overridePoints: overridePoints !== null && Number.isFinite(overridePoints) ? overridePoints : null,
          ...(release === undefined ? {} : { release }),
        }),
      { success: release === true ? t("staff.released") : release === false ? t("staff.unreleased") : t("staff.saved"), error: t("staff.saveFailed") },
    );
    if (result) queryClient.setQueryData(trpc.grading.review.queryKey({ id: r.submission.id }), result);
  }

  return (
    <div className="review-grid">
      <section aria-labelledby="code-title">
        <h2 id="code-title">{t("code.title")}</h2>
        <p className="muted">{t("staff.codeHint")}</p>
        <CodeWithComments
          code={r.submission.code}
          comments={comments}
          onComment={r.rights.grade ? openComment : undefined}
          renderComment={(c, index) => (
            <>
              <p dir="auto">{c.text}</p>
              {r.rights.grade && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setComments((prev) => prev.filter((_, i) => i !== index))}>
                  {t("staff.removeComment", { line: c.line })}
                </button>
              )}
            </>
          )}
        />
        {editing !== null && (
          <form className="card" onSubmit={onAddComment} aria-labelledby="comment-form-title">
            <h3 id="comment-form-title">{t("staff.commentTitle", { line: editing })}</h3>
            {(bank.data?.length ?? 0) > 0 && (
              <Select label={t("staff.fromBank")} value="" onChange={(e) => e.target.value && setDraft(e.target.value)}>
                <option value="">{t("staff.pickFromBank")}</option>
                {bank.data!.map((c) => (
                  <option key={c.id} value={c.text}>
                    {c.text.length > 80 ? `${c.text.slice(0, 80)}…` : c.text}
                  </option>
                ))}
              </Select>
            )}
            <TextArea id="line-comment-text" label={t("staff.commentText")} value={draft} onChange={(e) => setDraft(e.target.value)} rows={3} maxLength={2000} required />
            <Checkbox label={t("staff.keepInBank")} checked={keep} onChange={(e) => setKeep(e.target.checked)} />
            <div className="card-actions">
              <button type="submit" className="btn btn-primary btn-sm">
                {t("staff.addComment")}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(null)}>
                {t("staff.cancel")}
              </button>
            </div>
          </form>
        )}
      </section>

      <aside className="card" aria-labelledby="grade-title">
        <h2 id="grade-title">{t("staff.gradeTitle")}</h2>
        <p className="review-points" role="status" aria-live="polite">
          {t("review.points", { points, max: r.maxPoints })}
        </p>
        <p className="muted">{r.rubric.mode === "add" ? t("staff.modeAdd", { judge: r.judgePoints }) : t("staff.modeReplace", { judge: r.judgePoints })}</p>
        <fieldset className="kit-fieldset">
          <legend className="kit-label">{t("staff.rubric")}</legend>
          {r.rubric.items.length === 0 ? (
            <p className="muted">{t("staff.noRubric")}</p>
          ) : (
            <ul className="rubric-list">
              {r.rubric.items.map((i) => (
                <li key={i.id}>
                  <Checkbox
                    label={t("staff.item", { points: signed(i.points), description: i.description })}
                    checked={picked.has(i.id)}
                    onChange={() => toggle(i.id)}
                    disabled={!r.rights.grade}
                  />
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        {r.rights.editRubric && (
          <p>
            <Link href={`/assignments/${r.submission.assignmentId}/rubrics`}>{t("staff.editRubric")}</Link>
          </p>
        )}
        <NumberField
          label={t("staff.override")}
          description={t("staff.overrideHint", { max: r.maxPoints })}
          value={override}
          onChange={(e) => setOverride(e.target.value)}
          min={0}
          max={r.maxPoints}
          step="any"
          disabled={!r.rights.grade}
        />
        <p data-testid="release-state">
          {released ? (
            <>
              {t("staff.releasedAt")} <DateTime value={r.review!.releasedAt!} mode="auto" />
            </>
          ) : (
            t("staff.draft")
          )}
        </p>
        <FormMessage notice={notice} />
        {r.rights.grade && (
          <div className="card-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => submit()} disabled={save.isPending}>
              {released ? t("staff.save") : t("staff.saveDraft")}
            </button>
            {r.rights.release && !released && (
              <button type="button" className="btn btn-primary btn-sm" onClick={() => submit(true)} disabled={save.isPending}>
                {t("staff.release")}
              </button>
            )}
            {r.rights.release && released && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => submit(false)} disabled={save.isPending}>
                {t("staff.unrelease")}
              </button>
            )}
          </div>
        )}
        <h3>{t("regrade.title")}</h3>
        <RegradeList requests={r.regradeRequests} />
        <p>
          <Link href={`/courses/${r.submission.courseId}/regrades`}>{t("staff.queueLink")}</Link>
        </p>
      </aside>
    </div>
  );
}
