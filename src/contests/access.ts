/**
 * A contest and the caller's standing in it: the role that the permission
 * table (./permissions.ts) is asked about, and the time rules around it.
 */
import { and, eq, isNull, or } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contests, courses } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { memberRole, requireNotArchived } from "../courses/access.ts";
import { can, isStaff, type CourseRole } from "../courses/permissions.ts";
import { AppError } from "../errors.ts";
import { checkExamAccess } from "../courses/exam/gate.ts";
import { phaseAt, timesOf, windowOf } from "./clock.ts";
import { canInContest, isContestWrite, isOwnersOnly, type ContestAction, type ContestRole } from "./permissions.ts";
import { grantedRoles } from "./roles-store.ts";
import { ensureStudentTeam, teamOf, type TeamRow } from "./teams.ts";
import { entryOf, holdContestSession, needsEntry, type ContestEntryRow } from "./entry.ts";

export type ContestRow = typeof contests.$inferSelect;

export interface ContestAccess {
  contest: ContestRow;
  role: ContestRole;
  /** The caller's team (participants), else null. */
  team: TeamRow | null;
  /** A participant's entry, read only when the contest asks for one (./exam.ts `needsEntry`); else null. */
  entry?: ContestEntryRow | null;
}

/** The clock's inputs from a contest row (./clock.ts). */
export { timesOf };

/** A live contest by id or short name, or null. */
export async function findContest(db: Database, idOrShortName: string): Promise<ContestRow | null> {
  const [row] = await db
    .select()
    .from(contests)
    .where(and(or(eq(contests.id, idOrShortName), eq(contests.shortName, idOrShortName.toLowerCase())), isNull(contests.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * The caller's role in a contest (see ./permissions.ts for who is what):
 * a site admin, the creator and a course contest's teachers are `jury`; then a
 * granted `jury` (./roles.ts); then a team's member (a course's student) is
 * `participant`; then a granted `balloon`; else `public` (signed out: `anonymous`),
 * a course contest's TA included: a TA judges only by a granted `jury` (issue 32, N9).
 * Read at every call, so a revoked role is gone from the next request on.
 * A course student's one-person team is made here on first use.
 * @returns null when the contest must not exist for this caller (a course contest, outside the course, with no granted role).
 */
export async function roleIn(db: Database, contest: ContestRow, user: Caller | null): Promise<{ role: ContestRole; team: TeamRow | null; entry?: ContestEntryRow | null } | null> {
  const standing = await baseRoleIn(db, contest, user);
  if (standing?.role !== "participant" || !needsEntry(contest)) return standing;
  return { ...standing, entry: await entryOf(db, contest.id, user!.id) };
}

async function baseRoleIn(db: Database, contest: ContestRow, user: Caller | null): Promise<{ role: ContestRole; team: TeamRow | null } | null> {
  if (user?.siteRole === "admin") return { role: "jury", team: null };
  if (!user) return contest.courseId !== null ? null : { role: "anonymous", team: null };
  if (contest.createdBy === user.id) return { role: "jury", team: null };
  const courseRole = contest.courseId !== null ? await memberRole(db, contest.courseId, user.id) : null;
  if (isCourseTeacher(user, courseRole)) return { role: "jury", team: null };
  const granted = await grantedRoles(db, contest.id, user.id);
  if (granted.includes("jury")) return { role: "jury", team: null };
  if (contest.courseId !== null && courseRole !== null && !isStaff(courseRole)) return { role: "participant", team: await ensureStudentTeam(db, contest.id, user) };
  const team = contest.courseId === null ? await teamOf(db, contest.id, user.id) : null;
  if (team) return { role: "participant", team };
  if (granted.includes("balloon")) return { role: "balloon", team: null };
  // A course contest's TA without a granted role watches it as the public does (issue 32: a TA is not jury by default).
  return contest.courseId !== null && !isStaff(courseRole) ? null : { role: "public", team: null };
}

/**
 * A contest the caller may do `action` in.
 * @param field names the request field in a 404, when the id came from a body.
 * @throws AppError CONTEST_NOT_FOUND (404) when absent, deleted or hidden from the caller;
 *   UNAUTHENTICATED (401) for a signed-out caller lacking the permission; FORBIDDEN (403) otherwise.
 */
export async function requireContest(db: Database, user: Caller | null, idOrShortName: string, action: ContestAction, field?: string): Promise<ContestAccess> {
  const contest = await findContest(db, idOrShortName);
  const standing = contest ? await roleIn(db, contest, user) : null;
  if (!contest || !standing) throw new AppError("CONTEST_NOT_FOUND", field ? { field } : undefined);
  const access = { contest, ...standing };
  // Every read and write of a contest meets its exam access rules (address, SEB); the jury is not held.
  await checkExamAccess({ kind: "contest", row: contest, staff: standing.role === "jury" });
  await holdContestSession(db, access);
  await requireContestAction(db, user, access, action);
  return access;
}

/**
 * Checks `action` for a caller whose standing is known (`requireContest` does
 * this; a function that learns which action it does only from the role, such
 * as a clarification, asks again here): the table, then two rules the
 * table's roles cannot say:
 * - an action marked `owners` (changing the contest: edit, delete, unfreeze,
 *   finalize; its roles) is its owners' (`isContestOwner`); a TA or a granted
 *   jury member judges only, so an unopened exam's problem cannot be shown
 *   to students through a contest a TA moved, and a jury cannot extend itself;
 * - a write (`writes` in the table) in a course contest whose course is
 *   archived is refused, as the course refuses its own writes.
 * @throws AppError UNAUTHENTICATED (401) signed out; FORBIDDEN (403) lacking the permission (naming the rule
 *   for a jury member who is not an owner); COURSE_ARCHIVED (403) for a write in an archived course's contest.
 */
export async function requireContestAction(db: Database, user: Caller | null, access: Pick<ContestAccess, "contest" | "role">, action: ContestAction): Promise<void> {
  if (!canInContest(access.role, action)) throw new AppError(access.role === "anonymous" ? "UNAUTHENTICATED" : "FORBIDDEN");
  if (isOwnersOnly(action) && !(await isContestOwner(db, user, access.contest))) {
    throw new AppError("FORBIDDEN", {
      message: "Only the contest's owners (its creator, a course contest's teachers, site admins) change the contest or its roles; a TA or a granted jury member judges it",
    });
  }
  if (isContestWrite(action) && access.contest.courseId !== null) {
    const [course] = await db.select().from(courses).where(eq(courses.id, access.contest.courseId)).limit(1);
    if (course) requireNotArchived(course);
  }
}

/**
 * Whether the caller is one of the contest's owners, who alone do the
 * actions marked `owners` in ./permissions.ts: a site admin, the contest's
 * creator, in a course contest the course's teachers (the course's own
 * `contest.edit`). A TA or a granted jury member is jury but not an owner.
 */
export async function isContestOwner(db: Database, user: Caller | null, contest: ContestRow): Promise<boolean> {
  if (!user) return false;
  if (user.siteRole === "admin" || contest.createdBy === user.id) return true;
  if (contest.courseId === null) return false;
  return can({ siteRole: user.siteRole, courseRole: await memberRole(db, contest.courseId, user.id) }, "contest.edit");
}

/** A course contest's teacher: the course's own `contest.edit` (owner, instructor), not a TA. */
function isCourseTeacher(user: Caller, courseRole: CourseRole | null): boolean {
  return courseRole !== null && can({ siteRole: user.siteRole, courseRole }, "contest.edit");
}

/**
 * Whether the caller is the contest's jury, as `roleIn` decides it, without
 * its side effect (a course student's team made on first use): an admin, the
 * creator, a course contest's teachers, or a granted `jury` (a TA only by a grant).
 */
export async function isContestJury(db: Database, user: Caller, contest: ContestRow): Promise<boolean> {
  if (user.siteRole === "admin" || contest.createdBy === user.id) return true;
  if (contest.courseId !== null && isCourseTeacher(user, await memberRole(db, contest.courseId, user.id))) return true;
  return (await grantedRoles(db, contest.id, user.id)).includes("jury");
}

/**
 * Whether the caller may read the problems' statements now: the jury always; participants from their window's
 * start (in a contest that asks for an entry, from their entry: ./entry.ts); others once the contest is over.
 */
export function mayReadProblems(a: ContestAccess, nowMs: number): boolean {
  if (a.role === "jury") return true;
  const times = timesOf(a.contest);
  if (a.role === "participant" && (!needsEntry(a.contest) || a.entry)) return nowMs >= windowOf(times, a.team?.virtualStartsAt?.getTime() ?? null).startMs;
  return phaseAt(times, nowMs) === "over";
}

/**
 * Refuses a participant's submission outside their window.
 * @throws AppError CONTEST_NOT_STARTED (403, `details.startsAt`) or CONTEST_OVER (403, `details.endedAt`), naming the time.
 */
export function requireInsideWindow(a: ContestAccess, nowMs: number): void {
  if (a.role === "jury") return;
  const w = windowOf(timesOf(a.contest), a.team?.virtualStartsAt?.getTime() ?? null);
  if (nowMs < w.startMs) {
    const at = new Date(w.startMs).toISOString();
    throw new AppError("CONTEST_NOT_STARTED", { message: `The contest opens at ${at}`, details: { startsAt: at } });
  }
  if (nowMs >= w.endMs) {
    const at = new Date(w.endMs).toISOString();
    throw new AppError("CONTEST_OVER", { message: `The contest is over (it ended at ${at})`, details: { endedAt: at } });
  }
}
