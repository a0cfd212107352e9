/**
 * Course settings (staff): the roster (add one, import a CSV, remove), the
 * invite code and link (rotate, disable, enable), extensions per assignment,
 * the LMS link (roster sync, grades sent to the LMS), and the course's title,
 * code, term and archiving. The server decides who
 * may do each (TAs see the roster and grant extensions only).
 */
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

export default function CourseSettingsPage({ courseId }: { courseId: string }) {
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
      { success, error: "Something went wrong." },
    );
  const summary = (r: { added: number; updated: number; invited: number }) =>
    `Roster updated: ${r.added} added, ${r.updated} changed, ${r.invited} invited (they join when they sign up with that email).`;

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
    await run(() => grant.mutateAsync({ assignmentId: ext.assignmentId, userId: ext.userId, dueAt: fromLocalInput(ext.dueAt) ?? "", closesAt: null }), "Extension granted.");
  }

  const students = (members.data?.members ?? []).filter((m) => m.role === "student");
  const link = course.data?.inviteCode ? `${window.location.origin}/join/${course.data.inviteCode}` : null;

  return (
    <Page title={"Course settings"}>
        <div className="page-heading">
          <h1 className="page-title">Course settings</h1>
          <p className="muted">{course.data ? `${course.data.title} · ${course.data.code}` : ""}</p>
        </div>
        <FormMessage notice={notice} />

        {teacher && course.data && (
          <section className="card" aria-labelledby="invite-title">
            <h2 id="invite-title">Invite code</h2>
            {course.data.inviteCode ? (
              <p>
                Code <strong className="mono" data-testid="invite-code">{course.data.inviteCode}</strong> · link <span className="mono break">{link}</span>
              </p>
            ) : (
              <p className="muted">Joining by code is disabled.</p>
            )}
            <div className="card-actions">
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => run(() => invite.mutateAsync({ id: courseId, action: "rotate" }), "A new invite code is in force; the old one no longer works.")}>
                Rotate code
              </button>
              {course.data.inviteCode ? (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => run(() => invite.mutateAsync({ id: courseId, action: "disable" }), "Joining by code is disabled.")}>
                  Disable joining
                </button>
              ) : (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => run(() => invite.mutateAsync({ id: courseId, action: "enable" }), "Joining by code is enabled.")}>
                  Enable joining
                </button>
              )}
            </div>
          </section>
        )}

        <section className="card" aria-labelledby="roster-title">
          <h2 id="roster-title">Roster</h2>
          <QueryState query={members} loading="Loading roster..." error="Failed to fetch the roster">
            {(r) => (
              <>
                <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">Role</th>
                      {teacher && <th scope="col">Actions</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {r.members.map((m) => (
                      <tr key={m.userId} data-testid="member-row">
                        <td>
                          {m.firstName} {m.lastName}
                        </td>
                        <td>{m.email}</td>
                        <td>{m.role}</td>
                        {teacher && (
                          <td>
                            <button type="button" className="btn btn-danger-ghost btn-sm" aria-label={`Remove ${m.email}`} onClick={() => run(() => removeMember.mutateAsync({ courseId, userId: m.userId }), `${m.email} removed (their submissions stay).`)}>
                              Remove
                            </button>
                          </td>
                        )}
                      </tr>
                    ))}
                    {r.invites.map((i) => (
                      <tr key={i.email} className="muted">
                        <td>{i.name || "—"}</td>
                        <td>{i.email}</td>
                        <td>{i.role} (invited)</td>
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
              <form className="inline-form" onSubmit={onAdd} aria-label="Add a member">
                <TextField id="m-email" label="Email" type="email" value={one.email} onChange={(e) => setOne({ ...one, email: e.target.value })} required />
                <TextField id="m-name" label="Name" value={one.name} onChange={(e) => setOne({ ...one, name: e.target.value })} />
                <Select id="m-role" label="Role" value={one.role} onChange={(e) => setOne({ ...one, role: e.target.value as typeof one.role })}>
                    <option value="student">Student</option>
                    <option value="ta">TA</option>
                    <option value="instructor">Instructor</option>
                    <option value="owner">Owner</option>
                  </Select>
                <button type="submit" className="btn btn-primary btn-sm">
                  Add member
                </button>
              </form>
              <form className="form" onSubmit={onImport} aria-label="Import a CSV roster">
                <TextArea id="roster-csv" label="CSV roster (email, name, role)" mono rows={5} value={csv} onChange={(e) => setCsv(e.target.value)} placeholder={"email,name,role\nada@uni.edu,Ada Lovelace,student"} />
                <div className="inline-form">
                  <FileButton inputLabel="CSV roster file" accept=".csv,text/csv" onFiles={async (files) => setCsv(await files[0]!.text())}>
                    Choose a file
                  </FileButton>
                  <button type="submit" className="btn btn-primary btn-sm" disabled={!csv.trim() || importRoster.isPending}>
                    {importRoster.isPending ? "Importing..." : "Import roster"}
                  </button>
                </div>
              </form>
            </>
          )}
        </section>

        <CourseLmsSection courseId={courseId} />

        <section className="card" aria-labelledby="ext-title">
          <h2 id="ext-title">Extensions</h2>
          <form className="inline-form" onSubmit={onGrant}>
            <Select id="ext-assignment" label="Assignment" value={ext.assignmentId} onChange={(e) => setExt({ ...ext, assignmentId: e.target.value })} required>
                <option value="">Choose…</option>
                {(assignments.data ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.title} (due {formatDateTime(a.dueAt, { withZone: true })})
                  </option>
                ))}
              </Select>
            <Select id="ext-student" label="Student" value={ext.userId} onChange={(e) => setExt({ ...ext, userId: e.target.value })} required>
                <option value="">Choose…</option>
                {students.map((s) => (
                  <option key={s.userId} value={s.userId}>
                    {s.firstName} {s.lastName} ({s.email})
                  </option>
                ))}
              </Select>
            <DateTimeField id="ext-due" label="New due time (your time zone)" value={ext.dueAt} onChange={(e) => setExt({ ...ext, dueAt: e.target.value })} required />
            <button type="submit" className="btn btn-primary btn-sm" disabled={grant.isPending}>
              Grant extension
            </button>
          </form>
        </section>

        {teacher && course.data && (
          <section className="card" aria-labelledby="course-edit-title">
            <h2 id="course-edit-title">Course</h2>
            <Checkbox label="Record large pastes into the editor with submissions (when and how many characters, never the content; students are told on the solving page)" checked={course.data.recordPastes}
                onChange={(e) =>
                  run(
                    () => update.mutateAsync({ id: courseId, recordPastes: e.target.checked }),
                    e.target.checked ? "Large pastes are now recorded with submissions; the solving page tells students." : "Pastes are no longer recorded.",
                  )
                } />
            <div className="card-actions">
              <button
                type="button"
                className="btn btn-danger-ghost btn-sm"
                onClick={() => run(() => update.mutateAsync({ id: courseId, archived: !course.data!.archived }), course.data!.archived ? "Course restored." : "Course archived: read-only.")}
              >
                {course.data.archived ? "Restore course" : "Archive course"}
              </button>
            </div>
          </section>
        )}
      </Page>
  );
}
