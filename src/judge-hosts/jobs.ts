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
 * server keeps recently claimed test data in memory (TEST_DATA_CACHE_BYTES);
 * after a restart the host's `?problem=ID` lets it read them again.
 *
 * A host is trusted only for its own claims: it holds at most its capacity
 * (set by the operator), it is served test data only of the problems of jobs
 * it holds, and what it reports must fit the job (counts within the job's
 * tests, AC only with every test passed); anything else is refused (400/429)
 * and changes nothing.
 */
import { createHash } from "node:crypto";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { preparedPer } from "../../db/prepared.ts";
import { judgeFinishes, submissions } from "../../db/schema.ts";
import { afterJudged } from "../submissions/judged.ts";
import { databaseJobPort, type JudgedProblem, type TestRecord } from "../judge/job-port.ts";
import type { JudgeEvents } from "../judge/events.ts";
import { JudgeQueue } from "../submissions/queue.ts";
import type { SubmissionRow } from "../submissions/row.ts";
import { judgedProblem, type JudgedProblemData } from "../judge/problem-cache.ts";
import { AppError } from "../errors.ts";

/** Jobs a host holds now (leased to it and the lease not expired on this server's clock, being judged): one prepared statement. */
const heldJobsQuery = preparedPer((db) =>
  db
    .select({ id: submissions.id, problemId: submissions.problemId })
    .from(submissions)
    .where(
      and(
        inArray(submissions.status, ["compiling", "running"]),
        eq(submissions.leaseOwner, sql.placeholder("owner")),
        gt(submissions.leaseExpiresAt, sql.placeholder("now")),
      ),
    )
    .prepare(),
);
function heldJobs(db: Database, host: string, now = Date.now()): Promise<{ id: string; problemId: string }[]> {
  return heldJobsQuery(db).execute({ owner: `judge-host/${host}`, now });
}

/** A job's claim token and problem, for checking a host's report: one prepared statement on every finish. */
const claimOfQuery = preparedPer((db) =>
  db
    .select({ claimToken: submissions.claimToken, problemId: submissions.problemId })
    .from(submissions)
    .where(eq(submissions.id, sql.placeholder("id")))
    .limit(1)
    .prepare(),
);

/** Tests a job of this problem has: the sample when it has an expected output, then every hidden test. */
function testCount(loaded: JudgedProblemData): number {
  return (loaded.problem.sampleOutput.trim() !== "" ? 1 : 0) + loaded.hidden.length;
}

/** Bytes of test data kept in memory for hosts to fetch. */
export const TEST_DATA_CACHE_BYTES = 256 * 1024 * 1024;

export interface JudgeApiDeps {
  db: Database;
  events: JudgeEvents;
  /** The lease a host's claim gets, ms (JUDGE_LEASE_SECONDS). */
  leaseMs: number;
  now?: () => number;
  /** Jobs of one user judged at once, on every judge together (JUDGE_JOBS_PER_USER); default unbounded. */
  jobsPerUser?: number;
  /** The most wall-clock time one submission's tests may take, ms (JUDGE_SUBMISSION_BUDGET_SECONDS), told to the host with each job. */
  budgetCeilingMs?: number;
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
  /** This server's JUDGE_SUBMISSION_BUDGET_SECONDS, ms: the host judges within it (src/judge/budget.ts). */
  budgetCeilingMs?: number;
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

/**
 * A test file by its SHA-256, for `host`: only a test of a problem of a job
 * the host holds now (a host cannot read other problems' hidden data by
 * hash). When this process does not hold the text (restarted since the
 * claim, or let it go), the problem is read again (its current version).
 * @returns the text, or null when no job of the host has it (the problem changed since the claim, or it was never
 *   the host's: its job then fails and is judged again from a fresh claim).
 */
export async function testData(db: Database, host: string, sha256: string, problemId: string | null): Promise<string | null> {
  const problems = [...new Set((await heldJobs(db, host)).map((j) => j.problemId))];
  for (const id of problemId ? problems.filter((p) => p === problemId) : problems) {
    const loaded = await judgedProblem(db, id);
    if (!loaded) continue;
    const known = hashed.get(loaded)?.tests ?? testsOf(loaded);
    if (!known.some((t) => t.inputSha256 === sha256 || t.answerSha256 === sha256)) continue;
    // The problem the host names is read again into the store (a restart or the byte bound let it go).
    if (problemId) testsOf(loaded);
    return data.get(sha256) ?? null;
  }
  return null;
}

/** Drops every held test file (what a restart of the server does; tests use it). */
export function forgetTestData(): void {
  data.clear();
  dataBytes = 0;
}

const queues = new Map<string, JudgeQueue>();
/** How often claims re-queue expired leases, ms. */
const RECOVER_EVERY_MS = 1000;
let lastRecovery = 0;
function hostQueue(deps: JudgeApiDeps, host: string): JudgeQueue {
  const key = `${host}:${deps.leaseMs}:${deps.jobsPerUser ?? ""}`;
  let q = queues.get(key);
  if (!q) {
    q = new JudgeQueue(deps.db, { owner: `judge-host/${host}`, leaseMs: deps.leaseMs, now: deps.now, jobsPerUser: deps.jobsPerUser });
    queues.set(key, q);
  }
  return q;
}

/**
 * Claims the next job for `host`, waiting up to `waitMs` for one; expired
 * leases (a host that died, a claim whose answer was lost) are re-queued first.
 * @param languages only jobs in these languages (what the host can run); all when absent.
 * @returns the job, null when none came, or "full" when the host holds its capacity already.
 */
export async function claimForHost(
  deps: JudgeApiDeps,
  host: string,
  waitMs: number,
  signal?: AbortSignal,
  languages?: readonly string[],
  /** Most jobs the host may hold (judge_hosts.capacity). */
  capacity = Number.POSITIVE_INFINITY,
): Promise<HostJob | null | "full"> {
  const deadline = Date.now() + waitMs;
  if ((await heldJobs(deps.db, host, deps.now?.() ?? Date.now())).length >= capacity) return "full";
  const recoverer = new JudgeQueue(deps.db, { owner: "judge-api/recovery", leaseMs: deps.leaseMs, now: deps.now });
  const queue = hostQueue(deps, host);
  for (;;) {
    // Expired leases go back to the queue, at most once a second (each claim would be too often).
    if (Date.now() - lastRecovery >= RECOVER_EVERY_MS) {
      lastRecovery = Date.now();
      await recoverer.recover();
    }
    const row = await queue.claim(languages);
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

/** The test list of a cached problem, hashed once (src/judge/problem-cache.ts hands out the same object while it is current). */
const hashed = new WeakMap<JudgedProblemData, { tests: HostTest[]; texts: [string, string][] }>();

function testsOf(loaded: JudgedProblemData): HostTest[] {
  let entry = hashed.get(loaded);
  if (!entry) {
    const { problem, hidden } = loaded;
    const texts: [string, string][] = [];
    if (problem.sampleOutput.trim() !== "") texts.push([problem.sampleInput, problem.sampleOutput]);
    for (const t of hidden) texts.push([t.input, t.expectedOutput]);
    const sampleFirst = problem.sampleOutput.trim() !== "";
    entry = {
      texts,
      tests: texts.map(([input, answer], i) => ({
        index: sampleFirst ? i : i + 1,
        isSample: sampleFirst && i === 0,
        inputSha256: remember(input),
        answerSha256: remember(answer),
      })),
    };
    hashed.set(loaded, entry);
    return entry.tests;
  }
  // Hosts fetch by hash: put back what the byte-bounded store let go since.
  entry.tests.forEach((t, i) => {
    if (!data.has(t.inputSha256)) remember(entry!.texts[i]![0]);
    if (!data.has(t.answerSha256)) remember(entry!.texts[i]![1]);
  });
  return entry.tests;
}

async function jobOf(deps: JudgeApiDeps, queue: JudgeQueue, row: SubmissionRow): Promise<HostJob | null> {
  const loaded = await judgedProblem(deps.db, row.problemId);
  if (!loaded) {
    await queue.finish(row, { verdict: "IE", isPassed: false, errorDetail: "problem not found" });
    deps.events.changed(row.id);
    return null;
  }
  const { problem, hidden } = loaded;
  const tests = testsOf(loaded);
  const { id, sampleInput, sampleOutput, timeLimitMs, memoryLimitKib, timeScaledByLanguage, checker, checkerFlags, validator, interactive, validationPasses, scoring, pythonImplementation } = problem;
  return {
    submissionId: row.id,
    claimToken: row.claimToken!,
    leaseMs: deps.leaseMs,
    ...(deps.budgetCeilingMs ? { budgetCeilingMs: deps.budgetCeilingMs } : {}),
    language: row.language,
    code: row.code,
    runAllTests: row.runAllTests,
    assignmentId: row.assignmentId,
    problem: { id, sampleInput, sampleOutput, timeLimitMs, memoryLimitKib, timeScaledByLanguage, checker, checkerFlags, validator, interactive, validationPasses, scoring, pythonImplementation },
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
  const queue = hostQueue(deps, host);
  // Most progress is one finished test: one statement, fenced by the claim (the host renews the lease apart).
  if (p.test && !p.clear && !p.update && !p.failure) {
    if (!(await queue.addTest({ id, claimToken }, p.test))) return false;
    deps.events.changed(id);
    return true;
  }
  const row = await heldRow(deps.db, id);
  if (!row) return false;
  if (p.update && row.claimToken === claimToken) {
    const loaded = await judgedProblem(deps.db, row.problemId);
    if (loaded) checkReport(loaded, p.update);
  }
  const port = databaseJobPort(deps.db, queue, { ...row, claimToken });
  if (!(await queue.renew({ id, claimToken }))) return false;
  if (p.clear) await port.clear();
  if (p.update && !(await port.update(p.update))) return false;
  if (p.test && !(await port.addTest(p.test))) return false;
  if (p.failure) await port.keepFailure(p.failure.test, p.failure.result);
  deps.events.changed(id);
  return true;
}

/**
 * Checks a host's report against the job it holds: counts within the job's
 * tests, `isPassed` exactly when AC, AC only with every test passed.
 * @throws AppError BAD_INPUT (400) naming the field.
 */
function checkReport(loaded: JudgedProblemData, values: Partial<SubmissionRow>): void {
  const tests = testCount(loaded);
  const hidden = loaded.hidden.length;
  const bad = (field: string, why: string) => new AppError("BAD_INPUT", { field, message: `values.${field}: ${why}` });
  if (values.testsTotal != null && values.testsTotal !== tests) throw bad("testsTotal", `this job has ${tests} tests`);
  if (values.testsPassed != null && values.testsPassed > tests) throw bad("testsPassed", `more than the job's ${tests} tests`);
  if (values.hiddenTotal != null && values.hiddenTotal !== hidden) throw bad("hiddenTotal", `this job has ${hidden} hidden tests`);
  if (values.hiddenPassed != null && values.hiddenPassed > hidden) throw bad("hiddenPassed", `more than the job's ${hidden} hidden tests`);
  if (values.verdict !== undefined && values.isPassed !== undefined && values.isPassed !== (values.verdict === "AC")) throw bad("isPassed", "true exactly when the verdict is AC");
  const spec = loaded.problem.scoring;
  // A scoring problem's AC is its full score (the sample scores nothing: src/judge/groups.ts), checked below.
  if (!spec && values.verdict === "AC" && (values.testsPassed !== tests || values.hiddenPassed !== hidden)) {
    throw bad("verdict", `AC needs every test passed (${tests}, of them ${hidden} hidden)`);
  }
  if (spec && values.verdict === "AC" && values.score == null) throw bad("score", "a scoring problem's AC needs its score");
  if (values.score != null || values.maxScore != null || values.groupResults != null) {
    if (!spec) throw bad("score", "the problem is not a scoring problem");
    if (values.maxScore !== spec.maxScore) throw bad("maxScore", `this problem's maximum is ${spec.maxScore}`);
    if (values.score == null || values.score > spec.maxScore) throw bad("score", `from 0 to ${spec.maxScore}`);
    if (values.verdict === "AC" && values.score !== spec.maxScore) throw bad("verdict", "AC needs the full score");
    const names = spec.groups.map((g) => g.name).join(",");
    if ((values.groupResults ?? []).map((g) => g.name).join(",") !== names) throw bad("groupResults", `the problem's groups are ${names}`);
  }
}

/**
 * Finishes the job, once per claim, after checking the report against the job (`checkReport`).
 * @returns "accepted" (written now, or the same claim's finish again), or "refused" (409).
 * @throws AppError BAD_INPUT (400) for a report that does not fit the job (nothing is written).
 */
export async function finishForHost(deps: JudgeApiDeps, host: string, id: string, claimToken: string, values: Partial<SubmissionRow>): Promise<"accepted" | "refused"> {
  // Only the claim token and the problem, prepared: a finish is on every job's path (decision 037).
  const [held] = await claimOfQuery(deps.db).execute({ id });
  if (held && held.claimToken === claimToken) {
    const loaded = await judgedProblem(deps.db, held.problemId);
    if (loaded) checkReport(loaded, values);
  }
  // The claim's own finish and its audit row in one transaction: the audit row is written only when the
  // finish went through (the row is then done under this claim's token), so a crash between them cannot
  // leave one without the other. Only when the finish is refused is this a retry of a finish already
  // written (same claim token, same verdict) or a stale claim's (409).
  const verdict = String(values.verdict ?? "IE");
  const [finished] = await deps.db.batch([
    hostQueue(deps, host).finishQuery({ id, claimToken }, values),
    deps.db.run(sql`
      INSERT INTO judge_finishes (submission_id, claim_token, host, verdict, created_at)
      SELECT ${id}, ${claimToken}, ${host}, ${verdict}, ${Date.now()}
       WHERE EXISTS (SELECT 1 FROM submissions WHERE id = ${id} AND claim_token = ${claimToken} AND status = 'done')
      ON CONFLICT DO NOTHING`),
  ]);
  const done = finished[0];
  if (!done) {
    const [earlier] = await deps.db
      .select({ verdict: judgeFinishes.verdict })
      .from(judgeFinishes)
      .where(and(eq(judgeFinishes.submissionId, id), eq(judgeFinishes.claimToken, claimToken)))
      .limit(1);
    return earlier && earlier.verdict === values.verdict ? "accepted" : "refused";
  }
  await afterJudged(deps.db, done);
  deps.events.changed(id);
  return "accepted";
}

/** Gives a job back (a host shutting down). */
export async function releaseForHost(deps: JudgeApiDeps, host: string, id: string, claimToken: string): Promise<void> {
  await hostQueue(deps, host).release({ id, claimToken });
  deps.events.queued();
}
