/**
 * An assignment's rubrics (`/assignments/:id/rubrics`): per problem, the mode
 * (items added to the judge's score, or replacing it) and the items (points,
 * negative for a deduction, and a description). Teachers edit; other staff
 * read. Saving replaces the problem's rubric.
 */
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { NumberField, RadioGroup, TextField } from "../kit/index.ts";
import { useNotice } from "../lib/notice.ts";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import "./grading.css";

type Rubric = RouterOutputs["grading"]["rubric"];
type Row = { key: string; id?: string; points: string; description: string };
let rowCounter = 0;

export default function RubricsPage({ assignmentId }: { assignmentId: string }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const assignment = useQuery({ ...trpc.assignments.byId.queryOptions({ id: assignmentId }), retry: false });
  const course = useQuery({ ...trpc.courses.byId.queryOptions({ id: assignment.data?.courseId ?? "" }), enabled: Boolean(assignment.data) });
  const role = course.data?.role ?? null;
  const teacher = course.data !== undefined && (role === "owner" || role === "instructor" || role === null);
  return (
    <Page title={assignment.data ? t("rubrics.documentTitleOf", { title: assignment.data.title }) : t("rubrics.documentTitle")}>
      <QueryState query={assignment} loading={t("rubrics.loading")} error={t("rubrics.loadFailed")}>
        {(a) => (
          <>
            <div className="page-heading">
              <div>
                <h1 className="page-title">{t("rubrics.title", { title: a.title })}</h1>
                <p className="muted">
                  <Link href={`/assignments/${a.id}`}>{t("rubrics.back")}</Link>
                </p>
              </div>
            </div>
            {a.problems.length === 0 && <p className="muted">{t("rubrics.noProblems")}</p>}
            {a.problems.map((p) => (
              <RubricEditor key={p.problemId} assignmentId={a.id} problemId={p.problemId} title={p.title} points={p.points} teacher={teacher} />
            ))}
          </>
        )}
      </QueryState>
    </Page>
  );
}

const toRows = (r: Rubric): Row[] => r.items.map((i) => ({ key: i.id, id: i.id, points: String(i.points), description: i.description }));

function RubricEditor(props: { assignmentId: string; problemId: string; title: string; points: number; teacher: boolean }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.grading.rubric.queryOptions({ assignmentId: props.assignmentId, problemId: props.problemId }), retry: false });
  return (
    <section className="card" aria-labelledby={`rubric-${props.problemId}`}>
      <h2 id={`rubric-${props.problemId}`}>{t("rubrics.problem", { title: props.title, points: props.points })}</h2>
      <QueryState query={query} loading={t("rubrics.loading")} error={t("rubrics.loadFailed")}>
        {(r) => <RubricForm rubric={r} {...props} />}
      </QueryState>
    </section>
  );
}

function RubricForm(props: { rubric: Rubric; assignmentId: string; problemId: string; title: string; teacher: boolean }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(trpc.grading.saveRubric.mutationOptions());
  const { notice, run } = useNotice();
  const [mode, setMode] = useState<"add" | "replace">(props.rubric.mode);
  const [rows, setRows] = useState<Row[]>(() => toRows(props.rubric));
  const set = (key: string, patch: Partial<Row>) => setRows((prev) => prev.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  async function onSave(e: FormEvent) {
    e.preventDefault();
    const saved = await run(
      () =>
        save.mutateAsync({
          assignmentId: props.assignmentId,
          problemId: props.problemId,
          mode,
          items: rows.map((r) => ({ ...(r.id ? { id: r.id } : {}), points: Number(r.points), description: r.description })),
        }),
      { success: t("rubrics.saved"), error: t("rubrics.saveFailed") },
    );
    if (!saved) return;
    // New items got their ids: the rows take them, so the next save keeps them.
    setRows(toRows(saved));
    queryClient.setQueryData(trpc.grading.rubric.queryKey({ assignmentId: props.assignmentId, problemId: props.problemId }), saved);
  }

  return (
    <form onSubmit={onSave} aria-label={t("rubrics.formLabel", { title: props.title })}>
      <RadioGroup
        label={t("rubrics.mode")}
        value={mode}
        onChange={setMode}
        disabled={!props.teacher}
        options={[
          { value: "add", label: t("rubrics.modeAdd") },
          { value: "replace", label: t("rubrics.modeReplace") },
        ]}
      />
      {rows.length === 0 && <p className="muted">{t("rubrics.empty")}</p>}
      <ol className="rubric-list">
        {rows.map((r, n) => (
          <li key={r.key} className="rubric-row">
            <NumberField label={t("rubrics.points", { n: n + 1 })} value={r.points} onChange={(e) => set(r.key, { points: e.target.value })} step="any" required disabled={!props.teacher} />
            <TextField label={t("rubrics.description", { n: n + 1 })} value={r.description} onChange={(e) => set(r.key, { description: e.target.value })} maxLength={500} required disabled={!props.teacher} />
            {props.teacher && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRows((prev) => prev.filter((x) => x.key !== r.key))}>
                {t("rubrics.remove", { n: n + 1 })}
              </button>
            )}
          </li>
        ))}
      </ol>
      <FormMessage notice={notice} />
      {props.teacher && (
        <div className="card-actions">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRows((prev) => [...prev, { key: `new${++rowCounter}`, points: "", description: "" }])}>
            {t("rubrics.add")}
          </button>
          <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending}>
            {t("rubrics.save")}
          </button>
        </div>
      )}
    </form>
  );
}
