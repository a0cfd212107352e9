/**
 * Loading a course or an assignment together with what the caller may do in
 * it. Non-members (other than site admins) are told the course does not
 * exist (404), so course codes and titles do not leak; members lacking a
 * permission get 403. Students see that an assignment is coming (title and
 * dates); its problems stay hidden until it opens (./assignments.ts,
 * ./course-problems.ts).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments, courseMembers, courses } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { can, isStaff, isWrite, type Actor, type CourseAction, type CourseRole } from "./permissions.ts";
import { checkExamAccess } from "./exam/gate.ts";

export type CourseRow = typeof courses.$inferSelect;
export type AssignmentRow = typeof assignments.$inferSelect;

/** The caller's role in a course, or null. */
export async function memberRole(db: Database, courseId: string, userId: string): Promise<CourseRole | null> {
  const [m] = await db
    .select({ role: courseMembers.role })
    .from(courseMembers)
    .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.userId, userId)))
    .limit(1);
  return m?.role ?? null;
}

/**
 * A course and the caller's standing in it, checked for `action`; a write
 * (`isWrite`) in an archived course is refused whoever asks.
 * @throws AppError COURSE_NOT_FOUND (404) when absent or the caller is neither member nor admin;
 *   FORBIDDEN (403) when a member may not do `action`; COURSE_ARCHIVED (403) for a write in an archived course.
 */
export async function requireCourse(
  db: Database,
  user: Caller,
  courseId: string,
  action: CourseAction,
): Promise<{ course: CourseRow; actor: Actor }> {
  const [course] = await db.select().from(courses).where(eq(courses.id, courseId)).limit(1);
  if (!course) throw new AppError("COURSE_NOT_FOUND");
  const actor: Actor = { siteRole: user.siteRole, courseRole: await memberRole(db, courseId, user.id) };
  if (actor.courseRole === null && actor.siteRole !== "admin") throw new AppError("COURSE_NOT_FOUND");
  if (!can(actor, action)) throw new AppError("FORBIDDEN");
  if (isWrite(action)) requireNotArchived(course);
  return { course, actor };
}

/**
 * An assignment, its course and the caller's standing, checked for `action`.
 * @throws AppError ASSIGNMENT_NOT_FOUND (404) when absent, deleted, or the caller is
 *   not a member; FORBIDDEN (403) for a member lacking `action`; a student refused by an exam
 *   access rule: EXAM_ADDRESS_REFUSED, EXAM_SEB_REQUIRED, EXAM_OTHER_SESSION (403; src/courses/exam/gate.ts).
 */
export async function requireAssignment(
  db: Database,
  user: Caller,
  assignmentId: string,
  action: CourseAction,
  _now: number,
): Promise<{ assignment: AssignmentRow; course: CourseRow; actor: Actor }> {
  const [assignment] = await db
    .select()
    .from(assignments)
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)))
    .limit(1);
  if (!assignment) throw new AppError("ASSIGNMENT_NOT_FOUND");
  let found: { course: CourseRow; actor: Actor };
  try {
    found = await requireCourse(db, user, assignment.courseId, "course.view");
  } catch (err) {
    if (err instanceof AppError && err.kind === "COURSE_NOT_FOUND") throw new AppError("ASSIGNMENT_NOT_FOUND");
    throw err;
  }
  if (!can(found.actor, action)) throw new AppError("FORBIDDEN");
  if (isWrite(action)) requireNotArchived(found.course);
  // Every read and write of an assignment meets its exam access rules (address, SEB, one session).
  await checkExamAccess({ kind: "assignment", row: assignment, staff: actorIsStaff(found.actor) });
  return { assignment, ...found };
}

/** Whether the actor sees staff views (drafts, everyone's work) in the course. */
export function actorIsStaff(actor: Actor): boolean {
  return actor.siteRole === "admin" || isStaff(actor.courseRole);
}

/** @throws AppError COURSE_ARCHIVED (403) for an archived course (read-only). */
export function requireNotArchived(course: CourseRow): void {
  if (course.archivedAt) throw new AppError("COURSE_ARCHIVED");
}

/** Live, not deleted assignments of a course that contain the problem. */
export async function assignmentsWith(db: Database, problemId: string): Promise<AssignmentRow[]> {
  const rows = await db
    .select({ a: assignments })
    .from(assignmentProblems)
    .innerJoin(assignments, eq(assignments.id, assignmentProblems.assignmentId))
    .where(and(eq(assignmentProblems.problemId, problemId), isNull(assignments.deletedAt)));
  return rows.map((r) => r.a);
}
