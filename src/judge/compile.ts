/**
 * Compiling, shared by Run (./run.ts), judging a submission
 * (./judge-submission.ts) and validators: the compile cache (key: hash of
 * language, its exact COMPILER_FLAGS and the code), retries of sandbox
 * failures (XX: the system's fault, never the code's), the run options a
 * language gets under a problem's limits, and the time a run reports.
 */
import { COMPILER_FLAGS, compileSource } from "../../isolate/exec.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { Box, RunRequest, RunResult } from "../../isolate/types.ts";
import type { Logger } from "../log.ts";
import { recordSandboxFailure, recordSandboxRetry } from "../ops/metrics.ts";
import type { CompileCache, CompiledEntry, CompileKind } from "./compile-cache.ts";
import { OUTPUT_LIMIT_BYTES, effectiveTimeLimitMs } from "./limits.ts";
import type { CompileValidator } from "./validator.ts";
import type { BuildStep } from "./validator-build.ts";

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
  /** A problem's own program (a validator) and what its key hashes instead of `code` (all its files); default: a submission's code. */
  own?: { kind: Exclude<CompileKind, "submission">; keyText: string },
): Promise<CompileStep> {
  const key = own ? cache.key(language, COMPILER_FLAGS[language], own.keyText, own.kind) : cache.key(language, COMPILER_FLAGS[language], code);
  const { entry, hit } = await cache.getOrCompile(key, () => compileInBox(box, language, code, log));
  return compileStep(entry, hit);
}

/** A cache entry as a compile step's outcome. */
export function compileStep(entry: CompiledEntry, hit: boolean): CompileStep {
  if (entry.systemError !== undefined) return { kind: "ie", detail: entry.systemError };
  if (!entry.ok) return { kind: "ce", diagnostics: entry.diagnostics, cached: hit };
  return { kind: "ok", entry, cached: hit };
}

/** Runs the language's compile step in `box` (retrying sandbox failures) and says whether its result may be cached. */
export async function compileInBox(
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

/** The judge's compile (through its cache, retrying sandbox failures) as a validator needs it. */
export function validatorCompiler(cache: CompileCache, box: Box, log?: Logger): CompileValidator {
  return {
    async compile(language, code, keyText) {
      const step = await compileCached(cache, box, language, code, log, { kind: "validator", keyText });
      return step.kind === "ok" ? { kind: "ok", files: step.entry.files } : step;
    },
    cached: (keyText, make) => cachedBuild(cache, keyText, make),
  };
}

/**
 * A problem's own program built once per content (a validator's program folder or C++ source, a Polygon package's
 * checker, generators and main solution: ../packages/polygon/build.ts), through the compile cache's
 * `validator-build` key space (`keyText` names every file). Failed builds for the system's reasons are not kept.
 * @returns the build's step: `ok` with the files to run, `ce` with the diagnostics, `ie` on a sandbox failure.
 */
export async function cachedBuild(cache: CompileCache, keyText: string, make: () => Promise<{ step: BuildStep; cacheable: boolean }>): Promise<BuildStep> {
  const key = cache.key("script", [], keyText, "validator-build");
  const { entry, hit } = await cache.getOrCompile(key, async () => {
    const { step, cacheable } = await make();
    const entry: CompiledEntry =
      step.kind === "ok"
        ? { ok: true, diagnostics: "", files: step.files, sourceFile: "run" }
        : step.kind === "ce"
          ? { ok: false, diagnostics: step.diagnostics, files: [], sourceFile: "run" }
          : { ok: false, diagnostics: "", files: [], sourceFile: "run", systemError: step.detail };
    return { entry, cacheable: cacheable && step.kind !== "ie" };
  });
  const step = compileStep(entry, hit);
  return step.kind === "ok" ? { kind: "ok", files: step.entry.files } : step;
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

