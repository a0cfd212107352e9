/**
 * Password sign-in: the credential check with its throttling. The same 401
 * for an unknown email and a wrong password, each costing one argon2 verify;
 * failures counted per email and per client address before the password is
 * checked (docs/decisions/022-login-throttling.md).
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { normalizeEmail, type SessionUser } from "./user.ts";

// Verified against when the email is unknown, so both failures cost one argon2 verify.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= Bun.password.hash("not-a-real-password-timing-equaliser");
  return dummyHash;
}

export type LoginDeps = { db: Database; limiters: { loginByEmail: RateLimiter; loginByIp: RateLimiter } };

/**
 * Runs one credential check under the sign-in limits: the attempt is counted
 * per `key` and per address before `check` runs; a success takes both back.
 * @throws AppError TOO_MANY_LOGIN_ATTEMPTS (429 with Retry-After) past the limits, or what `check` throws.
 */
export async function throttledLogin<T>(limiters: LoginDeps["limiters"], ip: string, key: string, check: () => Promise<T>): Promise<T> {
  // Each attempt is counted as a failure before the password is verified (an await): counted only
  // afterwards, every attempt of a batch (`/trpc/auth.login,auth.login,...?batch=1`) or of parallel
  // requests would pass the gate together, and one request could try any number of passwords.
  // A success takes its count back below.
  const byEmail = limiters.loginByEmail.hit(key);
  if (!byEmail.ok) throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", { retryAfterSeconds: byEmail.retryAfterSeconds });
  const byIp = limiters.loginByIp.hit(ip);
  if (!byIp.ok) {
    limiters.loginByEmail.refund(key);
    throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", { retryAfterSeconds: byIp.retryAfterSeconds });
  }
  const result = await check();
  limiters.loginByEmail.reset(key);
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
      user?.passwordHash && !user.isSystem
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
