/** What erasing an account (src/account-data/erase.ts, decision 072) removes of the judges' audit: the finishes of the submissions erasure deletes (they hold no cascade). */
import { inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { judgeFinishes } from "../../db/schema.ts";
import { practiceSubmissionIds } from "../submissions/erasure.ts";

/** The delete, for the erasure's batch (before submissionsErasure). */
export function judgeFinishesErasure(db: Database, userId: string) {
  return [db.delete(judgeFinishes).where(inArray(judgeFinishes.submissionId, practiceSubmissionIds(db, userId)))] as const;
}
