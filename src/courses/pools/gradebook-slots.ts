/**
 * What the gradebook adds for pools and late days (issue 37 §3, §6): one
 * column per slot (a pool's column holds, per student, the cell of the problem
 * given to them) and each student's late days spent on the assignment.
 */
import type { Database } from "../../../db/index.ts";
import { courseAllowance, readSpends } from "../late-days/store.ts";
import { drawnProblem, slotsOf, type SlottedProblem } from "./draw.ts";

/** One gradebook column: a slot, its points, its problems (several for a pool). */
export interface GradebookSlot {
  slot: number;
  points: number;
  problemIds: string[];
}

/** The slot columns and, per student, the problem of each slot given to them (in slot order). */
export function slotColumns(
  assignmentId: string,
  list: readonly (SlottedProblem & { points: number })[],
  studentIds: readonly string[],
): { slots: GradebookSlot[]; drawn: Record<string, string[]> } {
  const slots = slotsOf(list);
  const points = new Map(list.map((p) => [p.slot, p.points]));
  return {
    slots: slots.map((s) => ({ slot: s.slot, points: points.get(s.slot) ?? 0, problemIds: s.problemIds })),
    drawn: Object.fromEntries(studentIds.map((u) => [u, slots.map((s) => drawnProblem(assignmentId, s, u))])),
  };
}

/** The course's late-day allowance and the days each student spent on the assignment (absent: none). */
export async function lateDayColumn(db: Database, a: { id: string; courseId: string }): Promise<{ allowed: number; spent: Record<string, number> }> {
  const [allowed, spends] = await Promise.all([courseAllowance(db, a.courseId), readSpends(db, [a.id])]);
  const spent: Record<string, number> = {};
  for (const [key, days] of spends) spent[key.slice(key.indexOf("\u0000") + 1)] = days;
  return { allowed, spent };
}
