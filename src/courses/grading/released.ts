/**
 * Released reviews as the gradebook reads them (../scores.ts): per student and
 * problem of an assignment, the latest released review with its rubric mode
 * and the points of its picked items that still exist. Three queries whatever
 * the number of reviews.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { rubricItems, rubrics, submissionReviews } from "../../../db/schema.ts";
import type { ReleasedReview, RubricMode } from "./score.ts";

/** The key of a cell: user and problem. */
export const cellKey = (userId: string, problemId: string) => `${userId}\u0000${problemId}`;

/**
 * The released reviews of an assignment (of one student when `userId` is given), keyed by `cellKey`.
 * When a cell has several, the latest released wins.
 */
export async function releasedReviews(db: Database, assignmentId: string, userId?: string): Promise<Map<string, ReleasedReview>> {
  const [reviews, modes, items] = await Promise.all([
    db
      .select()
      .from(submissionReviews)
      .where(and(eq(submissionReviews.assignmentId, assignmentId), isNotNull(submissionReviews.releasedAt), ...(userId ? [eq(submissionReviews.userId, userId)] : []))),
    db.select({ problemId: rubrics.problemId, mode: rubrics.mode }).from(rubrics).where(eq(rubrics.assignmentId, assignmentId)),
    db.select({ id: rubricItems.id, points: rubricItems.points }).from(rubricItems).where(eq(rubricItems.assignmentId, assignmentId)),
  ]);
  const out = new Map<string, ReleasedReview>();
  if (reviews.length === 0) return out;
  const modeOf = new Map<string, RubricMode>(modes.map((m) => [m.problemId, m.mode]));
  const pointsOf = new Map(items.map((i) => [i.id, i.points]));
  reviews.sort((x, y) => x.releasedAt!.getTime() - y.releasedAt!.getTime());
  for (const r of reviews) {
    out.set(cellKey(r.userId, r.problemId), {
      submissionId: r.submissionId,
      mode: modeOf.get(r.problemId) ?? "add",
      itemPoints: r.itemIds.flatMap((id) => (pointsOf.has(id) ? [pointsOf.get(id)!] : [])),
      overridePoints: r.overridePoints,
    });
  }
  return out;
}
