/**
 * Who-is-stuck analytics: the definitions (decision 078). Everything is
 * counted from judged submissions that count for the assignment:
 *
 * - a **counted submission** has `assignment_id` = the assignment (it was made
 *   while the assignment was open), is judged (`status = 'done'`), its verdict
 *   is not IE (the system's fault, not the student's), its problem is one of
 *   the assignment's, and its author is a student of the course now;
 * - per problem, a student has **not started** (no counted submission),
 *   is **attempting** (some, none AC) or has **solved** it (one AC or more);
 * - **attempts before the first AC**: the solver's counted submissions made
 *   strictly before their first AC (0 when the first one was accepted);
 * - **time to solve**: from the solver's first counted submission to the
 *   problem to their first AC, in ms (0 when the first was accepted); the
 *   median over the problem's solvers (the mean of the middle two for an even
 *   count);
 * - **hidden test failed first**: each failed counted submission's first
 *   failing hidden test (1-based, as the judge keeps it in
 *   `submission_failures`; nothing is kept for a public problem linked into a
 *   course, decision 032), counted per test; the most frequent (lowest index
 *   on a tie) is the problem's `topFailedTest`;
 * - **stuck**: a student is stuck on a problem when they made at least
 *   `minFailed` failed counted submissions to it inside the window (the last
 *   hour or day before now, the start excluded) and have no AC on it at all.
 */
import { z } from "zod";
import { listInWords } from "../../lib/words.ts";
import { idField } from "../../lib/fields.ts";
import type { VerdictCode } from "../../verdicts.ts";

/** The stuck list's windows and their length, ms. */
export const STUCK_WINDOWS_MS = { hour: 3_600_000, day: 86_400_000 } as const;
export type StuckWindow = keyof typeof STUCK_WINDOWS_MS;
const WINDOW_NAMES = Object.keys(STUCK_WINDOWS_MS) as [StuckWindow, ...StuckWindow[]];

/** "Several" failed attempts, unless the caller says how many. */
export const DEFAULT_MIN_FAILED = 3;
/** The most failed attempts a caller may ask for. */
export const MAX_MIN_FAILED = 100;
/** At most this many students in the stuck list (the most failed attempts first). */
export const STUCK_LIST_MAX = 500;

/**
 * The buckets of the "attempts before the first AC" histogram: `min` ≤ attempts ≤ `max` (null: no upper bound).
 * Labels are the client's (its catalogue); the server sends the bounds.
 */
export const ATTEMPT_BUCKETS: readonly { min: number; max: number | null }[] = [
  { min: 0, max: 0 },
  { min: 1, max: 1 },
  { min: 2, max: 2 },
  { min: 3, max: 4 },
  { min: 5, max: 9 },
  { min: 10, max: null },
];

/** Options of an analytics read: the stuck list's window and how many failed attempts make a student stuck. */
export const analyticsOptions = z.object({
  window: z.enum(WINDOW_NAMES, { error: `Must be ${listInWords(WINDOW_NAMES)}` }).default("hour"),
  minFailed: z
    .number({ error: "Must be a whole number" })
    .int({ error: "Must be a whole number" })
    .min(1, { error: "At least 1" })
    .max(MAX_MIN_FAILED, { error: `At most ${MAX_MIN_FAILED}` })
    .default(DEFAULT_MIN_FAILED),
});
export type AnalyticsOptions = z.infer<typeof analyticsOptions>;

/** The tRPC input: the assignment and the options. */
export const analyticsInput = analyticsOptions.extend({ id: idField() });

export interface ProblemAnalytics {
  problemId: string;
  title: string;
  /** Students with no counted submission to the problem. */
  notStarted: number;
  /** Students with counted submissions, none AC. */
  attempting: number;
  solved: number;
  /** Solvers per ATTEMPT_BUCKETS entry (same order): how many failed before their first AC. */
  attemptsBeforeAc: { min: number; max: number | null; students: number }[];
  /** The median of the solvers' attempts before their first AC; null with no solver. */
  medianAttemptsBeforeAc: number | null;
  /** The median time to solve (first counted submission → first AC), ms; null with no solver. */
  medianTimeToSolveMs: number | null;
  /** Counted submissions per verdict (only verdicts that occur), most frequent first. */
  verdicts: { verdict: VerdictCode; submissions: number }[];
  /** Failed submissions per first failing hidden test (1-based), in test order. */
  failedTests: { testIndex: number; submissions: number }[];
  /** The hidden test most often failed first (lowest on a tie); null when none is recorded. */
  topFailedTest: number | null;
}

export interface StuckStudent {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  problemId: string;
  /** Failed counted submissions to the problem inside the window. */
  failedInWindow: number;
  /** The latest of them: its verdict and time (ISO 8601). */
  lastVerdict: VerdictCode;
  lastSubmittedAt: string;
}

/** `GET /api/assignments/:id/analytics`'s answer. */
export interface AssignmentAnalytics {
  assignment: { id: string; courseId: string; title: string };
  /** Students of the course now. */
  students: number;
  problems: ProblemAnalytics[];
  stuck: {
    window: StuckWindow;
    minFailed: number;
    /** The window is (since, until]: ISO 8601. */
    since: string;
    until: string;
    students: StuckStudent[];
  };
  /** The assignment's scores version read with these figures (a verdict bumps it). */
  version: number;
  /** When computed (ISO 8601). */
  computedAt: string;
}

/** The bucket of ATTEMPT_BUCKETS that `attempts` falls in (its index). */
export function bucketOf(attempts: number): number {
  const i = ATTEMPT_BUCKETS.findIndex((b) => attempts >= b.min && (b.max === null || attempts <= b.max));
  return i < 0 ? ATTEMPT_BUCKETS.length - 1 : i;
}
