/**
 * Rejudging: judged submissions go back to the queue with their verdict kept
 * as `previous_verdict` (the history shows both), their test rows cleared;
 * the queue serves live submissions before rejudges (src/submissions/queue.ts), and
 * the gradebook follows each new verdict as it follows a first one.
 *
 * Who may: a public problem's owner (or a site admin); for a course problem,
 * the course's members with `submission.rejudge` (src/courses/permissions.ts);
 * and never against a hold on the problem (src/problems/operations.ts
 * `requireProblemChangeAllowed`: a contest not yet finalized holds its problems
 * for its jury). A contest's submissions are requeued here only for that
 * contest's jury (its own door is src/contests/jury.ts): whoever else may
 * rejudge the problem leaves them as judged, so no one outside the jury
 * changes a contest's verdicts, finalized or not.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, submissions, submissionTests } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireCourse } from "../courses/access.ts";
import { AppError } from "../errors.ts";
import { requireProblemChangeAllowed } from "../problems/operations.ts";
import { requireLiveProblem } from "../problems/store.ts";

/**
 * Which of `contestIds` the caller is the jury of (src/contests registers it).
 * Until one is registered, none: contest submissions stay as judged.
 */
export type ContestJuryCheck = (db: Database, caller: Caller, contestIds: readonly string[]) => Promise<ReadonlySet<string>>;

let juryOf: ContestJuryCheck = async () => new Set();

/** Registers the contests' jury check (the contest runtime does, at start). */
export function setContestJuryCheck(check: ContestJuryCheck): void {
  juryOf = check;
}

/** Most submissions one call re-queues (a problem with more is rejudged in several calls). */
export const REJUDGE_BATCH_MAX = 5000;

/**
 * Puts judged (`done`) submissions back in the queue; others are left alone.
 * The one requeue path: a problem's, a course's and a single rejudge all come here.
 * @param ring the judge's doorbell (`JudgeEvents.queued`), rung when something was queued.
 * @returns how many were re-queued.
 */
export async function requeueJudged(db: Database, ids: readonly string[], ring?: () => void): Promise<number> {
  if (!ids.length) return 0;
  const done = (
    await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(inArray(submissions.id, [...ids]), eq(submissions.status, "done")))
  ).map((r) => r.id);
  if (!done.length) return 0;
  await db.batch([
    db.delete(submissionTests).where(inArray(submissionTests.submissionId, done)),
    db
      .update(submissions)
      .set({
        status: "queued",
        previousVerdict: sql`${submissions.verdict}`,
        verdict: null,
        isPassed: false,
        testsPassed: 0,
        hiddenPassed: 0,
        score: null,
        maxScore: null,
        groupResults: null,
        compileOutput: null,
        errorDetail: null,
        attempts: 0,
        leaseOwner: null,
        leaseExpiresAt: null,
        judgedAt: null,
      })
      .where(and(inArray(submissions.id, done), eq(submissions.status, "done"))),
  ]);
  // The judge's doorbell: a consumer waiting for work takes the rejudges at once.
  ring?.();
  return done.length;
}

/**
 * Checks that `caller` may rejudge submissions of the problem: the right to
 * it, then the holds on it (a contest not yet finalized that uses it).
 * @param nowMs the clock the holds are read at, ms.
 * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403) for someone else's public problem,
 *   the course's FORBIDDEN (403) for a member without submission.rejudge, a hold's FORBIDDEN (403, naming the contest).
 */
export async function requireRejudgeRight(db: Database, caller: Caller, problemId: string, nowMs: number = Date.now()): Promise<void> {
  const problem = await requireLiveProblem(db, problemId);
  if (problem.courseId !== null) {
    await requireCourse(db, caller, problem.courseId, "submission.rejudge").catch((err: unknown) => {
      throw err instanceof AppError && err.kind === "COURSE_NOT_FOUND" ? new AppError("PROBLEM_NOT_FOUND") : err;
    });
  } else if (problem.userId !== caller.id && caller.siteRole !== "admin") {
    throw new AppError("NOT_PROBLEM_OWNER_UPDATE");
  }
  await requireProblemChangeAllowed(db, caller, problem, nowMs);
}

/** The rows the caller may requeue: every one outside a contest, a contest's only for its jury. */
async function mayRequeue<T extends { contestId: string | null }>(db: Database, caller: Caller, rows: readonly T[]): Promise<T[]> {
  const contestIds = [...new Set(rows.flatMap((r) => (r.contestId ? [r.contestId] : [])))];
  const jury = contestIds.length ? await juryOf(db, caller, contestIds) : new Set<string>();
  return rows.filter((r) => r.contestId === null || jury.has(r.contestId));
}

/**
 * Rejudges every judged submission of a problem (after its tests or limits
 * changed), a contest's only when the caller is its jury.
 * @returns how many were queued again.
 * @throws requireRejudgeRight's errors.
 */
export async function rejudgeProblem(db: Database, caller: Caller, problemId: string, ring?: () => void): Promise<{ queued: number }> {
  await requireRejudgeRight(db, caller, problemId);
  const rows = await db
    .select({ id: submissions.id, contestId: submissions.contestId })
    .from(submissions)
    .where(and(eq(submissions.problemId, problemId), eq(submissions.status, "done")))
    .limit(REJUDGE_BATCH_MAX);
  return { queued: await requeueJudged(db, (await mayRequeue(db, caller, rows)).map((r) => r.id), ring) };
}

/**
 * Rejudges one submission.
 * @throws SUBMISSION_NOT_FOUND (404) when absent or the caller may not rejudge it; FORBIDDEN (403) for a hold on its
 *   problem (naming the contest) or a contest submission the caller is not the jury of.
 */
export async function rejudgeOne(db: Database, caller: Caller, submissionId: string, ring?: () => void): Promise<{ id: string; status: "queued" }> {
  const [row] = await db
    .select({ id: submissions.id, problemId: submissions.problemId, contestId: submissions.contestId })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row) throw new AppError("SUBMISSION_NOT_FOUND");
  await requireRejudgeRight(db, caller, row.problemId).catch((err: unknown) => {
    throw err instanceof AppError && (err.kind === "PROBLEM_NOT_FOUND" || err.kind === "NOT_PROBLEM_OWNER_UPDATE") ? new AppError("SUBMISSION_NOT_FOUND") : err;
  });
  if ((await mayRequeue(db, caller, [row])).length === 0) {
    throw new AppError("FORBIDDEN", { message: "This is a contest submission: only its contest's jury rejudges it (the contest's own rejudge)" });
  }
  await requeueJudged(db, [row.id], ring);
  return { id: row.id, status: "queued" };
}

/**
 * Rejudges one submission from a course's pages (assignments.rejudge): only a
 * submission to a course's own problem, by the course's staff with
 * submission.rejudge; a public problem's submissions are rejudged by its owner
 * (rejudgeOne, rejudgeProblem).
 * @throws SUBMISSION_NOT_FOUND (404) when absent, not a course problem's, or not the caller's course;
 *   FORBIDDEN (403) for a member without submission.rejudge.
 */
export async function rejudgeCourseSubmission(db: Database, caller: Caller, submissionId: string, ring?: () => void): Promise<{ id: string; status: "queued" }> {
  const [row] = await db
    .select({ courseId: problems.courseId })
    .from(submissions)
    .innerJoin(problems, eq(problems.id, submissions.problemId))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row?.courseId) throw new AppError("SUBMISSION_NOT_FOUND");
  return rejudgeOne(db, caller, submissionId, ring);
}
