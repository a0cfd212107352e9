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
 *
 * Also here, shared with Run (src/judge/service.ts): `compileCached`, and
 * `compileAndRun` — compile and run once, a fresh Python Run in one sandbox start.
 */
import type { Database } from "../../db/index.ts";
import type { Verdict } from "../../db/schema.ts";
import { COMPILER_FLAGS, capUtf8, compileSource, runProgram } from "../../isolate/exec.ts";
import { getLanguage, type LanguageId } from "../../isolate/languages/index.ts";
import type { Box, RunRequest, RunResult, SandboxBackend } from "../../isolate/types.ts";
import type { Logger } from "../log.ts";
import { recordSandboxFailure, recordSandboxRetry } from "../ops/metrics.ts";
import type { CheckerName } from "./checker.ts";
import type { CompileCache, CompiledEntry } from "./compile-cache.ts";
import type { JudgeEvents } from "./events.ts";
import { prepareValidator, runValidator, type CompileValidator, type ReadyValidator } from "./validator.ts";
import { databaseJobPort, type JobPort } from "./job-port.ts";
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
 * sandbox failure is retried first (`retryOnSandboxFailure`). The compiler's
 * CPU, memory or file-size limit is CE (the code's fault, with a note in the
 * diagnostics); its wall-time limit with CPU to spare is IE (load starved it).
 * @returns `ok` with the entry to run, `ce` with the diagnostics, or `ie` on a sandbox failure or a starved compiler.
 */
export async function compileCached(
  cache: CompileCache,
  box: Box,
  language: LanguageId,
  code: string,
  log?: Logger,
  /** What the cache key hashes instead of `code` (a validator: all its files). */
  keyText: string = code,
): Promise<CompileStep> {
  const key = cache.key(language, COMPILER_FLAGS[language], keyText);
  const { entry, hit } = await cache.getOrCompile(key, () => compileInBox(box, language, code, log));
  return compileStep(entry, hit);
}

function compileStep(entry: CompiledEntry, hit: boolean): CompileStep {
  if (entry.systemError !== undefined) return { kind: "ie", detail: entry.systemError };
  if (!entry.ok) return { kind: "ce", diagnostics: entry.diagnostics, cached: hit };
  return { kind: "ok", entry, cached: hit };
}

/** Runs the language's compile step in `box` (retrying sandbox failures) and says whether its result may be cached. */
async function compileInBox(
  box: Box,
  language: LanguageId,
  code: string,
  log?: Logger,
): Promise<{ entry: CompiledEntry; cacheable: boolean }> {
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
  else if (outcome.result.status === "TLE" && outcome.result.tleKind === "wall") {
    // The compiler used less CPU than its limit but ran out of wall time: it was starved (a compiler
    // does not sleep; its stdin is empty), which is the machine's load, not the code's fault.
    entry.systemError = `compiler starved: wall-time limit hit after ${outcome.result.cpuTimeMs} ms of CPU`;
    log?.warn("judge: compile hit its wall-time limit under load", { language, cpuTimeMs: outcome.result.cpuTimeMs, wallTimeMs: outcome.result.wallTimeMs });
  }
  const genuine = outcome.ok || outcome.result.status === "RE";
  return { entry, cacheable: genuine && entry.systemError === undefined };
}

/**
 * Languages whose run command compiles the source itself and whose compile
 * step is only a check that keeps the source as the one artifact: Python
 * (`python3 main.py` parses all of main.py before running any of it; the
 * "compile" is `compile()` of the same bytes by the same interpreter). For
 * these, a Run of code not in the cache starts with the run, in one sandbox
 * start (see `compileAndRun`).
 */
export const RUN_PROVES_COMPILE: ReadonlySet<LanguageId> = new Set<LanguageId>(["py"]);

/** What `compileAndRun` did. */
export type CompileAndRunStep =
  | {
      kind: "ran";
      result: RunResult;
      /** The compile step was answered from the compile cache (or a shared in-flight compile). */
      cached: boolean;
      /** Sandbox starts this call made (compile and run, retries included): 1 for a fresh Python run that proved its syntax. */
      sandboxStarts: number;
    }
  | { kind: "ce"; diagnostics: string; cached: boolean; sandboxStarts: number }
  | { kind: "ie"; detail: string; sandboxStarts: number };

/** One run's input and limits for `compileAndRun`. */
export interface RunSpec {
  stdin: string;
  /** The problem's (or the default) CPU time limit, ms, before the language's multiplier. */
  timeLimitMs: number;
  /** Apply the language's multiplier (default true; false for a problem judged with one limit for all). */
  timeScaledByLanguage?: boolean;
  memoryLimitKib: number;
}

/**
 * Compile (through the cache) and run once in `box`: what Run
 * (POST /api/compiler) does. For most languages that is `compileCached` and
 * then `runProgram`. For a language in RUN_PROVES_COMPILE whose code is not
 * cached, the run goes first, in one sandbox start:
 * - the run ended OK (exit 0) or wrote to stdout: the interpreter parsed the
 *   whole source and ran it, so the code compiles — a syntax error ends
 *   Python with exit 1 and nothing on stdout before any user code runs. The
 *   result stands and the source is cached as compiled (compile-time warnings
 *   are in the run's stderr, as they are for every run);
 * - otherwise (RE, TLE, MLE, … with empty stdout) the language's own compile
 *   step decides, exactly as without this shortcut: a compile error is CE and
 *   the run is discarded, a clean check lets the run's result stand, a sandbox
 *   failure of the check is IE.
 * So CE is decided by the same check as before and a program's run is the
 * same command under the same limits: only the order changes, and a fresh
 * Python Run that does not fail costs one sandbox start instead of two.
 * Sandbox failures (XX) are retried (`retryOnSandboxFailure`) and then IE.
 * @param run stdin and the problem's limits (the language's time multiplier is applied here).
 * @returns `ran` with the program's RunResult, `ce` with the diagnostics, or `ie` with an operator detail.
 * @throws only when the box itself fails (writing files); callers turn that into IE.
 */
export async function compileAndRun(
  cache: CompileCache,
  box: Box,
  language: LanguageId,
  code: string,
  run: RunSpec,
  log?: Logger,
): Promise<CompileAndRunStep> {
  let starts = 0;
  const counted: Box = {
    id: box.id,
    writeFile: (name, content, mode) => box.writeFile(name, content, mode),
    readFile: (name, maxBytes) => box.readFile(name, maxBytes),
    run: (req) => {
      starts++;
      return box.run(req);
    },
    ...(box.listFiles ? { listFiles: () => box.listFiles!() } : {}),
  };
  const opts = runOptions(language, run.timeLimitMs, run.memoryLimitKib, run.timeScaledByLanguage);
  const runIt = (entry: string, artifacts: CompiledEntry["files"] | undefined) =>
    retryOnSandboxFailure(
      () => runProgram(counted, language, { entry, artifacts, stdin: run.stdin, ...opts }),
      (r) => r,
      (message, attempt) => log?.warn("judge: sandbox failure, retrying the run", { language, attempt, message }),
    );

  const key = cache.key(language, COMPILER_FLAGS[language], code);
  // The run made by the compile step itself (fresh code of a RUN_PROVES_COMPILE language).
  const ranEarly: { result?: RunResult } = {};
  const compile = RUN_PROVES_COMPILE.has(language)
    ? async (): Promise<{ entry: CompiledEntry; cacheable: boolean }> => {
        const sourceFile = getLanguage(language).sourceFileName(code);
        const source = { name: sourceFile, content: new TextEncoder().encode(code), mode: 0o644 };
        const result = await runIt(sourceFile, [source]);
        if (result.status === "XX") {
          return { entry: { ok: false, diagnostics: "", files: [], sourceFile, systemError: result.message ?? "sandbox failure" }, cacheable: false };
        }
        ranEarly.result = result;
        if (result.status === "OK" || result.stdout !== "") {
          return { entry: { ok: true, diagnostics: "", files: [source], sourceFile }, cacheable: true };
        }
        return compileInBox(counted, language, code, log);
      }
    : () => compileInBox(counted, language, code, log);
  const { entry, hit } = await cache.getOrCompile(key, compile);
  const step = compileStep(entry, hit);
  if (step.kind === "ie") return { ...step, sandboxStarts: starts };
  if (step.kind === "ce") return { ...step, sandboxStarts: starts };
  // Compiled in this very box (or ran already): the artifacts are there; from the cache they must be put in.
  const result = ranEarly.result ?? (await runIt(step.entry.sourceFile, step.cached ? step.entry.files : undefined));
  return { kind: "ran", result, cached: step.cached, sandboxStarts: starts };
}

/** The judge's compile (through its cache, retrying sandbox failures) as a validator needs it. */
export function validatorCompiler(cache: CompileCache, box: Box, log?: Logger): CompileValidator {
  return async (language, code, keyText) => {
    const step = await compileCached(cache, box, language, code, log, keyText);
    return step.kind === "ok" ? { kind: "ok", files: step.entry.files } : step;
  };
}

/** `box.run`, retried while the sandbox fails (XX). */
export function sandboxRetrying(box: Box): (req: RunRequest) => Promise<RunResult> {
  return (req) => retryOnSandboxFailure(() => box.run(req), (r) => r);
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
    recordSandboxRetry();
    await Bun.sleep(SANDBOX_RETRY_DELAY_MS);
    value = await step();
  }
  if (resultOf(value).status === "XX") recordSandboxFailure();
  return value;
}

/** The limits one run of `language` gets under a problem's limits. */
export function runOptions(language: LanguageId, timeLimitMs: number, memoryLimitKib: number, timeScaledByLanguage = true) {
  return {
    timeLimitMs: effectiveTimeLimitMs(language, timeLimitMs, timeScaledByLanguage),
    memoryLimitKib,
    outputLimitBytes: OUTPUT_LIMIT_BYTES,
  };
}

/** Time to report for a run, ms: CPU time, or wall time when the wall clock ended it. */
export function reportedTimeMs(result: RunResult): number {
  return Math.round(result.tleKind === "wall" ? result.wallTimeMs : result.cpuTimeMs);
}

/** What judging needs besides the job itself. */
export interface JudgingDeps {
  backend: SandboxBackend;
  cache: CompileCache;
  events: JudgeEvents;
  log: Logger;
}

/** JudgingDeps plus the database and queue of the default JobPort (the in-process consumer). */
export interface PipelineDeps extends JudgingDeps {
  db: Database;
  queue: JudgeQueue;
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
export async function judgeSubmission(
  deps: JudgingDeps & Partial<Pick<PipelineDeps, "db" | "queue">>,
  row: SubmissionRow,
  signal: AbortSignal,
  /** Where the job is read and written (default: this process's database queue; every write fenced by the claim). */
  port: JobPort = databaseJobPort(deps.db!, deps.queue!, row),
): Promise<Verdict | null> {
  const { events, log } = deps;
  const id = row.id;
  const guard = async (ok: Promise<boolean>) => {
    if (!(await ok)) throw new LeaseLost(`lease on ${id} lost`);
    events.changed(id);
  };
  const checkAbort = () => {
    if (signal.aborted) throw new LeaseLost(`judging of ${id} aborted`);
  };

  try {
    await port.clear();
    // A deleted problem's queued submissions are still judged (its history keeps working).
    const loaded = await port.load();
    if (!loaded) {
      await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: "problem not found" }));
      return "IE";
    }
    const { problem, hidden } = loaded;
    const tests: JudgeTest[] = [];
    // The spec runs the sample only when it has an expected output; an empty sample input is valid.
    if (problem.sampleOutput.trim() !== "") {
      tests.push({ index: 0, isSample: true, input: problem.sampleInput, expected: problem.sampleOutput });
    }
    hidden.forEach((t, i) => tests.push({ index: i + 1, isSample: false, input: t.input, expected: t.expectedOutput }));
    const sampleExpected = problem.sampleOutput;

    await guard(
      port.update({
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
      await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: "the problem has no tests (no sample output, no hidden tests)" }));
      return "IE";
    }
    checkAbort();

    // A custom output validator runs in a box of its own, taken with the program's (never one after the other).
    const [box, vbox] = problem.checker === "custom" ? await deps.backend.acquireMany(2) : [await deps.backend.acquire(), undefined];
    try {
      checkAbort();
      let validator: ReadyValidator | null = null;
      if (vbox) {
        const ready = problem.validator ? await prepareValidator(validatorCompiler(deps.cache, vbox, log), vbox, problem.validator) : { error: "the problem's checker is custom but it has no validator" };
        if ("error" in ready) {
          log.warn("judge: output validator unusable", { submissionId: id, problemId: problem.id, detail: ready.error });
          await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: ready.error }));
          return "IE";
        }
        validator = ready;
      }
      checkAbort();
      const compiled = await compileCached(deps.cache, box, row.language, row.code, log);
      checkAbort();
      if (compiled.kind === "ie") {
        log.warn("judge: sandbox failure while compiling", { submissionId: id, detail: compiled.detail });
        await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: `compile: ${compiled.detail}` }));
        return "IE";
      }
      if (compiled.kind === "ce") {
        await guard(port.finish({ verdict: "CE", isPassed: false, compileOutput: compiled.diagnostics, hiddenTotal: hidden.length }));
        await port.afterJudged().catch((err) => log.warn("judge: could not update the gradebook", { submissionId: id, error: String(err) }));
        return "CE";
      }
      await guard(port.update({ status: "running" }));

      const opts = runOptions(row.language, problem.timeLimitMs, problem.memoryLimitKib, problem.timeScaledByLanguage);
      // Compiled in this very box: the artifacts are already there.
      let artifacts: CompiledEntry["files"] | undefined = compiled.cached ? compiled.entry.files : undefined;
      let passed = 0;
      let hiddenPassed = 0;
      let failureKept = false;
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
        const { verdict, reason } =
          validator && vbox && result.status === "OK"
            ? await runValidator(vbox, sandboxRetrying(vbox), validator, test.input, test.expected, result.stdout).then((o) => ("reason" in o ? o : { verdict: o.verdict, reason: undefined }))
            : decideVerdict(result, test.expected, problem.checker as CheckerName, problem.checkerFlags);
        const timeMs = reportedTimeMs(result);
        maxTimeMs = Math.max(maxTimeMs, timeMs);
        maxMemoryKib = Math.max(maxMemoryKib, result.memoryKib);
        if (test.isSample) {
          await guard(port.update({ output: capUtf8(result.stdout, STORED_OUTPUT_MAX_BYTES) }));
        }
        await guard(port.addTest({ index: test.index, isSample: test.isSample, verdict, timeMs, memoryKib: result.memoryKib }));
        if (verdict === "AC") {
          passed++;
          if (!test.isSample) hiddenPassed++;
          await guard(port.update({ testsPassed: passed }));
          continue;
        }
        if (verdict === "IE") {
          // The system's fault ends the judging whatever the scoring: never a partial score on a broken run.
          final = "IE";
          errorDetail = `test ${test.index}: ${reason ?? "internal error"}`;
          log.warn("judge: sandbox failure while running", { submissionId: id, test: test.index, detail: reason });
          break;
        }
        // The verdict is the first failing test's; partial scoring runs on to count every passed test.
        if (final === "AC") final = verdict;
        if (row.assignmentId && !test.isSample && !failureKept) {
          failureKept = true;
          await port.keepFailure(test, result);
        }
        if (!row.runAllTests) break;
      }
      const finished = await port.finish({
        verdict: final,
        isPassed: final === "AC",
        testsPassed: passed,
        hiddenPassed,
        hiddenTotal: hidden.length,
        timeMs: maxTimeMs,
        memoryKib: maxMemoryKib,
        errorDetail,
      });
      if (finished) await port.afterJudged().catch((err) => log.warn("judge: could not update the gradebook", { submissionId: id, error: String(err) }));
      await guard(Promise.resolve(finished));
      return final;
    } finally {
      await deps.backend.release(box!);
      if (vbox) await deps.backend.release(vbox);
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
    const ok = await port.finish({ verdict: "IE", isPassed: false, errorDetail: detail }).catch(() => false);
    if (ok) events.changed(id);
    return ok ? "IE" : null;
  }
}
