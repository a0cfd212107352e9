/**
 * A submission as every route, event and history entry returns it (REST and
 * tRPC alike), and the one function that turns a row into it. Never the
 * lease, the attempts, the operator's `errorDetail` or anything of the hidden tests.
 */
import type { GroupResultRow, submissionFailures, submissionTests, SubmissionStatus, Verdict } from "../../db/schema.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import { atLeast, type FeedbackLevel } from "../courses/policy.ts";
import type { SubmissionRow } from "./row.ts";

/** One test's result inside a submission (0 is the sample; hidden tests follow). */
export interface SubmissionTestShape {
  index: number;
  isSample: boolean;
  verdict: Verdict;
  timeMs: number;
  memoryKib: number;
}

/**
 * Where a submission was made: practice (the problem on its own), an
 * assignment or a contest, with its title. `name` is "" when the
 * assignment or contest is gone.
 */
export type SubmissionContext = { kind: "practice" } | { kind: "assignment"; id: string; name: string } | { kind: "contest"; id: string; name: string };

/** A submission as the history returns it (REST and tRPC alike). */
export interface SubmissionShape {
  _id: string;
  problemId: string;
  /** The problem's title, kept readable after the problem is deleted. */
  problemTitle: string;
  problemDeleted: boolean;
  code: string;
  language: LanguageId;
  /** The sample run's output and the sample's expected output. */
  output: string;
  expectedOutput: string;
  /** True exactly when every test passed (verdict AC). */
  isPassed: boolean;
  /** Null until judged (`status` is not `done`). */
  verdict: Verdict | null;
  /** The verdict before the latest rejudge; null when never rejudged. */
  previousVerdict: Verdict | null;
  status: SubmissionStatus;
  /** Compiler diagnostics on CE, else null. */
  compileOutput: string | null;
  /** Max CPU time (ms) and peak memory (KiB) over the tests run; null until judged. */
  timeMs: number | null;
  memoryKib: number | null;
  /** Tests passed and in all (sample included); null when the feedback policy shows only the verdict. */
  testsPassed: number | null;
  testsTotal: number | null;
  /** Per-test results; only the sample's when the feedback policy shows only the verdict. */
  tests: SubmissionTestShape[];
  /** A scoring problem's score and its maximum (e.g. 40 of 100); null on a pass-fail problem or until judged. */
  score: number | null;
  maxScore: number | null;
  /** A scoring problem's groups as judged (verdict null: not run); null when the feedback policy shows only the verdict. */
  groups: GroupResultRow[] | null;
  /** The assignment this submission counts for, or null. */
  assignmentId: string | null;
  /** Where it was made (practice, an assignment, a contest), with the assignment's or contest's title. */
  context: SubmissionContext;
  /** How much this response shows (src/courses/policy.ts): `tests` outside assignments. */
  feedback: FeedbackLevel;
  /** The first failing hidden test, at `first-failure` and `full` (stderr at `full` only). */
  firstFailure?: { test: number; input: string; expectedOutput: string; actualOutput: string; stderr?: string } | null;
  /** ISO 8601. */
  createdAt: string;
}

export type SubmissionTestRow = typeof submissionTests.$inferSelect;
export type SubmissionFailureRow = typeof submissionFailures.$inferSelect;

/** The public shape of one test row. */
export function toTestShape(t: SubmissionTestRow): SubmissionTestShape {
  return { index: t.index, isSample: t.isSample, verdict: t.verdict, timeMs: t.timeMs, memoryKib: t.memoryKib };
}

/**
 * The public shape of a submission row with its finished tests (in order).
 * @param problem the problem's title and deletion time; undefined when the problem row is gone (reads as deleted).
 */
export function toSubmissionShape(
  row: SubmissionRow,
  problem: { title: string; deletedAt: Date | null } | undefined,
  tests: SubmissionTestRow[],
  /** Titles of the submission's assignment and contest, when it has them (src/submissions/read.ts reads them). */
  titles: { assignment?: string | null; contest?: string | null } = {},
): SubmissionShape {
  return {
    _id: row.id,
    problemId: row.problemId,
    problemTitle: problem?.title ?? "",
    problemDeleted: !problem || problem.deletedAt !== null,
    code: row.code,
    language: row.language,
    output: row.output,
    expectedOutput: row.expectedOutput,
    isPassed: row.isPassed,
    verdict: row.verdict,
    previousVerdict: row.previousVerdict,
    status: row.status,
    compileOutput: row.compileOutput,
    timeMs: row.timeMs,
    memoryKib: row.memoryKib,
    testsPassed: row.testsPassed,
    testsTotal: row.testsTotal,
    tests: tests.map(toTestShape),
    score: row.score,
    maxScore: row.maxScore,
    groups: row.groupResults ?? null,
    assignmentId: row.assignmentId,
    context: contextOf(row, titles),
    feedback: "tests",
    createdAt: row.createdAt.toISOString(),
  };
}

/** The context of a row: a contest wins over an assignment (a contest submission has no assignment), else practice. */
export function contextOf(row: Pick<SubmissionRow, "assignmentId" | "contestId">, titles: { assignment?: string | null; contest?: string | null }): SubmissionContext {
  if (row.contestId) return { kind: "contest", id: row.contestId, name: titles.contest ?? "" };
  if (row.assignmentId) return { kind: "assignment", id: row.assignmentId, name: titles.assignment ?? "" };
  return { kind: "practice" };
}

/**
 * Cuts a shape down to what `level` shows (src/courses/policy.ts): `verdict`
 * keeps only the sample's row and hides the counts; `first-failure` adds the
 * first failing hidden test's data, `full` its stderr too. Pure.
 */
export function applyFeedback(shape: SubmissionShape, level: FeedbackLevel, failure: SubmissionFailureRow | null): SubmissionShape {
  const out: SubmissionShape = { ...shape, feedback: level };
  if (level === "verdict") {
    out.tests = shape.tests.filter((t) => t.isSample);
    out.testsPassed = null;
    out.testsTotal = null;
    out.groups = null;
  }
  if (atLeast(level, "first-failure")) {
    out.firstFailure = failure
      ? {
          test: failure.testIndex,
          input: failure.input,
          expectedOutput: failure.expectedOutput,
          actualOutput: failure.actualOutput,
          ...(level === "full" ? { stderr: failure.stderr } : {}),
        }
      : null;
  }
  return out;
}
