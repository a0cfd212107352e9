/**
 * Run (POST /api/compiler): compile (through the cache) and run once on
 * custom input or the sample, under a problem's limits and checker (its own
 * validator in a box of its own), a fresh Python Run in one sandbox start
 * (`compileAndRun`). The per-user Run limits are the service's
 * (src/judge/service.ts), which calls `runCustomInput`.
 */
import type { Database } from "../../db/index.ts";
import { COMPILER_FLAGS, capUtf8, runProgram } from "../../isolate/exec.ts";
import { getLanguage, type LanguageId } from "../../isolate/languages/index.ts";
import { judgingLanguage, requireJudgeable } from "./languages.ts";
import type { Box, RunResult, SandboxBackend } from "../../isolate/types.ts";
import type { Caller } from "../accounts/user.ts";
import { requireVisibleProblem } from "../problems/access.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { passFailVerdict } from "./testlib.ts";
import { checkerIsProgram, DEFAULT_CHECKER, DEFAULT_MEMORY_LIMIT_KIB, DEFAULT_TIME_LIMIT_MS } from "../problems/limits.ts";
import type { ValidatorSpec } from "../problems/validator-spec.ts";
import type { CheckerName } from "./checker.ts";
import type { CompileCache, CompiledEntry } from "./compile-cache.ts";
import { compileInBox, compileStep, reportedTimeMs, retryOnSandboxFailure, runOptions, sandboxRetrying, validatorCompiler } from "./compile.ts";
import { prepareValidator, runValidator } from "./validator.ts";
import { runSampleWithValidator, runsWithValidator } from "./run-with-validator.ts";
import type { RunResponse } from "./run-response.ts";

export type { RunResponse } from "./run-response.ts";
import { testVerdict, type ValidateOutput } from "./verdict.ts";

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


/** Output returned by Run, UTF-8 bytes at most (the program may print up to the OLE limit; the browser gets this much). */
export const RUN_OUTPUT_RETURN_MAX_BYTES = 1024 * 1024;

export interface RunInput {
  language: LanguageId;
  code: string;
  /** Custom input or the sample input. */
  input: string;
  /** When given, the output is checked against it and `correct` is returned. */
  expectedOutput?: string;
  /** Optional: run under this problem's limits and checker instead of the defaults. */
  problemId?: string;
}

/** What a Run needs: the database (the problem's limits and checker), the compile cache, the sandbox, a logger, the clock. */
export interface RunDeps {
  db: Database;
  cache: CompileCache;
  backend: SandboxBackend;
  log: Logger;
  now: () => number;
  /** The languages offered here: Python 3 on a PyPy problem needs PyPy among them. */
  languages: readonly LanguageId[];
}

/**
 * Compiles (through the compile cache) and runs `code` once on `input`, under
 * the problem's limits and checker when `problemId` is given (the caller may
 * see it), else the defaults. The caller has already spent the user's Run
 * budget (src/judge/service.ts).
 * @throws PROBLEM_NOT_FOUND (404) for an unknown or invisible `problemId`; COMPILATION_ERROR (400) with
 *   `details.compileOutput` on a compile error.
 */
export async function runCustomInput(deps: RunDeps, viewer: Caller, input: RunInput): Promise<RunResponse> {
  const { backend } = deps;
  let timeLimitMs = DEFAULT_TIME_LIMIT_MS;
  let memoryLimitKib = DEFAULT_MEMORY_LIMIT_KIB;
  let checker: CheckerName = DEFAULT_CHECKER;
  let checkerFlags = "";
  let timeScaledByLanguage = true;
  let validatorSpec: ValidatorSpec | null = null;
  let language = input.language;
  if (input.problemId !== undefined) {
    const problem = await requireVisibleProblem(deps.db, viewer, input.problemId, deps.now());
    requireJudgeable(deps.languages, input.language, problem);
    language = judgingLanguage(input.language, problem);
    ({ timeLimitMs, memoryLimitKib } = problem);
    checker = problem.checker;
    checkerFlags = problem.checkerFlags;
    timeScaledByLanguage = problem.timeScaledByLanguage;
    validatorSpec = problem.validator ?? null;
    if (runsWithValidator(problem)) return runSampleWithValidator(deps, problem, language, input.code);
  }
  // The problem's own validator gets a box of its own, taken with the program's (see src/judge/validator.ts).
  const validates = checkerIsProgram(checker) && input.expectedOutput !== undefined;
  const [box, vbox] = validates ? await backend.acquireMany(2) : [await backend.acquire(), undefined];
  try {
    const step = await compileAndRun(
      deps.cache,
      box,
      language,
      input.code,
      { stdin: input.input, timeLimitMs, memoryLimitKib, timeScaledByLanguage },
      deps.log,
    );
    if (step.kind === "ce") {
      throw new AppError("COMPILATION_ERROR", {
        message: "Compilation error: the compiler rejected the program",
        details: { compileOutput: step.diagnostics },
      });
    }
    if (step.kind === "ie") {
      deps.log.warn("judge: sandbox failure during a run", { detail: step.detail });
      return internalErrorRun(input.expectedOutput !== undefined, false);
    }
    const { result } = step;
    const hasExpected = input.expectedOutput !== undefined;
    // A custom checker is the problem's own validator, run in its own box; without an expected
    // output there is nothing to check (the answer is OK whatever the checker).
    const expected = input.expectedOutput ?? "";
    const validate: ValidateOutput | null = vbox
      ? (output) => validateRun(deps, vbox, validatorSpec, input.input, expected, output)
      : checkerIsProgram(checker)
        ? async () => ({ verdict: "AC" })
        : null;
    const { verdict } = await testVerdict(result, expected, checker, checkerFlags, validate);
    // A run still ending in XX after the retries is IE here (decideVerdict), never a user verdict.
    if (verdict === "IE") deps.log.warn("judge: sandbox failure during a run", { detail: result.message });
    const output = capUtf8(result.stdout, RUN_OUTPUT_RETURN_MAX_BYTES);
    const response: RunResponse = {
      output,
      verdict: !hasExpected && (verdict === "AC" || verdict === "WA") ? "OK" : verdict,
      stderr: result.stderr,
      exitCode: result.exitCode,
      timeMs: reportedTimeMs(result),
      memoryKib: result.memoryKib,
      outputTruncated: result.stdoutTruncated || output.length !== result.stdout.length,
      compileCached: step.cached,
    };
    if (hasExpected) response.correct = verdict === "AC";
    return response;
  } finally {
    // Cleaning the box (its files, the sandbox's next launch) happens after the answer;
    // a waiting acquire() gets the box once it is clean.
    for (const b of vbox ? [box!, vbox] : [box!]) {
      void backend.release(b).catch((err: unknown) => deps.log.warn("judge: releasing a box after a run failed", { error: String(err) }));
    }
  }
}

/** A Run's output judged by the problem's own validator in its own box `vbox`, as the submission's will be: AC, WA, or IE when it cannot run. */
async function validateRun(deps: RunDeps, vbox: Box, spec: ValidatorSpec | null, input: string, expected: string, output: string): Promise<{ verdict: "AC" | "WA" | "IE" }> {
  const ready = spec ? await prepareValidator(validatorCompiler(deps.cache, vbox, deps.log), vbox, spec) : { error: "the problem's checker is custom but it has no validator" };
  if ("error" in ready) {
    deps.log.warn("judge: output validator unusable in a run", { detail: ready.error });
    return { verdict: "IE" };
  }
  return { verdict: passFailVerdict(await runValidator(vbox, sandboxRetrying(vbox), ready, input, expected, output)) };
}

function internalErrorRun(hasExpected: boolean, cached: boolean): RunResponse {
  return {
    output: "",
    ...(hasExpected ? { correct: false } : {}),
    verdict: "IE",
    stderr: "",
    exitCode: null,
    timeMs: 0,
    memoryKib: 0,
    outputTruncated: false,
    compileCached: cached,
  };
}
