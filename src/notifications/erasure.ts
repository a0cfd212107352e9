/**
 * What erasing an account (src/account-data/erase.ts, decision 072) does to notifications: the account's
 * notices and switches go; announcements it wrote stay with their course (course content, like a course it
 * created) without their author.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { announcements, notificationPreferences, notifications } from "../../db/schema.ts";

/** The writes, for the erasure's batch. */
export function notificationsErasure(db: Database, userId: string) {
  return [
    db.delete(notifications).where(eq(notifications.userId, userId)),
    db.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId)),
    db.update(announcements).set({ authorId: null }).where(eq(announcements.authorId, userId)),
  ] as const;
}
