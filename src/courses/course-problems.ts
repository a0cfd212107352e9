/**
 * Course-private problems: the course's problem list, copying a problem into
 * a course (its owner's right: src/problems/access.ts), and which assignment
 * a submission to a course problem counts for (or why it is refused). Who may
 * see or edit a problem is src/problems/access.ts's.
 */
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments, extensions, problems } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { copyProblem, countTests, readHiddenTests } from "../problems/store.ts";
import { toProblemShape, type ProblemRow, type ProblemShape } from "../problems/shape.ts";
import { readProblemTags } from "../problems/tags/problem-tags.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import type { ProblemCeilings } from "../problems/ceilings.ts";
import { authorizeProblemWrite, requireVisibleProblem, mayCopyWithTests } from "../problems/access.ts";
import { assignmentsWith, memberRole, requireAssignment, requireCourse, requireNotArchived, type AssignmentRow } from "./access.ts";
import { countsAt, windowState } from "./deadlines.ts";
import { can, isStaff } from "./permissions.ts";
import { windowOf } from "./scores.ts";
import { readSpends } from "./late-days/store.ts";
import { isDrawn, type SlottedProblem } from "./pools/draw.ts";
import { readSlotted, requireDrawn } from "./pools/pools.ts";
import { effectiveSlot } from "./pools/slot-column.ts";
import { requireExamSubmit } from "./exam/start.ts";
import { extraTimeFor, windowAdjust } from "./exam/extra-time.ts";

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
    const visible = (await openedAssignmentProblems(db, [courseId], now, user.id)).get(courseId);
    rows = rows.filter((p) => visible?.has(p.id));
  }
  const ids = rows.map((r) => r.id);
  const [counts, tags] = await Promise.all([countTests(db, ids), readProblemTags(db, ids)]);
  const hidden = can(actor, "problem.edit") ? await readHiddenTests(db, ids) : null;
  return rows.map((r) => toProblemShape(r, counts.get(r.id) ?? 0, tags.get(r.id) ?? [], hidden?.get(r.id)));
}

/**
 * The problems of each given course's assignments opened by `now` (not deleted), by course: what a
 * student of that course sees of its problems (of a pool, only the problem given to `userId`). One
 * query, not one per problem (also the problem bank's, src/problems/bank/visible.ts).
 */
export async function openedAssignmentProblems(db: Database, courseIds: string[], now: number, userId: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!courseIds.length) return out;
  const opened = await db
    .select({ courseId: assignments.courseId, assignmentId: assignmentProblems.assignmentId, problemId: assignmentProblems.problemId, slot: effectiveSlot })
    .from(assignmentProblems)
    .innerJoin(assignments, eq(assignments.id, assignmentProblems.assignmentId))
    .where(and(inArray(assignments.courseId, courseIds), isNull(assignments.deletedAt), lte(assignments.opensAt, new Date(now))));
  const slotted = new Map<string, SlottedProblem[]>();
  for (const o of opened) slotted.set(o.assignmentId, [...(slotted.get(o.assignmentId) ?? []), o]);
  for (const o of opened) {
    if (!isDrawn(o.assignmentId, slotted.get(o.assignmentId)!, userId, o.problemId)) continue;
    const set = out.get(o.courseId) ?? new Set<string>();
    set.add(o.problemId);
    out.set(o.courseId, set);
  }
  return out;
}

/**
 * Copies a problem the caller owns (or teaches in its course) into a course,
 * hidden tests and validator included; the copy is the course's (its teachers
 * edit it). Anyone else's public problem is linked into an assignment instead.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: problem.edit), COURSE_ARCHIVED (403), PROBLEM_NOT_FOUND (404),
 *   NOT_PROBLEM_OWNER_COPY (403) for a problem the caller may see but does not own.
 */
export async function copyProblemToCourse(
  db: Database,
  user: Caller,
  problemId: string,
  courseId: string,
  now: number,
  /** The caller's problem-write budget (Limiters.problemWritesByUser). */
  limiter: RateLimiter,
  /** This server's ceilings (`config.ceilings`, with the storage quota the copy counts against). */
  ceilings: ProblemCeilings,
): Promise<ProblemShape> {
  await authorizeProblemWrite(db, user, courseId, limiter);
  const source = await requireVisibleProblem(db, user, problemId, now, "problemId");
  if (!(await mayCopyWithTests(db, user, source))) throw new AppError("NOT_PROBLEM_OWNER_COPY", { field: "problemId" });
  return copyProblem(db, source, { userId: user.id, courseId }, ceilings);
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
 *   COURSE_ARCHIVED (403), ASSIGNMENT_NOT_OPEN (403, saying when it opens) or ASSIGNMENT_CLOSED (403, saying when it closed);
 *   on an exam that needs Start, EXAM_NOT_STARTED or EXAM_WINDOW_OVER (403, naming the time; src/courses/exam/start.ts).
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
    if (!isStaff(actor.courseRole) && actor.siteRole !== "admin") {
      await requireInsideWindow(db, user.id, [assignment], now);
      await requireExamSubmit(db, user, assignment, now);
    }
    const [inIt] = await db
      .select({ p: assignmentProblems.problemId })
      .from(assignmentProblems)
      .where(and(eq(assignmentProblems.assignmentId, assignmentId), eq(assignmentProblems.problemId, problem.id)));
    if (!inIt) throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId", message: "problemId: this problem is not part of the assignment" });
    if (!isStaff(actor.courseRole) && actor.siteRole !== "admin") await requireDrawn(db, assignmentId, user.id, problem.id);
    return { assignmentId, runAllTests: assignment.scoring === "partial" };
  }
  if (problem.courseId === null) return { assignmentId: null, runAllTests: false };
  const role = await memberRole(db, problem.courseId, user.id);
  const staff = user.siteRole === "admin" || isStaff(role);
  const { course } = await requireCourse(db, user, problem.courseId, "course.view").catch(() => {
    throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId" });
  });
  requireNotArchived(course);
  const inCourse = (await assignmentsWith(db, problem.id)).filter((a) => a.courseId === problem.courseId);
  // A student's submission counts only where the problem was given to them (pools, issue 37 §3).
  const slotted = staff ? null : await readSlotted(db, inCourse.map((a) => a.id));
  const candidates = slotted ? inCourse.filter((a) => isDrawn(a.id, slotted.get(a.id) ?? [], user.id, problem.id)) : inCourse;
  const open = await openFor(db, user.id, candidates, now);
  if (open && !staff) await requireExamSubmit(db, user, open, now);
  if (open) return { assignmentId: open.id, runAllTests: open.scoring === "partial" };
  if (staff) return { assignmentId: null, runAllTests: false };
  await requireInsideWindow(db, user.id, candidates, now);
  throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId" });
}

async function windowsFor(db: Database, userId: string, list: AssignmentRow[]) {
  const ids = list.map((a) => a.id);
  const [ext, spends, extra] = await Promise.all([
    ids.length ? db.select().from(extensions).where(and(eq(extensions.userId, userId), inArray(extensions.assignmentId, ids))) : [],
    readSpends(db, ids, userId),
    list.length ? extraTimeFor(db, list[0]!.courseId, userId) : undefined,
  ]);
  return list.map((a) => ({ a, w: windowOf(a, ext.find((e) => e.assignmentId === a.id), { ...windowAdjust(a, extra), lateDays: spends.get(`${a.id}\u0000${userId}`) ?? 0 }) }));
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
