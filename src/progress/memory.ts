/**
 * A user's progress rows kept in memory per database handle and scope
 * (docs/decisions/083-bank-sight-in-memory.md), so that showing a progress page of a user seen
 * before reads one statement of three primary-key reads instead of three scans of their rows.
 *
 * Kept rows (./progress.ts `ProgressRows`) are served only while, read after the request began:
 * - the user's `progress_versions` row is the one they were read under: migration 0045's triggers
 *   bump it on every write to their status rows, and every verdict and rejudge rewrites the row of
 *   that problem (src/problems/bank/status.ts), as does the account erasure;
 * - `revisions('problems')` is too: titles, difficulties, deletions, a problem's course, tags
 *   (migration 0003's triggers and the tag curation's bumps);
 * - for a course's view, `revisions('sight')` is too: an assignment deleted leaves the view
 *   (migration 0044's triggers);
 * - and the request's clock is not earlier than the read's: rows read at T reach back a year
 *   from T, so they serve any later clock (older days are skipped when the calendar is drawn).
 * A database without the revisions (not migrated) keeps nothing.
 *
 * Concurrent identical reads are collapsed without serving a read begun before the request (the
 * bank's ./coalesce.ts). The bound is in rows held: a heavy user's year is 10,000 submissions.
 */
import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "../../db/index.ts";
import { AfterArrival } from "../problems/bank/coalesce.ts";
import { progressFromRows, readBackFrom, readProgressRows, type ProgressRows, type ProgressScope } from "./progress.ts";
import type { Progress } from "./shape.ts";

/** The bound on what is kept per database handle, in rows (status rows plus submissions plus tags). */
export const PROGRESS_MEMORY_MAX_ROWS = 1_000_000;

interface Stamp {
  version: number;
  problems: number | null;
  sight: number | null;
}

interface Kept {
  key: string;
  rows: ProgressRows;
  readAtMs: number;
}

interface Store {
  kept: LRUCache<string, Kept>;
  stamps: AfterArrival<string, Stamp>;
  reads: AfterArrival<{ userId: string; scope: ProgressScope; nowMs: number; key: string }, Kept>;
}

const stores = new WeakMap<Database, Store>();

function storeOf(db: Database): Store {
  let s = stores.get(db);
  if (!s) {
    s = {
      kept: new LRUCache<string, Kept>({ maxSize: PROGRESS_MEMORY_MAX_ROWS, sizeCalculation: (k) => 1 + k.rows.rows.length + k.rows.subs.length + k.rows.solvedByTag.length }),
      stamps: new AfterArrival((q) => q, (userId) => readStamp(db, userId)),
      // A joining request's clock may be later: the read takes the latest, so it reaches back far enough for all.
      reads: new AfterArrival(
        (q, j) => ({ ...q, nowMs: Math.max(q.nowMs, j.nowMs) }),
        async ({ userId, scope, nowMs, key }) => ({ key, rows: await readProgressRows(db, userId, scope, readBackFrom(nowMs)), readAtMs: nowMs }),
      ),
    };
    stores.set(db, s);
  }
  return s;
}

/** The user's progress version and the two revisions: one statement of three primary-key reads. */
async function readStamp(db: Database, userId: string): Promise<Stamp> {
  const [row] = await db.all<{ v: number | null; p: number | null; s: number | null }>(sql`SELECT
      (SELECT version FROM progress_versions WHERE user_id = ${userId}) AS v,
      (SELECT value FROM revisions WHERE name = 'problems') AS p,
      (SELECT value FROM revisions WHERE name = 'sight') AS s`);
  return { version: row?.v ?? 0, problems: row?.p ?? null, sight: row?.s ?? null };
}

const scopeKey = (scope: ProgressScope) => (scope.kind === "course" ? `course:${scope.courseId}` : scope.kind);

/**
 * `userId`'s progress in `scope` at `opts.nowMs`, days counted in `opts.timeZone`, from rows kept
 * in memory while nothing changed them (otherwise read afresh, as ./progress.ts `progressFor`).
 * @returns the progress (./shape.ts `Progress`); an unknown user has empty progress.
 */
export async function progressOf(db: Database, userId: string, opts: { timeZone: string; nowMs?: number; scope?: ProgressScope }): Promise<Progress> {
  const nowMs = opts.nowMs ?? Date.now();
  const scope = opts.scope ?? { kind: "all" };
  const store = storeOf(db);
  const stamp = await store.stamps.run(userId, userId);
  if (stamp.problems === null || (scope.kind === "course" && stamp.sight === null)) {
    return progressFromRows(await readProgressRows(db, userId, scope, readBackFrom(nowMs)), nowMs, opts.timeZone);
  }
  const key = `${stamp.version}|${stamp.problems}|${scope.kind === "course" ? stamp.sight : ""}`;
  const slot = `${userId}|${scopeKey(scope)}`;
  const hit = store.kept.get(slot);
  if (hit && hit.key === key && hit.readAtMs <= nowMs) return progressFromRows(hit.rows, nowMs, opts.timeZone);
  const read = await store.reads.run(`${slot}|${key}`, { userId, scope, nowMs, key });
  const current = store.kept.get(slot);
  if (!current || current.key !== key || current.readAtMs < read.readAtMs) store.kept.set(slot, read);
  return progressFromRows(read.rows, nowMs, opts.timeZone);
}

/** How many users' rows are kept (for tests). */
export function keptProgress(db: Database): number {
  return stores.get(db)?.kept.size ?? 0;
}
