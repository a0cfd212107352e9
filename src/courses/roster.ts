/**
 * The roster: members and pending invitations, adding one member or a CSV
 * roster (email, name, role), changing a role, and removing a member (their
 * submissions stay). A course keeps at least one owner.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { courseInvites, courseMembers, courses, users } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { normalizeEmail } from "../lib/email.ts";
import { emailField, idField } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { requireCourse } from "./access.ts";
import { COURSE_ROLES, type CourseRole } from "./permissions.ts";

/** Largest CSV roster accepted, rows. */
export const ROSTER_MAX_ROWS = 5000;
/** Largest CSV roster accepted, bytes. */
export const ROSTER_MAX_BYTES = 1024 * 1024;

const roleField = z.enum(COURSE_ROLES, { error: `Must be ${listInWords(COURSE_ROLES)}` });

export const memberInput = z.object({
  courseId: idField(),
  email: emailField(),
  name: z.string({ error: "Must be text" }).trim().max(200, { error: "At most 200 characters" }).default(""),
  role: roleField.default("student"),
});
export type MemberInput = z.infer<typeof memberInput>;

export interface MemberShape {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: CourseRole;
  joinedAt: string;
}

export interface InviteShape {
  email: string;
  name: string;
  role: CourseRole;
  invitedAt: string;
}

/** Members (by role, then name) and pending invitations. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.view). */
export async function roster(db: Database, user: Caller, courseId: string): Promise<{ members: MemberShape[]; invites: InviteShape[] }> {
  await requireCourse(db, user, courseId, "roster.view");
  const [members, invites] = await Promise.all([
    db
      .select({
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        role: courseMembers.role,
        joinedAt: courseMembers.joinedAt,
      })
      .from(courseMembers)
      .innerJoin(users, eq(users.id, courseMembers.userId))
      .where(eq(courseMembers.courseId, courseId))
      .orderBy(asc(users.lastName), asc(users.firstName)),
    db.select().from(courseInvites).where(eq(courseInvites.courseId, courseId)).orderBy(asc(courseInvites.emailNormalized)),
  ]);
  const order = (r: CourseRole) => COURSE_ROLES.indexOf(r);
  return {
    members: members
      .sort((a, b) => order(a.role) - order(b.role))
      .map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
    invites: invites.map((i) => ({ email: i.emailNormalized, name: i.name, role: i.role, invitedAt: i.createdAt.toISOString() })),
  };
}

interface RosterRow {
  email: string;
  name: string;
  role: CourseRole;
}

/** What an import did: accounts added or changed, and emails invited (no account yet). */
export interface RosterResult {
  added: number;
  updated: number;
  invited: number;
  unchanged: number;
}

/**
 * Applies roster rows: an existing account becomes a member with that role
 * (or gets the new role); an unknown email is invited. All rows or none.
 * @throws AppError LAST_OWNER (409) when the rows would leave the course without an owner.
 */
async function applyRows(db: Database, courseId: string, rows: RosterRow[]): Promise<RosterResult> {
  const byEmail = new Map(rows.map((r) => [normalizeEmail(r.email), r]));
  const emails = [...byEmail.keys()];
  const accounts = emails.length
    ? await db.select({ id: users.id, key: users.emailNormalized }).from(users).where(inArray(users.emailNormalized, emails))
    : [];
  const existing = await db.select().from(courseMembers).where(eq(courseMembers.courseId, courseId));
  const roleOf = new Map(existing.map((m) => [m.userId, m.role]));
  const result: RosterResult = { added: 0, updated: 0, invited: 0, unchanged: 0 };
  const writes = [];
  const after = new Map(roleOf);
  for (const a of accounts) {
    const row = byEmail.get(a.key)!;
    byEmail.delete(a.key);
    const current = roleOf.get(a.id);
    if (current === row.role) {
      result.unchanged++;
      continue;
    }
    after.set(a.id, row.role);
    if (current) result.updated++;
    else result.added++;
    writes.push(
      db
        .insert(courseMembers)
        .values({ courseId, userId: a.id, role: row.role })
        .onConflictDoUpdate({ target: [courseMembers.courseId, courseMembers.userId], set: { role: row.role } }),
    );
  }
  if (existing.some((m) => m.role === "owner") && ![...after.values()].includes("owner")) throw new AppError("LAST_OWNER");
  for (const [key, row] of byEmail) {
    result.invited++;
    writes.push(
      db
        .insert(courseInvites)
        .values({ courseId, emailNormalized: key, name: row.name, role: row.role })
        .onConflictDoUpdate({ target: [courseInvites.courseId, courseInvites.emailNormalized], set: { name: row.name, role: row.role } }),
    );
  }
  if (writes.length) await db.batch(writes as [(typeof writes)[number], ...(typeof writes)[number][]]);
  return result;
}

/**
 * Adds one member (or invites the email), or changes a member's role.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.edit), LAST_OWNER (409).
 */
export async function addMember(db: Database, user: Caller, input: MemberInput): Promise<RosterResult> {
  await requireCourse(db, user, input.courseId, "roster.edit");
  return applyRows(db, input.courseId, [{ email: input.email, name: input.name, role: input.role }]);
}

/**
 * Parses a CSV roster: columns email, name, role (role optional: student);
 * a first row naming the columns is read as a header, in any order. Every
 * row is checked before anything is applied.
 * @throws AppError BAD_INPUT (400) naming the line and column of the first bad row; PAYLOAD_TOO_LARGE (413).
 */
export function parseRosterCsv(text: string): RosterRow[] {
  if (Buffer.byteLength(text) > ROSTER_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", { field: "csv", message: "csv: a roster may hold at most 1 MiB" });
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (err) {
    throw new AppError("BAD_INPUT", { field: "csv", message: `csv: ${(err as Error).message}` });
  }
  let columns = { email: 0, name: 1, role: 2 };
  const first = records[0]?.map((c) => c.toLowerCase());
  let start = 0;
  if (first && first.includes("email")) {
    columns = { email: first.indexOf("email"), name: first.indexOf("name"), role: first.indexOf("role") };
    start = 1;
  }
  if (records.length - start > ROSTER_MAX_ROWS) throw new AppError("PAYLOAD_TOO_LARGE", { field: "csv", message: `csv: at most ${ROSTER_MAX_ROWS} rows` });
  const email = emailField();
  const rows: RosterRow[] = [];
  for (let i = start; i < records.length; i++) {
    const rec = records[i]!;
    const line = i + 1;
    const cell = (c: number) => (c >= 0 ? (rec[c] ?? "") : "");
    const e = email.safeParse(cell(columns.email));
    if (!e.success) throw new AppError("BAD_INPUT", { field: "csv", message: `csv: line ${line}, email: ${e.error.issues[0]?.message ?? "invalid"}` });
    const roleText = cell(columns.role).toLowerCase() || "student";
    const role = roleField.safeParse(roleText);
    if (!role.success) throw new AppError("BAD_INPUT", { field: "csv", message: `csv: line ${line}, role: must be ${listInWords(COURSE_ROLES)}, not "${roleText}"` });
    rows.push({ email: e.data, name: cell(columns.name).slice(0, 200), role: role.data });
  }
  return rows;
}

/**
 * Imports a CSV roster (see parseRosterCsv): all rows or none.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.edit), BAD_INPUT (400), LAST_OWNER (409).
 */
export async function importRoster(db: Database, user: Caller, courseId: string, csv: string): Promise<RosterResult> {
  await requireCourse(db, user, courseId, "roster.edit");
  return applyRows(db, courseId, parseRosterCsv(csv));
}

/**
 * Removes a member; their submissions stay (and stay in the history). A course keeps at least one owner.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.edit), MEMBER_NOT_FOUND (404), LAST_OWNER (409).
 */
export async function removeMember(db: Database, user: Caller, courseId: string, userId: string): Promise<void> {
  await requireCourse(db, user, courseId, "roster.edit");
  const members = await db.select().from(courseMembers).where(eq(courseMembers.courseId, courseId));
  const target = members.find((m) => m.userId === userId);
  if (!target) throw new AppError("MEMBER_NOT_FOUND");
  if (target.role === "owner" && members.filter((m) => m.role === "owner").length === 1) throw new AppError("LAST_OWNER");
  await db.delete(courseMembers).where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.userId, userId)));
}

/** Withdraws a pending invitation. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.edit). */
export async function removeInvite(db: Database, user: Caller, courseId: string, email: string): Promise<void> {
  await requireCourse(db, user, courseId, "roster.edit");
  await db.delete(courseInvites).where(and(eq(courseInvites.courseId, courseId), eq(courseInvites.emailNormalized, normalizeEmail(email))));
}

/**
 * Puts the user in the course with a role from outside (an LMS launch or roster sync) (or changes their role to it); an owner stays owner.
 * An archived course is read-only: its members keep their role (and may still open it), nobody joins.
 * @returns what changed.
 * @throws AppError COURSE_ARCHIVED (403) for someone who is not yet a member of an archived course.
 */
export async function joinWithRole(db: Database, courseId: string, userId: string, role: "instructor" | "ta" | "student"): Promise<"added" | "updated" | "unchanged"> {
  const [member] = await db.select().from(courseMembers).where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.userId, userId))).limit(1);
  if (member?.role === "owner" || member?.role === role) return "unchanged";
  const [course] = await db.select({ archivedAt: courses.archivedAt }).from(courses).where(eq(courses.id, courseId)).limit(1);
  if (course?.archivedAt) {
    if (member) return "unchanged";
    throw new AppError("COURSE_ARCHIVED");
  }
  await db
    .insert(courseMembers)
    .values({ courseId, userId, role })
    .onConflictDoUpdate({ target: [courseMembers.courseId, courseMembers.userId], set: { role } });
  return member ? "updated" : "added";
}
