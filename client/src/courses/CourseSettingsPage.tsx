/**
 * Course settings (staff): the roster (add one, import a CSV, remove), the
 * invite code and link (rotate, disable, enable), extensions per assignment,
 * the LMS link (roster sync, grades sent to the LMS), and the course's title,
 * code, term and archiving. The server decides who
 * may do each (TAs see the roster and grant extensions only).
 */
import { CourseLateDays } from "./pools/CourseLateDays.tsx";
import { Checkbox, DateTimeField, FileButton, Select, TextArea, TextField } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { CourseLmsSection } from "../lti/CourseLmsSection.tsx";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { QueryState } from "../components/QueryState.tsx";
import { fromLocalInput } from "./format.ts";
import { formatDateTime } from "../lib/dates.ts";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";
import { StudentProgressLink } from "../progress/StudentProgressLink.tsx";
import { ExtraTimeSection } from "./exam/ExtraTimeSection.tsx";

// i18n-ignore: a sample CSV; the server reads these column names and role values as written.
const SAMPLE_CSV = "email,name,role\nada@uni.edu,Ada Lovelace,student";

export default function CourseSettingsPage({ courseId }: { courseId: string }) {
  const t = useT(courses);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const course = useQuery(trpc.courses.byId.queryOptions({ id: courseId }));
  const members = useQuery(trpc.courses.members.queryOptions({ courseId }));
  const assignments = useQuery(trpc.assignments.list.queryOptions({ courseId }));
  const role = course.data?.role ?? null;
  const teacher = role === "owner" || role === "instructor" || (course.data !== undefined && role === null);
  const addMember = useMutation(trpc.courses.addMember.mutationOptions());
  const importRoster = useMutation(trpc.courses.importRoster.mutationOptions());
  const removeMember = useMutation(trpc.courses.removeMember.mutationOptions());
  const invite = useMutation(trpc.courses.invite.mutationOptions());
  const update = useMutation(trpc.courses.update.mutationOptions());
  const grant = useMutation(trpc.assignments.grantExtension.mutationOptions());
  const { notice, run: runNotice } = useNotice();
  const [one, setOne] = useState({ email: "", name: "", role: "student" as "owner" | "instructor" | "ta" | "student" });
  const [csv, setCsv] = useState("");
  const [ext, setExt] = useState({ assignmentId: "", userId: "", dueAt: "" });

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.courses.members.queryKey({ courseId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.courses.byId.queryKey({ id: courseId }) }),
    ]);
  const run = <T,>(action: () => Promise<T>, success: string | ((result: T) => string)) =>
    runNotice(
      async () => {
        const result = await action();
        await refresh();
        return result;
      },
      { success, error: t("settings.failed") },
    );
  const summary = (r: { added: number; updated: number; invited: number }) =>
    t("settings.rosterSummary", { added: r.added, updated: r.updated, invited: r.invited });

  async function onAdd(e: FormEvent) {
    e.preventDefault();
    await run(() => addMember.mutateAsync({ courseId, ...one }), summary);
    setOne({ email: "", name: "", role: "student" });
  }
  async function onImport(e: FormEvent) {
    e.preventDefault();
    await run(() => importRoster.mutateAsync({ courseId, csv }), (r) => {
      setCsv("");
      return summary(r);
    });
  }
  async function onGrant(e: FormEvent) {
    e.preventDefault();
    await run(() => grant.mutateAsync({ assignmentId: ext.assignmentId, userId: ext.userId, dueAt: fromLocalInput(ext.dueAt) ?? "", closesAt: null }), t("settings.extensionGranted"));
  }

  const students = (members.data?.members ?? []).filter((m) => m.role === "student");
  const link = course.data?.inviteCode ? `${window.location.origin}/join/${course.data.inviteCode}` : null;

  return (
    <Page title={t("settings.documentTitle")}>
        <div className="page-heading">
          <h1 className="page-title">{t("settings.title")}</h1>
          <p className="muted">{course.data ? `${course.data.title} · ${course.data.code}` : ""}</p>
        </div>
        <FormMessage notice={notice} />

        {teacher && course.data && (
          <section className="card" aria-labelledby="invite-title">
            <h2 id="invite-title">{t("settings.inviteTitle")}</h2>
            {course.data.inviteCode ? (
              <p>
                <T
                  ns={courses}
                  k="settings.inviteLine"
                  values={{ code: course.data.inviteCode, link: link ?? "" }}
                  components={{ 0: <strong className="mono" data-testid="invite-code" translate="no" />, 1: <span className="mono break" dir="ltr" translate="no" /> }}
                />
              </p>
            ) : (
              <p className="muted">{t("settings.joiningDisabled")}</p>
            )}
            <div className="card-actions">
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => run(() => invite.mutateAsync({ id: courseId, action: "rotate" }), t("settings.rotated"))}>
                {t("settings.rotate")}
              </button>
              {course.data.inviteCode ? (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => run(() => invite.mutateAsync({ id: courseId, action: "disable" }), t("settings.joiningDisabled"))}>
                  {t("settings.disable")}
                </button>
              ) : (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => run(() => invite.mutateAsync({ id: courseId, action: "enable" }), t("settings.joiningEnabled"))}>
                  {t("settings.enable")}
                </button>
              )}
            </div>
          </section>
        )}

        <section className="card" aria-labelledby="roster-title">
          <h2 id="roster-title">{t("settings.roster")}</h2>
          <QueryState query={members} loading={t("settings.rosterLoading")} error={t("settings.rosterFailed")}>
            {(r) => (
              <>
                <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{t("settings.name")}</th>
                      <th scope="col">{t("settings.email")}</th>
                      <th scope="col">{t("settings.role")}</th>
                      {teacher && <th scope="col">{t("settings.actions")}</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {r.members.map((m) => (
                      <tr key={m.userId} data-testid="member-row">
                        <td>
                          {m.firstName} {m.lastName}
                          {m.role === "student" && (
                            <span className="block">
                              <StudentProgressLink courseId={courseId} userId={m.userId} name={`${m.firstName} ${m.lastName}`} />
                            </span>
                          )}
                        </td>
                        <td>{m.email}</td>
                        <td>{t("settings.roleCell", { role: m.role })}</td>
                        {teacher && (
                          <td>
                            <button type="button" className="btn btn-danger-ghost btn-sm" aria-label={t("settings.removeLabel", { email: m.email })} onClick={() => run(() => removeMember.mutateAsync({ courseId, userId: m.userId }), t("settings.removed", { email: m.email }))}>
                              {t("settings.remove")}
                            </button>
                          </td>
                        )}
                      </tr>
                    ))}
                    {r.invites.map((i) => (
                      <tr key={i.email} className="muted">
                        <td>{i.name || "—"}</td>
                        <td>{i.email}</td>
                        <td>{t("settings.roleInvited", { role: i.role })}</td>
                        {teacher && <td />}
                      </tr>
                    ))}
                  </tbody>
                </table>
                </div>
              </>
            )}
          </QueryState>
          {teacher && (
            <>
              <form className="inline-form" onSubmit={onAdd} aria-label={t("settings.addForm")}>
                <TextField id="m-email" label={t("settings.email")} type="email" value={one.email} onChange={(e) => setOne({ ...one, email: e.target.value })} required />
                <TextField id="m-name" label={t("settings.name")} value={one.name} onChange={(e) => setOne({ ...one, name: e.target.value })} />
                <Select id="m-role" label={t("settings.role")} value={one.role} onChange={(e) => setOne({ ...one, role: e.target.value as typeof one.role })}>
                    <option value="student">{t("role.student")}</option>
                    <option value="ta">{t("role.ta")}</option>
                    <option value="instructor">{t("role.instructor")}</option>
                    <option value="owner">{t("role.owner")}</option>
                  </Select>
                <button type="submit" className="btn btn-primary btn-sm">
                  {t("settings.addMember")}
                </button>
              </form>
              <form className="form" onSubmit={onImport} aria-label={t("settings.importForm")}>
                <TextArea id="roster-csv" label={t("settings.csv")} mono rows={5} value={csv} onChange={(e) => setCsv(e.target.value)} placeholder={SAMPLE_CSV} />
                <div className="inline-form">
                  <FileButton inputLabel={t("settings.csvFile")} accept=".csv,text/csv" onFiles={async (files) => setCsv(await files[0]!.text())}>
                    {t("settings.chooseFile")}
                  </FileButton>
                  <button type="submit" className="btn btn-primary btn-sm" disabled={!csv.trim() || importRoster.isPending}>
                    {importRoster.isPending ? t("settings.importing") : t("settings.import")}
                  </button>
                </div>
              </form>
            </>
          )}
        </section>

        <CourseLmsSection courseId={courseId} />

        {teacher && <CourseLateDays courseId={courseId} />}

        <section className="card" aria-labelledby="ext-title">
          <h2 id="ext-title">{t("settings.extensions")}</h2>
          <form className="inline-form" onSubmit={onGrant}>
            <Select id="ext-assignment" label={t("settings.assignment")} value={ext.assignmentId} onChange={(e) => setExt({ ...ext, assignmentId: e.target.value })} required>
                <option value="">{t("settings.choose")}</option>
                {(assignments.data ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {t("settings.assignmentOption", { title: a.title, due: formatDateTime(a.dueAt, { withZone: true }) })}
                  </option>
                ))}
              </Select>
            <Select id="ext-student" label={t("settings.student")} value={ext.userId} onChange={(e) => setExt({ ...ext, userId: e.target.value })} required>
                <option value="">{t("settings.choose")}</option>
                {students.map((s) => (
                  <option key={s.userId} value={s.userId}>
                    {s.firstName} {s.lastName} ({s.email})
                  </option>
                ))}
              </Select>
            <DateTimeField id="ext-due" label={t("settings.newDue")} value={ext.dueAt} onChange={(e) => setExt({ ...ext, dueAt: e.target.value })} required />
            <button type="submit" className="btn btn-primary btn-sm" disabled={grant.isPending}>
              {t("settings.grant")}
            </button>
          </form>
        </section>

        {teacher && <ExtraTimeSection courseId={courseId} students={students.map((m) => ({ userId: m.userId, name: `${m.firstName} ${m.lastName}`.trim(), email: m.email }))} />}

        {teacher && course.data && (
          <section className="card" aria-labelledby="course-edit-title">
            <h2 id="course-edit-title">{t("settings.course")}</h2>
            <Checkbox label={t("settings.recordPastes")} checked={course.data.recordPastes}
                onChange={(e) =>
                  run(
                    () => update.mutateAsync({ id: courseId, recordPastes: e.target.checked }),
                    e.target.checked ? t("settings.pastesOn") : t("settings.pastesOff"),
                  )
                } />
            <div className="card-actions">
              <button
                type="button"
                className="btn btn-danger-ghost btn-sm"
                onClick={() => run(() => update.mutateAsync({ id: courseId, archived: !course.data!.archived }), course.data!.archived ? t("settings.restored") : t("settings.archived"))}
              >
                {course.data.archived ? t("settings.restore") : t("settings.archive")}
              </button>
            </div>
          </section>
        )}
      </Page>
  );
}
