/**
 * The operator's page (site admins): the judge queue and the jobs in
 * progress with their age, throughput over the last hour, the sandbox and its
 * self-test, the database's size, the last backup and recent internal errors,
 * refreshed every 2 seconds; and the accounts (searched by e-mail or name, 50 a
 * page), where an admin lets an account
 * create courses or makes it an admin, with how each account signs in (a
 * password, and the identities linked to it); and the LMS platforms registered
 * for LTI 1.3 with the URLs to give an LMS; a one-time password reset link per
 * account and the mail outbox (../passwords/AdminPasswordTools.tsx); the
 * topic tags' vocabulary (../tags/TopicTagsSection.tsx).
 */
import { Checkbox, Select, TextField } from "../kit/index.ts";
import { useDeferredValue, useState } from "react";
import { Page } from "../components/shell/Page.tsx";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { PlatformsSection } from "../lti/PlatformsSection.tsx";
import { TopicTagsSection } from "../tags/TopicTagsSection.tsx";
import { MailOutboxSection, ResetLinkButton } from "../passwords/AdminPasswordTools.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { admin } from "../i18n/catalog/admin/index.ts";
import { activeLocale, intlLocales } from "../i18n/locale.ts";

const LIVE_MS = 2000;

/** A size in bytes as KiB (whole) or MiB (one decimal), in the active locale's digits; "—" when unknown. */
function bytes(n: number | null, t: ReturnType<typeof useT<typeof admin>>): string {
  if (n === null) return "—";
  const digits = n < 1024 * 1024 ? 0 : 1;
  const size = new Intl.NumberFormat(intlLocales(activeLocale()), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return n < 1024 * 1024 ? t("system.kib", { size: size.format(n / 1024) }) : t("system.mib", { size: size.format(n / 1024 / 1024) });
}

/** The judging steps a job can be in (src/ops/status.ts), each with its message. */
const STEP_KEYS = { compiling: "jobs.stepCompiling", running: "jobs.stepRunning" } as const;

export default function AdminPage() {
  const t = useT(admin);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({ ...trpc.admin.status.queryOptions(), refetchInterval: LIVE_MS });
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim());
  // A page of 50 at a time, by e-mail address (a campus judge has tens of thousands of accounts).
  const accounts = useInfiniteQuery(
    trpc.admin.accounts.infiniteQueryOptions({ limit: 50, ...(q ? { q } : {}) }, { getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined }),
  );
  const setAccount = useMutation(trpc.admin.setAccount.mutationOptions());
  const change = async (userId: string, set: { siteRole?: "admin" | "user"; canCreateCourses?: boolean }) => {
    await setAccount.mutateAsync({ userId, ...set });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.accounts.infiniteQueryKey() });
  };
  return (
    <Page title={t("page.title")}>
        <div className="page-heading">
          <h1 className="page-title">{t("status.title")}</h1>
          <p className="muted">{t("status.refreshed", { seconds: LIVE_MS / 1000 })}</p>
        </div>
        <QueryState query={status} loading={t("status.loading")} error={t("status.error")}>
          {(s) => (
            <>
              <section className="card" aria-labelledby="queue-title">
                <h2 id="queue-title">{t("queue.title")}</h2>
                <dl className="facts">
                  <dt>{t("queue.queued")}</dt>
                  <dd data-testid="queued">{s.queue.queued}</dd>
                  <dt>{t("queue.oldestWaiting")}</dt>
                  <dd>{t("seconds", { seconds: Math.round(s.queue.oldestQueuedAgeSeconds) })}</dd>
                  <dt>{t("queue.beingJudged")}</dt>
                  <dd data-testid="in-progress">{s.queue.inProgress}</dd>
                  <dt>{t("queue.lastHour")}</dt>
                  <dd data-testid="throughput">
                    {s.throughput.lastHour} <span className="muted">{t("queue.perFiveMinutes", { counts: s.throughput.perFiveMinutes.join(" · ") })}</span>
                  </dd>
                </dl>
                {s.jobs.length > 0 && (
                  <div className="table-scroll">
                    <table className="data-table">
                      <thead>
                        <tr>
                          <th scope="col">{t("jobs.submission")}</th>
                          <th scope="col">{t("jobs.language")}</th>
                          <th scope="col">{t("jobs.step")}</th>
                          <th scope="col">{t("jobs.age")}</th>
                          <th scope="col">{t("jobs.attempt")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {s.jobs.map((j) => (
                          <tr key={j.submissionId}>
                            <td className="mono">{j.submissionId}</td>
                            <td>{j.language}</td>
                            <td>{j.status in STEP_KEYS ? t(STEP_KEYS[j.status as keyof typeof STEP_KEYS]) : j.status}</td>
                            <td>{t("seconds", { seconds: j.ageSeconds })}</td>
                            <td>{j.attempts}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </section>
              <section className="card" aria-labelledby="system-title">
                <h2 id="system-title">{t("system.title")}</h2>
                <dl className="facts">
                  <dt>{t("system.version")}</dt>
                  <dd>
                    {t("system.versionUptime", { version: s.version, hours: Math.floor(s.uptimeSeconds / 3600), minutes: Math.floor((s.uptimeSeconds % 3600) / 60) })}
                  </dd>
                  <dt>{t("system.sandbox")}</dt>
                  <dd>
                    {/* The server's technical description (tool versions, cgroup mode): not interface text. */}
                    <span translate="no" dir="ltr">{s.sandbox.description ?? s.sandbox.name}</span> ·{" "}
                    <span className={s.sandbox.selfTest?.ok ? "ok-text" : "error-text"} data-testid="self-test">
                      {s.sandbox.selfTest?.ok
                        ? t("system.selfTestPassed")
                        : s.sandbox.selfTest
                          ? t("system.selfTestFailed", { detail: s.sandbox.selfTest.detail ?? "" })
                          : t("system.selfTestNotRun")}
                    </span>
                  </dd>
                  <dt>{t("system.database")}</dt>
                  <dd>{bytes(s.database.bytes, t)}</dd>
                  <dt>{t("system.lastBackup")}</dt>
                  <dd>{s.lastBackup ? (
                      <>
                        <DateTime value={s.lastBackup.at} mode="auto" />
                        {s.lastBackup.ok ? "" : ` ${t("system.backupFailed", { error: s.lastBackup.error ?? "" })}`}
                      </>
                    ) : (
                      // i18n-ignore: an environment variable and a command, not words
                      <T ns={admin} k="system.noBackup" values={{ variable: <code>BACKUP_DIR</code>, command: <code>bun run backup</code> }} />
                    )}</dd>
                </dl>
              </section>
              <section className="card" aria-labelledby="hosts-title">
                <h2 id="hosts-title">{t("hosts.title")}</h2>
                {s.judgeHosts.length === 0 ? (
                  <p className="muted">
                    {/* i18n-ignore: a command, not words */}
                    <T ns={admin} k="hosts.none" values={{ command: <code>bun run judge-hosts -- add NAME</code> }} />
                  </p>
                ) : (
                  <ul className="plain-list" data-testid="judge-hosts">
                    {s.judgeHosts.map((h) => (
                      <li key={h.name}>
                        {h.lastSeenAt ? (
                          <T ns={admin} k="hosts.host" values={{ state: h.revoked ? "revoked" : "active", seen: <DateTime value={h.lastSeenAt} mode="relative" />, jobs: h.jobsInHand }} components={{ 0: <strong>{h.name}</strong> }} />
                        ) : (
                          <T ns={admin} k="hosts.hostNeverSeen" values={{ state: h.revoked ? "revoked" : "active", jobs: h.jobsInHand }} components={{ 0: <strong>{h.name}</strong> }} />
                        )}
                        {h.version ? ` · ${h.version}` : ""}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section className="card" aria-labelledby="errors-title">
                <h2 id="errors-title">{t("errors.title")}</h2>
                {s.recentErrors.length === 0 ? (
                  <p className="muted">{t("errors.none")}</p>
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
          <h2 id="accounts-title">{t("accounts.title")}</h2>
          <TextField type="search" label={t("accounts.search")} description={t("accounts.searchHint")} value={search} onChange={(e) => setSearch(e.target.value)} />
          <QueryState query={accounts} loading={t("accounts.loading")} error={t("accounts.error")}>
            {(data) => {
              const list = data.pages.flatMap((p) => p.accounts);
              const total = data.pages[0]?.total ?? 0;
              return (
              <>
              <p className="muted" role="status" data-testid="accounts-count">
                {t("accounts.shown", { shown: list.length, total })}
              </p>
              {list.length > 0 && (
              <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{t("accounts.account")}</th>
                      <th scope="col">{t("accounts.signsInWith")}</th>
                      <th scope="col">{t("accounts.siteRole")}</th>
                      <th scope="col">{t("accounts.mayCreateCourses")}</th>
                      <th scope="col">{t("accounts.password")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((a) => (
                      <tr key={a.id}>
                        <td>
                          {a.firstName} {a.lastName} <span className="muted block">{a.email}</span>
                        </td>
                        <td data-testid={`ways-in-${a.email}`}>
                          {[...(a.hasPassword ? [t("accounts.wayPassword")] : []), ...a.identities.map((i) => t("accounts.wayIdentity", { provider: i.provider, subject: i.subject }))].join(t("accounts.waySeparator")) || "—"}
                        </td>
                        <td>
                          <Select label={t("accounts.siteRoleOf", { email: a.email })} hideLabel value={a.siteRole} onChange={(e) => change(a.id, { siteRole: e.target.value as "admin" | "user" })}>
                            <option value="user">{t("accounts.roleUser")}</option>
                            <option value="admin">{t("accounts.roleAdmin")}</option>
                          </Select>
                        </td>
                        <td>
                          <Checkbox label={t("accounts.mayCreateCoursesOf", { email: a.email })} hideLabel checked={a.canCreateCourses} onChange={(e) => change(a.id, { canCreateCourses: e.target.checked })} />
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
              {accounts.hasNextPage && (
                <button type="button" className="btn btn-ghost btn-sm" disabled={accounts.isFetchingNextPage} onClick={() => void accounts.fetchNextPage()}>
                  {t("accounts.more")}
                </button>
              )}
              </>
              );
            }}
          </QueryState>
        </section>
        <MailOutboxSection />
        <TopicTagsSection />
        <PlatformsSection />
      </Page>
  );
}
