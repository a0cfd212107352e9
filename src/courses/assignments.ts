/**
 * Assignments: a set of problems with points, a window (opens, due, optional
 * late-window close), a late penalty, scoring, feedback and AI policies, and
 * per-student extensions. Changing what decides scores recomputes them.
 */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, assignmentScores, courseMembers, extensions, problems } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { idField, instantField, requiredText } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { actorIsStaff, requireAssignment, requireCourse, requireNotArchived, type AssignmentRow } from "./access.ts";
import { windowState, type WindowState } from "./deadlines.ts";
import { AI_POLICIES, FEEDBACK_LEVELS, GRADED_DEFAULT_FEEDBACK, PRACTICE_DEFAULT_FEEDBACK, type AiPolicy, type FeedbackLevel } from "./policy.ts";
import { dropCells, recomputeAssignment, recomputeStudent, windowOf } from "./scores.ts";
import { readSpends, spentInCourse } from "./late-days/store.ts";
import { lateDaysRemaining } from "./late-days/window.ts";
import { isDrawn } from "./pools/draw.ts";
import { normalizeSlots, requirePoolsKept } from "./pools/pools.ts";
import { effectiveSlot } from "./pools/slot-column.ts";
import { examFields, examColumns, examShape, splitExamInput, type ExamShape } from "./exam/settings.ts";
import { startedOf } from "./exam/start.ts";
import { needsStart } from "./exam/windows.ts";
import { extraTimeFor, windowAdjust } from "./exam/extra-time.ts";

/** Most problems in one assignment. */
export const ASSIGNMENT_MAX_PROBLEMS = 50;

const instant = instantField();

const fields = {
  title: requiredText(200),
  description: z.string({ error: "Must be text" }).max(20_000, { error: "At most 20000 characters" }),
  opensAt: instant,
  dueAt: instant.nullable(),
  closesAt: instant.nullable(),
  latePenaltyPercent: z.number({ error: "Must be a number" }).min(0, { error: "At least 0" }).max(100, { error: "At most 100" }),
  latePenaltyUnit: z.enum(["hour", "day"], { error: "Must be hour or day" }),
  scoring: z.enum(["all-or-nothing", "partial"], { error: "Must be all-or-nothing or partial" }),
  feedback: z.enum(FEEDBACK_LEVELS, { error: `Must be ${listInWords(FEEDBACK_LEVELS)}` }),
  feedbackAfterClose: z.enum(FEEDBACK_LEVELS, { error: `Must be ${listInWords(FEEDBACK_LEVELS)}` }).nullable(),
  aiPolicy: z.enum(AI_POLICIES, { error: `Must be ${listInWords(AI_POLICIES)}` }),
  problems: z
    .array(
      z.object({
        problemId: idField(),
        points: z.number({ error: "Must be a number" }).positive({ error: "Must be more than 0" }).max(10_000, { error: "At most 10000" }).default(100),
        /** Problems given the same slot form a pool: each student gets one of them (./pools). Default: a slot of its own. */
        slot: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(0, { error: "At least 0" }).max(ASSIGNMENT_MAX_PROBLEMS, { error: `At most ${ASSIGNMENT_MAX_PROBLEMS}` }).optional(),
      }),
      { error: "Must be a list of { problemId, points, slot? }" },
    )
    .min(1, { error: "At least one problem" })
    .max(ASSIGNMENT_MAX_PROBLEMS, { error: `At most ${ASSIGNMENT_MAX_PROBLEMS} problems` }),
};

export const assignmentInput = z.object({
  courseId: idField(),
  title: fields.title,
  description: fields.description.default(""),
  opensAt: fields.opensAt,
  dueAt: fields.dueAt.default(null),
  closesAt: fields.closesAt.default(null),
  latePenaltyPercent: fields.latePenaltyPercent.default(0),
  latePenaltyUnit: fields.latePenaltyUnit.default("day"),
  scoring: fields.scoring.default("all-or-nothing"),
  /** Default: `tests` for a graded assignment, `first-failure` for practice (no due time). */
  feedback: fields.feedback.optional(),
  feedbackAfterClose: fields.feedbackAfterClose.default(null),
  aiPolicy: fields.aiPolicy.default("full"),
  problems: fields.problems,
  ...examFields,
});
export type AssignmentInput = z.infer<typeof assignmentInput>;

export const assignmentUpdateInput = z.object({
  id: idField(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  opensAt: fields.opensAt.optional(),
  dueAt: fields.dueAt.optional(),
  closesAt: fields.closesAt.optional(),
  latePenaltyPercent: fields.latePenaltyPercent.optional(),
  latePenaltyUnit: fields.latePenaltyUnit.optional(),
  scoring: fields.scoring.optional(),
  feedback: fields.feedback.optional(),
  feedbackAfterClose: fields.feedbackAfterClose.optional(),
  aiPolicy: fields.aiPolicy.optional(),
  problems: fields.problems.optional(),
  ...examFields,
});
export type AssignmentUpdate = z.infer<typeof assignmentUpdateInput>;

export const extensionInput = z.object({
  assignmentId: idField(),
  userId: idField(),
  dueAt: instant,
  closesAt: instant.nullable().default(null),
});

/** @throws AppError BAD_INPUT naming the field when the dates are out of order. */
function checkOrder(w: { opensAt: Date; dueAt: Date | null; closesAt: Date | null }): void {
  if (w.dueAt && w.dueAt < w.opensAt) throw new AppError("BAD_INPUT", { field: "dueAt", message: "dueAt: must not be before opensAt" });
  if (w.closesAt && w.dueAt && w.closesAt < w.dueAt) throw new AppError("BAD_INPUT", { field: "closesAt", message: "closesAt: must not be before dueAt" });
  if (w.closesAt && w.closesAt < w.opensAt) throw new AppError("BAD_INPUT", { field: "closesAt", message: "closesAt: must not be before opensAt" });
}

/**
 * An assignment's problems must be live and either public or this course's own.
 * @throws AppError BAD_INPUT naming `problems.N.problemId`.
 */
async function checkProblems(db: Database, courseId: string, list: { problemId: string }[]): Promise<void> {
  const ids = list.map((p) => p.problemId);
  const dup = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (dup >= 0) throw new AppError("BAD_INPUT", { field: `problems.${dup}.problemId`, message: `problems.${dup}.problemId: listed twice` });
  const rows = await db
    .select({ id: problems.id, courseId: problems.courseId })
    .from(problems)
    .where(and(inArray(problems.id, ids), isNull(problems.deletedAt)));
  const ok = new Map(rows.map((r) => [r.id, r.courseId]));
  ids.forEach((id, i) => {
    const owner = ok.get(id);
    if (owner === undefined || (owner !== null && owner !== courseId)) {
      throw new AppError("BAD_INPUT", { field: `problems.${i}.problemId`, message: `problems.${i}.problemId: no such problem in this course or among the public problems` });
    }
  });
}

export interface AssignmentProblemShape {
  problemId: string;
  title: string;
  difficulty: string;
  points: number;
  /** The slot it fills (0-based); problems sharing one are a pool, of which a student sees only the one given to them. */
  slot: number;
}

/** An assignment as the API returns it; `window` and `state` are the caller's own (their extension counted). */
export interface AssignmentShape {
  id: string;
  courseId: string;
  title: string;
  description: string;
  opensAt: string;
  dueAt: string | null;
  closesAt: string | null;
  latePenaltyPercent: number;
  latePenaltyUnit: "hour" | "day";
  scoring: "all-or-nothing" | "partial";
  feedback: FeedbackLevel;
  feedbackAfterClose: FeedbackLevel | null;
  aiPolicy: AiPolicy;
  problems: AssignmentProblemShape[];
  totalPoints: number;
  /** The caller's window: their extension's due time and close, when they have one, moved by their extra time. */
  window: { dueAt: string | null; close: string | null; extended: boolean };
  state: WindowState;
  /** The caller's late days (students of a course that gives some): the course's allowance, what remains, what was spent here. */
  lateDays: { allowed: number; remaining: number; spentHere: number } | null;
  /** Timed window and exam access rules (src/courses/exam/settings.ts); a student's own window: `exam.status`. */
  exam: ExamShape;
  /** The caller's own score and per-problem scores (students), null for staff. */
  myScore: { total: number; problems: Record<string, { score: number; verdict: string | null; attempts: number; late: boolean }> } | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function shapeAssignments(db: Database, list: AssignmentRow[], viewer: { userId: string; staff: boolean; lateDays: number }, now: number): Promise<AssignmentShape[]> {
  if (!list.length) return [];
  const ids = list.map((a) => a.id);
  const [probs, exts, scores, spends, spentTotal, started, extra] = await Promise.all([
    db
      .select({ assignmentId: assignmentProblems.assignmentId, problemId: assignmentProblems.problemId, points: assignmentProblems.points, slot: effectiveSlot, title: problems.title, difficulty: problems.difficulty })
      .from(assignmentProblems)
      .innerJoin(problems, eq(problems.id, assignmentProblems.problemId))
      .where(inArray(assignmentProblems.assignmentId, ids))
      .orderBy(asc(assignmentProblems.ordinal)),
    db.select().from(extensions).where(and(inArray(extensions.assignmentId, ids), eq(extensions.userId, viewer.userId))),
    viewer.staff
      ? Promise.resolve([])
      : db.select().from(assignmentScores).where(and(inArray(assignmentScores.assignmentId, ids), eq(assignmentScores.userId, viewer.userId))),
    readSpends(db, ids, viewer.userId),
    viewer.staff ? Promise.resolve(0) : spentInCourse(db, list[0]!.courseId, viewer.userId),
    viewer.staff ? Promise.resolve(new Set<string>()) : startedOf(db, ids, viewer.userId),
    extraTimeFor(db, list[0]!.courseId, viewer.userId),
  ]);
  return list.map((a) => {
    const ext = exts.find((e) => e.assignmentId === a.id);
    const spentHere = spends.get(`${a.id}\u0000${viewer.userId}`) ?? 0;
    const w = windowOf(a, ext, { ...windowAdjust(a, extra), lateDays: spentHere });
    const state = windowState(w, now);
    // Before it opens a student sees that it is coming (title, dates, policies), not its problems.
    // An exam that needs Start (timed, or a proctor's password) shows its problems from the student's Start on.
    const hideProblems = !viewer.staff && (a.opensAt.getTime() > now || (needsStart(a) && !started.has(a.id)));
    const own = probs.filter((p) => p.assignmentId === a.id);
    // A student sees, of each pool, only the problem given to them.
    const ps = hideProblems
      ? []
      : own
          .filter((p) => viewer.staff || isDrawn(a.id, own, viewer.userId, p.problemId))
          .map(({ problemId, title, difficulty, points, slot }) => ({ problemId, title, difficulty, points, slot }));
    // Of a pool, only the cell of the student's own problem (another's is 0 and would name its id).
    const mine = scores.filter((s) => s.assignmentId === a.id && isDrawn(a.id, own, viewer.userId, s.problemId));
    return {
      id: a.id,
      courseId: a.courseId,
      title: a.title,
      description: a.description,
      opensAt: a.opensAt.toISOString(),
      dueAt: iso(a.dueAt),
      closesAt: iso(a.closesAt),
      latePenaltyPercent: a.latePenaltyPercent,
      latePenaltyUnit: a.latePenaltyUnit,
      scoring: a.scoring,
      feedback: a.feedback,
      feedbackAfterClose: a.feedbackAfterClose,
      aiPolicy: a.aiPolicy,
      problems: ps,
      // Staff see every problem of a pool; the total counts each slot once.
      totalPoints: [...new Map(ps.map((p) => [p.slot, p.points])).values()].reduce((sum, p) => sum + p, 0),
      window: { dueAt: w.dueAt === null ? null : new Date(w.dueAt).toISOString(), close: w.close === null ? null : new Date(w.close).toISOString(), extended: ext !== undefined },
      state,
      lateDays: viewer.staff || (viewer.lateDays === 0 && spentHere === 0) ? null : { allowed: viewer.lateDays, remaining: lateDaysRemaining(viewer.lateDays, spentTotal), spentHere },
      exam: examShape(a, viewer.staff),
      myScore: viewer.staff
        ? null
        : {
            total: Math.round(mine.reduce((sum, s) => sum + s.score, 0) * 100) / 100,
            problems: Object.fromEntries(mine.map((s) => [s.problemId, { score: s.score, verdict: s.bestVerdict, attempts: s.attempts, late: s.late }])),
          },
    };
  });
}

/**
 * A course's assignments, by opening time, with the caller's state of each
 * (a student sees upcoming ones without their problems).
 * @throws COURSE_NOT_FOUND (404).
 */
export async function listAssignments(db: Database, user: Caller, courseId: string, now: number): Promise<AssignmentShape[]> {
  const { actor, course } = await requireCourse(db, user, courseId, "course.view");
  const rows = await db
    .select()
    .from(assignments)
    .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt)))
    .orderBy(asc(assignments.opensAt), asc(assignments.createdAt));
  return shapeAssignments(db, rows, { userId: user.id, staff: actorIsStaff(actor), lateDays: course.lateDays }, now);
}

/** One assignment as the caller sees it. @throws ASSIGNMENT_NOT_FOUND (404). */
export async function getAssignment(db: Database, user: Caller, id: string, now: number): Promise<AssignmentShape> {
  const { assignment, actor, course } = await requireAssignment(db, user, id, "course.view", now);
  return (await shapeAssignments(db, [assignment], { userId: user.id, staff: actorIsStaff(actor), lateDays: course.lateDays }, now))[0]!;
}

/**
 * Creates an assignment.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: assignment.edit), COURSE_ARCHIVED (403), BAD_INPUT (400 naming the field).
 */
export async function createAssignment(db: Database, user: Caller, input: AssignmentInput, now: number): Promise<AssignmentShape> {
  const { course } = await requireCourse(db, user, input.courseId, "assignment.edit");
  requireNotArchived(course);
  checkOrder(input);
  await checkProblems(db, input.courseId, input.problems);
  const id = newId();
  const feedback = input.feedback ?? (input.dueAt ? GRADED_DEFAULT_FEEDBACK : PRACTICE_DEFAULT_FEEDBACK);
  const { exam, rest } = splitExamInput(input);
  const { problems: list, courseId, ...values } = rest;
  const slots = normalizeSlots(list);
  const examValues = await examColumns(exam);
  await db.batch([
    db.insert(assignments).values({ ...values, ...examValues, id, courseId, feedback }),
    db.insert(assignmentProblems).values(list.map((p, ordinal) => ({ assignmentId: id, problemId: p.problemId, points: p.points, ordinal, slot: slots[ordinal]! }))),
  ]);
  return getAssignment(db, user, id, now);
}

/** What, when changed, changes scores. */
const SCORING_KEYS = ["opensAt", "dueAt", "closesAt", "latePenaltyPercent", "latePenaltyUnit", "scoring", "problems", "timeLimitMinutes"] as const;

/**
 * Edits an assignment; a change of dates, penalty, scoring or problems recomputes every score.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: assignment.edit), BAD_INPUT (400), POOL_IN_USE (409, field
 *   problems) for a pool changed after students drew from it.
 */
export async function updateAssignment(db: Database, user: Caller, input: AssignmentUpdate, now: number): Promise<AssignmentShape> {
  const { assignment } = await requireAssignment(db, user, input.id, "assignment.edit", now);
  const { exam, rest } = splitExamInput(input);
  const { id, problems: list, ...plain } = rest;
  const changes = { ...plain, ...(await examColumns(exam)) };
  checkOrder({ opensAt: changes.opensAt ?? assignment.opensAt, dueAt: changes.dueAt !== undefined ? changes.dueAt : assignment.dueAt, closesAt: changes.closesAt !== undefined ? changes.closesAt : assignment.closesAt });
  const statements = [db.update(assignments).set({ ...changes, updatedAt: new Date(now) }).where(eq(assignments.id, id))];
  let dropped: string[] = [];
  if (list) {
    await checkProblems(db, assignment.courseId, list);
    const slots = normalizeSlots(list);
    await requirePoolsKept(db, assignment, list.map((p, i) => ({ problemId: p.problemId, slot: slots[i]! })), now);
    const before = await db.select({ problemId: assignmentProblems.problemId }).from(assignmentProblems).where(eq(assignmentProblems.assignmentId, id));
    dropped = before.map((b) => b.problemId).filter((p) => !list.some((l) => l.problemId === p));
    statements.push(
      db.delete(assignmentProblems).where(eq(assignmentProblems.assignmentId, id)) as never,
      db.insert(assignmentProblems).values(list.map((p, ordinal) => ({ assignmentId: id, problemId: p.problemId, points: p.points, ordinal, slot: slots[ordinal]! }))) as never,
    );
  }
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  await dropCells(db, id, dropped);
  // A staff edit that changes scores tells the students whose total changed.
  if (SCORING_KEYS.some((k) => input[k] !== undefined)) await recomputeAssignment(db, id, { nowMs: now });
  return getAssignment(db, user, id, now);
}

/** Deletes an assignment (soft: its submissions keep their history). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403). */
export async function deleteAssignment(db: Database, user: Caller, id: string, now: number): Promise<void> {
  await requireAssignment(db, user, id, "assignment.edit", now);
  await db.update(assignments).set({ deletedAt: new Date(now) }).where(eq(assignments.id, id));
}

/**
 * Grants (or replaces) one student's extension and recomputes their scores.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: extension.grant), MEMBER_NOT_FOUND (404) when the user is not a student of the course, BAD_INPUT (400).
 */
export async function grantExtension(
  db: Database,
  user: Caller,
  input: z.infer<typeof extensionInput>,
  now: number,
): Promise<{ assignmentId: string; userId: string; dueAt: string; closesAt: string | null }> {
  const { assignment } = await requireAssignment(db, user, input.assignmentId, "extension.grant", now);
  const [m] = await db
    .select({ role: courseMembers.role })
    .from(courseMembers)
    .where(and(eq(courseMembers.courseId, assignment.courseId), eq(courseMembers.userId, input.userId)));
  if (m?.role !== "student") throw new AppError("MEMBER_NOT_FOUND", { field: "userId", message: "userId: not a student of this course" });
  if (input.dueAt < assignment.opensAt) throw new AppError("BAD_INPUT", { field: "dueAt", message: "dueAt: must not be before the assignment opens" });
  if (input.closesAt && input.closesAt < input.dueAt) throw new AppError("BAD_INPUT", { field: "closesAt", message: "closesAt: must not be before dueAt" });
  await db
    .insert(extensions)
    .values({ assignmentId: input.assignmentId, userId: input.userId, dueAt: input.dueAt, closesAt: input.closesAt, grantedBy: user.id })
    .onConflictDoUpdate({ target: [extensions.assignmentId, extensions.userId], set: { dueAt: input.dueAt, closesAt: input.closesAt, grantedBy: user.id } });
  await recomputeStudent(db, input.assignmentId, input.userId, undefined, { nowMs: now });
  return { assignmentId: input.assignmentId, userId: input.userId, dueAt: input.dueAt.toISOString(), closesAt: iso(input.closesAt) };
}

/** Removes a student's extension. @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: extension.grant). */
export async function removeExtension(db: Database, user: Caller, assignmentId: string, userId: string, now: number): Promise<void> {
  await requireAssignment(db, user, assignmentId, "extension.grant", now);
  await db.delete(extensions).where(and(eq(extensions.assignmentId, assignmentId), eq(extensions.userId, userId)));
  await recomputeStudent(db, assignmentId, userId, undefined, { nowMs: now });
}

/** Extensions of an assignment (staff). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: extension.view). */
export async function listExtensions(db: Database, user: Caller, assignmentId: string, now: number) {
  await requireAssignment(db, user, assignmentId, "extension.view", now);
  const rows = await db.select().from(extensions).where(eq(extensions.assignmentId, assignmentId));
  return rows.map((e) => ({ userId: e.userId, dueAt: e.dueAt.toISOString(), closesAt: iso(e.closesAt) }));
}
