/** What erasing an account (src/account-data/erase.ts, decision 072) removes of the outbox: every message to the address, queued or kept after sending. */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { mailOutbox } from "../../db/schema.ts";

/** The delete, for the erasure's batch (`emailNormalized`: lower-cased, as src/lib/email.ts makes it). */
export function mailErasure(db: Database, emailNormalized: string) {
  return [db.delete(mailOutbox).where(sql`lower(trim(${mailOutbox.toAddress})) = ${emailNormalized}`)] as const;
}
