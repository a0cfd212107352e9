/**
 * Feedback and AI policies of an assignment, and what each lets a student
 * see. After CMS's per-task feedback levels and DOMjudge's lessons (showing
 * hidden-test output leaks test data: DOMjudge #2526, PR #2256; showing the
 * first failing test helps learners: PR #2696):
 *
 * | level           | the student sees |
 * |-----------------|------------------|
 * | `verdict`       | the final verdict, the sample's result (its own test data), compiler output |
 * | `tests`         | also every test's verdict, time and memory |
 * | `first-failure` | also the first failing hidden test's input, expected and actual output (interactive: the interaction's transcript), cut to a few KiB |
 * | `full`          | also the program's stderr on that test |
 *
 * Staff always see everything their role allows; the policy is the student's.
 */

export const FEEDBACK_LEVELS = ["verdict", "tests", "first-failure", "full"] as const;
export type FeedbackLevel = (typeof FEEDBACK_LEVELS)[number];

export const AI_POLICIES = ["off", "hints", "full"] as const;
export type AiPolicy = (typeof AI_POLICIES)[number];

/** Default feedback of a graded assignment (one with a due time). */
export const GRADED_DEFAULT_FEEDBACK: FeedbackLevel = "tests";
/** Default feedback of a practice assignment (no due time). */
export const PRACTICE_DEFAULT_FEEDBACK: FeedbackLevel = "first-failure";

/** Bytes of each of the failing test's input, expected and actual output (and stderr) kept and shown. */
export const FAILURE_EXCERPT_MAX_BYTES = 4 * 1024;

/** Whether level `a` shows at least what level `b` shows. */
export function atLeast(a: FeedbackLevel, b: FeedbackLevel): boolean {
  return FEEDBACK_LEVELS.indexOf(a) >= FEEDBACK_LEVELS.indexOf(b);
}

/**
 * The level in force for a student: `feedbackAfterClose`, once their window
 * has closed and when it shows more, else `feedback`.
 */
export function feedbackInForce(
  p: { feedback: FeedbackLevel; feedbackAfterClose: FeedbackLevel | null },
  closed: boolean,
): FeedbackLevel {
  if (closed && p.feedbackAfterClose && atLeast(p.feedbackAfterClose, p.feedback)) return p.feedbackAfterClose;
  return p.feedback;
}

/** What the AI panel says about each policy. */
export const AI_POLICY_TEXT: Record<AiPolicy, string> = {
  off: "AI review is off for this assignment.",
  hints: "AI review gives hints only for this assignment: it explains the verdict and points at problems, but writes no code.",
  full: "AI review is fully available for this assignment.",
};
