/** The slot an assignment problem fills, as SQL: its `slot`, or its ordinal when it has a slot of its own (null). */
import { sql } from "drizzle-orm";
import { assignmentProblems } from "../../../db/schema.ts";

export const effectiveSlot = sql<number>`coalesce(${assignmentProblems.slot}, ${assignmentProblems.ordinal})`.mapWith(Number);
