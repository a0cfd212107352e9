/**
 * A course submission together with what the caller may do with its review:
 * the one place reviews and regrade requests check who asks (through
 * COURSE_PERMISSIONS, ../permissions.ts). Someone who may not see the
 * submission is told it does not exist.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, extensions, problems, submissions, users } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { requireAssignment, requireNotArchived, type AssignmentRow, type CourseRow } from "../access.ts";
import { can, type Actor, type CourseAction } from "../permissions.ts";
import { windowOf } from "../scores.ts";
import { studentAdjust } from "../student-window.ts";
import { judgePoints } from "./score.ts";

export type SubmissionRow = typeof submissions.$inferSelect;

/** A reviewable submission and the caller's standing. */
export interface Reviewable {
  submission: SubmissionRow;
  assignment: AssignmentRow;
  course: CourseRow;
  actor: Actor;
  /** The caller reads every member's work here (`submission.readAll`). */
  staff: boolean;
  problemTitle: string;
  /** The problem's points in the assignment. */
  maxPoints: number;
  student: { userId: string; firstName: string; lastName: string };
}

/**
 * Loads a submission made for an assignment, as `user` may see it.
 * @throws AppError SUBMISSION_NOT_FOUND (404) when absent or neither the caller's own nor theirs to read as staff;
 *   NOT_ASSIGNMENT_SUBMISSION (409) for staff on a submission made outside an assignment (a student's own: REVIEW_NOT_FOUND, 404).
 */
export async function loadReviewable(db: Database, user: Caller, submissionId: string, now: number): Promise<Reviewable> {
  const [submission] = await db.select().from(submissions).where(eq(submissions.id, submissionId)).limit(1);
  if (!submission) throw new AppError("SUBMISSION_NOT_FOUND");
  if (!submission.assignmentId) throw new AppError(submission.userId === user.id ? "REVIEW_NOT_FOUND" : "SUBMISSION_NOT_FOUND");
  const found = await requireAssignment(db, user, submission.assignmentId, "course.view", now).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) throw new AppError("SUBMISSION_NOT_FOUND");
    throw err;
  });
  const staff = can(found.actor, "submission.readAll");
  if (!staff && submission.userId !== user.id) throw new AppError("SUBMISSION_NOT_FOUND");
  const [[problem], [ap], [student]] = await Promise.all([
    db.select({ title: problems.title }).from(problems).where(eq(problems.id, submission.problemId)).limit(1),
    db
      .select({ points: assignmentProblems.points })
      .from(assignmentProblems)
      .where(and(eq(assignmentProblems.assignmentId, submission.assignmentId), eq(assignmentProblems.problemId, submission.problemId)))
      .limit(1),
    db.select({ userId: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, submission.userId)).limit(1),
  ]);
  return {
    submission,
    ...found,
    staff,
    problemTitle: problem?.title ?? "",
    maxPoints: ap?.points ?? 0,
    student: student ?? { userId: submission.userId, firstName: "", lastName: "" },
  };
}

/**
 * @throws AppError FORBIDDEN (403) when the caller may not do `action` in the submission's course;
 *   COURSE_ARCHIVED (403) for a write there; NOT_ASSIGNMENT_SUBMISSION never (loadReviewable checked).
 */
export function requireRight(r: Reviewable, action: CourseAction): void {
  if (!can(r.actor, action)) throw new AppError("FORBIDDEN");
  requireNotArchived(r.course);
}

/** The judge's points for the submission (its raw score × late factor × the problem's points, in the student's window). */
export async function judgePointsOf(db: Database, r: Reviewable): Promise<number> {
  const s = r.submission;
  if (s.status !== "done") return 0;
  const [ext] = await db
    .select()
    .from(extensions)
    .where(and(eq(extensions.assignmentId, r.assignment.id), eq(extensions.userId, s.userId)))
    .limit(1);
  const w = windowOf(r.assignment, ext, await studentAdjust(db, r.assignment, s.userId));
  return judgePoints({ ...s, createdAt: s.createdAt.getTime() }, r.assignment, w, r.maxPoints);
}
