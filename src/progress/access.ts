/**
 * Who sees whose progress (issue 35; decision 067). Private by default (a
 * university judge holds student records: FERPA in the US, GDPR in the EU):
 * - everyone sees their own progress, whole (`progress.mine`);
 * - anyone sees a public profile (`/u/:handle`): the handle and the public
 *   part of the progress only, never a name or an e-mail address; a handle
 *   that does not exist and one whose owner keeps it private get the same 404;
 * - a course's staff (`progress.viewStudent` in src/courses/permissions.ts,
 *   the one permission table) see a student of that course, within that
 *   course only (submissions for its assignments); a student sees no other
 *   student's (403), a non-member no course (404).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { courseMembers, users } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireCourse } from "../courses/access.ts";
import { AppError } from "../errors.ts";
import { progressOf } from "./memory.ts";
import type { CourseStudentProgress, PublicProfile } from "./shape.ts";

/**
 * The public profile at `/u/:handle`: the handle and the public progress.
 * @throws AppError PROFILE_NOT_FOUND (404) when no account has the handle or its owner keeps it private (the same answer).
 */
export async function publicProfile(db: Database, handle: string, timeZone: string, nowMs?: number): Promise<PublicProfile> {
  const [row] = await db
    .select({ id: users.id, handle: users.handle })
    .from(users)
    .where(and(eq(users.handle, handle), eq(users.profilePublic, true), sql`${users.isSystem} = 0`))
    .limit(1);
  if (!row?.handle) throw new AppError("PROFILE_NOT_FOUND");
  return { handle: row.handle, progress: await progressOf(db, row.id, { timeZone, nowMs, scope: { kind: "public" } }) };
}

/**
 * A student's progress within one course, for its staff.
 * @throws AppError COURSE_NOT_FOUND (404) when the caller is not a member (nor a site admin);
 *   FORBIDDEN (403) for a member without `progress.viewStudent` (a student);
 *   MEMBER_NOT_FOUND (404) when `studentId` is not a student of the course.
 */
export async function courseStudentProgress(
  db: Database,
  caller: Caller,
  courseId: string,
  studentId: string,
  timeZone: string,
  nowMs?: number,
): Promise<CourseStudentProgress> {
  const { course } = await requireCourse(db, caller, courseId, "progress.viewStudent");
  const [member] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, role: courseMembers.role })
    .from(courseMembers)
    .innerJoin(users, eq(users.id, courseMembers.userId))
    .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.userId, studentId), eq(courseMembers.role, "student")))
    .limit(1);
  if (!member) throw new AppError("MEMBER_NOT_FOUND");
  return {
    course: { id: course.id, title: course.title, code: course.code },
    student: member,
    progress: await progressOf(db, studentId, { timeZone, nowMs, scope: { kind: "course", courseId } }),
  };
}
