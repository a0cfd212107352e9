/**
 * Submissions as a particular viewer may see them: the author, or the staff
 * of the problem's course (TAs read every member's work), or a site admin;
 * anyone else is told it does not exist. Each response is cut to the
 * feedback level in force for that viewer (src/courses/feedback.ts) here, so
 * every door (history, submissions.byId, wait, the progress stream) shows the same.
 */
import { eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, submissionFailures } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireCourse } from "../courses/access.ts";
import { feedbackLevels } from "../courses/feedback.ts";
import { AppError } from "../errors.ts";
import { listUserHistory, readSubmission } from "./read.ts";
import { applyFeedback, type SubmissionFailureRow, type SubmissionShape } from "./shape.ts";

/** Kept failures, only ever of a course's own problem (src/courses/judging.ts keeps no other). */
async function failuresOf(db: Database, ids: string[]): Promise<Map<string, SubmissionFailureRow>> {
  if (!ids.length) return new Map();
  const rows = await db.select().from(submissionFailures).where(inArray(submissionFailures.submissionId, ids));
  return new Map(rows.map((r) => [r.submissionId, r]));
}

async function courseOf(db: Database, problemId: string): Promise<string | null> {
  const [p] = await db.select({ courseId: problems.courseId }).from(problems).where(eq(problems.id, problemId)).limit(1);
  return p?.courseId ?? null;
}

/**
 * One submission as `viewer` may see it, and whose it is.
 * @throws AppError SUBMISSION_NOT_FOUND (404) when absent, or neither the viewer's own nor readable by them as staff.
 */
export async function viewSubmission(db: Database, viewer: Caller, id: string, now: number): Promise<{ userId: string; submission: SubmissionShape }> {
  const found = await readSubmission(db, id);
  if (!found) throw new AppError("SUBMISSION_NOT_FOUND");
  const courseId = await courseOf(db, found.submission.problemId);
  if (found.userId !== viewer.id && viewer.siteRole !== "admin") {
    if (!courseId) throw new AppError("SUBMISSION_NOT_FOUND");
    await requireCourse(db, viewer, courseId, "submission.readAll").catch(() => {
      throw new AppError("SUBMISSION_NOT_FOUND");
    });
  }
  const s = found.submission;
  const levels = await feedbackLevels(db, viewer, [{ id, userId: found.userId, assignmentId: s.assignmentId, courseId }], now);
  const failures = await failuresOf(db, courseId === null ? [] : [id]);
  return { userId: found.userId, submission: applyFeedback(s, levels.get(id)!, failures.get(id) ?? null) };
}

/**
 * A user's submissions, newest first, as `viewer` may see them: to one
 * problem (their own history, or a student's history read by the course's
 * staff), or, with `problemId` null, to every problem (the newest
 * HISTORY_MAX, the viewer's own only). Each carries where it was made.
 * @throws AppError PROBLEM_NOT_FOUND (404) when no such problem ever existed; SUBMISSION_NOT_FOUND (404) for another's history without the right.
 */
export async function viewHistory(db: Database, viewer: Caller, userId: string, problemId: string | null, now: number): Promise<SubmissionShape[]> {
  if (problemId === null && userId !== viewer.id) throw new AppError("SUBMISSION_NOT_FOUND");
  const list = await listUserHistory(db, userId, problemId);
  if (problemId !== null && userId !== viewer.id && viewer.siteRole !== "admin") {
    const courseId = await courseOf(db, problemId);
    if (!courseId) throw new AppError("SUBMISSION_NOT_FOUND");
    await requireCourse(db, viewer, courseId, "submission.readAll").catch(() => {
      throw new AppError("SUBMISSION_NOT_FOUND");
    });
  }
  if (!list.length) return [];
  const levels = await feedbackLevels(
    db,
    viewer,
    list.map((e) => ({ id: e.submission._id, userId, assignmentId: e.submission.assignmentId, courseId: e.courseId })),
    now,
  );
  const failures = await failuresOf(
    db,
    list.filter((e) => e.courseId !== null).map((e) => e.submission._id),
  );
  return list.map((e) => applyFeedback(e.submission, levels.get(e.submission._id)!, failures.get(e.submission._id) ?? null));
}
