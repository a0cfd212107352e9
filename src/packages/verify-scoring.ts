/**
 * verify on a scoring package: an example submission is judged group by
 * group exactly as the judge does (src/judge/run-test.ts, src/judge/groups.ts),
 * a test slower than the time limit counting as TLE, and its score compared
 * with what the package expects of it:
 * - a score range from `submissions/submissions.yaml` (`score: 40` or
 *   `score: [30, 50]`) or an `@EXPECTED_SCORE@: 40` line in its source;
 * - else its folder: `accepted` is full score (AC), `partially_accepted`
 *   strictly between 0 and full, the others their verdict as on pass-fail
 *   problems.
 */
import type { Box } from "../../isolate/types.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import { GroupPlan } from "../judge/groups.ts";
import { reportedTimeMs } from "../judge/compile.ts";
import { OUTPUT_LIMIT_BYTES } from "../judge/limits.ts";
import { runTest } from "../judge/run-test.ts";
import type { ReadyValidator } from "../judge/validator.ts";
import type { ProblemPackage } from "./format.ts";

export interface ScoredJudgement {
  verdict: string;
  score: number;
  maxScore: number;
  maxTimeMs: number;
  detail?: string;
}

/** An expected score within [min, max] (inclusive, with 1e-6 of slack). */
export function scoreMatches(score: number, range: readonly [number, number]): boolean {
  return score >= range[0] - 1e-6 && score <= range[1] + 1e-6;
}

/**
 * Judges a compiled example submission on a scoring package.
 * @param compiled what compileSource gave (the box holds it).
 */
export async function judgeScored(
  c: { box: Box; vbox?: Box; validator: ReadyValidator | null },
  pkg: ProblemPackage & { scoring: NonNullable<ProblemPackage["scoring"]> },
  language: LanguageId,
  compiled: { entry: string; artifacts: { name: string; content: Uint8Array; mode: number }[] },
  tlMs: number,
  tlHighMs: number,
  memoryLimitKib: number,
  wallTimeLimitMs: number,
): Promise<ScoredJudgement> {
  const plan = new GroupPlan(pkg.scoring);
  const ctx = {
    box: c.box,
    ...(c.vbox ? { vbox: c.vbox } : {}),
    validator: c.validator,
    problem: {
      id: "verify", sampleInput: "", sampleOutput: "", timeLimitMs: tlHighMs, memoryLimitKib, timeScaledByLanguage: false,
      checker: pkg.validator ? (pkg.validator.testlib ? ("testlib" as const) : ("custom" as const)) : ("kattis" as const), checkerFlags: pkg.validatorFlags, validator: pkg.validator,
      interactive: pkg.interactive, validationPasses: pkg.validationPasses, scoring: pkg.scoring, pythonImplementation: pkg.pythonImplementation,
    },
    language,
    compiled: { ok: true, diagnostics: "", files: compiled.artifacts, sourceFile: compiled.entry },
    opts: { timeLimitMs: tlHighMs, wallTimeLimitMs, memoryLimitKib, outputLimitBytes: OUTPUT_LIMIT_BYTES },
    onRetry: () => {},
  };
  let maxTimeMs = 0;
  let hidden = 0;
  let detail: string | undefined;
  for (const test of pkg.tests) {
    const index = test.sample ? -1 : hidden++;
    if (!test.sample && !plan.shouldRun(index)) continue;
    const r = await runTest(ctx, { index: test.sample ? 0 : index + 1, input: test.input, expected: test.answer, isSample: test.sample }, undefined);
    maxTimeMs = Math.max(maxTimeMs, reportedTimeMs(r.result));
    // problemtools: slower than the time limit is TLE, whatever the output.
    const verdict = r.verdict === "AC" && r.result.cpuTimeMs > tlMs ? "TLE" : r.verdict;
    if (verdict !== "AC" && !detail) detail = `${test.name}: ${verdict}`;
    if (test.sample) plan.sample(verdict);
    else plan.record(index, { verdict, ...(r.scoreFile ? { scoreFile: r.scoreFile } : {}) });
  }
  const result = plan.result();
  return { verdict: result.verdict, score: result.score, maxScore: result.maxScore, maxTimeMs, ...(result.error ? { detail: result.error } : detail ? { detail } : {}) };
}
