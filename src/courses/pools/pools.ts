/**
 * Pools as stored: each assignment problem's slot (`assignment_problems.slot`),
 * the check of an editor's slots, which problems a student may see and submit,
 * and the draw as staff see it (who was given which problem). The draw itself
 * is ./draw.ts (pure).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, courseMembers, examStarts, problems, submissions, users } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { requireAssignment } from "../access.ts";
import { drawnProblem, isDrawn, slotsOf, type SlottedProblem } from "./draw.ts";
import { effectiveSlot } from "./slot-column.ts";

/**
 * The slot of each listed problem, numbered 0, 1, 2… in order of first
 * appearance (a problem without `slot` fills a slot of its own); the problems
 * of one slot must be worth the same points (a student is given one of them).
 * @throws AppError BAD_INPUT naming `problems.N.points` when a pool's points differ.
 */
export function normalizeSlots(list: readonly { problemId: string; points: number; slot?: number | undefined }[]): number[] {
  const numbering = new Map<number, number>();
  const points = new Map<number, number>();
  let next = 0;
  return list.map((p, i) => {
    if (p.slot === undefined) return next++;
    let n = numbering.get(p.slot);
    if (n === undefined) {
      numbering.set(p.slot, (n = next++));
      points.set(n, p.points);
    } else if (points.get(n) !== p.points) {
      throw new AppError("BAD_INPUT", { field: `problems.${i}.points`, message: `problems.${i}.points: every problem of a pool (slot ${p.slot}) must be worth the same points` });
    }
    return n;
  });
}

/**
 * Refuses an edit that would change what students were given from a pool once they have drawn: a pool's problems
 * or its slot number changed (or a slot becoming or ceasing to be a pool) after the assignment opened and a student
 * submitted to it or started it. The draw is a function of the slot and its problems (./draw.ts), so such an edit
 * would silently hand students another problem than the one they worked on. Other edits (points, a new slot after
 * the others, dates) pass.
 * @throws AppError POOL_IN_USE (409, field problems) naming the slot.
 */
export async function requirePoolsKept(
  db: Database,
  a: { id: string; opensAt: Date },
  after: readonly SlottedProblem[],
  now: number,
): Promise<void> {
  if (now < a.opensAt.getTime()) return;
  const before = (await readSlotted(db, [a.id])).get(a.id) ?? [];
  const was = new Map(slotsOf(before).map((s) => [s.slot, s.problemIds.join("\0")]));
  const will = new Map(slotsOf(after).map((s) => [s.slot, s.problemIds.join("\0")]));
  const isPool = (ids: string | undefined) => ids !== undefined && ids.includes("\0");
  const changed = [...new Set([...was.keys(), ...will.keys()])].find((slot) => (isPool(was.get(slot)) || isPool(will.get(slot))) && was.get(slot) !== will.get(slot));
  if (changed === undefined) return;
  const [row] = await db.all<{ used: number }>(
    sql`SELECT EXISTS (SELECT 1 FROM ${submissions} WHERE ${submissions.assignmentId} = ${a.id}) OR EXISTS (SELECT 1 FROM ${examStarts} WHERE ${examStarts.assignmentId} = ${a.id}) AS used`,
  );
  if (!row?.used) return;
  throw new AppError("POOL_IN_USE", {
    field: "problems",
    message: `problems: students have already drawn from the pool of slot ${changed}; changing its problems or its place would change the problem each of them was given (make a new assignment instead)`,
    details: { slot: changed },
  });
}

/** The slotted problems of each assignment (one query). */
export async function readSlotted(db: Database, assignmentIds: string[]): Promise<Map<string, SlottedProblem[]>> {
  const out = new Map<string, SlottedProblem[]>();
  if (!assignmentIds.length) return out;
  const rows = await db
    .select({ assignmentId: assignmentProblems.assignmentId, problemId: assignmentProblems.problemId, slot: effectiveSlot })
    .from(assignmentProblems)
    .where(inArray(assignmentProblems.assignmentId, assignmentIds));
  for (const r of rows) out.set(r.assignmentId, [...(out.get(r.assignmentId) ?? []), { problemId: r.problemId, slot: r.slot }]);
  return out;
}

/**
 * Whether the student was given `problemId` in the assignment (a problem alone in its slot: always).
 * Staff are never asked: they see and may submit every problem.
 */
export async function drawnFor(db: Database, assignmentId: string, userId: string, problemId: string): Promise<boolean> {
  const list = (await readSlotted(db, [assignmentId])).get(assignmentId) ?? [];
  return isDrawn(assignmentId, list, userId, problemId);
}

/**
 * Refuses a student's submission to a pool problem drawn for someone else.
 * @throws AppError PROBLEM_NOT_DRAWN (403, field problemId).
 */
export async function requireDrawn(db: Database, assignmentId: string, userId: string, problemId: string): Promise<void> {
  if (!(await drawnFor(db, assignmentId, userId, problemId))) {
    throw new AppError("PROBLEM_NOT_DRAWN", { field: "problemId", message: "problemId: this problem of the assignment's pool was given to other students; submit the one given to you" });
  }
}

/** One pool and who was given which of its problems (staff). */
export interface PoolDraw {
  slot: number;
  problems: { problemId: string; title: string; students: number }[];
  /** Every student of the course with the problem given to them. */
  draws: { userId: string; name: string; email: string; problemId: string }[];
}

/**
 * The assignment's pools (slots of two or more problems) and each student's draw.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: pool.viewDraws).
 */
export async function readPoolDraws(db: Database, user: Caller, assignmentId: string, now: number): Promise<PoolDraw[]> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "pool.viewDraws", now);
  const [rows, students] = await Promise.all([
    db
      .select({ problemId: assignmentProblems.problemId, slot: effectiveSlot, title: problems.title })
      .from(assignmentProblems)
      .innerJoin(problems, eq(problems.id, assignmentProblems.problemId))
      .where(eq(assignmentProblems.assignmentId, assignmentId)),
    db
      .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(courseMembers)
      .innerJoin(users, eq(users.id, courseMembers.userId))
      .where(and(eq(courseMembers.courseId, assignment.courseId), eq(courseMembers.role, "student")))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email)),
  ]);
  const titles = new Map(rows.map((r) => [r.problemId, r.title]));
  return slotsOf(rows)
    .filter((s) => s.problemIds.length > 1)
    .map((s) => {
      const draws = students.map((st) => ({ userId: st.userId, name: `${st.firstName} ${st.lastName}`.trim(), email: st.email, problemId: drawnProblem(assignmentId, s, st.userId) }));
      return {
        slot: s.slot,
        problems: s.problemIds.map((problemId) => ({ problemId, title: titles.get(problemId) ?? "", students: draws.filter((d) => d.problemId === problemId).length })),
        draws,
      };
    });
}
