/**
 * "Forgot password" (decision 060). The request does the same work whatever
 * the address: two rate-limit counts and one row in `password_reset_requests`,
 * then 202. The mail loop (`handleResetRequests`, run before each of the
 * sender's rounds) turns each row into, in one batch with deleting it:
 *
 * - an account with a password: a one-time link (token stored hashed) and its mail;
 * - an account that signs in only through OpenID, LDAP, the campus proxy or the
 *   LMS: a mail saying to sign in that way;
 * - no account (or the system one): nothing.
 *
 * Without mail configured nothing is stored and the answer says so
 * (`byMail: false`): an admin makes a link instead (./passwords.ts).
 */
import { mailLocale } from "../i18n/mail-text.ts";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database } from "../../db/index.ts";
import { externalIdentities, passwordResetRequests, passwordResetTokens, users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { describeRate, type RateLimiter } from "../lib/rate-limit.ts";
import { queueMail } from "../mail/outbox.ts";
import { mailConfigured } from "../mail/settings.ts";
import { resetMail, useYourWayInMail } from "./password-mail.ts";
import { insertResetToken, newResetToken, resetLink } from "./password-tokens.ts";
import { normalizeEmail } from "./user.ts";

export interface ForgotDeps {
  db: Database;
  config: Config;
  limiters: { passwordResetsByIp: RateLimiter; passwordResetsByEmail: RateLimiter };
  mail?: { kick(): void };
}

/** What `POST /api/auth/password/forgot` answers, the same for every address. */
export interface ForgotAnswer {
  message: string;
  /** Whether this server sends mail; false: ask an administrator for a link. */
  byMail: boolean;
}

/**
 * Records a request (see module comment).
 * @throws AppError RATE_LIMITED (429, Retry-After) past RATE_LIMIT_PASSWORD_RESETS_PER_ADDRESS or _PER_EMAIL
 *   (counted the same for addresses with and without an account).
 */
export async function requestPasswordReset(deps: ForgotDeps, ip: string, email: string, locale?: string | null): Promise<ForgotAnswer> {
  for (const [limiter, key, setting] of [
    [deps.limiters.passwordResetsByIp, ip, "RATE_LIMIT_PASSWORD_RESETS_PER_ADDRESS"],
    [deps.limiters.passwordResetsByEmail, normalizeEmail(email), "RATE_LIMIT_PASSWORD_RESETS_PER_EMAIL"],
  ] as const) {
    const gate = limiter.hit(key);
    if (!gate.ok) {
      throw new AppError("RATE_LIMITED", {
        message: `Too many password reset requests (${describeRate(limiter.options, "requests")}, the server's ${setting}). Try again in ${gate.retryAfterSeconds} s.`,
        retryAfterSeconds: gate.retryAfterSeconds,
      });
    }
  }
  if (!mailConfigured(deps.config)) {
    return { message: "This site does not send mail: ask an administrator for a password reset link.", byMail: false };
  }
  await deps.db.insert(passwordResetRequests).values({ email: email.trim(), locale: locale ?? null });
  // After the answer is on its way: the handling differs by account, the request must not.
  setTimeout(() => deps.mail?.kick(), 0);
  return { message: "If an account uses this address, a message with what to do next is on its way. Check your mail (and its spam folder).", byMail: true };
}

/** How long one process holds a request while handling it, ms. */
const CLAIM_MS = 60_000;

/**
 * Handles pending requests (see module comment); also drops expired reset tokens.
 * @param now the clock tokens expire by (ms since the epoch).
 * @returns how many requests were handled.
 */
export async function handleResetRequests(deps: { db: Database; config: Config; now: () => number }): Promise<number> {
  const { db, config } = deps;
  const origin = config.sso.publicUrl?.origin;
  if (!origin) return 0;
  const nowMs = deps.now();
  await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, new Date(nowMs)));
  let handled = 0;
  for (;;) {
    const [claimed] = await db
      .update(passwordResetRequests)
      .set({ claimedUntil: new Date(nowMs + CLAIM_MS) })
      .where(
        eq(
          passwordResetRequests.id,
          sql`(select id from ${passwordResetRequests} where ${or(isNull(passwordResetRequests.claimedUntil), lt(passwordResetRequests.claimedUntil, new Date(nowMs)))} order by created_at limit 1)`,
        ),
      )
      .returning();
    if (!claimed) return handled;
    handled++;
    const done = db.delete(passwordResetRequests).where(eq(passwordResetRequests.id, claimed.id));
    const [user] = await db
      .select({ id: users.id, firstName: users.firstName, email: users.email, passwordHash: users.passwordHash, locale: users.locale })
      .from(users)
      .where(and(eq(users.emailNormalized, normalizeEmail(claimed.email)), eq(users.isSystem, false)))
      .limit(1);
    if (!user) {
      await done;
      continue;
    }
    if (user.passwordHash) {
      const { token, tokenHash } = newResetToken();
      await db.batch([
        insertResetToken(db, user.id, tokenHash, deps.now()),
        queueMail(db, config.MAIL_FROM, user.email, "password-reset", resetMail(user.firstName, resetLink(origin, token), mailLocale(user.locale, claimed.locale))),
        done,
      ]);
      continue;
    }
    const ways = await db.select({ provider: externalIdentities.provider }).from(externalIdentities).where(eq(externalIdentities.userId, user.id));
    if (ways.length === 0) {
      await done;
      continue;
    }
    const mail = useYourWayInMail(user.firstName, ways.map((w) => w.provider), `${origin}/signin`, mailLocale(user.locale, claimed.locale));
    await db.batch([queueMail(db, config.MAIL_FROM, user.email, "password-sso", mail), done]);
  }
}
