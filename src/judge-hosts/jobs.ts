/**
 * The judge API's side of a job (issue 11): a judge host claims a job over
 * HTTP and reports back; the web server is the only reader and writer of the
 * queue. Every write goes through the same JudgeQueue and JobPort as the
 * in-process consumer (src/judge/job-port.ts), fenced by the claim token, and
 * leases, expiry and recovery use this server's clock only. A finish is
 * written once per claim (table judge_finishes): a retry with the same claim
 * token is answered as accepted, anything else from a claim that no longer
 * holds the job is refused (409).
 *
 * Test data goes by SHA-256: a claim names each test's input and answer by
 * hash, and hosts fetch (and cache) them from /api/judge/testdata/:sha256. The
 * server keeps recently claimed test data in memory (TEST_DATA_CACHE_BYTES).
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { judgeFinishes, submissions } from "../../db/schema.ts";
import { databaseJobPort, type JudgedProblem, type TestRecord } from "../judge/job-port.ts";
import type { JudgeEvents } from "../judge/events.ts";
import { JudgeQueue, type SubmissionRow } from "../judge/queue.ts";
import { getProblemEvenDeleted, readHiddenTests } from "../problems/store.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";

/** Bytes of test data kept in memory for hosts to fetch. */
export const TEST_DATA_CACHE_BYTES = 256 * 1024 * 1024;

export interface JudgeApiDeps {
  db: Database;
  events: JudgeEvents;
  /** The lease a host's claim gets, ms (JUDGE_LEASE_SECONDS). */
  leaseMs: number;
  now?: () => number;
}

export interface HostTest {
  index: number;
  isSample: boolean;
  inputSha256: string;
  answerSha256: string;
}

/** What a host needs to judge a job. */
export interface HostJob {
  submissionId: string;
  claimToken: string;
  leaseMs: number;
  language: SubmissionRow["language"];
  code: string;
  runAllTests: boolean;
  assignmentId: string | null;
  problem: JudgedProblem;
  /** In judging order: the sample (index 0, when it has an expected output) then the hidden tests. */
  tests: HostTest[];
  hiddenTotal: number;
}

const data = new Map<string, string>();
let dataBytes = 0;

/** Keeps `text` for hosts to fetch; returns its SHA-256 (hex). */
function remember(text: string): string {
  const sha = createHash("sha256").update(text).digest("hex");
  if (data.has(sha)) {
    // Most recently used last.
    data.delete(sha);
    data.set(sha, text);
    return sha;
  }
  data.set(sha, text);
  dataBytes += Buffer.byteLength(text);
  for (const [k, v] of data) {
    if (dataBytes <= TEST_DATA_CACHE_BYTES) break;
    data.delete(k);
    dataBytes -= Buffer.byteLength(v);
  }
  return sha;
}

/** A test file by its SHA-256, or null when this server does not hold it (not claimed recently). */
export function testData(sha256: string): string | null {
  return data.get(sha256) ?? null;
}

const queues = new Map<string, JudgeQueue>();
/** How often claims re-queue expired leases, ms. */
const RECOVER_EVERY_MS = 1000;
let lastRecovery = 0;
function hostQueue(deps: JudgeApiDeps, host: string): JudgeQueue {
  const key = `${host}:${deps.leaseMs}`;
  let q = queues.get(key);
  if (!q) {
    q = new JudgeQueue(deps.db, { owner: `judge-host/${host}`, leaseMs: deps.leaseMs, now: deps.now });
    queues.set(key, q);
  }
  return q;
}

/**
 * Claims the next job for `host`, waiting up to `waitMs` for one; expired
 * leases (a host that died, a claim whose answer was lost) are re-queued first.
 * @returns the job, or null when none came.
 */
export async function claimForHost(deps: JudgeApiDeps, host: string, waitMs: number, signal?: AbortSignal): Promise<HostJob | null> {
  const deadline = Date.now() + waitMs;
  const recoverer = new JudgeQueue(deps.db, { owner: "judge-api/recovery", leaseMs: deps.leaseMs, now: deps.now });
  const queue = hostQueue(deps, host);
  for (;;) {
    // Expired leases go back to the queue, at most once a second (each claim would be too often).
    if (Date.now() - lastRecovery >= RECOVER_EVERY_MS) {
      lastRecovery = Date.now();
      await recoverer.recover();
    }
    const row = await queue.claim();
    if (row) {
      const job = await jobOf(deps, queue, row);
      if (job) {
        deps.events.changed(row.id);
        return job;
      }
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return null;
    await deps.events.waitQueued(Math.min(left, 5000), signal);
  }
}

async function jobOf(deps: JudgeApiDeps, queue: JudgeQueue, row: SubmissionRow): Promise<HostJob | null> {
  const problem = await getProblemEvenDeleted(deps.db, row.problemId);
  if (!problem) {
    await queue.finish(row, { verdict: "IE", isPassed: false, errorDetail: "problem not found" });
    deps.events.changed(row.id);
    return null;
  }
  const hidden = (await readHiddenTests(deps.db, [problem.id])).get(problem.id) ?? [];
  const tests: HostTest[] = [];
  if (problem.sampleOutput.trim() !== "") tests.push({ index: 0, isSample: true, inputSha256: remember(problem.sampleInput), answerSha256: remember(problem.sampleOutput) });
  hidden.forEach((t, i) => tests.push({ index: i + 1, isSample: false, inputSha256: remember(t.input), answerSha256: remember(t.expectedOutput) }));
  const { id, sampleInput, sampleOutput, timeLimitMs, memoryLimitKib, timeScaledByLanguage, checker, checkerFlags, validator } = problem;
  return {
    submissionId: row.id,
    claimToken: row.claimToken!,
    leaseMs: deps.leaseMs,
    language: row.language,
    code: row.code,
    runAllTests: row.runAllTests,
    assignmentId: row.assignmentId,
    problem: { id, sampleInput, sampleOutput, timeLimitMs, memoryLimitKib, timeScaledByLanguage, checker, checkerFlags, validator },
    tests,
    hiddenTotal: hidden.length,
  };
}

/** The held row, for writes (its assignment matters to the port). */
async function heldRow(db: Database, id: string): Promise<SubmissionRow | null> {
  return (await db.query.submissions.findFirst({ where: eq(submissions.id, id) })) ?? null;
}

/** Extends the lease. @returns false when this claim no longer holds the job (409). */
export async function renewForHost(deps: JudgeApiDeps, host: string, id: string, claimToken: string): Promise<boolean> {
  return hostQueue(deps, host).renew({ id, claimToken });
}

/**
 * Records progress: row fields, a finished test, the kept failure of an assignment submission.
 * @returns false when this claim no longer holds the job (409).
 */
export async function progressForHost(
  deps: JudgeApiDeps,
  host: string,
  id: string,
  claimToken: string,
  p: { update?: Partial<SubmissionRow>; test?: TestRecord; clear?: boolean; failure?: { test: { index: number; input: string; expected: string }; result: { stdout: string; stderr: string } } },
): Promise<boolean> {
  const row = await heldRow(deps.db, id);
  if (!row) return false;
  const port = databaseJobPort(deps.db, hostQueue(deps, host), { ...row, claimToken });
  if (!(await hostQueue(deps, host).renew({ id, claimToken }))) return false;
  if (p.clear) await port.clear();
  if (p.update && !(await port.update(p.update))) return false;
  if (p.test && !(await port.addTest(p.test))) return false;
  if (p.failure) await port.keepFailure(p.failure.test, p.failure.result);
  deps.events.changed(id);
  return true;
}

/**
 * Finishes the job, once per claim.
 * @returns "accepted" (written now, or the same claim's finish again), or "refused" (409).
 */
export async function finishForHost(deps: JudgeApiDeps, host: string, id: string, claimToken: string, values: Partial<SubmissionRow>): Promise<"accepted" | "refused"> {
  const [done] = await deps.db
    .select({ verdict: judgeFinishes.verdict })
    .from(judgeFinishes)
    .where(and(eq(judgeFinishes.submissionId, id), eq(judgeFinishes.claimToken, claimToken)))
    .limit(1);
  if (done) return done.verdict === values.verdict ? "accepted" : "refused";
  const row = await heldRow(deps.db, id);
  if (!row) return "refused";
  const port = databaseJobPort(deps.db, hostQueue(deps, host), { ...row, claimToken });
  if (!(await port.finish(values))) return "refused";
  try {
    await deps.db.insert(judgeFinishes).values({ submissionId: id, claimToken, host, verdict: String(values.verdict ?? "IE") });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  await port.afterJudged();
  deps.events.changed(id);
  return "accepted";
}

/** Gives a job back (a host shutting down). */
export async function releaseForHost(deps: JudgeApiDeps, host: string, id: string, claimToken: string): Promise<void> {
  await hostQueue(deps, host).release({ id, claimToken });
  deps.events.queued();
}
