/**
 * My courses: the courses the user belongs to (with their role; archived ones
 * marked), joining by invite code, and creating a course for those allowed.
 */
import { TextField } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { QueryState } from "../components/QueryState.tsx";
import { useSessionExpiry } from "../lib/auth.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";

const ROLE_KEYS = { owner: "role.owner", instructor: "role.instructor", ta: "role.ta", student: "role.student" } as const;

export default function CoursesPage() {
  const t = useT(courses);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const onUnauthorized = useSessionExpiry();
  const mine = useQuery(trpc.courses.mine.queryOptions());
  const join = useMutation(trpc.courses.join.mutationOptions());
  const create = useMutation(trpc.courses.create.mutationOptions());
  const [code, setCode] = useState("");
  const [form, setForm] = useState({ title: "", code: "", term: "" });
  const { notice, run } = useNotice();
  const { notice: createNotice, run: runCreate } = useNotice();
  const handled = (err: unknown) => onUnauthorized(err, "/signin");
  /** Joins or creates, then opens the course. */
  const enter = async (action: () => Promise<{ id: string }>) => {
    const course = await action();
    await queryClient.invalidateQueries({ queryKey: trpc.courses.mine.queryKey() });
    navigate(`/courses/${course.id}`);
  };

  async function onJoin(e: FormEvent) {
    e.preventDefault();
    await run(() => enter(() => join.mutateAsync({ code })), { error: t("join.failed"), handled });
  }

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    await runCreate(() => enter(() => create.mutateAsync(form)), { error: t("list.createFailed"), handled });
  }

  return (
    <Page title={t("list.documentTitle")}>
        <div className="page-heading">
          <h1 className="page-title">{t("list.title")}</h1>
          <p className="muted">
            <T ns={courses} k="list.intro" components={{ 0: <Link href="/account" />, 1: <Link href="/contests" /> }} />
          </p>
        </div>

        <section className="card course-join" aria-labelledby="join-title">
          <h2 id="join-title">{t("list.joinTitle")}</h2>
          <form className="inline-form" onSubmit={onJoin}>
            <TextField id="join-code" label={t("list.inviteCode")} value={code} onChange={(e) => setCode(e.target.value)} placeholder={t("list.inviteCodePlaceholder", { code: "7KQ2MXPA" })} required autoComplete="off" />
            <button type="submit" className="btn btn-primary" disabled={join.isPending}>
              {join.isPending ? t("list.joining") : t("list.join")}
            </button>
          </form>
          <FormMessage notice={notice} />
        </section>

        <QueryState query={mine} loading={t("list.loading")} error={t("list.loadFailed")}>
          {(data) => (
            <>
              {data.courses.length === 0 ? (
                <div className="empty-state">
                  <h2>{t("list.emptyTitle")}</h2>
                  <p className="muted">{t("list.emptyText")}</p>
                </div>
              ) : (
                <ul className="course-list">
                  {data.courses.map((c) => (
                    <li key={c.id} className="card course-card" data-testid="course-card">
                      <div className="problem-card-head">
                        <h2 className="problem-card-title">
                          <Link href={`/courses/${c.id}`}>{c.title}</Link>
                        </h2>
                        {c.role && <span className="badge badge-role">{t(ROLE_KEYS[c.role]).toLocaleUpperCase()}</span>}
                      </div>
                      <p className="muted">
                        {c.code}
                        {c.term ? ` · ${c.term}` : ""}
                        {c.archived ? ` · ${t("list.archived")}` : ""}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
              {data.isAdmin && (
                <p>
                  <Link href="/admin" className="btn btn-ghost btn-sm">
                    {t("list.admin")}
                  </Link>
                </p>
              )}
              {data.canCreateCourses && (
                <section className="card" aria-labelledby="create-title">
                  <h2 id="create-title">{t("list.createTitle")}</h2>
                  <form className="form" onSubmit={onCreate}>
                    <div className="field-row three">
                      <TextField id="course-title" label={t("list.courseTitle")} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} required />
                      <TextField id="course-code" label={t("list.courseCode")} value={form.code} onChange={(e) => setForm({ ...form, code: e.target.value })} placeholder="CS101-2026" required />
                      <TextField id="course-term" label={t("list.term")} value={form.term} onChange={(e) => setForm({ ...form, term: e.target.value })} placeholder={t("list.termPlaceholder")} />
                    </div>
                    <button type="submit" className="btn btn-primary" disabled={create.isPending}>
                      {create.isPending ? t("list.creating") : t("list.create")}
                    </button>
                    <FormMessage notice={createNotice} />
                  </form>
                </section>
              )}
            </>
          )}
        </QueryState>
      </Page>
  );
}
