/**
 * Password sign-up: refused when the operator turned it off (LOCAL_SIGNUP),
 * a taken email answers 409 without charging the per-address limit
 * (Limiters.registerByIp: RATE_LIMIT_SIGNUP_PER_ADDRESS, 600 an hour by
 * default, a 300-seat lab behind one address twice over), and the account is made with an
 * argon2id hash (./user.ts). A password sign-up proves nothing about the
 * email: it takes up student invitations only (the account-created hooks), and
 * the account starts unverified, a verification link on its way when this site
 * sends mail (./email/address.ts).
 */
import { AppError } from "../errors.ts";
import { describeRate, type RateLimiter } from "../lib/rate-limit.ts";
import { sendVerificationAfterSignUp, type EmailDeps } from "./email/address.ts";
import { createUser, emailTaken, hashPassword, type SessionUser } from "./user.ts";

export interface RegisterDeps extends Omit<EmailDeps, "config"> {
  config: EmailDeps["config"] & { sso: { localSignup: boolean } };
  limiters: { registerByIp: RateLimiter };
}

/**
 * Creates an account with a password.
 * @param ip the client's address (the rate limit's key).
 * @returns the new account's session columns (the caller signs it in).
 * @throws AppError LOCAL_SIGNUP_OFF (403), EMAIL_TAKEN (409, field email), RATE_LIMITED (429).
 */
export async function registerAccount(
  deps: RegisterDeps,
  ip: string,
  input: { firstName: string; lastName: string; email: string; password: string },
): Promise<SessionUser> {
  if (!deps.config.sso.localSignup) throw new AppError("LOCAL_SIGNUP_OFF");
  if (await emailTaken(deps.db, input.email)) throw new AppError("EMAIL_TAKEN", { field: "email" });
  const gate = deps.limiters.registerByIp.hit(ip);
  if (!gate.ok) {
    throw new AppError("RATE_LIMITED", {
      message: `Too many accounts made from this address (${describeRate(deps.limiters.registerByIp.options, "accounts")}, the server's RATE_LIMIT_SIGNUP_PER_ADDRESS). Try again in ${gate.retryAfterSeconds} s.`,
      retryAfterSeconds: gate.retryAfterSeconds,
    });
  }
  const passwordHash = await hashPassword(input.password);
  const user = await createUser(deps.db, { firstName: input.firstName, lastName: input.lastName, email: input.email, passwordHash });
  await sendVerificationAfterSignUp(deps, user.id);
  return user;
}
