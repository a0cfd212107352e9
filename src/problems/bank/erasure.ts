/**
 * What erasing an account (src/account-data/erase.ts, decision 072) removes of the problem bank's progress:
 * the user's status rows and their progress version, after taking their public judgement out of the problems' counters (as
 * ./status.ts moves them), so the acceptance rates stay true once their public submissions are gone.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { bumpStatsRevision } from "./revision.ts";

/** The update, the delete and the counters' revision bump, for the erasure's batch (in this order). */
export function progressErasure(db: Database, userId: string) {
  return [
    db.run(sql`UPDATE problem_stats SET
        submitters = submitters - (SELECT count(*) FROM user_problem_status u WHERE u.user_id = ${userId} AND u.problem_id = problem_stats.problem_id AND u.public_status IS NOT NULL),
        solvers = solvers - (SELECT count(*) FROM user_problem_status u WHERE u.user_id = ${userId} AND u.problem_id = problem_stats.problem_id AND u.public_status = 'solved')
      WHERE problem_id IN (SELECT problem_id FROM user_problem_status WHERE user_id = ${userId})`),
    db.run(sql`DELETE FROM user_problem_status WHERE user_id = ${userId}`),
    // The delete's triggers bumped the user's progress version (migration 0045): it goes last.
    db.run(sql`DELETE FROM progress_versions WHERE user_id = ${userId}`),
    // The counters moved: the bank's memory (./catalogue.ts) reads them again.
    bumpStatsRevision(db),
  ] as const;
}
