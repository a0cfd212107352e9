/** What erasing an account (src/account-data/erase.ts, decision 072) removes of the contact form: the messages sent signed in, or from the address. */
import { eq, or, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contactMessages } from "../../db/schema.ts";

/** The delete, for the erasure's batch (`emailNormalized`: lower-cased). */
export function contactErasure(db: Database, userId: string, emailNormalized: string) {
  return [db.delete(contactMessages).where(or(eq(contactMessages.userId, userId), sql`lower(trim(${contactMessages.email})) = ${emailNormalized}`))] as const;
}
