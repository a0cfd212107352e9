/**
 * One course: its assignments with their state and the student's score, and
 * for staff the course's problems (create one, or copy one of your own public problems in),
 * links to the gradebooks, settings and a new assignment.
 */
import { Select } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useState } from "react";
import { Link } from "wouter";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { blankProblemForm, ProblemFormModal, type ProblemFormValues } from "../components/ProblemFormModal.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { AssignmentList } from "./AssignmentList.tsx";
import { useNow } from "./useNow.ts";
import { payloadFromForm } from "../problems/useProblemEditor.ts";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { useAuth } from "../lib/auth.tsx";

export default function CoursePage({ courseId }: { courseId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const now = useNow();
  const course = useQuery(trpc.courses.byId.queryOptions({ id: courseId }));
  const list = useQuery(trpc.assignments.list.queryOptions({ courseId }));
  const role = course.data?.role ?? null;
  const staff = role === "owner" || role === "instructor" || role === "ta" || (course.data !== undefined && role === null);
  const teacher = role === "owner" || role === "instructor" || (course.data !== undefined && role === null);
  const problems = useQuery({ ...trpc.courses.problems.queryOptions({ courseId }), enabled: staff });
  const publicList = useQuery({ ...trpc.problems.list.queryOptions(), enabled: teacher });
  const create = useMutation(trpc.problems.create.mutationOptions());
  const copy = useMutation(trpc.problems.copyToCourse.mutationOptions());
  const [modalOpen, setModalOpen] = useState(false);
  const [form, setForm] = useState<ProblemFormValues>(blankProblemForm);
  const [formError, setFormError] = useState<string | null>(null);
  const [copyId, setCopyId] = useState("");
  const { user } = useAuth();
  // Only one's own public problems are copied, hidden tests included (the server refuses anyone else's).
  const ownPublic = (publicList.data ?? []).filter((p) => user && p.user === user.id);
  const { notice, show, run } = useNotice();

  async function saveProblem() {
    setFormError(null);
    try {
      await create.mutateAsync({ ...payloadFromForm(form), courseId });
      setModalOpen(false);
      setForm(blankProblemForm());
      show("success", "Problem saved successfully!");
      await queryClient.invalidateQueries({ queryKey: trpc.courses.problems.queryKey({ courseId }) });
    } catch (err) {
      setFormError(serverMessageOf(err) ?? "Failed to save problem.");
    }
  }

  async function copyProblem() {
    if (!copyId) return;
    await run(
      async () => {
        await copy.mutateAsync({ problemId: copyId, courseId });
        setCopyId("");
        await queryClient.invalidateQueries({ queryKey: trpc.courses.problems.queryKey({ courseId }) });
      },
      { success: "Problem copied into the course.", error: "Could not copy the problem." },
    );
  }

  return (
    <Page title={course.data?.title ?? "Course"}>
        <QueryState query={course} loading="Loading course..." error="Failed to fetch the course">
          {(c) => (
            <div className="page-heading">
              <h1 className="page-title">{c.title}</h1>
              <p className="muted">
                {c.code}
                {c.term ? ` · ${c.term}` : ""}
                {c.role ? ` · you are ${c.role === "ta" ? "a TA" : `the ${c.role}`}` : " · site admin"}
                {c.archived ? " · archived (read-only)" : ""}
              </p>
            </div>
          )}
        </QueryState>
        {staff && (
          <div className="card-actions page-actions">
            {teacher && (
              <Link href={`/courses/${courseId}/assignments/new`} className="btn btn-primary btn-sm">
                <span aria-hidden="true">+</span> New Assignment
              </Link>
            )}
            <Link href={`/courses/${courseId}/settings`} className="btn btn-ghost btn-sm">
              Settings
            </Link>
          </div>
        )}
        <FormMessage notice={notice} />
        <section aria-labelledby="assignments-title">
          <h2 id="assignments-title">Assignments</h2>
          <QueryState query={list} loading="Loading assignments..." error="Failed to fetch assignments">
            {(items) => <AssignmentList assignments={items} now={now} staff={staff} />}
          </QueryState>
        </section>
        {staff && (
          <section aria-labelledby="course-problems-title" className="course-problems">
            <h2 id="course-problems-title">Course problems</h2>
            <QueryState
              query={problems}
              loading="Loading problems..."
              error="Failed to fetch problems"
              isEmpty={(ps) => ps.length === 0}
              empty={<p className="muted">No course problems yet: create one, or copy one of your public problems in.</p>}
            >
              {(ps) => (
                <ul className="plain-list">
                  {ps.map((p) => (
                    <li key={p._id}>
                      <Link href={`/solve/${p._id}`}>{p.title}</Link> <span className={`badge badge-${p.difficulty}`}>{p.difficulty.toUpperCase()}</span>{" "}
                      <span className="muted">{p.hiddenTestCount} hidden tests</span>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
            {teacher && (
              <div className="inline-form">
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setModalOpen(true)}>
                  <span aria-hidden="true">+</span> Create Problem
                </button>
                {ownPublic.length > 0 && (
                  <>
                    <Select id="copy-problem" label="Public problem to copy" hideLabel value={copyId} onChange={(e) => setCopyId(e.target.value)}>
                      <option value="">Copy one of your public problems…</option>
                      {ownPublic.map((p) => (
                        <option key={p._id} value={p._id}>
                          {p.title} ({p.difficulty})
                        </option>
                      ))}
                    </Select>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={copyProblem} disabled={!copyId || copy.isPending}>
                      Copy into course
                    </button>
                  </>
                )}
              </div>
            )}
            {teacher && (
              <p className="muted" data-testid="public-problems-hint">
                Another author's public problem can be added to an assignment as it is; its hidden tests stay with its author.
              </p>
            )}
          </section>
        )}
      <ProblemFormModal
        open={modalOpen}
        mode="create"
        values={form}
        onChange={setForm}
        onSubmit={saveProblem}
        onCancel={() => {
          setModalOpen(false);
          setForm(blankProblemForm());
        }}
        saving={create.isPending}
        error={formError}
      />
    </Page>
  );
}
