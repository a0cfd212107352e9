/**
 * The judge pipeline for one claimed submission: compile once (through the
 * compile cache), run the sample (test 0) and then the hidden tests 1..n in
 * order in one box, stop at the first failing test, and write every step to
 * the database while holding the job's lease.
 *
 * Three kinds of failure stay apart (after go-judge/Hydro): the submitter's
 * (CE, WA, TLE, …: a verdict), the problem setter's (no tests at all: IE with
 * a detail for the operator), and the system's (sandbox failure XX, a thrown
 * error: IE, never a user verdict). Hidden tests' input, output and stderr are
 * read into memory, compared and dropped: they are never stored, logged or
 * sent anywhere; only the sample's output is kept.
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, testCases, type Verdict } from "../../db/schema.ts";
import { COMPILER_FLAGS, capUtf8, compileSource, runProgram } from "../../isolate/exec.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { Box, RunResult, SandboxBackend } from "../../isolate/types.ts";
import type { Logger } from "../log.ts";
import type { CheckerName } from "./checker.ts";
import type { CompileCache, CompiledEntry } from "./compile-cache.ts";
import type { JudgeEvents } from "./events.ts";
import { OUTPUT_LIMIT_BYTES, STORED_OUTPUT_MAX_BYTES, effectiveTimeLimitMs } from "./limits.ts";
import type { JudgeQueue, SubmissionRow } from "./queue.ts";
import { decideVerdict } from "./verdict.ts";

/** Outcome of the compile step. */
export type CompileStep =
  | { kind: "ok"; entry: CompiledEntry; cached: boolean }
  | { kind: "ce"; diagnostics: string; cached: boolean }
  | { kind: "ie"; detail: string };

/**
 * Compiles `code` in `box`, or takes the artifacts from the cache (key: hash
 * of language, its exact COMPILER_FLAGS and the code). Successful compiles and
 * genuine compile errors (the compiler exited non-zero) are cached; limit hits
 * of the compiler (which load can cause) and sandbox failures are not. A
 * sandbox failure is retried first (`retryOnSandboxFailure`).
 * @returns `ok` with the entry to run, `ce` with the diagnostics, or `ie` on a sandbox failure.
 */
export async function compileCached(
  cache: CompileCache,
  box: Box,
  language: LanguageId,
  code: string,
  log?: Logger,
): Promise<CompileStep> {
  const key = cache.key(language, COMPILER_FLAGS[language], code);
  const { entry, hit } = await cache.getOrCompile(key, async () => {
    const outcome = await retryOnSandboxFailure(
      () => compileSource(box, language, code),
      (o) => o.result,
      (message, attempt) => log?.warn("judge: sandbox failure while compiling, retrying", { language, attempt, message }),
    );
    const entry: CompiledEntry = {
      ok: outcome.ok,
      diagnostics: outcome.diagnostics,
      files: outcome.artifacts,
      sourceFile: outcome.entry,
    };
    if (outcome.result.status === "XX") entry.systemError = outcome.result.message ?? "sandbox failure while compiling";
    const genuine = outcome.ok || outcome.result.status === "RE";
    return { entry, cacheable: genuine && entry.systemError === undefined };
  });
  if (entry.systemError !== undefined) return { kind: "ie", detail: entry.systemError };
  if (!entry.ok) return { kind: "ce", diagnostics: entry.diagnostics, cached: hit };
  return { kind: "ok", entry, cached: hit };
}

/** Retries of a step whose sandbox failed (XX), and the pause before each, ms. */
export const SANDBOX_RETRIES = 2;
export const SANDBOX_RETRY_DELAY_MS = 500;

/**
 * Runs a sandbox step again (up to SANDBOX_RETRIES times, SANDBOX_RETRY_DELAY_MS
 * apart) while it ends in XX: a sandbox failure is often transient (e.g. the
 * kernel still tearing down the previous run's processes of the box user), and
 * the submitter should not get IE for it. Only XX is retried; a program's own
 * outcome (TLE, RE, …) never is. Every retry is logged by the caller's `onRetry`.
 * @returns the last attempt's value.
 */
export async function retryOnSandboxFailure<T>(
  step: () => Promise<T>,
  resultOf: (value: T) => RunResult,
  onRetry?: (message: string | undefined, attempt: number) => void,
): Promise<T> {
  let value = await step();
  for (let attempt = 1; attempt <= SANDBOX_RETRIES && resultOf(value).status === "XX"; attempt++) {
    onRetry?.(resultOf(value).message, attempt);
    await Bun.sleep(SANDBOX_RETRY_DELAY_MS);
    value = await step();
  }
  return value;
}

/** The limits one run of `language` gets under a problem's limits. */
export function runOptions(language: LanguageId, timeLimitMs: number, memoryLimitKib: number) {
  return {
    timeLimitMs: effectiveTimeLimitMs(language, timeLimitMs),
    memoryLimitKib,
    outputLimitBytes: OUTPUT_LIMIT_BYTES,
  };
}

/** Time to report for a run, ms: CPU time, or wall time when the wall clock ended it. */
export function reportedTimeMs(result: RunResult): number {
  return Math.round(result.tleKind === "wall" ? result.wallTimeMs : result.cpuTimeMs);
}

export interface PipelineDeps {
  db: Database;
  backend: SandboxBackend;
  cache: CompileCache;
  queue: JudgeQueue;
  events: JudgeEvents;
  log: Logger;
}

interface JudgeTest {
  index: number;
  isSample: boolean;
  input: string;
  expected: string;
}

/** Raised inside the pipeline when the lease was lost or the job was cancelled: stop without writing. */
export class LeaseLost extends Error {
  override name = "LeaseLost";
}

/**
 * Judges one claimed submission to a final verdict and writes it.
 * @param row    the row as claimed (status `compiling`, leased to `deps.queue.owner`)
 * @param signal aborts between steps (shutdown, lost lease): the job is then left for `release`/recovery.
 * @returns the final verdict, or null when the job was given up (lease lost / aborted).
 * @throws only on database failures (the lease then expires and the job is retried).
 */
export async function judgeSubmission(deps: PipelineDeps, row: SubmissionRow, signal: AbortSignal): Promise<Verdict | null> {
  const { db, queue, events, log } = deps;
  const id = row.id;
  const guard = async (ok: Promise<boolean>) => {
    if (!(await ok)) throw new LeaseLost(`lease on ${id} lost`);
    events.changed(id);
  };
  const checkAbort = () => {
    if (signal.aborted) throw new LeaseLost(`judging of ${id} aborted`);
  };

  try {
    await queue.clearTests(id);
    const problem = await db.query.problems.findFirst({ where: eq(problems.id, row.problemId) });
    if (!problem) {
      await guard(queue.finish(id, { verdict: "IE", isPassed: false, errorDetail: "problem not found" }));
      return "IE";
    }
    const hidden = await db
      .select({ input: testCases.input, expected: testCases.expectedOutput })
      .from(testCases)
      .where(eq(testCases.problemId, problem.id))
      .orderBy(asc(testCases.ordinal));
    const tests: JudgeTest[] = [];
    // The spec runs the sample only when it has an expected output; an empty sample input is valid.
    if (problem.sampleOutput.trim() !== "") {
      tests.push({ index: 0, isSample: true, input: problem.sampleInput, expected: problem.sampleOutput });
    }
    hidden.forEach((t, i) => tests.push({ index: i + 1, isSample: false, input: t.input, expected: t.expected }));
    const sampleExpected = problem.sampleOutput;

    await guard(
      queue.update(id, {
        status: "compiling",
        testsTotal: tests.length,
        testsPassed: 0,
        expectedOutput: sampleExpected,
        output: "",
        verdict: null,
        compileOutput: null,
        errorDetail: null,
      }),
    );
    if (tests.length === 0) {
      await guard(queue.finish(id, { verdict: "IE", isPassed: false, errorDetail: "the problem has no tests (no sample output, no hidden tests)" }));
      return "IE";
    }
    checkAbort();

    const box = await deps.backend.acquire();
    try {
      checkAbort();
      const compiled = await compileCached(deps.cache, box, row.language, row.code, log);
      checkAbort();
      if (compiled.kind === "ie") {
        log.warn("judge: sandbox failure while compiling", { submissionId: id, detail: compiled.detail });
        await guard(queue.finish(id, { verdict: "IE", isPassed: false, errorDetail: `compile: ${compiled.detail}` }));
        return "IE";
      }
      if (compiled.kind === "ce") {
        await guard(queue.finish(id, { verdict: "CE", isPassed: false, compileOutput: compiled.diagnostics }));
        return "CE";
      }
      await guard(queue.update(id, { status: "running" }));

      const opts = runOptions(row.language, problem.timeLimitMs, problem.memoryLimitKib);
      // Compiled in this very box: the artifacts are already there.
      let artifacts: CompiledEntry["files"] | undefined = compiled.cached ? compiled.entry.files : undefined;
      let passed = 0;
      let maxTimeMs = 0;
      let maxMemoryKib = 0;
      let final: Verdict = "AC";
      let errorDetail: string | null = null;
      for (const test of tests) {
        checkAbort();
        const files = artifacts;
        const result = await retryOnSandboxFailure(
          () => runProgram(box, row.language, { entry: compiled.entry.sourceFile, artifacts: files, stdin: test.input, ...opts }),
          (r) => r,
          (message, attempt) => log.warn("judge: sandbox failure, retrying the test", { submissionId: id, test: test.index, attempt, message }),
        );
        // Artifacts are written once; the box keeps them for the following tests.
        artifacts = undefined;
        const { verdict, reason } = decideVerdict(result, test.expected, problem.checker as CheckerName);
        const timeMs = reportedTimeMs(result);
        maxTimeMs = Math.max(maxTimeMs, timeMs);
        maxMemoryKib = Math.max(maxMemoryKib, result.memoryKib);
        if (test.isSample) {
          await guard(queue.update(id, { output: capUtf8(result.stdout, STORED_OUTPUT_MAX_BYTES) }));
        }
        await guard(queue.addTest(id, { index: test.index, isSample: test.isSample, verdict, timeMs, memoryKib: result.memoryKib }));
        if (verdict === "AC") {
          passed++;
          await guard(queue.update(id, { testsPassed: passed }));
          continue;
        }
        final = verdict;
        if (verdict === "IE") {
          errorDetail = `test ${test.index}: ${reason ?? "internal error"}`;
          log.warn("judge: sandbox failure while running", { submissionId: id, test: test.index, detail: reason });
        }
        break;
      }
      await guard(
        queue.finish(id, {
          verdict: final,
          isPassed: final === "AC",
          testsPassed: passed,
          timeMs: maxTimeMs,
          memoryKib: maxMemoryKib,
          errorDetail,
        }),
      );
      return final;
    } finally {
      await deps.backend.release(box);
    }
  } catch (err) {
    if (err instanceof LeaseLost) {
      log.info("judge: job given up", { submissionId: id, reason: err.message });
      return null;
    }
    if (signal.aborted) return null;
    // A thrown error from the sandbox layer (box I/O, acquire) is the system's fault: IE, if we still hold the job.
    const detail = err instanceof Error ? err.message : String(err);
    log.warn("judge: internal error", { submissionId: id, detail });
    const ok = await queue.finish(id, { verdict: "IE", isPassed: false, errorDetail: detail }).catch(() => false);
    if (ok) events.changed(id);
    return ok ? "IE" : null;
  }
}
