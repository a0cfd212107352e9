/**
 * "Verify now" for a problem imported from a package: its example
 * submissions (kept at import, table problem_packages) are judged in the
 * background with this server's sandbox, one verify at a time on the server,
 * each example waiting while submissions are queued (live judging goes first),
 * and the report grows row by row for the page to poll. When
 * the package gave no time limit, the first verify derives it (as the format
 * says) and sets it on the problem.
 *
 * Jobs live in this process (one report per problem, the latest); a restart
 * forgets them, and verifying again is cheap.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problemPackages, problems } from "../../db/schema.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { RateDecision } from "../lib/rate-limit.ts";
import type { Caller } from "../accounts/user.ts";
import { requireEditableProblem } from "../problems/access.ts";
import { requireProblemChangeAllowed } from "../problems/operations.ts";
import { readHiddenTests, setTimeLimit } from "../problems/store.ts";
import { queuedCount } from "../submissions/queue.ts";
import type { ProblemRow } from "../problems/shape.ts";
import type { ProblemPackage } from "./format.ts";
import { deriveTimeLimit, derivedFrom, NO_STATED_TIME_LIMIT, verifyPackage, type VerifyReport, type VerifyRow } from "./verify.ts";
import type { ImportResult } from "./import.ts";

export interface VerifyStatus {
  state: "none" | "running" | "done" | "failed";
  /** Example submissions in all. */
  total: number;
  rows: VerifyRow[];
  /** Set when done. */
  report?: Omit<VerifyReport, "rows">;
  /** Set when failed. */
  error?: string;
  /** The time limit the verify derived and set on the problem, ms. */
  derivedTimeLimitMs?: number;
}

const jobs = new Map<string, VerifyStatus>();
/** Longest a verify waits for the queue to empty before each example, ms: it yields, it is not starved. */
export const VERIFY_YIELD_MAX_MS = 60_000;

/**
 * Waits (up to VERIFY_YIELD_MAX_MS, checking every 250 ms) while submissions
 * wait for the judge: a verify takes a box only when live judging has none
 * waiting, as a submission would take its fair share.
 */
async function yieldToJudging(db: Database): Promise<void> {
  const deadline = Date.now() + VERIFY_YIELD_MAX_MS;
  while (Date.now() < deadline && (await queuedCount(db)) > 0) await Bun.sleep(250);
}

/** Verifies run one after another (see startVerify). */
let verifyLine: Promise<void> = Promise.resolve();

/** The latest verify of a problem (state "none" when there is none). */
export function verifyStatus(problemId: string, examples = 0): VerifyStatus {
  return jobs.get(problemId) ?? { state: "none", total: examples, rows: [] };
}

/** The kept package data of a problem, or null when it was not imported from one. */
export async function readPackageMeta(db: Database, problemId: string) {
  const [row] = await db.select().from(problemPackages).where(eq(problemPackages.problemId, problemId)).limit(1);
  return row ?? null;
}

/** The package a problem stands for now (its current tests and limits, the kept examples). */
async function packageOf(db: Database, problem: ProblemRow, meta: NonNullable<Awaited<ReturnType<typeof readPackageMeta>>>): Promise<ProblemPackage> {
  const hidden = (await readHiddenTests(db, [problem.id])).get(problem.id) ?? [];
  return {
    formatVersion: "2025-09",
    name: problem.title,
    statement: problem.description,
    statementFile: "",
    translations: {},
    timeLimitMs: meta.timeLimitGiven ? problem.timeLimitMs : null,
    timeLimitSource: meta.timeLimitGiven ? "problem.yaml" : null,
    timeMultipliers: { acToTimeLimit: meta.acToTimeLimit, timeLimitToTle: meta.timeLimitToTle },
    memoryLimitKib: problem.memoryLimitKib,
    validatorFlags: problem.checker === "kattis" ? problem.checkerFlags : "",
    validator: problem.checker === "custom" || problem.checker === "testlib" ? (problem.validator ?? null) : null,
    interactive: problem.interactive,
    validationPasses: problem.validationPasses,
    pythonImplementation: problem.pythonImplementation,
    scoring: problem.scoring ?? null,
    tests: [
      // Judged as the judge judges it: only with an answer (an interactive sample without one is among the hidden tests).
      ...(problem.sampleOutput.trim() !== "" ? [{ name: "sample", sample: true, input: problem.sampleInput, answer: problem.sampleOutput }] : []),
      ...hidden.map((t, i) => ({ name: `test ${i + 1}`, sample: false, input: t.input, answer: t.expectedOutput })),
    ],
    sampleInteractions: [],
    submissions: meta.examples,
    assets: [],
    keywords: [],
    warnings: [],
  };
}

/**
 * The time limit of a problem just imported from a package that states none
 * (its import answered with the default: the import worker has no sandbox),
 * derived here from the kept accepted submissions on the stored tests, and
 * set on the problem before the import answers. It waits its turn in the
 * verifies' line and yields to queued submissions like a verify (the
 * import's own rate limit, RATE_LIMIT_PROBLEM_WRITES_PER_USER, bounds how
 * often one user starts it).
 * @returns the import's result with the limit, where it came from, and without the default's warning;
 *   unchanged when the limit was stated, there is nothing to derive from, or no accepted submission passed (the warning then says so).
 */
export async function deriveImportedTimeLimit(db: Database, backend: SandboxBackend | null, result: ImportResult): Promise<ImportResult> {
  if (!backend || result.timeLimitSource !== "default" || !result.submissions.AC) return result;
  const [row] = await db.select().from(problems).where(eq(problems.id, result.problem._id)).limit(1);
  const meta = await readPackageMeta(db, result.problem._id);
  if (!row || !meta) return result;
  const pkg = await packageOf(db, row, meta);
  // In the verifies' line (one at a time on the server), each example yielding to queued submissions, as a verify does.
  const turn = verifyLine.then(() => deriveTimeLimit(backend, pkg, row.memoryLimitKib, () => yieldToJudging(db)));
  verifyLine = turn.then(
    () => {},
    () => {},
  );
  const derived = await turn;
  if (derived.passed === 0) {
    const why = `none of its ${derived.accepted} accepted submission(s) passed every test, so none could be derived`;
    return { ...result, warnings: result.warnings.map((w) => (w.startsWith(NO_STATED_TIME_LIMIT) ? `${NO_STATED_TIME_LIMIT} and ${why}: ${row.timeLimitMs} ms for now; set the real one in the problem's form` : w)) };
  }
  await setTimeLimit(db, row.id, derived.timeLimitMs);
  await db.update(problemPackages).set({ timeLimitGiven: true }).where(eq(problemPackages.problemId, row.id));
  return {
    ...result,
    problem: { ...result.problem, timeLimitMs: derived.timeLimitMs, __v: result.problem.__v + 1 },
    warnings: result.warnings.filter((w) => !w.startsWith(NO_STATED_TIME_LIMIT)),
    timeLimitSource: "derived",
    timeLimitFrom: derivedFrom(derived),
  };
}

/**
 * Starts verifying `problem` (the caller may edit it) unless a verify runs already.
 * @returns the status at once (state "running").
 * @throws BAD_INPUT (400) when the problem has no kept examples, SANDBOX_UNAVAILABLE (503) without a sandbox.
 */
export async function startVerify(
  db: Database,
  backend: SandboxBackend | null,
  problem: ProblemRow,
  log: Logger,
  /** The caller's verify budget (Limiters.verifiesByUser), spent only when a verify starts. */
  budget: () => RateDecision = () => ({ ok: true, remaining: 1 }),
): Promise<VerifyStatus> {
  const running = jobs.get(problem.id);
  if (running?.state === "running") return running;
  const meta = await readPackageMeta(db, problem.id);
  if (!meta || meta.examples.length === 0) {
    throw new AppError("BAD_INPUT", { field: "id", message: "This problem has no example submissions to verify (import a package with a submissions/ folder)" });
  }
  if (!backend) throw new AppError("SANDBOX_UNAVAILABLE");
  const gate = budget();
  if (!gate.ok) {
    throw new AppError("RATE_LIMITED", { message: "You have started too many verifies; try again later.", retryAfterSeconds: gate.retryAfterSeconds });
  }
  const pkg = await packageOf(db, problem, meta);
  const status: VerifyStatus = { state: "running", total: meta.examples.length, rows: [] };
  jobs.set(problem.id, status);
  // One verify at a time on this server: whoever starts them, they share one box (two with a validator)
  // and live judging keeps the rest of the pool.
  const turn = verifyLine.then(async () => {
    try {
      const report = await verifyPackage(backend, pkg, (row) => status.rows.push(row), problem.memoryLimitKib, () => yieldToJudging(db));
      const { rows: _rows, ...summary } = report;
      status.report = summary;
      if (report.timeLimitSource === "derived") {
        // verify.ts keeps a derived limit inside PROBLEM_LIMITS (checked again where it is stored).
        await setTimeLimit(db, problem.id, report.timeLimitMs);
        await db.update(problemPackages).set({ timeLimitGiven: true }).where(eq(problemPackages.problemId, problem.id));
        status.derivedTimeLimitMs = report.timeLimitMs;
      }
      status.state = "done";
    } catch (err) {
      status.state = "failed";
      status.error = err instanceof Error ? err.message : String(err);
      log.warn("verify: failed", { problemId: problem.id, error: status.error });
    }
  });
  verifyLine = turn;
  return status;
}

/**
 * The latest verify of a problem the caller may change (as `verify` needs).
 * @throws AppError PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403).
 */
export async function verifyStatusFor(db: Database, user: Caller, problemId: string, now: number): Promise<VerifyStatus> {
  const row = await requireEditableProblem(db, user, problemId, "NOT_PROBLEM_OWNER_UPDATE", now);
  return verifyStatus(row.id, (await readPackageMeta(db, row.id))?.examples.length ?? 0);
}

/**
 * Starts verifying a problem the caller may change, within their verify budget.
 * @throws AppError PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403), and startVerify's errors.
 */
export async function startVerifyFor(
  db: Database,
  backend: SandboxBackend | null,
  user: Caller,
  problemId: string,
  now: number,
  log: Logger,
  budget: () => RateDecision,
): Promise<VerifyStatus> {
  const row = await requireEditableProblem(db, user, problemId, "NOT_PROBLEM_OWNER_UPDATE", now);
  // A verify may set a derived time limit: a change to the problem, refused where a contest holds it.
  await requireProblemChangeAllowed(db, user, row, now);
  return startVerify(db, backend, row, log, budget);
}
