/** The account's spoiler-free mode (issue 35): the problem bank (src/problems/bank) then lists no topic tags for it. */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";

/** Remembers whether `userId` hides tags. @returns the new setting. */
export async function setAccountHideTags(db: Database, userId: string, hide: boolean): Promise<{ hideTags: boolean }> {
  await db.update(users).set({ hideTags: hide }).where(eq(users.id, userId));
  return { hideTags: hide };
}
