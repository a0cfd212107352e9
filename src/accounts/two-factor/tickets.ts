/**
 * The step between a password and a session for an account with two-factor sign-in: the password
 * sign-in answers a ticket instead of a token; the ticket plus a code (TOTP or recovery) gives the
 * session. A ticket is 32 random bytes (base64url), stored as SHA-256 hex, valid
 * TWO_FACTOR_TICKET_TTL_MS and for TWO_FACTOR_TICKET_TRIES codes; a used ticket is deleted.
 */
import { createHash } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { Database } from "../../../db/index.ts";
import { twoFactorTickets } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { checkSecondFactor, limitedCodeCheck } from "./setup.ts";
import type { RateLimiter } from "../../lib/rate-limit.ts";

/** Five minutes: time to open an app and type six digits (GitHub allows about as long). */
export const TWO_FACTOR_TICKET_TTL_MS = 5 * 60_000;
/** Wrong codes a ticket survives: a 6-digit code guessed in 5 tries has odds of 5 in a million (3 steps valid: 1.5 in 100,000). */
export const TWO_FACTOR_TICKET_TRIES = 5;

function hashTicket(ticket: string): string {
  return createHash("sha256").update(ticket).digest("hex");
}

/** A new ticket for `userId` (and expired tickets removed). */
export async function issueTwoFactorTicket(db: Database, userId: string, nowMs: number): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const expiresAt = new Date(nowMs + TWO_FACTOR_TICKET_TTL_MS);
  await db.batch([
    db.delete(twoFactorTickets).where(lt(twoFactorTickets.expiresAt, new Date(nowMs))),
    db.insert(twoFactorTickets).values({ ticketHash: hashTicket(ticket), userId, expiresAt }),
  ]);
  return { ticket, expiresAt };
}

/**
 * Completes a sign-in: the ticket's account, when `code` is its second factor. A wrong code
 * uses one of the ticket's tries and one of the account's (`limiter`: Limiters.secondFactorByAccount,
 * over every ticket); the ticket's last wrong one (or expiry) voids it.
 * @throws TWO_FACTOR_TICKET_INVALID (401, field ticket), TWO_FACTOR_CODE_WRONG (400, field code), TOO_MANY_LOGIN_ATTEMPTS (429).
 */
export async function completeTwoFactorSignIn(db: Database, limiter: RateLimiter, ticket: string, code: string, nowMs: number): Promise<string> {
  const ticketHash = hashTicket(ticket);
  // A try is counted before the code is checked, so parallel guesses cannot share one try.
  const [row] = await db
    .update(twoFactorTickets)
    .set({ attempts: sql`${twoFactorTickets.attempts} + 1` })
    .where(and(eq(twoFactorTickets.ticketHash, ticketHash), gt(twoFactorTickets.expiresAt, new Date(nowMs)), lt(twoFactorTickets.attempts, TWO_FACTOR_TICKET_TRIES)))
    .returning({ userId: twoFactorTickets.userId, attempts: twoFactorTickets.attempts });
  if (!row) throw new AppError("TWO_FACTOR_TICKET_INVALID", { field: "ticket" });
  try {
    await limitedCodeCheck(limiter, row.userId, async () => {
      if (!(await checkSecondFactor(db, row.userId, code, nowMs))) throw new AppError("TWO_FACTOR_CODE_WRONG", { field: "code" });
    });
  } catch (err) {
    if (row.attempts >= TWO_FACTOR_TICKET_TRIES) await db.delete(twoFactorTickets).where(eq(twoFactorTickets.ticketHash, ticketHash));
    throw err;
  }
  await db.delete(twoFactorTickets).where(eq(twoFactorTickets.ticketHash, ticketHash));
  return row.userId;
}
