/**
 * Late-day tokens (issue 37 §6; decision 077): a course gives each student
 * `courses.late_days` days; a student spends some on an assignment of their
 * choice, before or after its due time (`POST /api/assignments/:id/late-days
 * {days}`), which moves their due time and close by that many days
 * (./window.ts) so the penalty applies only past them; staff refund
 * (`DELETE /api/assignments/:id/late-days/:userId?days=N`). Every change
 * recomputes the student's scores. Days spent on a deleted assignment count
 * as refunded.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { extensions, lateDaySpends } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField } from "../../lib/fields.ts";
import { requireAssignment } from "../access.ts";
import { recomputeStudent, windowOf } from "../scores.ts";
import { studentAdjust } from "../student-window.ts";
import { readSpends, spentInCourse } from "./store.ts";
import { LATE_DAYS_MAX, lateDaysRemaining } from "./window.ts";

const daysField = z
  .number({ error: "Must be a number" })
  .int({ error: "Must be a whole number of days" })
  .min(1, { error: "At least 1" })
  .max(LATE_DAYS_MAX, { error: `At most ${LATE_DAYS_MAX}` });

export const spendLateDaysInput = z.object({ assignmentId: idField(), days: daysField });
export const refundLateDaysInput = z.object({ assignmentId: idField(), userId: idField(), days: daysField.optional() });

/** A student's late days in a course, and on one assignment. */
export interface LateDayBalance {
  /** The course's allowance per student. */
  allowed: number;
  /** Spent across the course's (live) assignments. */
  spent: number;
  remaining: number;
  /** Spent on this assignment. */
  spentHere: number;
}

/** One student's balance in the assignment's course. */
export async function lateDayBalance(db: Database, a: { id: string; courseId: string }, allowed: number, userId: string): Promise<LateDayBalance> {
  const [spent, here] = await Promise.all([spentInCourse(db, a.courseId, userId), readSpends(db, [a.id], userId)]);
  const spentHere = here.get(`${a.id}\u0000${userId}`) ?? 0;
  return { allowed, spent, remaining: lateDaysRemaining(allowed, spent), spentHere };
}

/**
 * A student spends `days` more late days on an assignment. Refused when the
 * assignment has no due time, when even with them it would already be closed,
 * or when fewer days remain (checked in the same statement that records them,
 * so two spends at once cannot overdraw).
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: lateDays.spend, students only), COURSE_ARCHIVED (403),
 *   LATE_DAYS_NOT_ALLOWED (409: no due time, none given by the course, or closed even with them),
 *   LATE_DAYS_EXCEEDED (409, field days, details.remaining).
 */
export async function spendLateDays(db: Database, user: Caller, input: z.infer<typeof spendLateDaysInput>, now: number): Promise<LateDayBalance> {
  const { assignment: a, course, actor } = await requireAssignment(db, user, input.assignmentId, "lateDays.spend", now);
  if (actor.courseRole !== "student") throw new AppError("FORBIDDEN", { message: "Only the course's students have late days" });
  if (course.lateDays === 0) throw new AppError("LATE_DAYS_NOT_ALLOWED", { field: "days", message: "days: this course gives no late days" });
  if (a.dueAt === null) throw new AppError("LATE_DAYS_NOT_ALLOWED", { field: "days", message: "days: this assignment has no due time to move" });
  const before = await lateDayBalance(db, a, course.lateDays, user.id);
  if (input.days > before.remaining) {
    throw new AppError("LATE_DAYS_EXCEEDED", { field: "days", message: `days: only ${before.remaining} of your ${course.lateDays} late days remain`, details: { remaining: before.remaining } });
  }
  const [ext] = await db.select().from(extensions).where(and(eq(extensions.assignmentId, a.id), eq(extensions.userId, user.id)));
  const w = windowOf(a, ext, await studentAdjust(db, a, user.id, before.spentHere + input.days));
  if (w.close !== null && w.close <= now) {
    throw new AppError("LATE_DAYS_NOT_ALLOWED", {
      field: "days",
      message: `days: even with ${input.days} more late days this assignment closed on ${new Date(w.close).toISOString()}`,
      details: { closedAt: new Date(w.close).toISOString() },
    });
  }
  // One statement: the row is written only while the course total stays within the allowance.
  const result = await db.run(sql`
    INSERT INTO late_day_spends (assignment_id, user_id, days, updated_at)
    SELECT ${a.id}, ${user.id}, ${input.days}, ${now}
    WHERE (SELECT coalesce(sum(s.days), 0) FROM late_day_spends s JOIN assignments x ON x.id = s.assignment_id
           WHERE s.user_id = ${user.id} AND x.course_id = ${a.courseId} AND x.deleted_at IS NULL) + ${input.days} <= ${course.lateDays}
    ON CONFLICT (assignment_id, user_id) DO UPDATE SET days = days + excluded.days, updated_at = excluded.updated_at`);
  if (result.rowsAffected === 0) {
    const now2 = await lateDayBalance(db, a, course.lateDays, user.id);
    throw new AppError("LATE_DAYS_EXCEEDED", { field: "days", message: `days: only ${now2.remaining} of your ${course.lateDays} late days remain`, details: { remaining: now2.remaining } });
  }
  await recomputeStudent(db, a.id, user.id, undefined, { nowMs: now });
  return lateDayBalance(db, a, course.lateDays, user.id);
}

/**
 * Staff give back a student's late days spent on an assignment: `days` of them, or all.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: lateDays.refund), COURSE_ARCHIVED (403),
 *   BAD_INPUT (400, field userId) when the student spent none here, (field days) when refunding more than spent.
 */
export async function refundLateDays(db: Database, user: Caller, input: z.infer<typeof refundLateDaysInput>, now: number): Promise<LateDayBalance> {
  const { assignment: a, course } = await requireAssignment(db, user, input.assignmentId, "lateDays.refund", now);
  const spentHere = (await readSpends(db, [a.id], input.userId)).get(`${a.id}\u0000${input.userId}`) ?? 0;
  if (spentHere === 0) throw new AppError("BAD_INPUT", { field: "userId", message: "userId: this student spent no late days on this assignment" });
  const days = input.days ?? spentHere;
  if (days > spentHere) throw new AppError("BAD_INPUT", { field: "days", message: `days: the student spent ${spentHere} here` });
  const where = and(eq(lateDaySpends.assignmentId, a.id), eq(lateDaySpends.userId, input.userId));
  if (days === spentHere) await db.delete(lateDaySpends).where(where);
  else await db.update(lateDaySpends).set({ days: spentHere - days, updatedAt: new Date(now) }).where(where);
  await recomputeStudent(db, a.id, input.userId, undefined, { nowMs: now });
  return lateDayBalance(db, a, course.lateDays, input.userId);
}
