/**
 * One-time e-mail links (decision 071): a random 32-byte token (base64url, 43
 * characters) goes into the link; only its SHA-256 (hex) is stored
 * (table `email_tokens`), with the address the link was sent to and an expiry
 * 24 hours ahead. The token's shape and hashing are the reset links' own
 * (../password-tokens.ts).
 */
import type { Database } from "../../../db/index.ts";
import { emailTokens, EMAIL_TOKEN_PURPOSES } from "../../../db/schema.ts";
import { hashResetToken, newResetToken } from "../password-tokens.ts";

/** How long an e-mail link works: 24 hours, in ms. */
export const EMAIL_TOKEN_TTL_MS = 24 * 3_600_000;

export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** SHA-256 hex of a token as it appears in a link: the table's key. */
export const hashEmailToken = hashResetToken;

/** A fresh token (32 random bytes, base64url) and its hash. */
export const newEmailToken = newResetToken;

/** The client page each link opens. */
const PAGES: Record<EmailTokenPurpose, string> = { verify: "/verify-email", change: "/confirm-email" };

/** The link for a token: `<origin>/verify-email?token=...` or `<origin>/confirm-email?token=...`. */
export function emailLink(origin: string, purpose: EmailTokenPurpose, token: string): string {
  return `${origin.replace(/\/+$/, "")}${PAGES[purpose]}?token=${encodeURIComponent(token)}`;
}

/** The insert that stores a token for `userId` and `email`, valid until `nowMs + EMAIL_TOKEN_TTL_MS` (for a `db.batch`). */
export function insertEmailToken(db: Database, row: { userId: string; purpose: EmailTokenPurpose; email: string; tokenHash: string }, nowMs: number) {
  return db.insert(emailTokens).values({ ...row, expiresAt: new Date(nowMs + EMAIL_TOKEN_TTL_MS) });
}
