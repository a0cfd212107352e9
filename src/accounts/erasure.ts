/**
 * What erasing an account (src/account-data/erase.ts, decision 072) does to the account itself: its two-factor
 * rows, reset links, e-mail links and "forgot password" requests go, and the user row becomes a tombstone that the course
 * records still point at: named "Deleted user", an unusable unique address, no password, handle, language,
 * rights or second factor, `erasedAt` set. Nothing can sign in to it again: no password, no identity, and no
 * address anyone can hold.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { emailTokens, passwordResetRequests, passwordResetTokens, twoFactorRecoveryCodes, twoFactorTickets, users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";

/** The name an erased account shows everywhere (stored, like any name: a person's name is never translated). */
export const ERASED_FIRST_NAME = "Deleted"; // i18n-ignore: stored data, shown as a name is
export const ERASED_LAST_NAME = "user"; // i18n-ignore: stored data, shown as a name is

/**
 * The address an erased account gets: unique (the id), under `.invalid`, a top-level domain reserved never to
 * resolve (RFC 2606), so no mail reaches anyone and nobody can sign up with it.
 */
export function erasedEmail(userId: string): string {
  return `erased-${userId}@erased.invalid`; // i18n-ignore: an address, not interface text
}

/**
 * Takes the site-admin role from `userId` unless it is the last live site admin: one statement, so two
 * admins erasing at once cannot both pass.
 * @throws LAST_ADMIN (409).
 */
export async function giveUpAdminRole(db: Database, userId: string): Promise<void> {
  const demoted = await db
    .update(users)
    .set({ siteRole: "user" })
    .where(
      and(
        eq(users.id, userId),
        sql`(SELECT count(*) FROM users o WHERE o.site_role = 'admin' AND o.is_system = 0 AND o.erased_at IS NULL AND o.id <> ${userId}) > 0`,
      ),
    )
    .returning({ id: users.id });
  if (demoted.length === 0) throw new AppError("LAST_ADMIN");
}

/** Gives the role back when the erasure's batch failed (nothing of it was written). */
export async function restoreAdminRole(db: Database, userId: string): Promise<void> {
  await db.update(users).set({ siteRole: "admin" }).where(and(eq(users.id, userId), isNull(users.erasedAt)));
}

/** The writes, for the erasure's batch: the tombstone comes last. */
export function accountErasure(db: Database, userId: string, emailNormalized: string, nowMs: number) {
  return [
    db.delete(twoFactorTickets).where(eq(twoFactorTickets.userId, userId)),
    db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId)),
    db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)),
    // Verification and change links carry an address (the account's, or the one it was changing to).
    db.delete(emailTokens).where(eq(emailTokens.userId, userId)),
    db.delete(passwordResetRequests).where(sql`lower(trim(${passwordResetRequests.email})) = ${emailNormalized}`),
    db
      .update(users)
      .set({
        firstName: ERASED_FIRST_NAME,
        lastName: ERASED_LAST_NAME,
        email: erasedEmail(userId),
        emailNormalized: erasedEmail(userId),
        passwordHash: null,
        siteRole: "user",
        canCreateCourses: false,
        locale: null,
        handle: null,
        profilePublic: false,
        hideTags: false,
        totpKey: null,
        totpPendingKey: null,
        totpLastStep: null,
        emailVerifiedAt: null,
        erasedAt: new Date(nowMs),
      })
      .where(eq(users.id, userId)),
  ] as const;
}
