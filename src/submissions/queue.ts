/**
 * The judge queue: jobs are `submissions` rows, so nothing lives only in
 * memory and several processes (the web server's consumer, `bun run worker`
 * on other hosts against a shared libSQL server) can share it.
 *
 * Life of a job: `queued` → claimed (status `compiling`, `leaseOwner` set,
 * `leaseExpiresAt` in the future, `attempts`+1) → `running` → `done`. The
 * holder renews its lease while judging; a lease that expires, or whose owner
 * is a dead process on this host, is re-queued by `recover()`, and a job
 * interrupted `MAX_ATTEMPTS` times is finished as IE instead of looping
 * forever. Every write of a holder is conditional on still holding the lease
 * under the same claim: each claim writes a fresh `claim_token` (a fencing
 * token), so a late write from an earlier claim of the same job — even one
 * made by the same process, which owns the new lease too — changes nothing.
 *
 * Order: live submissions before rejudges (src/submissions/rejudge.ts), then
 * fair share: the user with the fewest jobs being judged, then the least
 * recently served user, then the oldest job — round-robin across users, so
 * one user's burst cannot starve the others. A user already holding
 * `jobsPerUser` jobs (on every judge together) is not given another until
 * one ends (JUDGE_JOBS_PER_USER): ordering alone let one user's backlog take
 * every free slot whenever nobody else was waiting at that moment, and keep
 * them for as long as its jobs ran (review N1, 2026-11-26).
 */
import { hostname } from "node:os";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { preparedPer } from "../../db/prepared.ts";
import { submissions, submissionTests } from "../../db/schema.ts";
import { LANGUAGE_IDS } from "../../isolate/languages/index.ts";
import type { SubmissionRow } from "./row.ts";



/**
 * One claim of a job: the row's id and the fencing token its claim wrote.
 * Every holder write names the claim it belongs to (a claimed row is one).
 */
export type Claim = Pick<SubmissionRow, "id" | "claimToken">;

/** A fresh, unguessable claim token. */
export function newClaimToken(): string {
  return crypto.randomUUID();
}

/** A job interrupted this many times (worker crashes) is finished as IE. */
export const MAX_ATTEMPTS = 3;

/**
 * A worker identity: `host:pid:random`. The host and pid let a process on the
 * same host see at once that the holder is dead (no need to wait for expiry).
 */
export function newOwnerId(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/** Whether `owner` names a process on this host that no longer exists. */
export function ownerIsDeadLocally(owner: string): boolean {
  const [host, pidText] = owner.split(":");
  if (host !== hostname() || !pidText) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * The fair-share pick, as a subquery: the user first, then that user's oldest
 * job. The waiting users by a loose index scan (one seek each), then index
 * seeks per user for their jobs in progress, their last service and their
 * oldest queued job. Ordering every queued row instead cost ~80 ms per claim
 * at 3000 queued, and grouping every past submission of the waiting users
 * ~12 ms with 20000 judged (scripts/bench-judge-hosts.ts); this is ~0.3 ms at both.
 */
function fairSharePick(languages: readonly string[] | null) {
  // Only jobs in these languages (a judge host without a JDK, say): every read of queued jobs is filtered.
  // Python 3 on a PyPy problem is judged by PyPy (src/judge/languages.ts): a host without it is not given those.
  const noPypy = languages !== null && languages.includes("py") && !languages.includes("pypy");
  const only = (alias: string) =>
    languages
      ? sql`AND ${sql.raw(alias)}.language IN (${sql.join(languages.map((l) => sql`${l}`), sql`, `)})${
          noPypy ? sql` AND NOT (${sql.raw(alias)}.language = 'py' AND EXISTS (SELECT 1 FROM problems pp WHERE pp.id = ${sql.raw(alias)}.problem_id AND pp.python_implementation = 'pypy'))` : sql``
        }`
      : sql``;
  return sql`(
  -- The distinct waiting users by a loose index scan: one seek per user, however many jobs wait.
  WITH RECURSIVE waiting(user_id) AS (
    SELECT min(m.user_id) FROM submissions m WHERE m.status = 'queued' ${only("m")}
    UNION ALL
    SELECT (SELECT min(n.user_id) FROM submissions n WHERE n.status = 'queued' ${only("n")} AND n.user_id > waiting.user_id)
      FROM waiting WHERE waiting.user_id IS NOT NULL
  ),
  ranked AS (
    SELECT * FROM (SELECT w.user_id AS user_id,
      -- Live submissions before rejudges (a rejudge keeps the verdict it had in previous_verdict).
      NOT EXISTS (SELECT 1 FROM submissions q WHERE q.status = 'queued' ${only("q")} AND q.user_id = w.user_id AND q.previous_verdict IS NULL) AS rejudge_only,
      (SELECT count(*) FROM submissions b WHERE b.status IN ('compiling', 'running') AND b.user_id = w.user_id) AS busy,
      coalesce((SELECT max(c.claimed_at) FROM submissions c WHERE c.user_id = w.user_id), 0) AS last,
      (SELECT min(f.created_at) FROM submissions f WHERE f.status = 'queued' ${only("f")} AND f.user_id = w.user_id) AS first
      FROM waiting w WHERE w.user_id IS NOT NULL)
     -- A user already holding their share of the judges waits: fair share by what is running.
     WHERE busy < ${sql.placeholder("jobsPerUser")}
     ORDER BY rejudge_only, busy, last, first, user_id
     LIMIT 1),
  pick AS (
    SELECT s.id FROM submissions s JOIN ranked r ON s.user_id = r.user_id
     WHERE s.status = 'queued' ${only("s")}
     ORDER BY (s.previous_verdict IS NOT NULL), s.created_at, s.id
     LIMIT 1)
  SELECT id FROM pick)`;
}

/** The claim: one UPDATE … RETURNING of the fair-share pick (for some languages only, or all). */
function claimQuery(db: Database, languages: readonly string[] | null) {
  return db
    .update(submissions)
    .set({
      status: "compiling",
      leaseOwner: sql`${sql.placeholder("owner")}`,
      leaseExpiresAt: sql`${sql.placeholder("expires")}`,
      attempts: sql`${submissions.attempts} + 1`,
      claimedAt: sql`${sql.placeholder("now")}`,
      claimToken: sql`${sql.placeholder("token")}`,
    })
    .where(and(eq(submissions.status, "queued"), eq(submissions.id, fairSharePick(languages))))
    .returning()
    .prepare();
}

/** The claim for every language, prepared once per database handle (the common case). */
const claimAnyLanguage = preparedPer((db) => claimQuery(db, null));

export interface QueueOptions {
  /** This worker's identity (see `newOwnerId`). */
  owner: string;
  /** Lease length, ms (JUDGE_LEASE_SECONDS × 1000). */
  leaseMs: number;
  /** Clock, ms since the epoch (tests inject one). */
  now?: () => number;
  /** Jobs of one user being judged at once, on every judge together (JUDGE_JOBS_PER_USER); default unbounded. */
  jobsPerUser?: number;
}

export class JudgeQueue {
  readonly owner: string;
  readonly leaseMs: number;
  private readonly now: () => number;
  private readonly jobsPerUser: number;

  constructor(
    private readonly db: Database,
    opts: QueueOptions,
  ) {
    this.owner = opts.owner;
    this.leaseMs = opts.leaseMs;
    this.now = opts.now ?? Date.now;
    // SQLite compares integers: "unbounded" is the largest 32-bit one.
    this.jobsPerUser = Math.min(opts.jobsPerUser ?? Number.MAX_SAFE_INTEGER, 2 ** 31 - 1);
  }

  /**
   * Claims the next job by fair share (a user at `jobsPerUser` jobs in flight waits), atomically (one UPDATE … RETURNING, so
   * two workers never claim the same row).
   * @param languages only jobs in these languages (a judge host that cannot run the others); all when absent.
   * @returns the claimed row (status `compiling`, leased to this owner), or null when the queue is empty.
   */
  async claim(languages?: readonly string[]): Promise<SubmissionRow | null> {
    const now = this.now();
    const some = languages && !LANGUAGE_IDS.every((l) => languages.includes(l)) ? languages : null;
    if (some && some.length === 0) return null;
    // Fair share (fairSharePick): one statement claims and returns the row.
    const statement = some ? claimQuery(this.db, some) : claimAnyLanguage(this.db);
    const [row] = await statement.all({ owner: this.owner, expires: now + this.leaseMs, now, token: newClaimToken(), jobsPerUser: this.jobsPerUser });
    return (row as SubmissionRow | undefined) ?? null;
  }

  /**
   * Extends this owner's lease on `id`.
   * @returns false when the lease was lost (expired and taken over): the caller must stop judging.
   */
  async renew(job: Claim): Promise<boolean> {
    const res = await this.db
      .update(submissions)
      .set({ leaseExpiresAt: new Date(this.now() + this.leaseMs) })
      .where(this.holds(job))
      .returning({ id: submissions.id });
    return res.length === 1;
  }

  /**
   * Updates the row only while this owner holds its lease.
   * @returns false when the lease was lost.
   */
  async update(job: Claim, values: Partial<SubmissionRow>): Promise<boolean> {
    const res = await this.db
      .update(submissions)
      .set(values)
      .where(this.holds(job))
      .returning({ id: submissions.id });
    return res.length === 1;
  }

  /**
   * Records one finished test, only while this owner holds the lease (one
   * statement: INSERT … SELECT … WHERE the lease is ours).
   * @returns false when the lease was lost.
   */
  async addTest(
    job: Claim,
    test: { index: number; isSample: boolean; verdict: string; timeMs: number; memoryKib: number },
  ): Promise<boolean> {
    const rows = await this.db.all<{ index: number }>(sql`
      INSERT INTO submission_tests (submission_id, "index", is_sample, verdict, time_ms, memory_kib)
      SELECT ${job.id}, ${test.index}, ${test.isSample ? 1 : 0}, ${test.verdict}, ${test.timeMs}, ${test.memoryKib}
       WHERE EXISTS (SELECT 1 FROM submissions WHERE id = ${job.id} AND lease_owner = ${this.owner} AND claim_token = ${job.claimToken})
      ON CONFLICT (submission_id, "index") DO UPDATE SET
        verdict = excluded.verdict, time_ms = excluded.time_ms, memory_kib = excluded.memory_kib
      RETURNING "index"`);
    return rows.length === 1;
  }

  /** Deletes the per-test rows of an earlier, interrupted attempt (only while holding the lease). */
  async clearTests(job: Claim): Promise<void> {
    await this.db.run(sql`
      DELETE FROM submission_tests WHERE submission_id = ${job.id}
         AND EXISTS (SELECT 1 FROM submissions WHERE id = ${job.id} AND lease_owner = ${this.owner} AND claim_token = ${job.claimToken})`);
  }

  /**
   * Finishes the job: writes the final fields, status `done`, and drops the lease.
   * @returns false when the lease was lost (another worker owns the job now).
   */
  async finish(job: Claim, values: Partial<SubmissionRow>): Promise<boolean> {
    return (await this.finishRow(job, values)) !== null;
  }

  /**
   * `finish`, answering what follow-up work needs (the gradebook: its assignment, user and problem).
   * @returns null when the lease was lost.
   */
  async finishRow(job: Claim, values: Partial<SubmissionRow>): Promise<Pick<SubmissionRow, "assignmentId" | "userId" | "problemId"> | null> {
    const [row] = await this.finishQuery(job, values);
    return row ?? null;
  }

  /**
   * The finish as a statement not yet run, for a caller that writes more in the same transaction
   * (`db.batch`): it answers the follow-up fields as `finishRow` does, or no row when the lease was lost.
   */
  finishQuery(job: Claim, values: Partial<SubmissionRow>) {
    return this.db
      .update(submissions)
      .set({ ...values, status: "done", leaseOwner: null, leaseExpiresAt: null, judgedAt: new Date(this.now()) })
      .where(this.holds(job))
      .returning({ id: submissions.id, assignmentId: submissions.assignmentId, userId: submissions.userId, problemId: submissions.problemId, contestId: submissions.contestId, teamId: submissions.teamId });
  }

  /**
   * Gives a job back to the queue (e.g. on shutdown), if this owner holds it.
   * The attempt is not counted against the job.
   */
  async release(job: Claim): Promise<void> {
    await this.db
      .update(submissions)
      .set({ status: "queued", leaseOwner: null, leaseExpiresAt: null, claimToken: null, attempts: sql`max(${submissions.attempts} - 1, 0)` })
      .where(this.holds(job));
  }

  /** The row is still this claim's: this owner holds its lease under this claim's token. */
  private holds(job: Claim) {
    return and(eq(submissions.id, job.id), eq(submissions.leaseOwner, this.owner), job.claimToken === null ? sql`claim_token IS NULL` : eq(submissions.claimToken, job.claimToken));
  }

  /**
   * Re-queues jobs whose lease expired or whose holder is a dead process on
   * this host; finishes as IE those already tried `MAX_ATTEMPTS` times. Run at
   * start and periodically. Each row is changed only if its holder is still
   * the one seen (a holder renewing at the same moment wins).
   * @returns ids re-queued and ids failed.
   */
  async recover(): Promise<{ requeued: string[]; failed: string[] }> {
    const now = this.now();
    const held = await this.db
      .select({ id: submissions.id, owner: submissions.leaseOwner, expires: submissions.leaseExpiresAt, attempts: submissions.attempts })
      .from(submissions)
      .where(inArray(submissions.status, ["compiling", "running"]));
    const requeued: string[] = [];
    const failed: string[] = [];
    for (const row of held) {
      const expired = !row.owner || !row.expires || row.expires.getTime() <= now || ownerIsDeadLocally(row.owner);
      if (!expired || row.owner === this.owner) continue;
      const sameHolder = row.owner === null ? sql`lease_owner IS NULL` : sql`lease_owner = ${row.owner}`;
      if (row.attempts >= MAX_ATTEMPTS) {
        const res = await this.db.all<{ id: string }>(sql`
          UPDATE submissions SET status = 'done', verdict = 'IE', is_passed = 0, lease_owner = NULL, lease_expires_at = NULL,
                 error_detail = ${`judging was interrupted ${row.attempts} times`}, judged_at = ${now}
           WHERE id = ${row.id} AND status IN ('compiling', 'running') AND ${sameHolder}
          RETURNING id`);
        if (res.length) failed.push(row.id);
      } else {
        const res = await this.db.all<{ id: string }>(sql`
          UPDATE submissions SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, claim_token = NULL
           WHERE id = ${row.id} AND status IN ('compiling', 'running') AND ${sameHolder}
          RETURNING id`);
        if (res.length) requeued.push(row.id);
      }
    }
    if (failed.length) await this.db.delete(submissionTests).where(inArray(submissionTests.submissionId, failed));
    return { requeued, failed };
  }
}

/** Submissions waiting for the judge now (rejudges included): one indexed count. */
export async function queuedCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(submissions).where(eq(submissions.status, "queued"));
  return Number(row?.n ?? 0);
}
