/**
 * testlib checkers and interactors, judged as Polygon judges them
 * (../shared/polygon.md §2, testlib.h 0.9.45):
 *
 *   check <input> <output> <answer>        (in the checker's own box)
 *   interactor <input> <tout>              (talking with the submission over pipes)
 *
 * Exit codes: 0 OK → AC; 1 WA → WA; 2 PE → WA (presentation error, with the
 * checker's message); 3 FAIL → IE (the checker's failure, never a user
 * verdict); 7 with `points X` first on stderr → partial credit: X % of the
 * test's points when the problem treats points as percent
 * (`treat-points-from-checker-as-percent`), else X points; any other exit, a
 * signal or a limit → IE. testlib's `_pc(n)` exits with 0 + n and is not
 * trusted (polygon.md §2.1). Partial credit becomes the test's score file
 * (./groups.ts: score_multiplier.txt for a percent, score.txt for points); on
 * a problem without scored groups, or in a pass-fail group, a partial score is
 * not full marks: WA.
 */
import type { RunResult } from "../../isolate/types.ts";
import type { ScoreFile } from "./groups.ts";

export const TESTLIB_EXIT = { ok: 0, wrongAnswer: 1, presentationError: 2, fail: 3, points: 7 } as const;

/** Names in the checker's box: the program's output, and the interactor's `tout` (the checker's output on an interactive problem). */
export const TESTLIB_OUTPUT_FILE = "judge_output.out";
export const TESTLIB_TOUT_FILE = "tout";

/** What the checker or interactor said: AC (with a score file for partial credit), WA with its message, or IE. */
export type TestlibOutcome = { verdict: "AC"; scoreFile?: ScoreFile } | { verdict: "WA"; reason: string } | { verdict: "IE"; reason: string };

/** The first line of what the program wrote to stderr, cut to 200 characters (for the operator; may describe hidden data, never shown to users). */
function said(result: RunResult): string {
  return (result.stderr.split("\n").find((l) => l.trim()) ?? "").trim().slice(0, 200);
}

/**
 * Reads a testlib program's run.
 * @param who "checker" or "interactor", for the reason.
 * @param pointsAsPercent the problem's `treat-points-from-checker-as-percent`.
 */
export function testlibOutcome(result: RunResult, pointsAsPercent: boolean, who: "checker" | "interactor" = "checker"): TestlibOutcome {
  if (result.status === "XX") return { verdict: "IE", reason: `${who}: sandbox failure: ${result.message ?? "unknown"}` };
  if (result.status !== "OK" && result.status !== "RE") {
    return { verdict: "IE", reason: `${who} failed (${result.status === "SG" ? `signal ${result.signal}` : result.status}): ${said(result)}` };
  }
  switch (result.exitCode) {
    case TESTLIB_EXIT.ok:
      return { verdict: "AC" };
    case TESTLIB_EXIT.wrongAnswer:
      return { verdict: "WA", reason: `${who}: ${said(result) || "wrong answer"}` };
    case TESTLIB_EXIT.presentationError:
      return { verdict: "WA", reason: `${who}: presentation error: ${said(result) || "wrong output format"}` };
    case TESTLIB_EXIT.fail:
      return { verdict: "IE", reason: `${who} failed (exit 3, FAIL): ${said(result)}` };
    case TESTLIB_EXIT.points: {
      const m = /^points\s+([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/.exec(result.stderr.trimStart());
      if (!m) return { verdict: "IE", reason: `${who} exited 7 (points) without "points X" on stderr: ${said(result)}` };
      const x = Number(m[1]);
      return { verdict: "AC", scoreFile: pointsAsPercent ? { kind: "multiplier", text: String(x / 100) } : { kind: "score", text: String(x) } };
    }
    default:
      return { verdict: "IE", reason: `${who} exited ${result.exitCode}: not a testlib verdict (0, 1, 2, 3, 7)` };
  }
}

/**
 * A partial score where none can count: a problem without scored groups, or a
 * test of a pass-fail (complete-group) group. Full marks stay AC; anything
 * less is WA, as Polygon gives no points there.
 */
export function partialWithoutPoints(scoreFile: ScoreFile | undefined): { verdict: "AC" | "WA"; reason?: string } {
  if (!scoreFile || scoreFile.kind === "both") return { verdict: "AC" };
  const v = Number(scoreFile.text);
  if (scoreFile.kind === "multiplier" && v >= 1) return { verdict: "AC" };
  return { verdict: "WA", reason: `checker: partial points (${scoreFile.kind === "multiplier" ? `${v * 100} %` : `${v} points`}) where the test is all or nothing` };
}

/** A verdict where no points can count (a pass-fail problem's test, a Run): a testlib checker's partial credit is WA (partialWithoutPoints). */
export function passFailVerdict<V extends string>(outcome: { verdict: V; scoreFile?: ScoreFile }): V | "WA" {
  return outcome.verdict === "AC" && outcome.scoreFile ? (partialWithoutPoints(outcome.scoreFile).verdict as V | "WA") : outcome.verdict;
}
