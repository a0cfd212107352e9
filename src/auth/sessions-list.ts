/**
 * The account's list of its sessions (issue 36, point 3): where each was signed in from (the
 * browser and system read from its User-Agent by bowser, and the address), when it was made and
 * last used; and signing out one of them or all but the current one.
 */
import Bowser from "bowser";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { sessions } from "../../db/schema.ts";
import { AppError } from "../errors.ts";

export interface SessionRow {
  /** The session's id as the routes name it (the row's key: a hash of the token's secret, which it does not reveal). */
  id: string;
  /** "Firefox 132 on Linux", read from the User-Agent; null when unknown. */
  device: string | null;
  /** As sent, at most 512 characters; null when unknown. */
  userAgent: string | null;
  ip: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; to within five minutes. */
  lastSeenAt: string | null;
  expiresAt: string;
  /** The session of the request asking. */
  current: boolean;
}

/** "Firefox 132 on Linux" / "Safari on iOS 17.4" from a User-Agent; null when bowser recognises nothing. */
export function describeUserAgent(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ");
  if (!browser && !os) return null;
  return browser && os ? `${browser} · ${os}` : browser || os; // i18n-ignore: names of products, not words
}

/** `userId`'s live sessions, the most recently used first. */
export async function listSessions(db: Database, userId: string, currentSessionId: string | null, nowMs: number): Promise<SessionRow[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date(nowMs))))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((r) => ({
    id: r.id,
    device: describeUserAgent(r.userAgent),
    userAgent: r.userAgent,
    ip: r.ip,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
    expiresAt: r.expiresAt.toISOString(),
    current: r.id === currentSessionId,
  }));
}

/**
 * Signs out one of `userId`'s sessions (its token is refused from the next request on).
 * @throws SESSION_NOT_FOUND (404) for another user's or an unknown session.
 */
export async function endSession(db: Database, userId: string, sessionId: string): Promise<void> {
  const gone = await db.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId))).returning({ id: sessions.id });
  if (gone.length === 0) throw new AppError("SESSION_NOT_FOUND");
}

/** Signs out every session of `userId` but `currentSessionId`. @returns how many ended. */
export async function endOtherSessions(db: Database, userId: string, currentSessionId: string): Promise<number> {
  const gone = await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId))).returning({ id: sessions.id });
  return gone.length;
}
