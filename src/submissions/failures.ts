/**
 * The first failing hidden test of a submission, kept for feedback: only for
 * a submission that counts for an assignment to its course's own problem
 * (`mayKeepFailure`: a public problem's tests are its owner's, decision 032),
 * each text cut to FAILURE_EXCERPT_MAX_BYTES, shown only as the feedback
 * policy allows (./view.ts). Written while judging (src/judge/job-port.ts).
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignments, problems, submissionFailures, submissions } from "../../db/schema.ts";
import { capUtf8 } from "../../isolate/exec.ts";
import { FAILURE_EXCERPT_MAX_BYTES } from "../courses/policy.ts";

/** Forgets a kept failure (a submission judged again starts clean). */
export async function clearFailure(db: Database, submissionId: string): Promise<void> {
  await db.delete(submissionFailures).where(eq(submissionFailures.submissionId, submissionId));
}

/**
 * Whether a submission may keep its first failing hidden test: it counts for
 * an assignment, and the problem belongs to that assignment's course (its
 * teachers own the tests and chose the feedback policy). A public problem
 * linked into an assignment keeps no hidden data: its owner allowed nobody to
 * show its tests (decision 032).
 */
export async function mayKeepFailure(db: Database, submissionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: submissions.id })
    .from(submissions)
    .innerJoin(problems, eq(problems.id, submissions.problemId))
    .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
    .where(and(eq(submissions.id, submissionId), isNotNull(problems.courseId), eq(assignments.courseId, problems.courseId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Keeps the first failing hidden test of an assignment submission to its
 * course's own problem (see `mayKeepFailure`; otherwise nothing is stored),
 * each text cut to FAILURE_EXCERPT_MAX_BYTES.
 */
export async function keepFailure(
  db: Database,
  submissionId: string,
  test: { index: number; input: string; expected: string },
  result: { stdout: string; stderr: string },
): Promise<void> {
  if (!(await mayKeepFailure(db, submissionId))) return;
  const cut = (s: string) => capUtf8(s, FAILURE_EXCERPT_MAX_BYTES);
  await db
    .insert(submissionFailures)
    .values({ submissionId, testIndex: test.index, input: cut(test.input), expectedOutput: cut(test.expected), actualOutput: cut(result.stdout), stderr: cut(result.stderr) })
    .onConflictDoNothing();
}
