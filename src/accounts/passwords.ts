/**
 * Passwords (decision 060): change one's own (the current one asked; every
 * other session signed out), set a new one with a reset link (every session
 * signed out), and an administrator's one-time link for sites without mail.
 * Any password change voids every reset link of the account.
 */
import { mailLocale } from "../i18n/mail-text.ts";
import { and, eq, isNull } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database } from "../../db/index.ts";
import { passwordResetTokens, users } from "../../db/schema.ts";
import { deleteSessionsOf } from "../auth/session.ts";
import { AppError } from "../errors.ts";
import { queueMail } from "../mail/outbox.ts";
import { mailConfigured } from "../mail/settings.ts";
import { requireAdmin } from "./admin.ts";
import { throttledLogin, type LoginDeps } from "./login.ts";
import { passwordChangedMail } from "./password-mail.ts";
import { hashResetToken, insertResetToken, newResetToken, resetLink, RESET_TOKEN_TTL_MS } from "./password-tokens.ts";
import { hashPassword, normalizeEmail, type Caller } from "./user.ts";

export interface PasswordDeps extends LoginDeps {
  config: Config;
  /** The clock reset links expire by (ms since the epoch). */
  now: () => number;
  mail?: { kick(): void };
  /** The request's language (src/i18n/messages.ts), for the notice when the account has chosen none. */
  locale?: string;
}

/** The statements every password change makes: the hash, no reset link left, and (with mail) a notice. */
function passwordWrites(deps: PasswordDeps, user: { id: string; firstName: string; email: string; locale?: string | null }, passwordHash: string) {
  const { db, config } = deps;
  const origin = config.sso.publicUrl?.origin;
  return [
    db.update(users).set({ passwordHash }).where(eq(users.id, user.id)),
    db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
    ...(mailConfigured(config) && origin
      ? [queueMail(db, config.MAIL_FROM, user.email, "password-changed", passwordChangedMail(user.firstName, `${origin}/forgot-password`, mailLocale(user.locale, deps.locale)))]
      : []),
  ] as const;
}

/**
 * Changes the signed-in user's password; signs out every other session (the current one stays).
 * The current password is checked under the sign-in limits (a wrong one counts as a failed sign-in).
 * @throws AppError NO_PASSWORD (400, field currentPassword) for an account without one; WRONG_PASSWORD (400, field
 *   currentPassword); TOO_MANY_LOGIN_ATTEMPTS (429).
 */
export async function changePassword(
  deps: PasswordDeps,
  ip: string,
  caller: { id: string; sessionId: string },
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const [user] = await deps.db
    .select({ id: users.id, firstName: users.firstName, email: users.email, passwordHash: users.passwordHash, locale: users.locale })
    .from(users)
    .where(eq(users.id, caller.id));
  if (!user?.passwordHash) throw new AppError("NO_PASSWORD", { field: "currentPassword" });
  const hash = user.passwordHash;
  await throttledLogin(deps.limiters, ip, `email:${normalizeEmail(user.email)}`, async () => {
    if (!(await Bun.password.verify(input.currentPassword, hash))) throw new AppError("WRONG_PASSWORD", { field: "currentPassword" });
  });
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.batch([
    ...passwordWrites(deps, user, passwordHash),
    deleteSessionsOf(deps.db, user.id, caller.sessionId),
  ]);
  deps.mail?.kick();
}

/**
 * Sets a new password with a reset link's token, once: the token is deleted as it is read, then every session of
 * the account is signed out and every other link voided.
 * @throws AppError RESET_LINK_INVALID (400, field token) for an unknown, used, voided or expired token.
 */
export async function resetPassword(deps: PasswordDeps, input: { token: string; password: string }): Promise<void> {
  // Hashed first, so the token is spent only once the new password is ready to store.
  const passwordHash = await hashPassword(input.password);
  const [spent] = await deps.db
    .delete(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, hashResetToken(input.token)))
    .returning({ userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt });
  if (!spent || spent.expiresAt.getTime() <= deps.now()) throw new AppError("RESET_LINK_INVALID", { field: "token" });
  const [user] = await deps.db.select({ id: users.id, firstName: users.firstName, email: users.email, locale: users.locale }).from(users).where(eq(users.id, spent.userId));
  if (!user) throw new AppError("RESET_LINK_INVALID", { field: "token" });
  await deps.db.batch([...passwordWrites(deps, user, passwordHash), deleteSessionsOf(deps.db, user.id)]);
  deps.mail?.kick();
}

/** Whether the account has a password (accounts made by a campus sign-in or an LMS launch have none). */
export async function hasPassword(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return Boolean(row?.passwordHash);
}

/** A one-time link an administrator hands to a user (valid an hour). */
export interface ResetLinkShape {
  url: string;
  email: string;
  /** ISO 8601. */
  expiresAt: string;
}

async function linkFor(db: Database, user: { id: string; email: string }, origin: string, nowMs: number): Promise<ResetLinkShape> {
  const { token, tokenHash } = newResetToken();
  await insertResetToken(db, user.id, tokenHash, nowMs);
  return { url: resetLink(origin, token), email: user.email, expiresAt: new Date(nowMs + RESET_TOKEN_TTL_MS).toISOString() };
}

/**
 * A site admin makes a reset link for an account (shown once, never stored: only its hash is).
 * @param origin this site's address for the link (PUBLIC_URL, else the admin's own request).
 * @throws AppError FORBIDDEN (403) unless a site admin; BAD_INPUT (400, field userId) for an unknown (or erased) account.
 */
export async function adminResetLink(deps: { db: Database; now: () => number }, caller: Caller, userId: string, origin: string): Promise<ResetLinkShape> {
  requireAdmin(caller);
  const [user] = await deps.db.select({ id: users.id, email: users.email }).from(users).where(and(eq(users.id, userId), eq(users.isSystem, false), isNull(users.erasedAt)));
  if (!user) throw new AppError("BAD_INPUT", { field: "userId", message: "userId: no such account" });
  return linkFor(deps.db, user, origin, deps.now());
}

/**
 * The command line's way (`bun run admin -- reset-link EMAIL`; whoever runs commands on the server is the operator).
 * @returns the link, or null when no account has this email.
 */
export async function resetLinkByEmail(db: Database, email: string, origin: string, nowMs = Date.now()): Promise<ResetLinkShape | null> {
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(and(eq(users.emailNormalized, normalizeEmail(email)), eq(users.isSystem, false), isNull(users.erasedAt)));
  return user ? linkFor(db, user, origin, nowMs) : null;
}
