/**
 * Rejudging one submission of a course: staff (TAs included) send it back to
 * the queue; the judge runs it again and the gradebook follows. The previous
 * verdict is kept on the row (`previous_verdict`) for the history
 * (src/submissions/rejudge.ts re-queues).
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, submissions } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { requeueJudged } from "../submissions/rejudge.ts";
import { requireCourse } from "./access.ts";

/**
 * Queues a judged submission again.
 * @throws AppError SUBMISSION_NOT_FOUND (404) when absent or not in a course the caller may rejudge in
 *   (rejudging public problems belongs to their owners, not to courses); FORBIDDEN (403) for a member without submission.rejudge.
 */
export async function rejudgeSubmission(db: Database, caller: Caller, submissionId: string, ring?: () => void): Promise<{ id: string; status: "queued" }> {
  const [row] = await db
    .select({ id: submissions.id, status: submissions.status, courseId: problems.courseId })
    .from(submissions)
    .innerJoin(problems, eq(problems.id, submissions.problemId))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row?.courseId) throw new AppError("SUBMISSION_NOT_FOUND");
  await requireCourse(db, caller, row.courseId, "submission.rejudge").catch((err: unknown) => {
    throw err instanceof AppError && err.kind === "COURSE_NOT_FOUND" ? new AppError("SUBMISSION_NOT_FOUND") : err;
  });
  await requeueJudged(db, [row.id], ring);
  return { id: row.id, status: "queued" };
}
