/**
 * What erasing an account (src/account-data/erase.ts, decision 072) removes of the problems the user wrote:
 * those nothing else uses (no submission left by anyone, in no assignment, score, contest or clarification,
 * and not a course's problem); their tests, package, assets and tags cascade. The others stay as they are,
 * owned by the anonymous tombstone (their statements are the course's or the contest's material now; site
 * admins, and a course's teachers for its problems, can still edit them).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems } from "../../db/schema.ts";

/** The delete, for the erasure's batch (after the user's own submissions went). */
export function problemsErasure(db: Database, userId: string) {
  return [
    db
      .delete(problems)
      .where(
        and(
          eq(problems.userId, userId),
          isNull(problems.courseId),
          sql`NOT EXISTS (SELECT 1 FROM submissions s WHERE s.problem_id = ${problems.id})`,
          sql`NOT EXISTS (SELECT 1 FROM assignment_problems a WHERE a.problem_id = ${problems.id})`,
          sql`NOT EXISTS (SELECT 1 FROM assignment_scores a WHERE a.problem_id = ${problems.id})`,
          sql`NOT EXISTS (SELECT 1 FROM contest_problems c WHERE c.problem_id = ${problems.id})`,
          sql`NOT EXISTS (SELECT 1 FROM contest_clarifications c WHERE c.problem_id = ${problems.id})`,
        ),
      ),
  ] as const;
}
