/**
 * Who may see and who may change a problem, for every door and domain: a
 * public problem, everyone sees and its author changes; a course problem, the
 * course's members see (students once an assignment with it has opened) and
 * its teachers change (not while the course is archived). Copying a problem
 * with its hidden tests and validator is its owner's (`mayCopyWithTests`).
 */
import type { Database } from "../../db/index.ts";
import type { Caller } from "../accounts/user.ts";
import { assignmentsWith, memberRole, requireCourse, requireNotArchived } from "../courses/access.ts";
import { can, isStaff } from "../courses/permissions.ts";
import { isDrawn } from "../courses/pools/draw.ts";
import { readSlotted } from "../courses/pools/pools.ts";
import { AppError } from "../errors.ts";
import type { ProblemRow } from "./shape.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { limitProblemWrites, requireLiveProblem, requireOwned } from "./store.ts";

/**
 * Another domain's reason to show a problem its course hides: a contest lists
 * it and the caller may read that contest's problems now (src/contests
 * registers one). Grants only widen who sees a course problem's statement;
 * hidden tests stay with its owners whatever a grant says.
 */
export type ProblemSightGrant = (db: Database, user: Caller | null, problem: ProblemRow, now: number) => Promise<boolean>;

const sightGrants: ProblemSightGrant[] = [];

/** Registers a grant (once: registering the same function again does nothing). */
export function grantProblemSight(grant: ProblemSightGrant): void {
  if (!sightGrants.includes(grant)) sightGrants.push(grant);
}

/**
 * Whether `user` may see `problem`: a public problem, everyone; a course
 * problem, the course's staff and site admins, its students once an
 * assignment with it has opened, and whoever a registered grant admits (a
 * contest's participants from their start).
 */
export async function canSeeProblem(db: Database, user: Caller | null, problem: ProblemRow, now: number): Promise<boolean> {
  if (problem.courseId === null) return true;
  if (await seenInCourse(db, user, problem, now)) return true;
  for (const grant of sightGrants) if (await grant(db, user, problem, now)) return true;
  return false;
}

async function seenInCourse(db: Database, user: Caller | null, problem: ProblemRow, now: number): Promise<boolean> {
  if (!user || problem.courseId === null) return false;
  if (user.siteRole === "admin") return true;
  const role = await memberRole(db, problem.courseId, user.id);
  if (role === null) return false;
  if (isStaff(role)) return true;
  const opened = (await assignmentsWith(db, problem.id)).filter((a) => a.courseId === problem.courseId && a.opensAt.getTime() <= now);
  // Of a pool (issue 37 §3), a student sees only the problem given to them.
  const slotted = await readSlotted(db, opened.map((a) => a.id));
  return opened.some((a) => isDrawn(a.id, slotted.get(a.id) ?? [], user.id, problem.id));
}

/**
 * A live problem the user may see.
 * @param field names the request field in the 404, when the id came from a body.
 * @throws AppError PROBLEM_NOT_FOUND (404) when absent, deleted, or not visible to this user.
 */
export async function requireVisibleProblem(db: Database, user: Caller | null, problemId: string, now: number, field?: string): Promise<ProblemRow> {
  const problem = await requireLiveProblem(db, problemId, field);
  if (!(await canSeeProblem(db, user, problem, now))) throw new AppError("PROBLEM_NOT_FOUND", field ? { field } : undefined);
  return problem;
}

/**
 * A live problem the user may edit: their own public problem, or a course
 * problem of a course where they may `problem.edit` (and, to change it, that is not archived).
 * @throws AppError PROBLEM_NOT_FOUND (404), `forbidden` (403, the product's own-problems text), COURSE_ARCHIVED (403).
 */
export async function requireEditableProblem(
  db: Database,
  user: Caller,
  problemId: string,
  forbidden: "NOT_PROBLEM_OWNER_UPDATE" | "NOT_PROBLEM_OWNER_DELETE" | "NOT_PROBLEM_OWNER_EXPORT",
  now: number,
): Promise<ProblemRow> {
  const problem = await requireLiveProblem(db, problemId);
  if (problem.courseId === null) return requireOwned(db, problemId, user.id, forbidden);
  const role = user.siteRole === "admin" ? "owner" : await memberRole(db, problem.courseId, user.id);
  if (!(await canSeeProblem(db, user, problem, now))) throw new AppError("PROBLEM_NOT_FOUND");
  if (!can({ siteRole: user.siteRole, courseRole: role }, "problem.edit")) throw new AppError(forbidden);
  // An archived course is read-only: its problems can still be exported, not changed.
  if (forbidden !== "NOT_PROBLEM_OWNER_EXPORT") requireNotArchived((await requireCourse(db, user, problem.courseId, "course.view")).course);
  return problem;
}

/**
 * Whether `user` may take a copy of `problem` with its hidden tests and
 * validator: its owner (a public problem's author), the teachers of the course
 * that owns it (`problem.edit` there), or a site admin. Seeing a public
 * problem is not enough: anyone may link it into an assignment, but its tests
 * stay with its owner.
 */
export async function mayCopyWithTests(db: Database, user: Caller, problem: ProblemRow): Promise<boolean> {
  if (user.siteRole === "admin") return true;
  if (problem.courseId === null) return problem.userId === user.id;
  return can({ siteRole: user.siteRole, courseRole: await memberRole(db, problem.courseId, user.id) }, "problem.edit");
}

/**
 * The one check before a problem is created (by the form, a package import or
 * a copy): with a course, the caller's `problem.edit` there (an archived
 * course refuses it); and the caller's problem-write budget
 * (Limiters.problemWritesByUser, 60 an hour).
 * @throws AppError COURSE_NOT_FOUND (404), FORBIDDEN (403), COURSE_ARCHIVED (403), RATE_LIMITED (429).
 */
export async function authorizeProblemWrite(db: Database, user: Caller, courseId: string | undefined, limiter: RateLimiter): Promise<void> {
  if (courseId !== undefined) requireNotArchived((await requireCourse(db, user, courseId, "problem.edit")).course);
  limitProblemWrites(limiter, user.id);
}
