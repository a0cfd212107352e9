/**
 * What erasing an account (src/account-data/erase.ts, decision 072) changes in courses: invitations to the
 * address go. Memberships, assignment scores and extensions stay (the course's grade records), pointing at the
 * anonymous tombstone; so do courses and assignments the user created.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { courseInvites } from "../../db/schema.ts";

/** The delete, for the erasure's batch (`emailNormalized`: lower-cased). */
export function coursesErasure(db: Database, emailNormalized: string) {
  return [db.delete(courseInvites).where(eq(courseInvites.emailNormalized, emailNormalized))] as const;
}
