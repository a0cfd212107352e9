/**
 * The assignment editor (teachers): title and description, opening, due and
 * close times in the author's time zone, the late penalty, scoring, the
 * feedback and AI policies, and the problems (course problems and public
 * ones) with their points. New at /courses/:id/assignments/new, edit at
 * /assignments/:id/edit. The server checks every field and names the bad one.
 */
import { Page } from "../components/shell/Page.tsx";
import { useEffect, useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { useMutation, useQuery } from "@tanstack/react-query";
import { DateTimeField, FieldRow, NumberField, Select, TextArea, TextField } from "../kit/index.ts";
import { ProblemMultiSelect } from "../kit/ProblemMultiSelect.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { AI_WORDS, FEEDBACK_WORDS, fromLocalInput, toLocalInput } from "./format.ts";
import { useTRPC } from "../lib/trpc.ts";
import { zoneOffsetLabel } from "../lib/dates.ts";

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
});

export default function AssignmentEditorPage(props: { courseId?: string; assignmentId?: string }) {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const existing = useQuery({ ...trpc.assignments.byId.queryOptions({ id: props.assignmentId ?? "" }), enabled: Boolean(props.assignmentId) });
  const courseId = props.courseId ?? existing.data?.courseId ?? "";
  const courseProblems = useQuery({ ...trpc.courses.problems.queryOptions({ courseId }), enabled: Boolean(courseId) });
  const publicProblems = useQuery(trpc.problems.list.queryOptions());
  const create = useMutation(trpc.assignments.create.mutationOptions());
  const update = useMutation(trpc.assignments.update.mutationOptions());
  const [v, setV] = useState<Values>(blank);
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
    });
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
      problems: Object.entries(v.problems).map(([problemId, points]) => ({ problemId, points })),
    };
    await run(
      async () => {
        const saved = props.assignmentId ? await update.mutateAsync({ id: props.assignmentId, ...body }) : await create.mutateAsync({ courseId, ...body });
        navigate(`/assignments/${saved.id}`);
      },
      { error: "Failed to save the assignment." },
    );
  }

  const candidates = [
    ...(courseProblems.data ?? []).map((p) => ({ id: p._id, title: p.title, where: "course" })),
    ...(publicProblems.data ?? []).map((p) => ({ id: p._id, title: p.title, where: p.difficulty })),
  ];

  const titleOf = (id: string) => candidates.find((c) => c.id === id)?.title ?? id;

  return (
    <Page title={props.assignmentId ? "Edit assignment" : "New assignment"}>
        <div className="page-heading">
          <h1 className="page-title">{props.assignmentId ? "Edit Assignment" : "New Assignment"}</h1>
          <p className="muted">Times are in your time zone ({zoneOffsetLabel()}).</p>
        </div>
        <form className="form card" onSubmit={onSubmit}>
          <TextField label="Title" value={v.title} onChange={(e) => set("title", e.target.value)} required />
          <TextArea label="Description" rows={3} value={v.description} onChange={(e) => set("description", e.target.value)} />
          <FieldRow columns={3}>
            <DateTimeField label="Opens" step={1} value={v.opensAt} onChange={(e) => set("opensAt", e.target.value)} required />
            <DateTimeField label="Due (empty: practice)" step={1} value={v.dueAt} onChange={(e) => set("dueAt", e.target.value)} />
            <DateTimeField label="Late submissions until (optional)" step={1} value={v.closesAt} onChange={(e) => set("closesAt", e.target.value)} />
          </FieldRow>
          <FieldRow columns={3}>
            <NumberField label="Late penalty (%)" min={0} max={100} step="any" value={v.latePenaltyPercent} onChange={(e) => set("latePenaltyPercent", Number(e.target.value))} />
            <Select label="per started" value={v.latePenaltyUnit} onChange={(e) => set("latePenaltyUnit", e.target.value as Values["latePenaltyUnit"])}>
              <option value="hour">hour</option>
              <option value="day">day (24 hours)</option>
            </Select>
            <Select label="Scoring" value={v.scoring} onChange={(e) => set("scoring", e.target.value as Values["scoring"])}>
              <option value="all-or-nothing">All or nothing (Accepted only)</option>
              <option value="partial">Partial (share of hidden tests)</option>
            </Select>
          </FieldRow>
          <FieldRow columns={3}>
            <Select label="Feedback to students" value={v.feedback} onChange={(e) => set("feedback", e.target.value as Values["feedback"])}>
              <option value="">Default (tests when graded, first failure for practice)</option>
              <FeedbackOptions />
            </Select>
            <Select label="After the close" value={v.feedbackAfterClose} onChange={(e) => set("feedbackAfterClose", e.target.value as Values["feedbackAfterClose"])}>
              <option value="">No change</option>
              <FeedbackOptions />
            </Select>
            <Select label="AI review" value={v.aiPolicy} onChange={(e) => set("aiPolicy", e.target.value as Values["aiPolicy"])}>
              {Object.entries(AI_WORDS).map(([k, words]) => (
                <option key={k} value={k}>
                  {words}
                </option>
              ))}
            </Select>
          </FieldRow>
          <ProblemMultiSelect
            label="Problems"
            description="The course's own problems and public ones; search by title."
            problems={candidates.map((p) => ({ id: p.id, title: p.title, detail: p.where }))}
            value={Object.keys(v.problems)}
            onChange={choose}
          />
          {Object.keys(v.problems).length > 0 && (
            <fieldset className="kit-radio-group">
              <legend className="kit-label">Points</legend>
              <FieldRow columns={3}>
                {Object.entries(v.problems).map(([id, points]) => (
                  <NumberField key={id} label={`Points for ${titleOf(id)}`} min={1} value={points} onChange={(e) => setV((prev) => ({ ...prev, problems: { ...prev.problems, [id]: Number(e.target.value) } }))} />
                ))}
              </FieldRow>
            </fieldset>
          )}
          <FormMessage notice={notice} />
          <div className="modal-actions">
            <button type="submit" className="btn btn-primary" disabled={create.isPending || update.isPending}>
              {props.assignmentId ? "Save Assignment" : "Create Assignment"}
            </button>
          </div>
        </form>
      </Page>
  );
}

/** The feedback levels as options, in order. */
function FeedbackOptions() {
  return (
    <>
      {Object.entries(FEEDBACK_WORDS).map(([k, words]) => (
        <option key={k} value={k}>
          {words}
        </option>
      ))}
    </>
  );
}
