/**
 * What a password sign-in leads to (issue 36, point 3): for an account with two-factor sign-in, a
 * ticket to complete with a code; otherwise a session, which must first set up a second factor
 * when REQUIRE_TWO_FACTOR_FOR_STAFF applies to the account. The spec's client keeps working for
 * accounts without two-factor sign-in: their answer is unchanged.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { users } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { sessionUserColumns, type SessionUser } from "../user.ts";
import { twoFactorRequiredFor } from "./policy.ts";
import { completeTwoFactorSignIn, issueTwoFactorTicket } from "./tickets.ts";
import type { RateLimiter } from "../../lib/rate-limit.ts";

export type SignInStep = { kind: "ticket"; ticket: string; expiresAt: Date } | { kind: "session"; mustSetUpTwoFactor: boolean };

/** After the password was right: a ticket (two-factor sign-in on) or a session, flagged when a second factor must be set up first. */
export async function afterPassword(deps: { db: Database; config: { REQUIRE_TWO_FACTOR_FOR_STAFF: boolean } }, user: SessionUser, nowMs: number): Promise<SignInStep> {
  const [row] = await deps.db.select({ totpKey: users.totpKey }).from(users).where(eq(users.id, user.id));
  if (row?.totpKey) return { kind: "ticket", ...(await issueTwoFactorTicket(deps.db, user.id, nowMs)) };
  return { kind: "session", mustSetUpTwoFactor: await twoFactorRequiredFor(deps.db, deps.config, user) };
}

/**
 * The account a ticket and its code sign in.
 * @throws TWO_FACTOR_TICKET_INVALID (401, field ticket), TWO_FACTOR_CODE_WRONG (400, field code), TOO_MANY_LOGIN_ATTEMPTS (429)
 *   past the account's wrong codes (`limiter`: Limiters.secondFactorByAccount).
 */
export async function signInWithSecondFactor(db: Database, limiter: RateLimiter, ticket: string, code: string, nowMs: number): Promise<SessionUser> {
  const userId = await completeTwoFactorSignIn(db, limiter, ticket, code, nowMs);
  const [user] = await db.select(sessionUserColumns).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("TWO_FACTOR_TICKET_INVALID", { field: "ticket" });
  return user;
}
