/**
 * What erasing an account (src/account-data/erase.ts, decision 072) removes of submissions: every one outside
 * a course assignment and a contest, with its code (its tests, failures and paste record cascade). Assignment
 * and contest submissions stay: the grades and standings rest on them.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { submissions } from "../../db/schema.ts";

/** The submissions erasure deletes, as a WHERE clause. */
export function practiceSubmissionsOf(userId: string) {
  return and(eq(submissions.userId, userId), isNull(submissions.assignmentId), isNull(submissions.contestId));
}

/** Their ids, as a subquery (what refers to them goes first). */
export function practiceSubmissionIds(db: Database, userId: string) {
  return db.select({ id: submissions.id }).from(submissions).where(practiceSubmissionsOf(userId));
}

/** The delete, for the erasure's batch (after judgeHostsErasure). */
export function submissionsErasure(db: Database, userId: string) {
  return [db.delete(submissions).where(practiceSubmissionsOf(userId))] as const;
}
