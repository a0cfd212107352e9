/**
 * Per-student extra time (course roster): reading it, and staff setting it
 * (`PUT /api/courses/:id/members/:userId {extraTimePercent?, extraMinutes?}`, ./staff.ts). How it applies:
 * decision 075, ./rules.ts `extraMs` and `windowAdjust` below.
 */
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { courseMembers } from "../../../db/schema.ts";
import { idField } from "../../lib/fields.ts";
import type { WindowAdjust } from "../deadlines.ts";
import { extraMs, NO_EXTRA, type ExtraTime } from "./rules.ts";

export const extraTimeInput = z.object({
  courseId: idField(),
  userId: idField(),
  /** Percent of each timed window's length, 0..300. */
  extraTimePercent: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(0, { error: "At least 0" }).max(300, { error: "At most 300" }).optional(),
  /** Minutes added to every timed window and deadline, 0..10080 (a week). */
  extraMinutes: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(0, { error: "At least 0" }).max(10_080, { error: "At most 10080" }).optional(),
});

/** Extra time of several members of one course (absent members: none). */
export async function extraTimeOf(db: Database, courseId: string, userIds: readonly string[]): Promise<Map<string, ExtraTime>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ userId: courseMembers.userId, extraTimePercent: courseMembers.extraTimePercent, extraMinutes: courseMembers.extraMinutes })
    .from(courseMembers)
    .where(and(eq(courseMembers.courseId, courseId), inArray(courseMembers.userId, [...userIds])));
  return new Map(rows.map((r) => [r.userId, { extraTimePercent: r.extraTimePercent, extraMinutes: r.extraMinutes }]));
}

/** One member's extra time (none when not a member). */
export async function extraTimeFor(db: Database, courseId: string, userId: string): Promise<ExtraTime> {
  return (await extraTimeOf(db, courseId, [userId])).get(userId) ?? NO_EXTRA;
}


/** The deadline adjustment of a student with `extra` on assignment `a` (src/courses/deadlines.ts `studentWindow`). */
export function windowAdjust(a: { timeLimitMinutes: number | null }, extra: ExtraTime | undefined): WindowAdjust {
  return { extraMs: extra ? extraMs(a, extra) : 0 };
}
