/**
 * Password sign-in: the credential check with its throttling. The same 401
 * for an unknown email and a wrong password, each costing one argon2 verify;
 * failures counted per account (growing delays, whatever the address) and per
 * client address (a fixed window sized for a lab behind one address) before
 * the password is checked (docs/decisions/022-login-throttling.md, 049).
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { describeRate, type FailureBackoff, type RateLimiter } from "../lib/rate-limit.ts";
import { hashPassword, normalizeEmail, type SessionUser } from "./user.ts";

// Verified against when the email is unknown, so both failures cost one argon2 verify of the same cost.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-timing-equaliser");
  return dummyHash;
}

export type LoginDeps = { db: Database; limiters: { loginByEmail: FailureBackoff; loginByIp: RateLimiter } };

/**
 * Runs one credential check under the sign-in limits: the attempt is counted
 * as a failure of the account `key` (Limiters.loginByEmail: growing delays)
 * and of the address (Limiters.loginByIp) before `check` runs; a success
 * forgets the account's failures and takes back the address's.
 * @param key the account as the attacker names it (`email:<normalised>`, `ldap:<directory>:<username>`),
 *   unknown accounts included, so a 429 does not tell whether one exists.
 * @throws AppError TOO_MANY_LOGIN_ATTEMPTS (429 with Retry-After) while the account waits or past the
 *   address's limit (even for the right password), or what `check` throws.
 */
export async function throttledLogin<T>(limiters: LoginDeps["limiters"], ip: string, key: string, check: () => Promise<T>): Promise<T> {
  // Each attempt is counted as a failure before the password is verified (an await): counted only
  // afterwards, every attempt of a batch (`/trpc/auth.login,auth.login,...?batch=1`) or of parallel
  // requests would pass the gate together, and one request could try any number of passwords.
  // A success takes its count back below.
  // The address is asked first (without counting) so an address past its limit does not add failures
  // to (and lock) accounts it names.
  const ipGate = limiters.loginByIp.check(ip);
  if (!ipGate.ok) {
    throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", {
      message: `Too many failed sign-ins from this address (${describeRate(limiters.loginByIp.options)}, the server's RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS). Try again in ${ipGate.retryAfterSeconds} s.`,
      retryAfterSeconds: ipGate.retryAfterSeconds,
    });
  }
  const byAccount = limiters.loginByEmail.attempt(key);
  if (!byAccount.ok) {
    throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", {
      message: `Too many failed sign-ins for this account: each further one waits longer (the server's SIGNIN_BACKOFF_ settings). Try again in ${byAccount.retryAfterSeconds} s.`,
      retryAfterSeconds: byAccount.retryAfterSeconds,
    });
  }
  limiters.loginByIp.hit(ip);
  const result = await check();
  limiters.loginByEmail.succeed(key);
  limiters.loginByIp.refund(ip);
  return result;
}

/**
 * Checks an email and password.
 * @returns the account's public columns.
 * @throws AppError TOO_MANY_LOGIN_ATTEMPTS (429 with Retry-After) past the limits,
 *   INVALID_CREDENTIALS (401) for an unknown email, a wrong password or an account without one.
 */
export async function authenticate(deps: LoginDeps, ip: string, email: string, password: string): Promise<SessionUser> {
  const emailNormalized = normalizeEmail(email);
  return throttledLogin(deps.limiters, ip, `email:${emailNormalized}`, async () => {
    const [user] = await deps.db.select().from(users).where(eq(users.emailNormalized, emailNormalized)).limit(1);
    const valid =
      user?.passwordHash && !user.isSystem && !user.erasedAt
        ? await Bun.password.verify(password, user.passwordHash)
        : (await Bun.password.verify(password, await getDummyHash()), false);
    if (!user || !valid) throw new AppError("INVALID_CREDENTIALS");
    return {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      siteRole: user.siteRole,
      canCreateCourses: user.canCreateCourses,
    };
  });
}
