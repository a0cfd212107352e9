/**
 * Course-private problems: who sees one (members; students only once an
 * assignment with it has opened), who edits one (the course's teachers),
 * copying a public problem into a course, and which assignment a submission
 * to a course problem counts for (or why it is refused).
 */
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, extensions, problems, testCases } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { requireLiveProblem, requireOwned, countTests, readHiddenTests } from "../problems/store.ts";
import { toProblemShape, type ProblemRow, type ProblemShape } from "../problems/shape.ts";
import { memberRole, requireAssignment, requireCourse, requireNotArchived, type AssignmentRow } from "./access.ts";
import { countsAt, windowState } from "./deadlines.ts";
import { can, isStaff } from "./permissions.ts";
import { windowOf } from "./scores.ts";

/** Live, not deleted assignments of a course that contain the problem. */
async function assignmentsWith(db: Database, problemId: string): Promise<AssignmentRow[]> {
  const rows = await db
    .select({ a: assignments })
    .from(assignmentProblems)
    .innerJoin(assignments, eq(assignments.id, assignmentProblems.assignmentId))
    .where(and(eq(assignmentProblems.problemId, problemId), isNull(assignments.deletedAt)));
  return rows.map((r) => r.a);
}

/**
 * Whether `user` may see `problem`: a public problem, everyone; a course
 * problem, the course's staff and site admins, and its students once an
 * assignment with it has opened.
 */
export async function canSeeProblem(db: Database, user: Caller | null, problem: ProblemRow, now: number): Promise<boolean> {
  if (problem.courseId === null) return true;
  if (!user) return false;
  if (user.siteRole === "admin") return true;
  const role = await memberRole(db, problem.courseId, user.id);
  if (role === null) return false;
  if (isStaff(role)) return true;
  return (await assignmentsWith(db, problem.id)).some((a) => a.courseId === problem.courseId && a.opensAt.getTime() <= now);
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
 * The course's problems as the caller sees them (students: those of opened
 * assignments); hidden tests only for those who may edit them.
 * @throws COURSE_NOT_FOUND (404).
 */
export async function listCourseProblems(db: Database, user: Caller, courseId: string, now: number): Promise<ProblemShape[]> {
  const { actor } = await requireCourse(db, user, courseId, "course.view");
  let rows = await db
    .select()
    .from(problems)
    .where(and(eq(problems.courseId, courseId), isNull(problems.deletedAt)))
    .orderBy(asc(problems.createdAt));
  if (!can(actor, "assignment.viewDrafts")) {
    // A student sees the problems of the course's opened assignments: one query, not one per problem.
    const opened = await db
      .select({ problemId: assignmentProblems.problemId })
      .from(assignmentProblems)
      .innerJoin(assignments, eq(assignments.id, assignmentProblems.assignmentId))
      .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt), lte(assignments.opensAt, new Date(now))));
    const visible = new Set(opened.map((o) => o.problemId));
    rows = rows.filter((p) => visible.has(p.id));
  }
  const ids = rows.map((r) => r.id);
  const counts = await countTests(db, ids);
  const hidden = can(actor, "problem.edit") ? await readHiddenTests(db, ids) : null;
  return rows.map((r) => toProblemShape(r, counts.get(r.id) ?? 0, hidden?.get(r.id)));
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
 * Copies a problem the caller owns (or teaches in its course) into a course,
 * hidden tests and validator included; the copy is the course's (its teachers
 * edit it). Anyone else's public problem is linked into an assignment instead.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: problem.edit), COURSE_ARCHIVED (403), PROBLEM_NOT_FOUND (404),
 *   NOT_PROBLEM_OWNER_COPY (403) for a problem the caller may see but does not own.
 */
export async function copyProblemToCourse(db: Database, user: Caller, problemId: string, courseId: string, now: number): Promise<ProblemShape> {
  const { course } = await requireCourse(db, user, courseId, "problem.edit");
  requireNotArchived(course);
  const source = await requireVisibleProblem(db, user, problemId, now, "problemId");
  if (!(await mayCopyWithTests(db, user, source))) throw new AppError("NOT_PROBLEM_OWNER_COPY", { field: "problemId" });
  const tests = (await readHiddenTests(db, [source.id])).get(source.id) ?? [];
  const id = newId();
  const { id: _id, createdAt: _c, updatedAt: _u, deletedAt: _d, version: _v, ...values } = source;
  const [inserted] = await db.batch([
    db.insert(problems).values({ ...values, id, userId: user.id, courseId }).returning(),
    ...(tests.length ? [db.insert(testCases).values(tests.map((t, ordinal) => ({ problemId: id, ordinal, ...t })))] : []),
  ] as [never]);
  return toProblemShape((inserted as ProblemRow[])[0]!, tests.length, tests);
}

/** The assignment a submission counts for (null: none), and whether every test must run (partial scoring). */
export interface SubmissionTarget {
  assignmentId: string | null;
  runAllTests: boolean;
}

const at = (ms: number) => new Date(ms).toISOString();

/**
 * Where a submission to `problem` goes. Inside a named assignment: the
 * problem must be in it, and a student must be inside their window (their
 * extension counted). Without one, a course problem counts for its
 * assignment open to the student now (the one closing first); a public
 * problem counts for none. Staff may always submit (testing), counting for
 * an assignment only when named or open.
 * @throws AppError ASSIGNMENT_NOT_FOUND (404), PROBLEM_NOT_FOUND (404) when the problem is not in the assignment,
 *   COURSE_ARCHIVED (403), ASSIGNMENT_NOT_OPEN (403, saying when it opens) or ASSIGNMENT_CLOSED (403, saying when it closed).
 */
export async function submissionTarget(
  db: Database,
  user: Caller,
  problem: ProblemRow,
  assignmentId: string | undefined,
  now: number,
): Promise<SubmissionTarget> {
  if (assignmentId !== undefined) {
    const { assignment, course, actor } = await requireAssignment(db, user, assignmentId, "course.view", now);
    requireNotArchived(course);
    // The window first: before it opens a student learns when, not which problems are in it.
    if (!isStaff(actor.courseRole) && actor.siteRole !== "admin") await requireInsideWindow(db, user.id, [assignment], now);
    const [inIt] = await db
      .select({ p: assignmentProblems.problemId })
      .from(assignmentProblems)
      .where(and(eq(assignmentProblems.assignmentId, assignmentId), eq(assignmentProblems.problemId, problem.id)));
    if (!inIt) throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId", message: "problemId: this problem is not part of the assignment" });
    return { assignmentId, runAllTests: assignment.scoring === "partial" };
  }
  if (problem.courseId === null) return { assignmentId: null, runAllTests: false };
  const role = await memberRole(db, problem.courseId, user.id);
  const staff = user.siteRole === "admin" || isStaff(role);
  const { course } = await requireCourse(db, user, problem.courseId, "course.view").catch(() => {
    throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId" });
  });
  requireNotArchived(course);
  const candidates = (await assignmentsWith(db, problem.id)).filter((a) => a.courseId === problem.courseId);
  const open = await openFor(db, user.id, candidates, now);
  if (open) return { assignmentId: open.id, runAllTests: open.scoring === "partial" };
  if (staff) return { assignmentId: null, runAllTests: false };
  await requireInsideWindow(db, user.id, candidates, now);
  throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId" });
}

async function windowsFor(db: Database, userId: string, list: AssignmentRow[]) {
  const ext = list.length
    ? await db
        .select()
        .from(extensions)
        .where(and(eq(extensions.userId, userId), inArray(extensions.assignmentId, list.map((a) => a.id))))
    : [];
  return list.map((a) => ({ a, w: windowOf(a, ext.find((e) => e.assignmentId === a.id)) }));
}

/** The assignment of `list` open to the user now that closes first, or null. */
async function openFor(db: Database, userId: string, list: AssignmentRow[], now: number): Promise<AssignmentRow | null> {
  const open = (await windowsFor(db, userId, list)).filter(({ w }) => countsAt(now, w));
  open.sort((x, y) => (x.w.close ?? Infinity) - (y.w.close ?? Infinity));
  return open[0]?.a ?? null;
}

/**
 * Refuses a student's submission outside every window of `list`, saying when
 * the next one opens or when the last one closed.
 * @throws AppError ASSIGNMENT_NOT_OPEN / ASSIGNMENT_CLOSED (403) with `details.opensAt` / `details.closedAt`.
 */
async function requireInsideWindow(db: Database, userId: string, list: AssignmentRow[], now: number): Promise<void> {
  const ws = await windowsFor(db, userId, list);
  if (ws.some(({ w }) => countsAt(now, w))) return;
  const upcoming = ws.filter(({ w }) => windowState(w, now) === "upcoming").sort((x, y) => x.w.opensAt - y.w.opensAt)[0];
  if (upcoming) {
    throw new AppError("ASSIGNMENT_NOT_OPEN", {
      message: `This assignment opens on ${at(upcoming.w.opensAt)}; submissions are accepted from then.`,
      details: { opensAt: at(upcoming.w.opensAt) },
    });
  }
  const closed = ws.filter(({ w }) => w.close !== null).sort((x, y) => y.w.close! - x.w.close!)[0];
  if (closed) {
    throw new AppError("ASSIGNMENT_CLOSED", {
      message: `This assignment closed on ${at(closed.w.close!)}; submissions are no longer accepted.`,
      details: { closedAt: at(closed.w.close!) },
    });
  }
}
