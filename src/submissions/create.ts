/**
 * Creating a submission: the problem must be one the caller may see (or be in
 * the named assignment, whose window is checked first), the caller's
 * per-minute budget (SUBMIT_RATE_PER_MINUTE) is spent, and the row is stored
 * `queued` for the judge, which the doorbell wakes. Judging it is
 * src/judge/judge-submission.ts's.
 */
import type { Database } from "../../db/index.ts";
import { submissions } from "../../db/schema.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { Caller } from "../accounts/user.ts";
import { submissionTarget } from "../courses/course-problems.ts";
import { requireVisibleProblem } from "../problems/access.ts";
import { AppError } from "../errors.ts";
import type { JudgeEvents } from "../judge/events.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import type { ProblemRow } from "../problems/shape.ts";
import { requireLiveProblem } from "../problems/store.ts";
import { requireJudgeable, requireOffered } from "../judge/languages.ts";
import { isEmailVerified } from "../accounts/email/address.ts";

/** What the submission functions need (built once by the judge service: `JudgeService.submissions`). */
export interface SubmissionDeps {
  db: Database;
  /** The judge's doorbell: `queued()` wakes the consumer, `waitChanged` wakes waiters and streams. */
  events: JudgeEvents;
  /** The clock submission times and deadlines are read from, ms. */
  now: () => number;
  /** Per-user submission budget, and its size per minute (for the message). */
  submitLimiter: RateLimiter;
  submitRatePerMinute: number;
  /** The languages this server offers (src/judge/languages.ts); others are refused. */
  languages: readonly LanguageId[];
  /** Refuses submissions this process should judge but cannot (no sandbox); absent when judging happens elsewhere. */
  requireJudge?: () => void;
  /** REQUIRE_VERIFIED_EMAIL_TO_SUBMIT: only accounts with a verified address submit (site admins are exempt). */
  requireVerifiedEmail?: boolean;
}

export interface SubmitInput {
  problemId: string;
  code: string;
  language: LanguageId;
  /** Submit inside this assignment (its window and policies apply). */
  assignmentId?: string;
}

/**
 * Another domain's reason to refuse an ordinary submission (practice or an
 * assignment) to a problem it holds: src/contests registers one (while a
 * contest runs, its participants judge its problems only in it). It throws an
 * AppError naming the reason; contest submissions do not ask it.
 */
export type SubmissionRestriction = (db: Database, caller: Caller, problem: ProblemRow, nowMs: number) => Promise<void>;

const restrictions: SubmissionRestriction[] = [];

/** Registers a restriction (once: registering the same function again does nothing). */
export function restrictSubmissions(restriction: SubmissionRestriction): void {
  if (!restrictions.includes(restriction)) restrictions.push(restriction);
}

/** A caller: a signed-in user (id and site role), or a bare user id (scripts and tests: a plain user). */
export type SubmissionCaller = Caller | string;
export const callerOf = (c: SubmissionCaller): Caller => (typeof c === "string" ? { id: c, siteRole: "user" } : c);

/**
 * Stores a submission and queues it for judging.
 * @returns the new submission's id.
 * @throws SANDBOX_UNAVAILABLE (503) when this process judges but has no sandbox; LANGUAGE_UNAVAILABLE (400)
 *   for a language this server does not offer; RATE_LIMITED (429) past
 *   SUBMIT_RATE_PER_MINUTE; PROBLEM_NOT_FOUND (404); a restriction's FORBIDDEN (403: the problem is in a contest the caller
 *   takes part in now, named); the assignment's window errors (403) from submissionTarget; EMAIL_NOT_VERIFIED (403)
 *   under REQUIRE_VERIFIED_EMAIL_TO_SUBMIT.
 */
export async function createSubmission(deps: SubmissionDeps, caller: SubmissionCaller, input: SubmitInput): Promise<{ id: string }> {
  const viewer = callerOf(caller);
  deps.requireJudge?.();
  await requireVerifiedEmail(deps, viewer);
  requireOffered(deps.languages, input.language);
  const now = deps.now();
  // Inside a named assignment its window is checked first (a student learns when it opens, with a 403);
  // otherwise the problem must be one the caller can see.
  const problem =
    input.assignmentId !== undefined
      ? await requireLiveProblem(deps.db, input.problemId, "problemId")
      : await requireVisibleProblem(deps.db, viewer, input.problemId, now, "problemId");
  requireJudgeable(deps.languages, input.language, problem);
  for (const restriction of restrictions) await restriction(deps.db, viewer, problem, now);
  const target = await submissionTarget(deps.db, viewer, problem, input.assignmentId, now);
  return queue(deps, viewer.id, input, { assignmentId: target.assignmentId, runAllTests: target.runAllTests });
}

/** Where a contest submission counts, decided by src/contests (which checked the window and the problem). */
export interface ContestTarget {
  contestId: string;
  /** The team it counts for; null for the jury's own (off the scoreboard). */
  teamId: string | null;
  /** Every test is run (IOI scoring takes the share of hidden tests passed). */
  runAllTests: boolean;
}

/**
 * Stores a contest submission and queues it: the same judge, limits and
 * checkers as any submission; the contest decided who may and when.
 * @throws SANDBOX_UNAVAILABLE (503), LANGUAGE_UNAVAILABLE (400), RATE_LIMITED (429), PROBLEM_NOT_FOUND (404),
 *   EMAIL_NOT_VERIFIED (403) under REQUIRE_VERIFIED_EMAIL_TO_SUBMIT.
 */
export async function createContestSubmission(
  deps: SubmissionDeps,
  caller: SubmissionCaller,
  input: Omit<SubmitInput, "assignmentId">,
  target: ContestTarget,
): Promise<{ id: string; createdAt: Date }> {
  const viewer = callerOf(caller);
  deps.requireJudge?.();
  await requireVerifiedEmail(deps, viewer);
  requireOffered(deps.languages, input.language);
  requireJudgeable(deps.languages, input.language, await requireLiveProblem(deps.db, input.problemId, "problemId"));
  return queue(deps, viewer.id, input, { contestId: target.contestId, teamId: target.teamId, runAllTests: target.runAllTests });
}

/**
 * Spends one of the user's submissions this minute, stores the row `queued`
 * (stamped with the deps' clock) and rings the judge's doorbell.
 * @throws RATE_LIMITED (429) past SUBMIT_RATE_PER_MINUTE.
 */
async function queue(
  deps: SubmissionDeps,
  userId: string,
  input: Omit<SubmitInput, "assignmentId">,
  where: Pick<typeof submissions.$inferInsert, "assignmentId" | "contestId" | "teamId" | "runAllTests">,
): Promise<{ id: string; createdAt: Date }> {
  spendSubmitBudget(deps, userId);
  const createdAt = new Date(deps.now());
  const [row] = await deps.db
    .insert(submissions)
    .values({ userId, problemId: input.problemId, language: input.language, code: input.code, status: "queued", ...where, createdAt })
    .returning({ id: submissions.id });
  deps.events.queued();
  return { id: row!.id, createdAt };
}

/**
 * Under REQUIRE_VERIFIED_EMAIL_TO_SUBMIT, refuses an account whose address is not verified (decision 071); site
 * admins are exempt (the operator's own accounts, often made on the command line without mail).
 * @throws EMAIL_NOT_VERIFIED (403, naming the setting).
 */
async function requireVerifiedEmail(deps: SubmissionDeps, viewer: Caller): Promise<void> {
  if (!deps.requireVerifiedEmail || viewer.siteRole === "admin") return;
  if (!(await isEmailVerified(deps.db, viewer.id))) throw new AppError("EMAIL_NOT_VERIFIED", { details: { setting: "REQUIRE_VERIFIED_EMAIL_TO_SUBMIT" } });
}

/** Spends one of the user's submissions this minute. @throws RATE_LIMITED (429) past SUBMIT_RATE_PER_MINUTE. */
function spendSubmitBudget(deps: SubmissionDeps, userId: string): void {
  const rate = deps.submitLimiter.hit(userId);
  if (!rate.ok) {
    throw new AppError("RATE_LIMITED", {
      message: `At most ${deps.submitRatePerMinute} submissions per minute. Try again in ${rate.retryAfterSeconds} s.`,
      retryAfterSeconds: rate.retryAfterSeconds,
    });
  }
}
