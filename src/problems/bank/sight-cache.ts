/**
 * Each viewer's sight of course-private problems (./visible.ts `privateSight`), kept in memory
 * per database handle (docs/decisions/083-bank-sight-in-memory.md), so that a bank request of a
 * viewer seen before reads no statement of it.
 *
 * A kept sight is served only while both of these hold:
 * - `revisions('sight')` is the one it was read under. Migration 0044's triggers bump it on every
 *   write the rules read (course memberships and roles, assignments' course, opening and deletion,
 *   their problems and slots, a problem's course, staging and deletion, contests' times, course,
 *   jury, exam rules and deletion, their problems, teams, virtual starts, granted roles and
 *   entries), in the writer's own transaction, and the request reads it after it began
 *   (./revision.ts `readBankState`, the statement every request reads anyway).
 * - the request's clock is in [the time it was read at, the next time anything opens): the rules
 *   also depend on the clock (an assignment's `opens_at`, a contest's start and end, a virtual
 *   window's start), which no write marks; `nextChangeAfter` finds the earliest such time after
 *   the read (one statement per revision and period, shared by every viewer).
 * A missing revision row (a database not migrated to 0044) keeps nothing: every request reads
 * its sight afresh, as before.
 *
 * Misses of one viewer are collapsed without serving a read begun before the request (./coalesce.ts).
 */
import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "../../../db/index.ts";
import type { Caller } from "../../accounts/user.ts";
import { AfterArrival } from "./coalesce.ts";
import { privateSight, type PrivateSight } from "./visible.ts";

/** The bound on what is kept per database handle, in problem ids held (a site admin's sight holds every course problem). */
export const SIGHT_CACHE_MAX_IDS = 500_000;

interface Kept {
  sight: PrivateSight;
  revision: number;
  /** The clock the sight was read at, ms. */
  readAtMs: number;
  /** The next time at which the clock alone may change it, ms (Infinity: none scheduled). */
  validUntilMs: number;
}

interface Period {
  revision: number;
  fromMs: number;
  untilMs: number;
}

interface Store {
  kept: LRUCache<string, Kept>;
  reads: AfterArrival<{ viewer: Caller; now: number; revision: number }, Kept>;
  /** The latest clock period read, per revision (one statement shared by every viewer). */
  period: Period | null;
  periodRead: AfterArrival<{ now: number; revision: number }, Period>;
}

const stores = new WeakMap<Database, Store>();

function storeOf(db: Database): Store {
  let s = stores.get(db);
  if (!s) {
    const store: Store = {
      kept: new LRUCache<string, Kept>({ maxSize: SIGHT_CACHE_MAX_IDS, sizeCalculation: (k) => 1 + k.sight.course.length + k.sight.contest.length }),
      // The read takes the latest clock of the callers it serves (never earlier than any of theirs).
      reads: new AfterArrival(
        (q, j) => ({ ...q, now: Math.max(q.now, j.now), revision: Math.max(q.revision, j.revision) }),
        async ({ viewer, now, revision }) => {
          const sight = await privateSight(db, viewer, now);
          return { sight, revision, readAtMs: now, validUntilMs: await clockPeriodUntil(db, store, revision, now) };
        },
      ),
      period: null,
      periodRead: new AfterArrival(
        (q, j) => ({ now: Math.max(q.now, j.now), revision: Math.max(q.revision, j.revision) }),
        async ({ now, revision }) => ({ revision, fromMs: now, untilMs: await nextChangeAfter(db, now) }),
      ),
    };
    s = store;
    stores.set(db, s);
  }
  return s;
}

/** The end of the clock period holding `nowMs` under `revision` (the next time anything opens), read once per period. */
async function clockPeriodUntil(db: Database, store: Store, revision: number, nowMs: number): Promise<number> {
  const p = store.period;
  if (p && p.revision === revision && p.fromMs <= nowMs && nowMs < p.untilMs) return p.untilMs;
  const read = await store.periodRead.run(String(revision), { now: nowMs, revision });
  // A period read for a later clock than ours still ends after ours began, but may have started after it.
  if (read.revision === revision && read.fromMs <= nowMs) store.period = read;
  return read.fromMs <= nowMs ? read.untilMs : nowMs;
}

/**
 * The earliest time after `nowMs` at which the clock alone may change anyone's sight: an
 * assignment opening, a contest starting or ending, a virtual window starting (the times
 * `openedAssignmentProblems` and the contests' `mayReadProblems` compare with the clock).
 * @returns ms since the epoch; Infinity when nothing is scheduled.
 */
export async function nextChangeAfter(db: Database, nowMs: number): Promise<number> {
  const [row] = await db.all<{ t: number | null }>(sql`SELECT min(t) AS t FROM (
      SELECT opens_at AS t FROM assignments WHERE deleted_at IS NULL AND opens_at > ${nowMs}
      UNION ALL SELECT starts_at FROM contests WHERE deleted_at IS NULL AND starts_at > ${nowMs}
      UNION ALL SELECT starts_at + duration_minutes * 60000 FROM contests WHERE deleted_at IS NULL AND starts_at + duration_minutes * 60000 > ${nowMs}
      UNION ALL SELECT virtual_starts_at FROM contest_teams WHERE virtual_starts_at > ${nowMs})`);
  return row?.t ?? Infinity;
}

/**
 * The viewer's private sight at `nowMs`, from memory when the kept one is still true.
 * @param revision `revisions('sight')` read after the request began (`readBankState`); null: read afresh, keep nothing.
 */
export async function sightOf(db: Database, viewer: Caller, nowMs: number, revision: number | null): Promise<PrivateSight> {
  if (revision === null) return privateSight(db, viewer, nowMs);
  const store = storeOf(db);
  const key = `${viewer.id}|${viewer.siteRole}`;
  const hit = store.kept.get(key);
  if (hit && hit.revision === revision && hit.readAtMs <= nowMs && nowMs < hit.validUntilMs) return hit.sight;
  const read = await store.reads.run(key, { viewer, now: nowMs, revision });
  // Keep it only when read under this very revision (a joiner's later revision may have widened the read).
  if (read.revision === revision) {
    const current = store.kept.get(key);
    if (!current || current.revision < read.revision || (current.revision === read.revision && current.readAtMs <= read.readAtMs)) store.kept.set(key, read);
  }
  return read.sight;
}

/** How many viewers' sights are kept (for tests). */
export function keptSights(db: Database): number {
  return stores.get(db)?.kept.size ?? 0;
}
