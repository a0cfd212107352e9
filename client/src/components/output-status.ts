/**
 * What the solving page's output panel shows, as data: the display states of
 * a Run or a submission, and the one-line status the live region says
 * ("Accepted, 9 of 9 tests", "Wrong Answer on test 3", "Sample test passed"),
 * in the interface's language through the `solve` catalogue's `t`.
 * Kept apart from OutputPanel.tsx so a test can read it without the page.
 */
import { verdictName } from "../lib/verdicts.ts";
import type { Translate } from "../i18n/index.tsx";
import type { solve } from "../i18n/catalog/solve/index.ts";

/** The solving namespace's messages (useT(solve), or a test's English). */
export type SolveT = Translate<NonNullable<typeof solve.keys>>;

export interface RunOutcome {
  output: string;
  stderr: string;
  verdict: string;
  exitCode: number | null;
  timeMs: number;
  memoryKib: number;
}

export interface SampleOutcome extends RunOutcome {
  expected: string;
  correct: boolean;
  /** An interactive problem's sample: `output` is the interaction's transcript (`<` the validator, `>` the program). */
  interaction?: boolean;
}

export interface TestRow {
  index: number;
  isSample: boolean;
  verdict: string;
  timeMs: number;
  memoryKib: number;
}

export interface SubmissionProgress {
  status: "queued" | "compiling" | "running" | "done";
  /** Tests finished so far and tests in all (sample + hidden); total 0 until known. */
  testsDone: number;
  testsTotal: number;
  tests: TestRow[];
  verdict: string | null;
  compileOutput: string | null;
  /** While queued: submissions waiting before this one. */
  ahead?: number;
  /** The first failing hidden test, when the assignment's feedback policy shows it. */
  firstFailure?: { test: number; input: string; expectedOutput: string; actualOutput: string; stderr?: string } | null;
  /** A scoring problem: the score of the maximum, and each test group (verdict null: not run). */
  score?: number | null;
  maxScore?: number | null;
  groups?: { name: string; score: number; maxScore: number; verdict: string | null; testsRun: number }[] | null;
}

/** "45/100" with at most two decimals. */
export function scoreText(score: number, maxScore: number): string {
  const f = (n: number) => String(Math.round(n * 100) / 100);
  return `${f(score)}/${f(maxScore)}`;
}

/** Why a Run shows a note: custom input ignored (interactive or multi-pass), or nothing to run. */
export type RunNote = "customInputUnused" | "nothingToRun";

export const NOTE_KEYS = { customInputUnused: "note.customInputUnused", nothingToRun: "note.nothingToRun" } as const;
export const PENDING_KEYS = { compiling: "pending.compiling", submitting: "pending.submitting" } as const;

export type OutputState =
  | { kind: "empty" }
  | { kind: "pending"; phase: "compiling" | "submitting" }
  | { kind: "run"; custom?: RunOutcome; sample?: SampleOutcome; notes: RunNote[] }
  | { kind: "compileError"; diagnostics: string }
  | { kind: "error"; message: string }
  | { kind: "submission"; progress: SubmissionProgress; saved: boolean };

/**
 * The short status of an output state, as the live region says it: "" when
 * there is nothing to say; "Judging..." while a submission is judged (not each
 * test); the verdict with the tests passed, or the first failing test, once done.
 */
export function statusText(state: OutputState, t: SolveT): string {
  switch (state.kind) {
    case "empty":
      return "";
    case "pending":
      return t(PENDING_KEYS[state.phase]);
    case "error":
      return state.message;
    case "compileError":
      return verdictName("CE");
    case "run": {
      if (state.sample) {
        const v = state.sample.verdict;
        if (state.sample.correct) return t("status.samplePassed");
        return v && v !== "AC" && v !== "OK" && v !== "WA" ? t("status.sampleFailedVerdict", { verdict: verdictName(v) }) : t("status.sampleFailed");
      }
      if (state.custom) return state.custom.verdict === "OK" || state.custom.verdict === "AC" ? t("status.runFinished") : t("status.runFinishedVerdict", { verdict: verdictName(state.custom.verdict) });
      return state.notes[0] ? t(NOTE_KEYS[state.notes[0]]) : "";
    }
    case "submission": {
      const p = state.progress;
      if (p.status !== "done" || !p.verdict) return t("status.judging");
      const verdict = verdictName(p.verdict);
      const score = p.score != null && p.maxScore != null ? scoreText(p.score, p.maxScore) : null;
      if (p.verdict === "AC" && p.testsTotal > 0) {
        const values = { verdict, passed: p.tests.filter((r) => r.verdict === "AC").length, total: p.testsTotal, score: score ?? "" };
        return score === null ? t("status.acceptedTests", values) : t("status.acceptedTestsScore", values);
      }
      const failed = p.verdict === "AC" ? undefined : p.tests.find((r) => r.verdict !== "AC");
      if (!failed) return score === null ? verdict : t("status.verdictScore", { verdict, score });
      if (failed.isSample) return score === null ? t("status.onSample", { verdict }) : t("status.onSampleScore", { verdict, score });
      return score === null ? t("status.onTest", { verdict, test: failed.index }) : t("status.onTestScore", { verdict, test: failed.index, score });
    }
  }
}
