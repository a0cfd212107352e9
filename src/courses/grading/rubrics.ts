/**
 * Rubrics (issue 37 §4): per assignment problem, the items staff pick when
 * reviewing a submission (points, negative for a deduction, and a
 * description) and the mode: `add` (picked items are added to the judge's
 * score) or `replace` (they are the score). Teachers edit (`rubric.edit`);
 * all staff read (`submission.readAll`). Saving recomputes the assignment's
 * scores when a released review of the problem grades with the rubric.
 */
import { and, asc, eq, isNotNull, notInArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, rubricItems, rubrics, submissionReviews } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField, requiredText } from "../../lib/fields.ts";
import { newId } from "../../../db/ids.ts";
import { requireAssignment } from "../access.ts";
import { recomputeAssignment } from "../scores.ts";
import { RUBRIC_MODES, type RubricMode } from "./score.ts";

/** Most items in one rubric. */
export const MAX_RUBRIC_ITEMS = 100;
/** Points of one item lie in ±MAX_ITEM_POINTS. */
export const MAX_ITEM_POINTS = 10_000;

export interface RubricItem {
  id: string;
  /** Points (negative: a deduction). */
  points: number;
  description: string;
}

export interface Rubric {
  assignmentId: string;
  problemId: string;
  mode: RubricMode;
  items: RubricItem[];
}

const pointsField = z
  .number({ error: "Must be a number" })
  .min(-MAX_ITEM_POINTS, { error: `At least -${MAX_ITEM_POINTS}` })
  .max(MAX_ITEM_POINTS, { error: `At most ${MAX_ITEM_POINTS}` });

/** PUT /api/assignments/:id/problems/:problemId/rubric: the whole rubric (items without `id` are new; missing ones are deleted). */
export const rubricInput = z.object({
  assignmentId: idField(),
  problemId: idField(),
  mode: z.enum(RUBRIC_MODES, { error: "Must be add or replace" }),
  items: z
    .array(z.object({ id: idField().optional(), points: pointsField, description: requiredText(500) }), { error: "Must be a list" })
    .max(MAX_RUBRIC_ITEMS, { error: `At most ${MAX_RUBRIC_ITEMS} items` }),
});

/** Reads a rubric without checking who asks (callers checked). */
export async function rubricOf(db: Database, assignmentId: string, problemId: string): Promise<Rubric> {
  const [[r], items] = await Promise.all([
    db.select({ mode: rubrics.mode }).from(rubrics).where(and(eq(rubrics.assignmentId, assignmentId), eq(rubrics.problemId, problemId))).limit(1),
    db
      .select({ id: rubricItems.id, points: rubricItems.points, description: rubricItems.description })
      .from(rubricItems)
      .where(and(eq(rubricItems.assignmentId, assignmentId), eq(rubricItems.problemId, problemId)))
      .orderBy(asc(rubricItems.ordinal)),
  ]);
  return { assignmentId, problemId, mode: r?.mode ?? "add", items };
}

async function requireProblem(db: Database, assignmentId: string, problemId: string): Promise<void> {
  const [ap] = await db
    .select({ problemId: assignmentProblems.problemId })
    .from(assignmentProblems)
    .where(and(eq(assignmentProblems.assignmentId, assignmentId), eq(assignmentProblems.problemId, problemId)))
    .limit(1);
  if (!ap) throw new AppError("PROBLEM_NOT_FOUND");
}

/**
 * The rubric of a problem of an assignment (staff).
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: submission.readAll), PROBLEM_NOT_FOUND (404: not in the assignment).
 */
export async function readRubric(db: Database, user: Caller, assignmentId: string, problemId: string, now: number): Promise<Rubric> {
  await requireAssignment(db, user, assignmentId, "submission.readAll", now);
  await requireProblem(db, assignmentId, problemId);
  return rubricOf(db, assignmentId, problemId);
}

/**
 * Replaces a rubric (teachers), then recomputes the assignment's scores (a released review's grade may change; students are told).
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: rubric.edit), COURSE_ARCHIVED (403), PROBLEM_NOT_FOUND (404),
 *   BAD_INPUT (400, field `items.N.id`: not an item of this rubric).
 */
export async function saveRubric(db: Database, user: Caller, input: z.infer<typeof rubricInput>, now: number): Promise<Rubric> {
  const { assignmentId, problemId } = input;
  await requireAssignment(db, user, assignmentId, "rubric.edit", now);
  await requireProblem(db, assignmentId, problemId);
  const existing = await rubricOf(db, assignmentId, problemId);
  const known = new Set(existing.items.map((i) => i.id));
  input.items.forEach((item, n) => {
    if (item.id !== undefined && !known.has(item.id)) throw new AppError("BAD_INPUT", { field: `items.${n}.id`, message: `items.${n}.id: Not an item of this rubric` });
  });
  const items = input.items.map((item, ordinal) => ({ id: item.id ?? newId(), assignmentId, problemId, ordinal, points: item.points, description: item.description }));
  const keep = items.map((i) => i.id);
  const mine = and(eq(rubricItems.assignmentId, assignmentId), eq(rubricItems.problemId, problemId));
  await db.batch([
    db
      .insert(rubrics)
      .values({ assignmentId, problemId, mode: input.mode, updatedAt: new Date(now) })
      .onConflictDoUpdate({ target: [rubrics.assignmentId, rubrics.problemId], set: { mode: input.mode, updatedAt: new Date(now) } }),
    db.delete(rubricItems).where(keep.length ? and(mine, notInArray(rubricItems.id, keep)) : mine),
    ...items.filter((i) => known.has(i.id)).map((i) => db.update(rubricItems).set({ ordinal: i.ordinal, points: i.points, description: i.description }).where(eq(rubricItems.id, i.id))),
    ...(items.some((i) => !known.has(i.id)) ? [db.insert(rubricItems).values(items.filter((i) => !known.has(i.id)))] : []),
  ]);
  // Only released reviews grade with the rubric: without one no score can change.
  const [released] = await db
    .select({ id: submissionReviews.submissionId })
    .from(submissionReviews)
    .where(and(eq(submissionReviews.assignmentId, assignmentId), eq(submissionReviews.problemId, problemId), isNotNull(submissionReviews.releasedAt)))
    .limit(1);
  if (released) await recomputeAssignment(db, assignmentId, { nowMs: now });
  return rubricOf(db, assignmentId, problemId);
}
