/**
 * Regrade requests (issue 37 §5, decision 076): the student of a submission
 * with a released review asks, with a reason (one open request per
 * submission); staff (`review.grade`) see the course's queue and answer:
 * `accepted` (optionally with the problem's new points, which become the
 * review's override and so the gradebook's score) or `declined`, always with
 * words. Both sides are notified (src/notifications/regrades.ts).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { assignments, courses, problems, regradeRequests, REGRADE_STATUSES, submissionReviews, users } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField, requiredText } from "../../lib/fields.ts";
import { notifyRegradeAnswered, notifyRegradeRequested } from "../../notifications/regrades.ts";
import { requireCourse } from "../access.ts";
import { recomputeStudent } from "../scores.ts";
import { loadReviewable, requireRight } from "./context.ts";
import { readReview, regradeShape, type RegradeShape } from "./reviews.ts";

/** Most characters of a reason or an answer. */
export const MAX_REGRADE_TEXT = 4000;

/** POST /api/submissions/:id/regrade-requests `{reason}`. */
export const regradeRequestInput = z.object({ id: idField(), reason: requiredText(MAX_REGRADE_TEXT) });

/** PATCH /api/regrade-requests/:id `{status, answer, points?}`. */
export const regradeAnswerInput = z.object({
  id: idField(),
  status: z.enum(["accepted", "declined"], { error: "Must be accepted or declined" }),
  answer: requiredText(MAX_REGRADE_TEXT),
  points: z.number({ error: "Must be a number" }).min(0, { error: "At least 0" }).optional(),
});

/** GET /api/courses/:id/regrade-requests?status= (default `open`; `all` for every one). */
export const regradeQueueInput = z.object({ courseId: idField(), status: z.enum([...REGRADE_STATUSES, "all"], { error: "Must be open, accepted, declined or all" }).default("open") });

/** One request in staff's queue. */
export interface QueuedRegrade extends RegradeShape {
  assignmentId: string;
  assignmentTitle: string;
  problemTitle: string;
  student: { userId: string; firstName: string; lastName: string };
}

async function titles(db: Database, submissionId: string, assignmentId: string) {
  const [row] = await db
    .select({ title: assignments.title, course: courses.title, courseId: courses.id, problem: problems.title })
    .from(submissionReviews)
    .innerJoin(assignments, eq(assignments.id, assignmentId))
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .innerJoin(problems, eq(problems.id, submissionReviews.problemId))
    .where(eq(submissionReviews.submissionId, submissionId))
    .limit(1);
  return row!;
}

/**
 * A student asks to regrade their released review.
 * @throws SUBMISSION_NOT_FOUND (404), REVIEW_NOT_FOUND (404: nothing released), FORBIDDEN (403: staff do not ask),
 *   COURSE_ARCHIVED (403), REGRADE_ALREADY_OPEN (409).
 */
export async function requestRegrade(db: Database, user: Caller, input: z.infer<typeof regradeRequestInput>, now: number): Promise<RegradeShape> {
  const r = await loadReviewable(db, user, input.id, now);
  if (r.submission.userId !== user.id) throw new AppError("FORBIDDEN");
  const review = await readReview(db, user, input.id, now); // REVIEW_NOT_FOUND unless released (for the student)
  if (!review.review?.releasedAt) throw new AppError("REVIEW_NOT_FOUND");
  if (r.course.archivedAt) throw new AppError("COURSE_ARCHIVED");
  if (review.regradeRequests.some((q) => q.status === "open")) throw new AppError("REGRADE_ALREADY_OPEN");
  const [row] = await db
    .insert(regradeRequests)
    .values({ submissionId: input.id, assignmentId: r.assignment.id, courseId: r.course.id, userId: user.id, reason: input.reason, createdAt: new Date(now) })
    .returning();
  await notifyRegradeRequested(
    db,
    { requestId: row!.id, courseId: r.course.id, assignmentId: r.assignment.id, submissionId: input.id, title: r.assignment.title, problem: r.problemTitle, course: r.course.title },
    now,
  );
  return regradeShape(row!);
}

/** The course's requests (oldest first: the queue's order). @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: review.grade is staff's). */
export async function regradeQueue(db: Database, user: Caller, input: z.infer<typeof regradeQueueInput>): Promise<QueuedRegrade[]> {
  await requireCourse(db, user, input.courseId, "submission.readAll");
  const rows = await db
    .select({ q: regradeRequests, assignmentTitle: assignments.title, problemTitle: problems.title, firstName: users.firstName, lastName: users.lastName })
    .from(regradeRequests)
    .innerJoin(assignments, eq(assignments.id, regradeRequests.assignmentId))
    .innerJoin(submissionReviews, eq(submissionReviews.submissionId, regradeRequests.submissionId))
    .innerJoin(problems, eq(problems.id, submissionReviews.problemId))
    .innerJoin(users, eq(users.id, regradeRequests.userId))
    .where(and(eq(regradeRequests.courseId, input.courseId), ...(input.status === "all" ? [] : [inArray(regradeRequests.status, [input.status])])))
    .orderBy(asc(regradeRequests.createdAt), asc(regradeRequests.id))
    .limit(1000);
  return rows.map((x) => ({
    ...regradeShape(x.q),
    assignmentId: x.q.assignmentId,
    assignmentTitle: x.assignmentTitle,
    problemTitle: x.problemTitle,
    student: { userId: x.q.userId, firstName: x.firstName, lastName: x.lastName },
  }));
}

/**
 * Staff answer a request; accepted with `points` sets the problem's grade to them (the gradebook, CSV and LMS follow).
 * @throws REGRADE_NOT_FOUND (404), FORBIDDEN (403: review.grade), COURSE_ARCHIVED (403), REGRADE_ALREADY_ANSWERED (409),
 *   BAD_INPUT (400, field `points`: given with `declined`, or more than the problem's points).
 */
export async function answerRegrade(db: Database, user: Caller, input: z.infer<typeof regradeAnswerInput>, now: number): Promise<RegradeShape> {
  const [q] = await db.select().from(regradeRequests).where(eq(regradeRequests.id, input.id)).limit(1);
  if (!q) throw new AppError("REGRADE_NOT_FOUND");
  const r = await loadReviewable(db, user, q.submissionId, now).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) throw new AppError("REGRADE_NOT_FOUND");
    throw err;
  });
  if (!r.staff) throw new AppError(r.submission.userId === user.id ? "FORBIDDEN" : "REGRADE_NOT_FOUND");
  requireRight(r, "review.grade");
  if (q.status !== "open") throw new AppError("REGRADE_ALREADY_ANSWERED");
  if (input.points !== undefined && input.status === "declined") throw new AppError("BAD_INPUT", { field: "points", message: "points: Only with accepted" });
  if (input.points !== undefined && input.points > r.maxPoints) throw new AppError("BAD_INPUT", { field: "points", message: `points: At most ${r.maxPoints}` });
  const answered = { status: input.status, answer: input.answer, points: input.points ?? null, answeredBy: user.id, answeredAt: new Date(now) };
  const writes = [db.update(regradeRequests).set(answered).where(and(eq(regradeRequests.id, q.id), eq(regradeRequests.status, "open")))];
  await db.batch([
    ...writes,
    ...(input.points !== undefined
      ? [db.update(submissionReviews).set({ overridePoints: input.points, reviewerId: user.id, updatedAt: new Date(now) }).where(eq(submissionReviews.submissionId, q.submissionId))]
      : []),
  ] as never);
  if (input.points !== undefined) await recomputeStudent(db, q.assignmentId, q.userId, r.submission.problemId, { nowMs: now });
  const t = await titles(db, q.submissionId, q.assignmentId);
  await notifyRegradeAnswered(
    db,
    { requestId: q.id, courseId: t.courseId, assignmentId: q.assignmentId, submissionId: q.submissionId, title: t.title, problem: t.problem, course: t.course, userId: q.userId, status: input.status, answer: input.answer },
    now,
  );
  return regradeShape({ ...q, ...answered });
}
