/**
 * Run (POST /api/compiler) on an interactive or multi-pass problem: the
 * custom input has no meaning there (the submission's input comes from the
 * validator), so Run judges the sample exactly as a submission's sample is
 * judged (src/judge/interactive.ts), in two boxes, and answers with the
 * transcript of the interaction (or the last pass's output) and the verdict.
 */
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { ProblemRow } from "../problems/shape.ts";
import type { CompileCache } from "./compile-cache.ts";
import { compileCached, reportedTimeMs, runOptions, validatorCompiler } from "./compile.ts";
import { judgePassedTest, reportedRun, transcriptText } from "./interactive.ts";
import type { RunResponse } from "./run-response.ts";
import { prepareValidator } from "./validator.ts";
import { passFailVerdict } from "./testlib.ts";

/** Whether Run and judging go through the problem's validator on every run (interactive or multi-pass). */
export function runsWithValidator(problem: Pick<ProblemRow, "interactive" | "validationPasses">): boolean {
  return problem.interactive || problem.validationPasses > 1;
}

/**
 * Compiles `code` and judges it on the problem's sample through the validator.
 * @returns Run's answer with `ranSample: true`; `verdict` and `correct` are the sample's.
 * @throws COMPILATION_ERROR (400) with `details.compileOutput`.
 */
export async function runSampleWithValidator(
  deps: { cache: CompileCache; backend: SandboxBackend; log: Logger },
  problem: Pick<ProblemRow, "sampleInput" | "sampleOutput" | "timeLimitMs" | "memoryLimitKib" | "timeScaledByLanguage" | "validator" | "interactive" | "validationPasses">,
  language: LanguageId,
  code: string,
): Promise<RunResponse> {
  const [box, vbox] = (await deps.backend.acquireMany(2)) as [never, never];
  try {
    const none = { output: "", stderr: "", exitCode: null, timeMs: 0, memoryKib: 0, outputTruncated: false, ranSample: true, correct: false } as const;
    const ready = problem.validator ? await prepareValidator(validatorCompiler(deps.cache, vbox, deps.log), vbox, problem.validator) : { error: "the problem has no validator" };
    if ("error" in ready) {
      deps.log.warn("judge: validator unusable in a run", { detail: ready.error });
      return { ...none, verdict: "IE", compileCached: false };
    }
    const compiled = await compileCached(deps.cache, box, language, code, deps.log);
    if (compiled.kind === "ce") {
      throw new AppError("COMPILATION_ERROR", { message: "Compilation error: the compiler rejected the program", details: { compileOutput: compiled.diagnostics } });
    }
    if (compiled.kind === "ie") {
      deps.log.warn("judge: sandbox failure during a run", { detail: compiled.detail });
      return { ...none, verdict: "IE", compileCached: false };
    }
    const opts = runOptions(language, problem.timeLimitMs, problem.memoryLimitKib, problem.timeScaledByLanguage);
    const t = await judgePassedTest({
      box, vbox, validator: ready, language, entry: compiled.entry.sourceFile, files: compiled.entry.files, filesInBox: !compiled.cached,
      limits: opts, input: problem.sampleInput, answer: problem.sampleOutput, interactive: problem.interactive, passes: problem.validationPasses, transcript: true,
    });
    if (t.verdict === "IE") deps.log.warn("judge: internal error in a run", { detail: t.reason });
    // A testlib checker's partial credit on the sample is not a pass (./testlib.ts).
    const verdict = passFailVerdict(t);
    const run = reportedRun(t.runs);
    return {
      output: t.transcript ? transcriptText(t.transcript) : t.output,
      verdict,
      correct: verdict === "AC",
      stderr: run.stderr,
      exitCode: run.exitCode,
      timeMs: reportedTimeMs(run),
      memoryKib: run.memoryKib,
      outputTruncated: t.transcript?.some((p) => p.truncated) ?? false,
      compileCached: compiled.cached,
      ranSample: true,
    };
  } finally {
    for (const b of [box, vbox]) void deps.backend.release(b).catch((err: unknown) => deps.log.warn("judge: releasing a box after a run failed", { error: String(err) }));
  }
}
