/**
 * What courses do once a submission that counts for an assignment is judged:
 * the student's gradebook cell is recomputed (and the live gradebooks told).
 * Called while judging a submission (src/judge/judge-submission.ts, through
 * its JobPort); the kept failure is src/submissions/failures.ts's.
 */
import type { Database } from "../../db/index.ts";
import { recomputeStudent } from "./scores.ts";

/** After a verdict: the student's cell of the gradebook is recomputed (and the live gradebooks told). */
export async function afterJudged(db: Database, s: { assignmentId: string | null; userId: string; problemId: string }): Promise<void> {
  if (s.assignmentId) await recomputeStudent(db, s.assignmentId, s.userId, s.problemId);
}
