/**
 * One test of a submission in its box: the program's run and the checker, or
 * the problem's own validator (in its box), or, for an interactive or
 * multi-pass problem, both together (./interactive.ts). What judging
 * (./judge-submission.ts) records of it: the verdict, the run (time,
 * memory), what the sample shows, and the validator's score file on a
 * scoring problem.
 */
import { runProgram } from "../../isolate/exec.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { Box, RunResult } from "../../isolate/types.ts";
import type { CheckerName } from "./checker.ts";
import type { CompiledEntry } from "./compile-cache.ts";
import { retryOnSandboxFailure, runOptions, sandboxRetrying } from "./compile.ts";
import { groupOfTests, type ScoreFile } from "./groups.ts";
import { judgePassedTest, reportedRun, transcriptText } from "./interactive.ts";
import type { JudgedProblem } from "./job-port.ts";
import { readScoreFile, runValidator, type ReadyValidator, type ValidatorOutcome } from "./validator.ts";
import { partialWithoutPoints } from "./testlib.ts";
import { testVerdict, type TestVerdict } from "./verdict.ts";

export interface TestRun {
  verdict: TestVerdict;
  reason?: string;
  result: RunResult;
  /** What the submission shows for the sample: its output, or the interaction's transcript. */
  shown: string;
  /** The validator's score.txt / score_multiplier.txt, when it ran on a scoring problem. */
  scoreFile?: ScoreFile;
}

export interface TestContext {
  box: Box;
  /** The validator's box and the validator, for the custom checker. */
  vbox?: Box;
  validator: ReadyValidator | null;
  problem: JudgedProblem;
  language: LanguageId;
  compiled: CompiledEntry;
  /** The run's limits; `wallTimeLimitMs` defaults to runWallLimitMs(timeLimitMs) (a verify gives its own, verifyWallLimitMs). */
  opts: ReturnType<typeof runOptions> & { wallTimeLimitMs?: number };
  /**
   * Records the interaction of hidden tests too (relayed through the runner): an assignment
   * submission's first failing test may be kept for feedback, its transcript as the program's output.
   */
  transcriptHidden?: boolean;
  /** Logs a retried sandbox failure of test `test`. */
  onRetry: (message: string | undefined, attempt: number, test: number) => void;
}

/**
 * Runs one test.
 * @param artifacts the compiled files to write first (undefined: the box holds them already).
 */
export async function runTest(c: TestContext, test: { index: number; input: string; expected: string; isSample: boolean }, artifacts: CompiledEntry["files"] | undefined): Promise<TestRun> {
  const { problem, validator, vbox } = c;
  const scoring = problem.scoring != null;
  if ((problem.interactive || problem.validationPasses > 1) && validator && vbox) {
    const t = await judgePassedTest({
      box: c.box, vbox, validator, language: c.language, entry: c.compiled.sourceFile, files: c.compiled.files, filesInBox: artifacts === undefined,
      limits: { timeLimitMs: c.opts.timeLimitMs, memoryLimitKib: c.opts.memoryLimitKib, outputLimitBytes: c.opts.outputLimitBytes },
      input: test.input, answer: test.expected, interactive: problem.interactive, passes: problem.validationPasses, transcript: test.isSample || c.transcriptHidden === true,
    });
    const scoreFile = validator.testlib ? t.scoreFile : scoring && !test.isSample && t.validatorRan ? await readScoreFile(vbox) : undefined;
    const shown = t.transcript ? transcriptText(t.transcript) : t.output;
    return withPoints(c, test, { verdict: t.verdict, ...(t.reason ? { reason: t.reason } : {}), result: reportedRun(t.runs), shown, ...(scoreFile ? { scoreFile } : {}) });
  }
  const result = await retryOnSandboxFailure(
    () => runProgram(c.box, c.language, { entry: c.compiled.sourceFile, artifacts, stdin: test.input, ...c.opts }),
    (r) => r,
    (message, attempt) => c.onRetry(message, attempt, test.index),
  );
  let validated = false;
  let checked: ValidatorOutcome | undefined;
  const { verdict, reason } = await testVerdict(
    result,
    test.expected,
    problem.checker as CheckerName,
    problem.checkerFlags,
    validator && vbox
      ? (output) => {
          validated = true;
          return runValidator(vbox, sandboxRetrying(vbox), validator, test.input, test.expected, output).then((o) => (checked = o));
        }
      : null,
  );
  const testlibScore = checked && "scoreFile" in checked ? checked.scoreFile : undefined;
  const scoreFile = validator?.testlib ? testlibScore : scoring && !test.isSample && validated && vbox ? await readScoreFile(vbox) : undefined;
  return withPoints(c, test, { verdict, ...(reason ? { reason } : {}), result, shown: result.stdout, ...(scoreFile ? { scoreFile } : {}) });
}

/**
 * A testlib checker's partial credit where it can count: a test of a scored
 * group that sums its tests; elsewhere (the sample, a pass-fail problem, a
 * complete-group group) less than full marks is WA (./testlib.ts).
 */
function withPoints(c: TestContext, test: { index: number; isSample: boolean }, run: TestRun): TestRun {
  if (!c.validator?.testlib || !run.scoreFile || run.verdict !== "AC") return run;
  const spec = c.problem.scoring;
  const group = spec && !test.isSample ? spec.groups[groupOfTests(spec)[test.index - 1] ?? -1] : undefined;
  if (group && group.aggregation !== "pass-fail") return run;
  const { scoreFile: _dropped, ...rest } = run;
  const judged = partialWithoutPoints(run.scoreFile);
  return { ...rest, verdict: judged.verdict, ...(judged.reason ? { reason: judged.reason } : {}) };
}
