/**
 * What erasing an account (src/account-data/erase.ts, decision 072) removes of LMS data: activity pickers the
 * user opened. Grades still to reach the LMS stay (the course's grade record at the LMS; the row holds the
 * platform's own id of the student, nothing more).
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { ltiDeepLinks } from "../../db/schema.ts";

/** The delete, for the erasure's batch. */
export function ltiErasure(db: Database, userId: string) {
  return [db.delete(ltiDeepLinks).where(eq(ltiDeepLinks.userId, userId))] as const;
}
