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
import { useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";
import { Announcements } from "../notifications/Announcements.tsx";
import { RegradeQueueLink } from "../grading/links.tsx";

export default function CoursePage({ courseId }: { courseId: string }) {
  const t = useT(courses);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const now = useNow();
  const course = useQuery(trpc.courses.byId.queryOptions({ id: courseId }));
  const list = useQuery(trpc.assignments.list.queryOptions({ courseId }));
  const role = course.data?.role ?? null;
  const staff = role === "owner" || role === "instructor" || role === "ta" || (course.data !== undefined && role === null);
  const teacher = role === "owner" || role === "instructor" || (course.data !== undefined && role === null);
  const problems = useQuery({ ...trpc.courses.problems.queryOptions({ courseId }), enabled: staff });
  const publicList = useQuery({ ...trpc.problems.titles.queryOptions(), enabled: teacher });
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
      show("success", t("course.problemSaved"));
      await queryClient.invalidateQueries({ queryKey: trpc.courses.problems.queryKey({ courseId }) });
    } catch (err) {
      setFormError(serverMessageOf(err) ?? t("course.problemSaveFailed"));
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
      { success: t("course.copied"), error: t("course.copyFailed") },
    );
  }

  return (
    <Page title={course.data?.title ?? t("course.documentTitle")}>
        <QueryState query={course} loading={t("course.loading")} error={t("course.loadFailed")}>
          {(c) => (
            <div className="page-heading">
              <h1 className="page-title">{c.title}</h1>
              <p className="muted">
                {c.code}
                {c.term ? ` · ${c.term}` : ""}
                {` · ${t("course.role", { role: c.role ?? "admin" })}`}
                {c.archived ? ` · ${t("course.archived")}` : ""}
              </p>
            </div>
          )}
        </QueryState>
        {staff && (
          <div className="card-actions page-actions">
            {teacher && (
              <Link href={`/courses/${courseId}/assignments/new`} className="btn btn-primary btn-sm">
                <span aria-hidden="true">+</span> {t("course.newAssignment")}
              </Link>
            )}
            <Link href={`/courses/${courseId}/settings`} className="btn btn-ghost btn-sm">
              {t("course.settings")}
            </Link>
            <RegradeQueueLink courseId={courseId} />
          </div>
        )}
        <FormMessage notice={notice} />
        <Announcements courseId={courseId} />
        <section aria-labelledby="assignments-title">
          <h2 id="assignments-title">{t("course.assignments")}</h2>
          <QueryState query={list} loading={t("course.assignmentsLoading")} error={t("course.assignmentsFailed")}>
            {(items) => <AssignmentList assignments={items} now={now} staff={staff} />}
          </QueryState>
        </section>
        {staff && (
          <section aria-labelledby="course-problems-title" className="course-problems">
            <h2 id="course-problems-title">{t("course.problems")}</h2>
            <QueryState
              query={problems}
              loading={t("course.problemsLoading")}
              error={t("course.problemsFailed")}
              isEmpty={(ps) => ps.length === 0}
              empty={<p className="muted">{t("course.problemsEmpty")}</p>}
            >
              {(ps) => (
                <ul className="plain-list">
                  {ps.map((p) => (
                    <li key={p._id}>
                      <Link href={`/solve/${p._id}`}>{p.title}</Link> <span className={`badge badge-${p.difficulty}`}>{t("difficulty", { difficulty: p.difficulty }).toLocaleUpperCase()}</span>{" "}
                      <span className="muted">{t("course.hiddenTests", { count: p.hiddenTestCount })}</span>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
            {teacher && (
              <div className="inline-form">
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setModalOpen(true)}>
                  <span aria-hidden="true">+</span> {t("course.createProblem")}
                </button>
                {ownPublic.length > 0 && (
                  <>
                    <Select id="copy-problem" label={t("course.copyLabel")} hideLabel value={copyId} onChange={(e) => setCopyId(e.target.value)}>
                      <option value="">{t("course.copyChoose")}</option>
                      {ownPublic.map((p) => (
                        <option key={p._id} value={p._id}>
                          {t("course.copyOption", { title: p.title, difficulty: p.difficulty })}
                        </option>
                      ))}
                    </Select>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={copyProblem} disabled={!copyId || copy.isPending}>
                      {t("course.copy")}
                    </button>
                  </>
                )}
              </div>
            )}
            {teacher && (
              <p className="muted" data-testid="public-problems-hint">
                {t("course.publicHint")}
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
