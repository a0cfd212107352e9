/**
 * The assignment editor (teachers): title and description, opening, due and
 * close times in the author's time zone, the late penalty, scoring, the
 * feedback and AI policies, and the problems (course problems and public
 * ones) with their points. New at /courses/:id/assignments/new, edit at
 * /assignments/:id/edit. The server checks every field and names the bad one.
 */
import { blankExam, examBody, ExamFields, examValuesOf, type ExamValues } from "./exam/ExamFields.tsx";
import { Page } from "../components/shell/Page.tsx";
import { useEffect, useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { useMutation, useQuery } from "@tanstack/react-query";
import { DateTimeField, FieldRow, NumberField, Select, TextArea, TextField } from "../kit/index.ts";
import { ProblemMultiSelect } from "../kit/ProblemMultiSelect.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { AI_KEYS, FEEDBACK_KEYS, fromLocalInput, toLocalInput, type CoursesT } from "./format.ts";
import { useTRPC } from "../lib/trpc.ts";
import { zoneOffsetLabel } from "../lib/dates.ts";
import { useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";
import { SlotFields, slotsFor } from "./pools/SlotFields.tsx";

interface Values {
  title: string;
  description: string;
  opensAt: string;
  dueAt: string;
  closesAt: string;
  latePenaltyPercent: number;
  latePenaltyUnit: "hour" | "day";
  scoring: "all-or-nothing" | "partial";
  feedback: "" | "verdict" | "tests" | "first-failure" | "full";
  feedbackAfterClose: "" | "verdict" | "tests" | "first-failure" | "full";
  aiPolicy: "off" | "hints" | "full";
  problems: Record<string, number>;
  /** Slots set by hand (./pools/SlotFields.tsx); a problem without one fills its own. */
  slots: Record<string, number>;
}

const blank = (): Values => ({
  title: "",
  description: "",
  opensAt: toLocalInput(new Date().toISOString()),
  dueAt: "",
  closesAt: "",
  latePenaltyPercent: 0,
  latePenaltyUnit: "day",
  scoring: "all-or-nothing",
  feedback: "",
  feedbackAfterClose: "",
  aiPolicy: "full",
  problems: {},
  slots: {},
});

export default function AssignmentEditorPage(props: { courseId?: string; assignmentId?: string }) {
  const t = useT(courses);
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const existing = useQuery({ ...trpc.assignments.byId.queryOptions({ id: props.assignmentId ?? "" }), enabled: Boolean(props.assignmentId) });
  const courseId = props.courseId ?? existing.data?.courseId ?? "";
  const courseProblems = useQuery({ ...trpc.courses.problems.queryOptions({ courseId }), enabled: Boolean(courseId) });
  const publicProblems = useQuery(trpc.problems.titles.queryOptions());
  const create = useMutation(trpc.assignments.create.mutationOptions());
  const update = useMutation(trpc.assignments.update.mutationOptions());
  const [v, setV] = useState<Values>(blank);
  const [ex, setEx] = useState<ExamValues>(blankExam);
  const { notice, run } = useNotice();

  useEffect(() => {
    const a = existing.data;
    if (!a) return;
    setV({
      title: a.title,
      description: a.description,
      opensAt: toLocalInput(a.opensAt),
      dueAt: toLocalInput(a.dueAt),
      closesAt: toLocalInput(a.closesAt),
      latePenaltyPercent: a.latePenaltyPercent,
      latePenaltyUnit: a.latePenaltyUnit,
      scoring: a.scoring,
      feedback: a.feedback,
      feedbackAfterClose: a.feedbackAfterClose ?? "",
      aiPolicy: a.aiPolicy,
      problems: Object.fromEntries(a.problems.map((p) => [p.problemId, p.points])),
      slots: Object.fromEntries(a.problems.map((p) => [p.problemId, p.slot])),
    });
    setEx(examValuesOf(a.exam));
  }, [existing.data]);

  const set = <K extends keyof Values>(k: K, value: Values[K]) => setV((prev) => ({ ...prev, [k]: value }));
  // The chosen problems in the order chosen; a new one is worth 100 points until changed.
  const choose = (ids: string[]) => setV((prev) => ({ ...prev, problems: Object.fromEntries(ids.map((id) => [id, prev.problems[id] ?? 100])) }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = {
      title: v.title,
      description: v.description,
      opensAt: fromLocalInput(v.opensAt) ?? "",
      dueAt: fromLocalInput(v.dueAt),
      closesAt: fromLocalInput(v.closesAt),
      latePenaltyPercent: v.latePenaltyPercent,
      latePenaltyUnit: v.latePenaltyUnit,
      scoring: v.scoring,
      ...(v.feedback ? { feedback: v.feedback } : {}),
      feedbackAfterClose: v.feedbackAfterClose || null,
      aiPolicy: v.aiPolicy,
      problems: Object.entries(v.problems).map(([problemId, points]) => ({ problemId, points, slot: slotsFor(Object.keys(v.problems), v.slots)[problemId]! })),
      ...examBody(ex, Boolean(props.assignmentId)),
    };
    await run(
      async () => {
        const saved = props.assignmentId ? await update.mutateAsync({ id: props.assignmentId, ...body }) : await create.mutateAsync({ courseId, ...body });
        navigate(`/assignments/${saved.id}`);
      },
      { error: t("editor.saveFailed") },
    );
  }

  const candidates = [
    ...(courseProblems.data ?? []).map((p) => ({ id: p._id, title: p.title, where: t("editor.where", { where: "course" }) })),
    ...(publicProblems.data ?? []).map((p) => ({ id: p._id, title: p.title, where: t("editor.where", { where: p.difficulty }) })),
  ];

  const titleOf = (id: string) => candidates.find((c) => c.id === id)?.title ?? id;

  return (
    <Page title={props.assignmentId ? t("editor.editDocumentTitle") : t("editor.newDocumentTitle")}>
        <div className="page-heading">
          <h1 className="page-title">{props.assignmentId ? t("editor.editTitle") : t("editor.newTitle")}</h1>
          <p className="muted">{t("editor.zone", { zone: zoneOffsetLabel() })}</p>
        </div>
        <form className="form card" onSubmit={onSubmit}>
          <TextField label={t("editor.title")} value={v.title} onChange={(e) => set("title", e.target.value)} required />
          <TextArea label={t("editor.description")} rows={3} value={v.description} onChange={(e) => set("description", e.target.value)} />
          <FieldRow columns={3}>
            <DateTimeField label={t("editor.opens")} step={1} value={v.opensAt} onChange={(e) => set("opensAt", e.target.value)} required />
            <DateTimeField label={t("editor.due")} step={1} value={v.dueAt} onChange={(e) => set("dueAt", e.target.value)} />
            <DateTimeField label={t("editor.closes")} step={1} value={v.closesAt} onChange={(e) => set("closesAt", e.target.value)} />
          </FieldRow>
          <FieldRow columns={3}>
            <NumberField label={t("editor.latePenalty")} min={0} max={100} step="any" value={v.latePenaltyPercent} onChange={(e) => set("latePenaltyPercent", Number(e.target.value))} />
            <Select label={t("editor.perStarted")} value={v.latePenaltyUnit} onChange={(e) => set("latePenaltyUnit", e.target.value as Values["latePenaltyUnit"])}>
              <option value="hour">{t("editor.hour")}</option>
              <option value="day">{t("editor.day")}</option>
            </Select>
            <Select label={t("editor.scoring")} value={v.scoring} onChange={(e) => set("scoring", e.target.value as Values["scoring"])}>
              <option value="all-or-nothing">{t("editor.allOrNothing")}</option>
              <option value="partial">{t("editor.partial")}</option>
            </Select>
          </FieldRow>
          <FieldRow columns={3}>
            <Select label={t("editor.feedback")} value={v.feedback} onChange={(e) => set("feedback", e.target.value as Values["feedback"])}>
              <option value="">{t("editor.feedbackDefault")}</option>
              <FeedbackOptions t={t} />
            </Select>
            <Select label={t("editor.afterClose")} value={v.feedbackAfterClose} onChange={(e) => set("feedbackAfterClose", e.target.value as Values["feedbackAfterClose"])}>
              <option value="">{t("editor.noChange")}</option>
              <FeedbackOptions t={t} />
            </Select>
            <Select label={t("editor.ai")} value={v.aiPolicy} onChange={(e) => set("aiPolicy", e.target.value as Values["aiPolicy"])}>
              {Object.entries(AI_KEYS).map(([k, words]) => (
                <option key={k} value={k}>
                  {t(words)}
                </option>
              ))}
            </Select>
          </FieldRow>
          <ProblemMultiSelect
            label={t("editor.problems")}
            description={t("editor.problemsHelp")}
            problems={candidates.map((p) => ({ id: p.id, title: p.title, detail: p.where }))}
            value={Object.keys(v.problems)}
            onChange={choose}
          />
          {Object.keys(v.problems).length > 0 && (
            <fieldset className="kit-radio-group">
              <legend className="kit-label">{t("editor.points")}</legend>
              <FieldRow columns={3}>
                {Object.entries(v.problems).map(([id, points]) => (
                  <NumberField key={id} label={t("editor.pointsFor", { title: titleOf(id) })} min={1} value={points} onChange={(e) => setV((prev) => ({ ...prev, problems: { ...prev.problems, [id]: Number(e.target.value) } }))} />
                ))}
              </FieldRow>
            </fieldset>
          )}
          <SlotFields ids={Object.keys(v.problems)} slots={v.slots} titleOf={titleOf} onChange={(id, slot) => setV((prev) => ({ ...prev, slots: { ...prev.slots, [id]: slot } }))} />
          <ExamFields value={ex} onChange={setEx} existing={existing.data?.exam} />
          <FormMessage notice={notice} />
          <div className="modal-actions">
            <button type="submit" className="btn btn-primary" disabled={create.isPending || update.isPending}>
              {props.assignmentId ? t("editor.save") : t("editor.create")}
            </button>
          </div>
        </form>
      </Page>
  );
}

/** The feedback levels as options, in order. */
function FeedbackOptions({ t }: { t: CoursesT }) {
  return (
    <>
      {Object.entries(FEEDBACK_KEYS).map(([k, words]) => (
        <option key={k} value={k}>
          {t(words)}
        </option>
      ))}
    </>
  );
}
