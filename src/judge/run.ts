/**
 * Run (POST /api/compiler): compile (through the cache) and run once on
 * custom input, a fresh Python Run in one sandbox start (`compileAndRun`).
 */
import { COMPILER_FLAGS, runProgram } from "../../isolate/exec.ts";
import { getLanguage, type LanguageId } from "../../isolate/languages/index.ts";
import type { Box, RunResult } from "../../isolate/types.ts";
import type { Logger } from "../log.ts";
import type { CompileCache, CompiledEntry } from "./compile-cache.ts";
import { compileInBox, compileStep, retryOnSandboxFailure, runOptions } from "./compile.ts";

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

