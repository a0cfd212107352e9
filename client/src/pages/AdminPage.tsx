/**
 * The operator's page (site admins): the judge queue and the jobs in
 * progress with their age, throughput over the last hour, the sandbox and its
 * self-test, the database's size, the last backup and recent internal errors,
 * refreshed every 2 seconds; and the accounts, where an admin lets an account
 * create courses or makes it an admin, with how each account signs in (a
 * password, and the identities linked to it); and the LMS platforms registered
 * for LTI 1.3 with the URLs to give an LMS; a one-time password reset link per
 * account and the mail outbox (../passwords/AdminPasswordTools.tsx).
 */
import { Checkbox, Select } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { PlatformsSection } from "../lti/PlatformsSection.tsx";
import { MailOutboxSection, ResetLinkButton } from "../passwords/AdminPasswordTools.tsx";
import { DateTime } from "../components/DateTime.tsx";

const LIVE_MS = 2000;

function bytes(n: number | null): string {
  if (n === null) return "—";
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export default function AdminPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({ ...trpc.admin.status.queryOptions(), refetchInterval: LIVE_MS });
  const accounts = useQuery(trpc.admin.accounts.queryOptions());
  const setAccount = useMutation(trpc.admin.setAccount.mutationOptions());
  const change = async (userId: string, set: { siteRole?: "admin" | "user"; canCreateCourses?: boolean }) => {
    await setAccount.mutateAsync({ userId, ...set });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.accounts.queryKey() });
  };
  return (
    <Page title={"Admin"}>
        <div className="page-heading">
          <h1 className="page-title">Status</h1>
          <p className="muted">Refreshed every 2 seconds.</p>
        </div>
        <QueryState query={status} loading="Loading status..." error="Failed to fetch the status (site admins only)">
          {(s) => (
            <>
              <section className="card" aria-labelledby="queue-title">
                <h2 id="queue-title">Judge queue</h2>
                <dl className="facts">
                  <dt>Queued</dt>
                  <dd data-testid="queued">{s.queue.queued}</dd>
                  <dt>Oldest waiting</dt>
                  <dd>{s.queue.oldestQueuedAgeSeconds.toFixed(0)} s</dd>
                  <dt>Being judged</dt>
                  <dd data-testid="in-progress">{s.queue.inProgress}</dd>
                  <dt>Judged in the last hour</dt>
                  <dd data-testid="throughput">
                    {s.throughput.lastHour} <span className="muted">(per 5 minutes: {s.throughput.perFiveMinutes.join(" · ")})</span>
                  </dd>
                </dl>
                {s.jobs.length > 0 && (
                  <div className="table-scroll">
                    <table className="data-table">
                      <thead>
                        <tr>
                          <th scope="col">Submission</th>
                          <th scope="col">Language</th>
                          <th scope="col">Step</th>
                          <th scope="col">Age</th>
                          <th scope="col">Attempt</th>
                        </tr>
                      </thead>
                      <tbody>
                        {s.jobs.map((j) => (
                          <tr key={j.submissionId}>
                            <td className="mono">{j.submissionId}</td>
                            <td>{j.language}</td>
                            <td>{j.status}</td>
                            <td>{j.ageSeconds} s</td>
                            <td>{j.attempts}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </section>
              <section className="card" aria-labelledby="system-title">
                <h2 id="system-title">System</h2>
                <dl className="facts">
                  <dt>Version</dt>
                  <dd>
                    {s.version} · up {Math.floor(s.uptimeSeconds / 3600)} h {Math.floor((s.uptimeSeconds % 3600) / 60)} min
                  </dd>
                  <dt>Sandbox</dt>
                  <dd>
                    {s.sandbox.description ?? s.sandbox.name} ·{" "}
                    <span className={s.sandbox.selfTest?.ok ? "ok-text" : "error-text"} data-testid="self-test">
                      self-test {s.sandbox.selfTest?.ok ? "passed" : `failed: ${s.sandbox.selfTest?.detail ?? "not run"}`}
                    </span>
                  </dd>
                  <dt>Database</dt>
                  <dd>{bytes(s.database.bytes)}</dd>
                  <dt>Last backup</dt>
                  <dd>{s.lastBackup ? (
                      <>
                        <DateTime value={s.lastBackup.at} mode="auto" />
                        {s.lastBackup.ok ? "" : ` (failed: ${s.lastBackup.error})`}
                      </>
                    ) : (
                      "none yet (set BACKUP_DIR, or run bun run backup)"
                    )}</dd>
                </dl>
              </section>
              <section className="card" aria-labelledby="hosts-title">
                <h2 id="hosts-title">Judge hosts</h2>
                {s.judgeHosts.length === 0 ? (
                  <p className="muted">None: this server judges alone (add one with bun run judge-hosts -- add NAME).</p>
                ) : (
                  <ul className="plain-list" data-testid="judge-hosts">
                    {s.judgeHosts.map((h) => (
                      <li key={h.name}>
                        <strong>{h.name}</strong> {h.revoked ? "revoked" : "active"} · last seen {h.lastSeenAt ? <DateTime value={h.lastSeenAt} mode="relative" /> : "never"} · {h.jobsInHand} jobs in hand
                        {h.version ? ` · ${h.version}` : ""}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section className="card" aria-labelledby="errors-title">
                <h2 id="errors-title">Recent internal errors</h2>
                {s.recentErrors.length === 0 ? (
                  <p className="muted">None since the server started.</p>
                ) : (
                  <ul className="plain-list">
                    {s.recentErrors.map((e, i) => (
                      <li key={i}>
                        <DateTime className="muted" value={e.at} mode="auto" /> {e.message}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </>
          )}
        </QueryState>
        <section className="card" aria-labelledby="accounts-title">
          <h2 id="accounts-title">Accounts</h2>
          <QueryState query={accounts} loading="Loading accounts..." error="Failed to fetch accounts">
            {(list) => (
              <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Account</th>
                      <th scope="col">Signs in with</th>
                      <th scope="col">Site role</th>
                      <th scope="col">May create courses</th>
                      <th scope="col">Password</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((a) => (
                      <tr key={a.id}>
                        <td>
                          {a.firstName} {a.lastName} <span className="muted block">{a.email}</span>
                        </td>
                        <td data-testid={`ways-in-${a.email}`}>
                          {[...(a.hasPassword ? ["password"] : []), ...a.identities.map((i) => `${i.provider} (${i.subject})`)].join(", ") || "—"}
                        </td>
                        <td>
                          <Select label={`Site role of ${a.email}`} hideLabel value={a.siteRole} onChange={(e) => change(a.id, { siteRole: e.target.value as "admin" | "user" })}>
                            <option value="user">user</option>
                            <option value="admin">admin</option>
                          </Select>
                        </td>
                        <td>
                          <Checkbox label={`${a.email} may create courses`} hideLabel checked={a.canCreateCourses} onChange={(e) => change(a.id, { canCreateCourses: e.target.checked })} />
                        </td>
                        <td>
                          <ResetLinkButton userId={a.id} email={a.email} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </QueryState>
        </section>
        <MailOutboxSection />
        <PlatformsSection />
      </Page>
  );
}
