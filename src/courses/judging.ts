/**
 * What courses do once a submission that counts for an assignment is judged:
 * the student's gradebook cell is recomputed (and the live gradebooks told).
 * Registered as a judged hook (src/submissions/judged.ts), which judging a
 * submission runs (src/judge/judge-submission.ts, through its JobPort, and a judge host's finish); the kept failure is src/submissions/failures.ts's.
 */
import type { Database } from "../../db/index.ts";
import { recomputeStudent } from "./scores.ts";

/** After a verdict: the student's cell of the gradebook is recomputed (and the live gradebooks told). Registered with src/submissions/judged.ts by `registerCourseHooks`. */
export async function recomputeAfterJudged(db: Database, s: { assignmentId: string | null; userId: string; problemId: string }): Promise<void> {
  if (s.assignmentId) await recomputeStudent(db, s.assignmentId, s.userId, s.problemId);
}
