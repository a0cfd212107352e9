/**
 * Sessions the way the Lucia guide describes them (server-side rows, expiry,
 * sliding renewal), carried in a signed JWT so the spec's client can read the
 * user's id from the token's middle part.
 *
 * Token: HS256 JWT (alg pinned on verify), payload `{ id, sid, iat, exp }`.
 * `sid` is 100 random bits; the sessions table stores only SHA-256(sid) hex,
 * so a leaked table or backup grants nothing. A token counts only if its
 * signature, algorithm and expiry are right AND its session row exists, has
 * not expired and belongs to `id`. Renewal: once less than half the lifetime
 * remains, the row's expiry is pushed to now + SESSION_TTL_DAYS and a fresh
 * token is issued (cookie + `X-Session-Token` response header).
 * Why JWT plus rows: docs/decisions/020-jwt-with-server-sessions.md.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { privateDir } from "../lib/private-files.ts";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";
import { z } from "zod";
import type { Config } from "../config.ts";
import type { Database } from "../../db/index.ts";
import { sessions, users } from "../../db/schema.ts";
import type { SessionUser } from "../accounts/user.ts";

export const SESSION_COOKIE = "oj_session";
const DAY_MS = 86_400_000;

/** Minimal shape needed here (a subset of Services, so scripts can call it too). */
interface SessionServices {
  config: Config;
  db: Database;
  sessionKey: Uint8Array;
  /** The clock sign-in restrictions read (default `Date.now`). */
  now?: () => number;
}

/**
 * Another domain's reason to refuse a new session for an account: src/courses/exam registers one (while a
 * student's one-session exam window is open, a sign-in elsewhere is refused until staff release it). It throws
 * an AppError naming its rule.
 */
export type SignInRestriction = (db: Database, userId: string, nowMs: number) => Promise<void>;
const signInRestrictions: SignInRestriction[] = [];

/** Registers a sign-in restriction (registering the same function again does nothing). */
export function restrictSignIn(restriction: SignInRestriction): void {
  if (!signInRestrictions.includes(restriction)) signInRestrictions.push(restriction);
}

/**
 * The session HMAC key: SESSION_SECRET when set, else the secret kept in
 * `DATA_DIR/session-secret` (created once with 32 random bytes, mode 0600),
 * so restarts keep sessions valid.
 * @throws when DATA_DIR cannot be created or the file cannot be read/written.
 */
export function resolveSessionKey(config: Config): Uint8Array {
  if (config.SESSION_SECRET) return new TextEncoder().encode(config.SESSION_SECRET);
  const file = join(config.DATA_DIR, "session-secret");
  if (!existsSync(file)) {
    privateDir(config.DATA_DIR);
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    // `wx`: never overwrite a secret another process created in the meantime.
    try {
      writeFileSync(file, encodeHexLowerCase(bytes) + "\n", { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file}: session secret shorter than 32 characters; delete it to regenerate`);
  return new TextEncoder().encode(secret);
}

/** SHA-256 hex of a session id: the sessions table's primary key. */
export function hashSessionId(sid: string): string {
  return createHash("sha256").update(sid).digest("hex");
}

/**
 * The SameSite and Secure attributes of this site's cookies: `SameSite=Lax`
 * (plus `Secure` over HTTPS), or, for a cookie that must come back on a
 * request from another site (an LMS's launch inside its iframe) and over
 * HTTPS, `SameSite=None; Secure; Partitioned` (partitioned cookies survive
 * third-party-cookie blocking). Browsers refuse `SameSite=None` without
 * `Secure`, so over plain HTTP it stays Lax.
 */
export function cookieSite(secure: boolean, opts: { crossSite?: boolean } = {}): string {
  if (opts.crossSite && secure) return "SameSite=None; Secure; Partitioned";
  return `SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** `Set-Cookie` value for a session token; `Secure` when the request came over HTTPS (see `cookieSite`). */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean, opts: { crossSite?: boolean } = {}): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; ${cookieSite(secure, opts)}; Max-Age=${maxAge}`;
}

/** `Set-Cookie` value that clears the session cookie. */
export function blankSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; ${cookieSite(secure)}; Max-Age=0`;
}

// The HMAC key imported once per secret: jose would re-import raw bytes on every call.
const importedKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = importedKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    importedKeys.set(secret, key);
  }
  return key;
}

async function signToken(secret: Uint8Array, userId: string, sid: string, expiresAt: Date): Promise<string> {
  return new SignJWT({ id: userId, sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await hmacKey(secret));
}

export interface IssuedSession {
  /** The JWT to hand to the client. */
  token: string;
  /** Hashed session id (the row's primary key). */
  sessionId: string;
  expiresAt: Date;
  /** The Set-Cookie value for this token (`crossSite`: see `cookieSite`). */
  cookie(secure: boolean, opts?: { crossSite?: boolean }): string;
}

/** Where a session was signed in from, for the account's list of sessions (src/auth/sessions-list.ts). */
export interface SessionOrigin {
  /** The request's User-Agent header (cut to USER_AGENT_MAX_CHARS). */
  userAgent?: string | null;
  /** The client address (Context.ip; "unknown" is stored as null). */
  ip?: string | null;
  /** The account must set up two-factor sign-in before anything else (src/auth/two-factor/policy.ts). */
  mustSetUpTwoFactor?: boolean;
}

/** A User-Agent longer than this is cut (browsers send 100–300 characters). */
export const USER_AGENT_MAX_CHARS = 512;
/** A session's last-seen time and address are written at most this often: one write per session per 5 minutes, not per request. */
export const SESSION_SEEN_EVERY_MS = 5 * 60_000;

/**
 * Creates a session row for the user and signs its token.
 * @throws a registered restriction's AppError (EXAM_OTHER_SESSION, 403, during a one-session exam window).
 */
export async function createSession(services: SessionServices, userId: string, origin: SessionOrigin = {}): Promise<IssuedSession> {
  for (const restriction of signInRestrictions) await restriction(services.db, userId, services.now?.() ?? Date.now());
  const sid = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
  const sessionId = hashSessionId(sid);
  const expiresAt = new Date(Date.now() + services.config.SESSION_TTL_DAYS * DAY_MS);
  await services.db.insert(sessions).values({
    id: sessionId,
    userId,
    expiresAt,
    userAgent: origin.userAgent ? origin.userAgent.slice(0, USER_AGENT_MAX_CHARS) : null,
    ip: origin.ip && origin.ip !== "unknown" ? origin.ip : null,
    lastSeenAt: new Date(),
    mustSetUpTwoFactor: origin.mustSetUpTwoFactor ?? false,
  });
  const token = await signToken(services.sessionKey, userId, sid, expiresAt);
  return { token, sessionId, expiresAt, cookie: (secure, opts) => sessionCookie(token, expiresAt, secure, opts) };
}

/** The per-request session query, prepared once per database handle (4x cheaper than building it each time). */
const lookups = new WeakMap<Database, ReturnType<typeof prepareLookup>>();
function prepareLookup(db: Database) {
  return db
    .select({
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      siteRole: users.siteRole,
      canCreateCourses: users.canCreateCourses,
      locale: users.locale,
      lastSeenAt: sessions.lastSeenAt,
      mustSetUpTwoFactor: sessions.mustSetUpTwoFactor,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // An erased account's sessions are deleted with it; its tombstone never holds one (decision 072), even one made later.
    .where(and(eq(sessions.id, sql.placeholder("sessionId")), isNull(users.erasedAt)))
    .limit(1)
    .prepare();
}
function sessionLookup(db: Database): ReturnType<typeof prepareLookup> {
  let q = lookups.get(db);
  if (!q) lookups.set(db, (q = prepareLookup(db)));
  return q;
}

const payloadSchema = z.object({ id: z.string().min(1), sid: z.string().min(1), exp: z.number() });

/** What a token proved once its signature, algorithm and shape were checked. */
interface VerifiedClaims {
  id: string;
  /** The token's session id, as signed (renewal signs it again). */
  sid: string;
  /** SHA-256 hex of the token's `sid`: the session row's key. */
  sessionId: string;
  /** The token's own expiry (`exp`), ms since the epoch. */
  expiresAtMs: number;
}

/**
 * Tokens whose signature already verified, per key, so a token's HMAC is
 * checked once per process instead of on every request. Sound because
 * verification is a pure function of (token, key): the exact same string
 * verifies the same way every time. `exp` is still compared with the clock
 * and the session row is still read on every request, so expiry and logout
 * take effect at once. jose verifies through WebCrypto, whose asynchronous
 * round trip was the largest per-request cost of an authenticated GET
 * (scripts/bench-api.ts: about a sixth of the list route's throughput).
 * Bounded: least recently used entries are dropped past VERIFIED_TOKENS_MAX.
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, VerifiedClaims>>();
const VERIFIED_TOKENS_MAX = 10_000;

async function verifyToken(secret: Uint8Array, token: string): Promise<VerifiedClaims | null> {
  let cache = verifiedTokens.get(secret);
  if (!cache) verifiedTokens.set(secret, (cache = new Map()));
  const hit = cache.get(token);
  if (hit) {
    cache.delete(token);
    if (hit.expiresAtMs <= Date.now()) return null;
    cache.set(token, hit); // most recently used last
    return hit;
  }
  let claims: z.infer<typeof payloadSchema>;
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), { algorithms: ["HS256"] });
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) return null;
    claims = parsed.data;
  } catch {
    return null;
  }
  const verified: VerifiedClaims = {
    id: claims.id,
    sid: claims.sid,
    sessionId: hashSessionId(claims.sid),
    expiresAtMs: claims.exp * 1000,
  };
  if (cache.size >= VERIFIED_TOKENS_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, verified);
  return verified;
}

export interface ValidSession {
  user: SessionUser;
  sessionId: string;
  /** Set when the session was renewed by this request. */
  renewed?: IssuedSession;
  /** Signed in without a second factor the account must have: only setting it up is allowed (src/auth/two-factor/policy.ts). */
  mustSetUpTwoFactor: boolean;
}

/**
 * Verifies a token and its session row; renews the session past half its life, and notes when and
 * from where it was last used (`seenFrom`, at most every SESSION_SEEN_EVERY_MS).
 * @returns null for any bad token (signature, alg, expiry, shape, revoked or expired session).
 */
export async function validateSessionToken(services: SessionServices, token: string, seenFrom?: { ip: string }): Promise<ValidSession | null> {
  const claims = await verifyToken(services.sessionKey, token);
  if (!claims) return null;
  const { sessionId } = claims;
  const [row] = await sessionLookup(services.db).execute({ sessionId });
  if (!row || row.userId !== claims.id) return null;
  const now = Date.now();
  if (row.expiresAt.getTime() <= now) {
    await services.db.delete(sessions).where(eq(sessions.id, sessionId));
    return null;
  }
  const user: SessionUser = {
    id: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    siteRole: row.siteRole,
    canCreateCourses: row.canCreateCourses,
    locale: row.locale,
  };
  const mustSetUpTwoFactor = row.mustSetUpTwoFactor;
  const seen = seenFrom && (!row.lastSeenAt || now - row.lastSeenAt.getTime() >= SESSION_SEEN_EVERY_MS);
  const seenSet = seen ? { lastSeenAt: new Date(now), ...(seenFrom.ip !== "unknown" ? { ip: seenFrom.ip } : {}) } : {};
  const ttlMs = services.config.SESSION_TTL_DAYS * DAY_MS;
  if (row.expiresAt.getTime() - now >= ttlMs / 2) {
    if (seen) await services.db.update(sessions).set(seenSet).where(eq(sessions.id, sessionId));
    return { user, sessionId, mustSetUpTwoFactor };
  }

  const expiresAt = new Date(now + ttlMs);
  await services.db.update(sessions).set({ expiresAt, ...seenSet }).where(eq(sessions.id, sessionId));
  const renewedToken = await signToken(services.sessionKey, user.id, claims.sid, expiresAt);
  return {
    user,
    sessionId,
    mustSetUpTwoFactor,
    renewed: {
      token: renewedToken,
      sessionId,
      expiresAt,
      cookie: (secure) => sessionCookie(renewedToken, expiresAt, secure),
    },
  };
}

/**
 * The delete that signs a user out everywhere, or everywhere but `exceptSessionId` (the session changing its
 * password), as a statement for the caller's `db.batch` next to the change that requires it.
 */
export function deleteSessionsOf(db: Database, userId: string, exceptSessionId?: string) {
  return db
    .delete(sessions)
    .where(exceptSessionId === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)));
}

/** Deletes one session (logout); the token is refused from then on. */
export async function invalidateSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/**
 * Picks the token of a request: the `Authorization: Bearer` header when an
 * Authorization header is present (explicit credentials win, and a bad one is
 * not silently replaced by the cookie), else the session cookie.
 */
export function readSessionToken(authorization: string | undefined, cookieHeader: string | undefined): string | null {
  if (authorization !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return m?.[1] ?? null;
  }
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt < 0) continue;
    if (part.slice(0, eqAt).trim() === SESSION_COOKIE) return part.slice(eqAt + 1).trim() || null;
  }
  return null;
}

/** The statement that lets every session of `userId` do everything again once two-factor sign-in is on (for the caller's batch). */
export function clearTwoFactorSetupFlag(db: Database, userId: string) {
  return db.update(sessions).set({ mustSetUpTwoFactor: false }).where(eq(sessions.userId, userId));
}
