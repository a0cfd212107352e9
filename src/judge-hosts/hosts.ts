/**
 * Judge hosts and their tokens (issue 11, item 3): `add` makes a host and
 * shows its bearer token once (only its SHA-256 is stored, as sessions store
 * theirs), `list` shows hosts with when they were last seen and the version
 * they run, `revoke` makes the host's next call refused. `authenticateHost`
 * is what the judge API checks on every call; no user route accepts these
 * tokens (they are not session JWTs).
 */
import { createHash, randomBytes } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, asc, count, eq, inArray, isNull, like, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { preparedPer } from "../../db/prepared.ts";
import { judgeHosts, submissions } from "../../db/schema.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";

/** Host names: what an operator types. */
export const HOST_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
/** Prefix of host tokens, so a leaked one is recognisable (and never mistaken for a session). */
export const HOST_TOKEN_PREFIX = "ojhost_";

export interface HostShape {
  name: string;
  createdAt: string;
  lastSeenAt: string | null;
  version: string | null;
  revoked: boolean;
  /** Jobs the host holds now (claimed, not finished). */
  jobsInHand: number;
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Adds a host.
 * @returns the token, to be shown once.
 * @throws Error for a bad or taken name.
 */
/** Most jobs one host may be allowed to hold at once. */
export const HOST_CAPACITY_MAX = 64;

export async function addHost(db: Database, name: string, capacity = 4): Promise<{ token: string }> {
  if (!HOST_NAME.test(name)) throw new Error(`host name ${JSON.stringify(name)}: lower-case letters, digits, . _ - (at most 63)`);
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > HOST_CAPACITY_MAX) throw new Error(`capacity ${capacity}: a whole number from 1 to ${HOST_CAPACITY_MAX}`);
  const token = HOST_TOKEN_PREFIX + encodeBase32LowerCaseNoPadding(randomBytes(32));
  try {
    await db.insert(judgeHosts).values({ name, tokenHash: hash(token), capacity });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Error(`a host named ${name} exists already (revoke it, or choose another name)`);
    throw err;
  }
  return { token };
}

/** Every host, by name. */
export async function listHosts(db: Database): Promise<HostShape[]> {
  const rows = await db.select().from(judgeHosts).orderBy(asc(judgeHosts.name));
  // Hosts' claims are leased to `judge-host/<name>` (src/judge-hosts/jobs.ts).
  const held = await db
    .select({ owner: submissions.leaseOwner, n: count() })
    .from(submissions)
    .where(and(inArray(submissions.status, ["compiling", "running"]), like(submissions.leaseOwner, "judge-host/%")))
    .groupBy(submissions.leaseOwner);
  const inHand = new Map(held.map((h) => [h.owner, h.n]));
  return rows.map((r) => ({
    jobsInHand: inHand.get(`judge-host/${r.name}`) ?? 0,
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
    version: r.version,
    revoked: r.revokedAt !== null,
  }));
}

/** Revokes a host. @returns false when there is no such (unrevoked) host. */
export async function revokeHost(db: Database, name: string, now = new Date()): Promise<boolean> {
  const res = await db
    .update(judgeHosts)
    .set({ revokedAt: now })
    .where(and(eq(judgeHosts.name, name), isNull(judgeHosts.revokedAt)))
    .returning({ id: judgeHosts.id });
  return res.length === 1;
}

const hostByTokenHash = preparedPer((db) =>
  db
    .select({ id: judgeHosts.id, name: judgeHosts.name, capacity: judgeHosts.capacity })
    .from(judgeHosts)
    .where(and(eq(judgeHosts.tokenHash, sql.placeholder("tokenHash")), isNull(judgeHosts.revokedAt)))
    .limit(1)
    .prepare(),
);

/** How often a host's last-seen time and version are written, ms (every call reads; only this often writes). */
export const LAST_SEEN_EVERY_MS = 10_000;
const lastWritten = new Map<string, { at: number; version: string | null }>();

/**
 * The host a bearer token belongs to (read on every call, so a revocation
 * refuses the very next one), recording when it was seen and its version;
 * null for an unknown or revoked token.
 */
export async function authenticateHost(db: Database, token: string, version: string | null = null, now = new Date()): Promise<{ id: string; name: string; capacity: number } | null> {
  if (!token.startsWith(HOST_TOKEN_PREFIX)) return null;
  const [row] = await hostByTokenHash(db).execute({ tokenHash: hash(token) });
  if (!row) return null;
  const last = lastWritten.get(row.id);
  if (!last || now.getTime() - last.at >= LAST_SEEN_EVERY_MS || (version && version !== last.version)) {
    lastWritten.set(row.id, { at: now.getTime(), version });
    await db.update(judgeHosts).set({ lastSeenAt: now, ...(version ? { version } : {}) }).where(eq(judgeHosts.id, row.id));
  }
  return row;
}
