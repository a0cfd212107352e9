/**
 * Which feedback level (./policy.ts) a viewer gets for each submission: a
 * student reading their own assignment submission gets the assignment's
 * policy in force for them (the fuller after-close level once their window
 * has closed); staff of the course and site admins see everything; a
 * submission outside any assignment keeps the product's usual level, `tests`.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignments, courseMembers, extensions } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { windowState } from "./deadlines.ts";
import { isStaff } from "./permissions.ts";
import { feedbackInForce, type FeedbackLevel } from "./policy.ts";
import { readSpends } from "./late-days/store.ts";
import { extraTimeFor, windowAdjust } from "./exam/extra-time.ts";
import { windowOf } from "./scores.ts";

/** What deciding a submission's level needs of it. */
export interface FeedbackSubject {
  id: string;
  userId: string;
  assignmentId: string | null;
  /** The problem's course, when it is a course problem. */
  courseId: string | null;
}

/**
 * The level per submission id for `viewer`. Readers have already checked that
 * the viewer may read each submission at all (their own, or staff).
 */
export async function feedbackLevels(db: Database, viewer: Caller, subjects: FeedbackSubject[], now: number): Promise<Map<string, FeedbackLevel>> {
  const levels = new Map<string, FeedbackLevel>();
  if (viewer.siteRole === "admin") {
    for (const s of subjects) levels.set(s.id, "full");
    return levels;
  }
  const courseIds = [...new Set(subjects.map((s) => s.courseId).filter((c): c is string => c !== null))];
  const assignmentIds = [...new Set(subjects.map((s) => s.assignmentId).filter((a): a is string => a !== null))];
  const [roles, rows, exts, spends] = await Promise.all([
    courseIds.length
      ? db.select({ courseId: courseMembers.courseId, role: courseMembers.role }).from(courseMembers).where(and(eq(courseMembers.userId, viewer.id), inArray(courseMembers.courseId, courseIds)))
      : [],
    assignmentIds.length ? db.select().from(assignments).where(inArray(assignments.id, assignmentIds)) : [],
    assignmentIds.length ? db.select().from(extensions).where(and(eq(extensions.userId, viewer.id), inArray(extensions.assignmentId, assignmentIds))) : [],
    readSpends(db, assignmentIds, viewer.id),
  ]);
  // The viewer's extra time where it moves a close (per course of the assignments asked about).
  const extraByCourse = new Map(await Promise.all([...new Set(rows.map((r) => r.courseId))].map(async (c) => [c, await extraTimeFor(db, c, viewer.id)] as const)));
  const roleIn = new Map(roles.map((r) => [r.courseId, r.role]));
  for (const s of subjects) {
    const staffHere = s.courseId !== null && isStaff(roleIn.get(s.courseId) ?? null);
    if (staffHere || s.userId !== viewer.id) {
      levels.set(s.id, "full");
      continue;
    }
    const a = s.assignmentId ? rows.find((r) => r.id === s.assignmentId) : undefined;
    if (!a) {
      levels.set(s.id, "tests");
      continue;
    }
    const closed = windowState(windowOf(a, exts.find((e) => e.assignmentId === a.id), { ...windowAdjust(a, extraByCourse.get(a.courseId)), lateDays: spends.get(`${a.id}\u0000${viewer.id}`) ?? 0 }), now) === "closed";
    levels.set(s.id, feedbackInForce(a, closed));
  }
  return levels;
}
