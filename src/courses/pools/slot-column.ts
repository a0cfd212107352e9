/** The slot an assignment problem fills, as SQL: its `slot`, or its ordinal when it has a slot of its own (null). */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems } from "../../../db/schema.ts";

export const effectiveSlot = sql<number>`coalesce(${assignmentProblems.slot}, ${assignmentProblems.ordinal})`.mapWith(Number);

/** An assignment's points as a student can earn them: each slot once (a pool's problems are worth the same). */
export async function slotPointsTotal(db: Database, assignmentId: string): Promise<number> {
  const rows = await db.select({ slot: effectiveSlot, points: assignmentProblems.points }).from(assignmentProblems).where(eq(assignmentProblems.assignmentId, assignmentId));
  return [...new Map(rows.map((r) => [r.slot, r.points])).values()].reduce((s, p) => s + p, 0);
}
