/**
 * One-click unsubscribe (RFC 8058, decision 073): each notice e-mail carries a
 * token naming its recipient and kind, signed with HMAC-SHA256 under the
 * server's session key, so the link works without signing in and cannot be
 * made for anyone else. The token never expires: it only turns one kind's
 * e-mail off, which the account page turns back on.
 * Format: `<userId>.<kind>.<signature>` (signature: base64url of the first 16 bytes of the MAC).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Database } from "../../db/index.ts";
import { AppError } from "../errors.ts";
import { turnEmailOff } from "./inbox.ts";
import { NOTIFICATION_KINDS, type NotificationKind } from "./kinds.ts";

function mac(key: Uint8Array, userId: string, kind: string): string {
  return createHmac("sha256", key).update(`notifications-unsubscribe\u0000${userId}\u0000${kind}`).digest().subarray(0, 16).toString("base64url");
}

/** The token for `userId`'s e-mails of `kind`. */
export function unsubscribeToken(key: Uint8Array, userId: string, kind: NotificationKind): string {
  return `${userId}.${kind}.${mac(key, userId, kind)}`;
}

/**
 * Checks a token. @returns its user and kind.
 * @throws AppError UNSUBSCRIBE_INVALID (400, field `token`) when malformed or not signed by this server.
 */
export function readUnsubscribeToken(key: Uint8Array, token: string): { userId: string; kind: NotificationKind } {
  const invalid = () => new AppError("UNSUBSCRIBE_INVALID", { field: "token" });
  const m = /^([0-9a-z]{1,64})\.([a-z-]{1,40})\.([A-Za-z0-9_-]{22})$/.exec(token.trim());
  if (!m || !(NOTIFICATION_KINDS as readonly string[]).includes(m[2]!)) throw invalid();
  const [, userId, kind, sig] = m as unknown as [string, string, NotificationKind, string];
  const want = Buffer.from(mac(key, userId, kind));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw invalid();
  return { userId, kind };
}

/**
 * Turns off the e-mails the token names (idempotent).
 * @returns the kind turned off.
 * @throws AppError UNSUBSCRIBE_INVALID (400, field `token`).
 */
export async function unsubscribe(db: Database, key: Uint8Array, token: string): Promise<{ kind: NotificationKind; email: false }> {
  const { userId, kind } = readUnsubscribeToken(key, token);
  await turnEmailOff(db, userId, kind);
  return { kind, email: false };
}
