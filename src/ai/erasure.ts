/**
 * What erasing an account (src/account-data/erase.ts, decision 072) removes of AI reviews: the user's requests.
 * Cached reviews (`ai_reviews`) name no person: they are keyed by a hash of problem, language and code, and the
 * code itself leaves with the user's submissions.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { aiRequests } from "../../db/schema.ts";

/** The delete, for the erasure's batch. */
export function aiErasure(db: Database, userId: string) {
  return [db.delete(aiRequests).where(eq(aiRequests.userId, userId))] as const;
}
