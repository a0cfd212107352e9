/** Late days as stored: days spent per assignment and student (`late_day_spends`). Read by scoring and the gradebook. */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignments, courses, lateDaySpends } from "../../../db/schema.ts";

/** Days each user spent on each given assignment, keyed `assignmentId\0userId` (only `userId`'s when given). */
export async function readSpends(db: Database, assignmentIds: string[], userId?: string): Promise<Map<string, number>> {
  if (!assignmentIds.length) return new Map();
  const rows = await db
    .select()
    .from(lateDaySpends)
    .where(and(inArray(lateDaySpends.assignmentId, assignmentIds), ...(userId ? [eq(lateDaySpends.userId, userId)] : [])));
  return new Map(rows.map((r) => [`${r.assignmentId}\u0000${r.userId}`, r.days]));
}


/** Days one student spent across a course's live assignments. */
export async function spentInCourse(db: Database, courseId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ spent: sql<number>`coalesce(sum(${lateDaySpends.days}), 0)` })
    .from(lateDaySpends)
    .innerJoin(assignments, eq(assignments.id, lateDaySpends.assignmentId))
    .where(and(eq(lateDaySpends.userId, userId), eq(assignments.courseId, courseId), isNull(assignments.deletedAt)));
  return Number(row?.spent ?? 0);
}


/** The course's allowance (for a shape that has only the assignment). */
export async function courseAllowance(db: Database, courseId: string): Promise<number> {
  const [c] = await db.select({ lateDays: courses.lateDays }).from(courses).where(eq(courses.id, courseId));
  return c?.lateDays ?? 0;
}
