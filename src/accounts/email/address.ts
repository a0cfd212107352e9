/**
 * An account's e-mail address (issue 36 §2, decision 071): whether it is
 * verified, the verification link (mailed after a password sign-up and on
 * request), and changing it (a link to the new address confirms; the old one
 * gets a notice). Links are one-time tokens stored hashed (./tokens.ts), valid
 * 24 hours; mail goes through the outbox in the same batch as the token.
 *
 * Verified means `users.email_verified_at` is set: by a link, by a confirmed
 * change, or by a way in that vouches for the address (an OpenID provider's
 * verified claim, a directory, the campus proxy, a trusted LMS:
 * `createUser`'s `emailVerified`, `noteVerifiedByProvider`).
 * Without mail configured (SMTP_URL/SMTP_HOST and PUBLIC_URL), nothing is
 * stored or sent and the answers say so (`byMail: false`).
 */
import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Database } from "../../../db/index.ts";
import { emailTokens, passwordResetTokens, users } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { mailLocale } from "../../i18n/mail-text.ts";
import { describeRate, type RateLimiter } from "../../lib/rate-limit.ts";
import { isUniqueViolation } from "../../lib/sql-errors.ts";
import { queueMail } from "../../mail/outbox.ts";
import { mailConfigured } from "../../mail/settings.ts";
import { throttledLogin, type LoginDeps } from "../login.ts";
import { normalizeEmail, publicUser, type PublicUser } from "../user.ts";
import { changeNoticeMail, confirmChangeMail, verifyMail } from "./mail.ts";
import { emailLink, hashEmailToken, insertEmailToken, newEmailToken, type EmailTokenPurpose } from "./tokens.ts";

export interface EmailDeps {
  db: Database;
  config: Pick<Config, "SMTP_URL" | "SMTP_HOST" | "MAIL_FROM"> & { sso: { publicUrl?: URL | null } };
  /** The clock links expire by (ms since the epoch). */
  now: () => number;
  mail?: { kick(): void };
  /** The request's language (src/i18n/messages.ts), for mail when the account has chosen none. */
  locale?: string;
}

/** The account page's view of the address. */
export interface EmailStatus {
  email: string;
  verified: boolean;
  /** The address a change waits to be confirmed for (its link not yet opened nor expired), else null. */
  pendingEmail: string | null;
  /** Whether changing the address asks for the password (accounts made by a campus sign-in have none). */
  hasPassword: boolean;
  /** Whether this site sends mail (else links cannot be sent: verification and changes wait for an administrator). */
  byMail: boolean;
}

/** PUBLIC_URL's origin when this site sends mail, else null (no link can be made or sent). */
function mailOrigin(config: EmailDeps["config"]): string | null {
  return mailConfigured(config) ? (config.sso.publicUrl?.origin ?? null) : null;
}

async function accountOf(db: Database, userId: string) {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, email: users.email, emailNormalized: users.emailNormalized, emailVerifiedAt: users.emailVerifiedAt, passwordHash: users.passwordHash, locale: users.locale })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new AppError("UNAUTHENTICATED");
  return row;
}

/** Whether the account's address is verified (false for an unknown account). */
export async function isEmailVerified(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
  return Boolean(row?.at);
}

/** The address, whether it is verified, a change waiting for confirmation, and whether mail is sent. */
export async function emailStatus(deps: EmailDeps, userId: string): Promise<EmailStatus> {
  const user = await accountOf(deps.db, userId);
  const [pending] = await deps.db
    .select({ email: emailTokens.email })
    .from(emailTokens)
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, "change"), gt(emailTokens.expiresAt, new Date(deps.now()))))
    .orderBy(desc(emailTokens.createdAt))
    .limit(1);
  return { email: user.email, verified: Boolean(user.emailVerifiedAt), pendingEmail: pending?.email ?? null, hasPassword: Boolean(user.passwordHash), byMail: mailOrigin(deps.config) !== null };
}

type Account = Awaited<ReturnType<typeof accountOf>>;

/** Drops every expired link (of any account): each new link sweeps the table (it stays as small as the links in flight). */
function sweepExpired(deps: EmailDeps) {
  return deps.db.delete(emailTokens).where(lt(emailTokens.expiresAt, new Date(deps.now())));
}

/** The statements that make a verification link for the account's current address and queue its mail. */
function verificationWrites(deps: EmailDeps, origin: string, user: Pick<Account, "id" | "firstName" | "email" | "locale">) {
  const { token, tokenHash } = newEmailToken();
  const mail = verifyMail(user.firstName, emailLink(origin, "verify", token), mailLocale(user.locale, deps.locale));
  return [
    sweepExpired(deps),
    insertEmailToken(deps.db, { userId: user.id, purpose: "verify", email: user.email, tokenHash }, deps.now()),
    queueMail(deps.db, deps.config.MAIL_FROM, user.email, "email-verify", mail),
  ] as const;
}

/**
 * After a password sign-up: mails the verification link (nothing without mail, or when the address is already
 * verified). Not counted against RATE_LIMIT_EMAIL_LINKS_PER_USER (sign-up has its own limit).
 */
export async function sendVerificationAfterSignUp(deps: EmailDeps, userId: string): Promise<void> {
  const origin = mailOrigin(deps.config);
  if (!origin) return;
  const user = await accountOf(deps.db, userId);
  if (user.emailVerifiedAt) return;
  await deps.db.batch([...verificationWrites(deps, origin, user)]);
  deps.mail?.kick();
}

/** Spends one of the user's e-mail links this window. @throws AppError RATE_LIMITED (429) naming RATE_LIMIT_EMAIL_LINKS_PER_USER. */
function spendLink(limiter: RateLimiter, userId: string): void {
  const gate = limiter.hit(userId);
  if (!gate.ok) {
    throw new AppError("RATE_LIMITED", {
      message: `Too many e-mail links asked for (${describeRate(limiter.options, "messages")}, the server's RATE_LIMIT_EMAIL_LINKS_PER_USER). Try again in ${gate.retryAfterSeconds} s.`,
      retryAfterSeconds: gate.retryAfterSeconds,
    });
  }
}

/**
 * "Send the link again": a new verification link to the account's address (earlier ones keep working until
 * they expire). @returns byMail false (nothing sent) when this site sends no mail.
 * @throws AppError EMAIL_ALREADY_VERIFIED (409); RATE_LIMITED (429) past RATE_LIMIT_EMAIL_LINKS_PER_USER.
 */
export async function resendVerification(deps: EmailDeps & { limiter: RateLimiter }, userId: string): Promise<{ byMail: boolean }> {
  const user = await accountOf(deps.db, userId);
  if (user.emailVerifiedAt) throw new AppError("EMAIL_ALREADY_VERIFIED");
  const origin = mailOrigin(deps.config);
  if (!origin) return { byMail: false };
  spendLink(deps.limiter, userId);
  await deps.db.batch([...verificationWrites(deps, origin, user)]);
  deps.mail?.kick();
  return { byMail: true };
}

/** Takes a token of `purpose` out of the table (once) and checks it has not expired. @throws AppError EMAIL_LINK_INVALID (400, field token). */
async function spendToken(deps: EmailDeps, token: string, purpose: EmailTokenPurpose) {
  const [spent] = await deps.db
    .delete(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hashEmailToken(token)), eq(emailTokens.purpose, purpose)))
    .returning({ userId: emailTokens.userId, email: emailTokens.email, expiresAt: emailTokens.expiresAt });
  if (!spent || spent.expiresAt.getTime() <= deps.now()) throw new AppError("EMAIL_LINK_INVALID", { field: "token" });
  return spent;
}

/**
 * Opens a verification link: the account's address is verified, if it is still the address the link was sent to.
 * Needs no session (the link may be opened on another device). @returns the account's public columns.
 * @throws AppError EMAIL_LINK_INVALID (400, field token) for an unknown, used, expired or outdated link.
 */
export async function verifyEmail(deps: EmailDeps, token: string): Promise<PublicUser & { emailVerified: true }> {
  const spent = await spendToken(deps, token, "verify");
  const [user] = await deps.db
    .update(users)
    .set({ emailVerifiedAt: new Date(deps.now()) })
    .where(and(eq(users.id, spent.userId), eq(users.emailNormalized, normalizeEmail(spent.email))))
    .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, locale: users.locale });
  if (!user) throw new AppError("EMAIL_LINK_INVALID", { field: "token" });
  // The account's other verification links have nothing left to prove.
  await deps.db.delete(emailTokens).where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, "verify")));
  return { ...publicUser(user), emailVerified: true };
}

/** What asking for a change needs beyond EmailDeps: the sign-in limits (a wrong password is a failed sign-in) and the link budget. */
export type ChangeDeps = EmailDeps & LoginDeps & { limiter: RateLimiter };

/**
 * Asks to change the address: a confirmation link to `newEmail` and a notice to the current address, in one
 * batch with the token (an earlier change's link is voided). The address changes only when the link is opened.
 * @param input.password required when the account has a password; checked under the sign-in limits.
 * @returns byMail false (nothing stored or sent) when this site sends no mail.
 * @throws AppError BAD_INPUT (400, field password) when it is missing; PASSWORD_WRONG (400, field password);
 *   TOO_MANY_LOGIN_ATTEMPTS (429); EMAIL_UNCHANGED (400, field newEmail); NEW_EMAIL_TAKEN (409, field newEmail);
 *   RATE_LIMITED (429) past RATE_LIMIT_EMAIL_LINKS_PER_USER.
 */
export async function requestEmailChange(
  deps: ChangeDeps,
  ip: string,
  userId: string,
  input: { newEmail: string; password?: string | undefined },
): Promise<{ byMail: boolean; pendingEmail: string | null }> {
  const user = await accountOf(deps.db, userId);
  const origin = mailOrigin(deps.config);
  if (!origin) return { byMail: false, pendingEmail: null };
  const hash = user.passwordHash;
  if (hash) {
    if (!input.password) throw new AppError("BAD_INPUT", { field: "password", message: "password: Required" });
    const password = input.password;
    await throttledLogin(deps.limiters, ip, `email:${user.emailNormalized}`, async () => {
      if (!(await Bun.password.verify(password, hash))) throw new AppError("PASSWORD_WRONG", { field: "password" });
    });
  }
  const newNormalized = normalizeEmail(input.newEmail);
  if (newNormalized === user.emailNormalized) throw new AppError("EMAIL_UNCHANGED", { field: "newEmail" });
  const [taken] = await deps.db.select({ id: users.id }).from(users).where(eq(users.emailNormalized, newNormalized)).limit(1);
  if (taken) throw new AppError("NEW_EMAIL_TAKEN", { field: "newEmail" });
  spendLink(deps.limiter, userId);
  const locale = mailLocale(user.locale, deps.locale);
  const { token, tokenHash } = newEmailToken();
  await deps.db.batch([
    sweepExpired(deps),
    deps.db.delete(emailTokens).where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, "change"))),
    insertEmailToken(deps.db, { userId, purpose: "change", email: input.newEmail, tokenHash }, deps.now()),
    queueMail(deps.db, deps.config.MAIL_FROM, input.newEmail, "email-change", confirmChangeMail(user.firstName, input.newEmail, emailLink(origin, "change", token), locale)),
    queueMail(deps.db, deps.config.MAIL_FROM, user.email, "email-change-notice", changeNoticeMail(user.firstName, input.newEmail, `${origin}/forgot-password`, locale)),
  ]);
  deps.mail?.kick();
  return { byMail: true, pendingEmail: input.newEmail };
}

/**
 * Opens a change's confirmation link: the account's address becomes the new one, verified; every other e-mail
 * link and every password reset link of the account (sent to the old address) is voided. Needs no session.
 * @returns the account's public columns, with the new address.
 * @throws AppError EMAIL_LINK_INVALID (400, field token) for an unknown, used, replaced or expired link;
 *   EMAIL_TAKEN (409, field token) when another account took the address meanwhile.
 */
export async function confirmEmailChange(deps: EmailDeps, token: string): Promise<PublicUser & { emailVerified: true }> {
  const spent = await spendToken(deps, token, "change");
  let updated;
  try {
    [updated] = await deps.db
      .update(users)
      .set({ email: spent.email, emailNormalized: normalizeEmail(spent.email), emailVerifiedAt: new Date(deps.now()) })
      .where(eq(users.id, spent.userId))
      .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, locale: users.locale });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("EMAIL_TAKEN", { field: "token" });
    throw err;
  }
  if (!updated) throw new AppError("EMAIL_LINK_INVALID", { field: "token" });
  await deps.db.batch([
    deps.db.delete(emailTokens).where(eq(emailTokens.userId, updated.id)),
    deps.db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, updated.id)),
  ]);
  return { ...publicUser(updated), emailVerified: true };
}
