/**
 * Courses: create (site admins and users allowed to), edit, archive, the
 * invite code (rotate, disable, enable), joining by code, and the lists a
 * member sees. Checks go through ./access.ts; errors are the catalogue's.
 */
import { LATE_DAYS_MAX } from "./late-days/window.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { courseMembers, courses } from "../../db/schema.ts";
import type { Caller, SessionUser } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { idField, requiredText } from "../lib/fields.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";
import type { RateDecision } from "../lib/rate-limit.ts";
import { requireCourse, requireNotArchived, type CourseRow } from "./access.ts";
import { can, siteRights, type CourseRole } from "./permissions.ts";

/** Letters and digits that cannot be misread (no 0/O, 1/I/L): invite codes are typed from slides. */
const INVITE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const INVITE_CODE_LENGTH = 8;

/** A fresh invite code: 8 characters of INVITE_ALPHABET (about 40 bits). */
export function newInviteCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(INVITE_CODE_LENGTH));
  return Array.from(bytes, (b) => INVITE_ALPHABET[b % INVITE_ALPHABET.length]).join("");
}

const codeField = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$/, { error: "2 to 40 letters, digits, dots, dashes or underscores, e.g. CS101-2026" });

export const courseInput = z.object({
  title: requiredText(200),
  code: codeField,
  term: z.string({ error: "Must be text" }).trim().max(60, { error: "At most 60 characters" }).default(""),
});
export type CourseInput = z.infer<typeof courseInput>;

export const courseUpdateInput = z.object({
  id: idField(),
  title: requiredText(200).optional(),
  code: codeField.optional(),
  term: z.string({ error: "Must be text" }).trim().max(60, { error: "At most 60 characters" }).optional(),
  /** true archives the course (read-only: no joining, no submitting), false restores it. */
  archived: z.boolean({ error: "Must be true or false" }).optional(),
  /** Record large pastes into the editor with course submissions (time and size, not content); stated to students. */
  recordPastes: z.boolean({ error: "Must be true or false" }).optional(),
  /** Late days each student may spend on the course's assignments (./late-days; 0: none). Lowering it takes back no day already spent. */
  lateDays: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(0, { error: "At least 0" }).max(LATE_DAYS_MAX, { error: `At most ${LATE_DAYS_MAX}` }).optional(),
});
export type CourseUpdate = z.infer<typeof courseUpdateInput>;

/** A course as the API returns it. `inviteCode` only to those who manage it. */
export interface CourseShape {
  id: string;
  title: string;
  code: string;
  term: string;
  archived: boolean;
  /** Large pastes into the editor are recorded with submissions (src/similarity/pastes.ts); students are told. */
  recordPastes: boolean;
  /** Late days each student may spend (./late-days); 0: none. */
  lateDays: number;
  /** The caller's role; null for a site admin who is not a member. */
  role: CourseRole | null;
  /** Present for owners and instructors (and admins): the join code, or null when disabled. */
  inviteCode?: string | null;
  createdAt: string;
}

export function toCourseShape(c: CourseRow, role: CourseRole | null, showInvite: boolean): CourseShape {
  return {
    id: c.id,
    title: c.title,
    code: c.code,
    term: c.term,
    archived: c.archivedAt !== null,
    recordPastes: c.recordPastes,
    lateDays: c.lateDays,
    role,
    ...(showInvite ? { inviteCode: c.inviteCode } : {}),
    createdAt: c.createdAt.toISOString(),
  };
}

/**
 * Creates a course; the caller becomes its owner.
 * @throws AppError CANNOT_CREATE_COURSES (403) unless the caller is an admin or may create courses;
 *   COURSE_CODE_TAKEN (409, field `code`).
 */
export async function createCourse(db: Database, user: SessionUser, input: CourseInput): Promise<CourseShape> {
  if (!siteRights(user).createCourses) throw new AppError("CANNOT_CREATE_COURSES");
  const id = newId();
  try {
    const [insert] = await db.batch([
      db
        .insert(courses)
        .values({ id, title: input.title, code: input.code, codeNormalized: input.code.toUpperCase(), term: input.term, inviteCode: newInviteCode(), createdBy: user.id })
        .returning(),
      db.insert(courseMembers).values({ courseId: id, userId: user.id, role: "owner" }),
    ]);
    return toCourseShape(insert[0]!, "owner", true);
  } catch (err) {
    if (isUniqueViolation(err, "courses.code_normalized")) throw new AppError("COURSE_CODE_TAKEN", { field: "code" });
    throw err;
  }
}

/**
 * Edits title, code or term, or archives/restores.
 * @throws AppError COURSE_NOT_FOUND (404), FORBIDDEN (403: course.edit, or course.archive for `archived`), COURSE_CODE_TAKEN (409).
 */
export async function updateCourse(db: Database, user: Caller, input: CourseUpdate, now: number): Promise<CourseShape> {
  const { actor, course } = await requireCourse(db, user, input.id, input.archived !== undefined ? "course.archive" : "course.edit");
  const edits = input.title !== undefined || input.code !== undefined || input.term !== undefined || input.recordPastes !== undefined || input.lateDays !== undefined;
  if (edits && !can(actor, "course.edit")) throw new AppError("FORBIDDEN");
  // Read-only while archived: restoring it (archived: false) may come with edits, nothing else may.
  if (edits && course.archivedAt && input.archived !== false) requireNotArchived(course);
  const set: Partial<typeof courses.$inferInsert> = { updatedAt: new Date(now) };
  if (input.title !== undefined) set.title = input.title;
  if (input.code !== undefined) Object.assign(set, { code: input.code, codeNormalized: input.code.toUpperCase() });
  if (input.term !== undefined) set.term = input.term;
  if (input.recordPastes !== undefined) set.recordPastes = input.recordPastes;
  if (input.lateDays !== undefined) set.lateDays = input.lateDays;
  if (input.archived !== undefined) set.archivedAt = input.archived ? new Date(now) : null;
  try {
    const [row] = await db.update(courses).set(set).where(eq(courses.id, input.id)).returning();
    return toCourseShape(row!, actor.courseRole, can(actor, "invite.manage"));
  } catch (err) {
    if (isUniqueViolation(err, "courses.code_normalized")) throw new AppError("COURSE_CODE_TAKEN", { field: "code" });
    throw err;
  }
}

/**
 * Rotates (a new code), disables (none) or enables (a new code) joining by code.
 * @returns the invite code now in force, or null when disabled.
 * @throws AppError COURSE_NOT_FOUND (404), FORBIDDEN (403: invite.manage).
 */
export async function setInvite(db: Database, user: Caller, courseId: string, action: "rotate" | "disable" | "enable"): Promise<{ inviteCode: string | null }> {
  await requireCourse(db, user, courseId, "invite.manage");
  const inviteCode = action === "disable" ? null : newInviteCode();
  await db.update(courses).set({ inviteCode }).where(eq(courses.id, courseId));
  return { inviteCode };
}

/**
 * Joins the course whose invite code this is, as a student (a member keeps
 * the role they have). Codes are compared ignoring case and spaces. Every
 * attempt spends the caller's `budget` (Limiters.joinsByUser), so codes
 * cannot be guessed by trying.
 * @throws AppError RATE_LIMITED (429), INVITE_NOT_FOUND (404) for an unknown or disabled code, COURSE_ARCHIVED (403).
 */
export async function joinByCode(db: Database, user: Caller, code: string, budget: () => RateDecision = () => ({ ok: true, remaining: 1 })): Promise<CourseShape> {
  const gate = budget();
  if (!gate.ok) throw new AppError("RATE_LIMITED", { message: "Too many attempts to join a course; try again later.", retryAfterSeconds: gate.retryAfterSeconds });
  const normalized = code.replace(/\s+/g, "").toUpperCase();
  const [course] = normalized ? await db.select().from(courses).where(eq(courses.inviteCode, normalized)).limit(1) : [];
  if (!course) throw new AppError("INVITE_NOT_FOUND", { field: "code" });
  requireNotArchived(course);
  await db.insert(courseMembers).values({ courseId: course.id, userId: user.id, role: "student" }).onConflictDoNothing();
  const [m] = await db
    .select({ role: courseMembers.role })
    .from(courseMembers)
    .where(and(eq(courseMembers.courseId, course.id), eq(courseMembers.userId, user.id)));
  const role = m!.role;
  return toCourseShape(course, role, can({ siteRole: user.siteRole, courseRole: role }, "invite.manage"));
}

/**
 * The caller's courses (archived ones too, marked), newest first; a site
 * admin also gets every other course (role null).
 */
export async function myCourses(db: Database, user: Caller): Promise<CourseShape[]> {
  const mine = await db
    .select({ course: courses, role: courseMembers.role })
    .from(courseMembers)
    .innerJoin(courses, eq(courses.id, courseMembers.courseId))
    .where(eq(courseMembers.userId, user.id));
  const shapes = mine.map(({ course, role }) => toCourseShape(course, role, can({ siteRole: user.siteRole, courseRole: role }, "invite.manage")));
  if (user.siteRole === "admin") {
    const ids = mine.map((m) => m.course.id);
    const others = await db
      .select()
      .from(courses)
      .where(ids.length ? sql`${courses.id} NOT IN ${ids}` : undefined);
    shapes.push(...others.map((c) => toCourseShape(c, null, true)));
  }
  return shapes.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * My Courses: the caller's courses (myCourses) and what the page offers them.
 * `canCreateCourses`: a site admin, or an account allowed to (src/accounts).
 */
export async function myCoursesPage(db: Database, user: SessionUser): Promise<{ courses: CourseShape[]; canCreateCourses: boolean; isAdmin: boolean }> {
  const isAdmin = user.siteRole === "admin";
  return { courses: await myCourses(db, user), canCreateCourses: isAdmin || user.canCreateCourses, isAdmin };
}

/** One course as the caller sees it (the invite code only to who may manage it). @throws COURSE_NOT_FOUND (404). */
export async function courseForCaller(db: Database, user: Caller, courseId: string): Promise<CourseShape> {
  const { course, actor } = await requireCourse(db, user, courseId, "course.view");
  return toCourseShape(course, actor.courseRole, can(actor, "invite.manage"));
}

/** Course ids where the user is a member with one of `roles`. */
export async function courseIdsWithRole(db: Database, userId: string, roles: readonly CourseRole[]): Promise<string[]> {
  const rows = await db
    .select({ id: courseMembers.courseId })
    .from(courseMembers)
    .where(and(eq(courseMembers.userId, userId), inArray(courseMembers.role, [...roles])));
  return rows.map((r) => r.id);
}

/**
 * Removes a course that was just made and never used (an LMS launch that lost
 * the race to link the same LMS course: the other launch's course stands).
 */
export async function discardNewCourse(db: Database, courseId: string): Promise<void> {
  await db.delete(courses).where(eq(courses.id, courseId));
}
