/**
 * What courses do once a submission that counts for an assignment is judged:
 * the student's gradebook cell is recomputed (and the live gradebooks told).
 * Registered as a judged hook (src/submissions/judged.ts), which judging a
 * submission runs (src/judge/judge-submission.ts, through its JobPort, and a judge host's finish); the kept failure is src/submissions/failures.ts's.
 */
import type { Database } from "../../db/index.ts";
import { eq } from "drizzle-orm";
import { submissions } from "../../db/schema.ts";
import { recomputeStudent } from "./scores.ts";
import { refreshAnalyticsAfterJudged } from "./analytics/analytics.ts";

/**
 * After a verdict: the student's cell of the gradebook is recomputed (and the live gradebooks told); after a
 * rejudge's verdict (the submission keeps a previous one) a changed total is notified to the student.
 * Registered with src/submissions/judged.ts by `registerCourseHooks`.
 */
export async function recomputeAfterJudged(db: Database, s: { id?: string; assignmentId: string | null; userId: string; problemId: string }): Promise<void> {
  if (!s.assignmentId) return;
  await refreshAnalyticsAfterJudged(db, s);
  const [row] = s.id ? await db.select({ previousVerdict: submissions.previousVerdict }).from(submissions).where(eq(submissions.id, s.id)) : [];
  const rejudged = row?.previousVerdict != null;
  await recomputeStudent(db, s.assignmentId, s.userId, s.problemId, rejudged ? { nowMs: Date.now() } : undefined);
}
