/** What erasing an account (src/account-data/erase.ts, decision 072) removes of its sign-in identities: every linked identity and sign-in in progress. */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { externalIdentities, ssoFlows } from "../../db/schema.ts";

/** The deletes, for the erasure's batch. */
export function identitiesErasure(db: Database, userId: string) {
  return [db.delete(externalIdentities).where(eq(externalIdentities.userId, userId)), db.delete(ssoFlows).where(eq(ssoFlows.linkUserId, userId))] as const;
}
