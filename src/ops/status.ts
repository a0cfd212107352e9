/**
 * The admin status page's facts (site admins only): the judge queue and the
 * jobs in progress with their age, judging throughput over the last hour, the
 * sandbox backend and its self-test, the database's size, the last backup,
 * and the most recent internal errors. Read on each request; the page polls it.
 */
import { listHosts, type HostShape } from "../judge-hosts/hosts.ts";
import { existsSync, statSync } from "node:fs";
import { and, asc, gt, inArray, sql } from "drizzle-orm";
import { submissions } from "../../db/schema.ts";
import { selfCheck } from "../../isolate/index.ts";
import type { Caller } from "../accounts/user.ts";
import { requireAdmin } from "../accounts/admin.ts";
import type { Services } from "../context.ts";
import { VERSION } from "../version.ts";
import { databasePath, listBackups } from "./backup.ts";
import { queueFacts } from "./live.ts";

/** How long a sandbox self-test result is reused, ms (a run per page poll would take a box each time). */
export const SELF_TEST_TTL_MS = 60_000;

export interface StatusReport {
  version: string;
  uptimeSeconds: number;
  queue: { queued: number; oldestQueuedAgeSeconds: number; inProgress: number };
  /** Jobs being judged now, oldest claim first: no code, no user. */
  jobs: { submissionId: string; language: string; status: string; ageSeconds: number; attempts: number }[];
  /** Verdicts in the last hour, per 5 minutes (oldest first), and in all. */
  throughput: { lastHour: number; perFiveMinutes: number[] };
  sandbox: { name: string; description: string | null; selfTest: { ok: boolean; detail: string | null; checkedAt: string } | null };
  database: { path: string | null; bytes: number | null };
  lastBackup: { at: string; path: string; ok: boolean; error?: string } | null;
  recentErrors: { at: string; message: string }[];
  /** Judge hosts (`bun run judge-hosts`): last seen and version; no tokens. */
  judgeHosts: HostShape[];
}

const selfTests = new WeakMap<object, { at: number; ok: boolean; detail: string | null }>();

async function sandboxSelfTest(services: Services, now: number): Promise<StatusReport["sandbox"]["selfTest"]> {
  const backend = services.sandbox.backend;
  if (!backend) return { ok: false, detail: services.sandbox.reason ?? "no sandbox", checkedAt: new Date(now).toISOString() };
  let last = selfTests.get(backend);
  if (!last || now - last.at > SELF_TEST_TTL_MS) {
    const problem = await selfCheck(backend).catch((err: unknown) => String(err));
    last = { at: now, ok: problem === null, detail: problem };
    selfTests.set(backend, last);
  }
  return { ok: last.ok, detail: last.detail, checkedAt: new Date(last.at).toISOString() };
}

function databaseSize(services: Services): StatusReport["database"] {
  try {
    const path = databasePath(services.config);
    const bytes = ["", "-wal"].reduce((sum, suffix) => sum + (existsSync(path + suffix) ? statSync(path + suffix).size : 0), 0);
    return { path, bytes };
  } catch {
    return { path: null, bytes: null };
  }
}

/** The status report. @throws AppError FORBIDDEN (403) unless the caller is a site admin. */
export async function statusReport(services: Services, caller: Caller): Promise<StatusReport> {
  requireAdmin(caller);
  const now = Date.now();
  const hourAgo = new Date(now - 3_600_000);
  const [queue, jobs, judged, selfTest] = await Promise.all([
    queueFacts(services, now),
    services.db
      .select({ id: submissions.id, language: submissions.language, status: submissions.status, claimedAt: submissions.claimedAt, attempts: submissions.attempts })
      .from(submissions)
      .where(inArray(submissions.status, ["compiling", "running"]))
      .orderBy(asc(submissions.claimedAt))
      .limit(50),
    services.db
      .select({ at: submissions.judgedAt })
      .from(submissions)
      .where(and(sql`${submissions.status} = 'done'`, gt(submissions.judgedAt, hourAgo))),
    sandboxSelfTest(services, now),
  ]);
  const judgeHosts = await listHosts(services.db);
  const perFiveMinutes = Array.from({ length: 12 }, () => 0);
  for (const j of judged) {
    const slot = Math.min(11, Math.floor((j.at!.getTime() - hourAgo.getTime()) / 300_000));
    perFiveMinutes[slot]!++;
  }
  const backups = services.config.BACKUP_DIR ? listBackups(services.config.BACKUP_DIR) : [];
  const lastBackup = services.ops.lastBackup ?? (backups[0] ? { at: backups[0].createdAt, path: backups[0].path, ok: true } : null);
  return {
    version: VERSION,
    uptimeSeconds: Math.round((now - services.ops.startedAt) / 1000),
    queue,
    jobs: jobs.map((j) => ({ submissionId: j.id, language: j.language, status: j.status, ageSeconds: j.claimedAt ? Math.round((now - j.claimedAt.getTime()) / 1000) : 0, attempts: j.attempts })),
    throughput: { lastHour: judged.length, perFiveMinutes },
    sandbox: { name: services.sandbox.name, description: services.sandbox.backend?.description ?? null, selfTest },
    database: databaseSize(services),
    lastBackup,
    recentErrors: [...services.ops.recentErrors].reverse().slice(0, 20),
    judgeHosts,
  };
}
