/**
 * What the judge does for submissions that count for an assignment: keep the
 * first failing hidden test's data (cut to FAILURE_EXCERPT_MAX_BYTES, shown
 * only as the feedback policy allows), and update the gradebook once the
 * verdict is written. Called by the judging pipeline (src/judge/pipeline.ts).
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { submissionFailures } from "../../db/schema.ts";
import { capUtf8 } from "../../isolate/exec.ts";
import { FAILURE_EXCERPT_MAX_BYTES } from "./policy.ts";
import { recomputeStudent } from "./scores.ts";

/** Forgets a kept failure (a submission judged again starts clean). */
export async function clearFailure(db: Database, submissionId: string): Promise<void> {
  await db.delete(submissionFailures).where(eq(submissionFailures.submissionId, submissionId));
}

/** Keeps the first failing hidden test of an assignment submission, each text cut to FAILURE_EXCERPT_MAX_BYTES. */
export async function keepFailure(
  db: Database,
  submissionId: string,
  test: { index: number; input: string; expected: string },
  result: { stdout: string; stderr: string },
): Promise<void> {
  const cut = (s: string) => capUtf8(s, FAILURE_EXCERPT_MAX_BYTES);
  await db
    .insert(submissionFailures)
    .values({ submissionId, testIndex: test.index, input: cut(test.input), expectedOutput: cut(test.expected), actualOutput: cut(result.stdout), stderr: cut(result.stderr) })
    .onConflictDoNothing();
}

/** After a verdict: the student's cell of the gradebook is recomputed (and the live gradebooks told). */
export async function afterJudged(db: Database, s: { assignmentId: string | null; userId: string; problemId: string }): Promise<void> {
  if (s.assignmentId) await recomputeStudent(db, s.assignmentId, s.userId, s.problemId);
}
