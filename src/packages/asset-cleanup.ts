/**
 * The statement images of problems that are gone: deleted with their hidden
 * tests once nothing waits for them (src/problems/quota.ts
 * `freeDeletedProblems` picks the problems; images are this folder's table).
 */
import { inArray, type SQLWrapper } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problemAssets } from "../../db/schema.ts";

/**
 * The delete of every image of the problems `problemIds` selects, as a query
 * to run in the caller's batch (beside the tests' delete).
 * @param problemIds a subquery selecting problem ids (one column).
 */
export function deleteAssetsOf(db: Database, problemIds: SQLWrapper) {
  return db.delete(problemAssets).where(inArray(problemAssets.problemId, problemIds));
}
