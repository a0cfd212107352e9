/**
 * One-time password reset links: a random 32-byte token (base64url, 43
 * characters) goes into the link; only its SHA-256 (hex) is stored, with an
 * expiry an hour ahead (table `password_reset_tokens`, decision 060).
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Database } from "../../db/index.ts";
import { passwordResetTokens } from "../../db/schema.ts";

/** How long a reset link works: one hour, in ms. */
export const RESET_TOKEN_TTL_MS = 3_600_000;

/** SHA-256 hex of a token as it appears in a link: the table's key. */
export function hashResetToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** A fresh token (32 random bytes, base64url) and its hash. */
export function newResetToken(): { token: string; tokenHash: string } {
  const token = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  return { token, tokenHash: hashResetToken(token) };
}

/** The page that takes a token: `<origin>/reset-password?token=...`. */
export function resetLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * The insert that stores a token for `userId`, valid until `nowMs + RESET_TOKEN_TTL_MS` (for a `db.batch`).
 */
export function insertResetToken(db: Database, userId: string, tokenHash: string, nowMs: number) {
  return db.insert(passwordResetTokens).values({ tokenHash, userId, expiresAt: new Date(nowMs + RESET_TOKEN_TTL_MS) });
}
