/**
 * The contest's change log: every change a Contest API client may learn of
 * is a row of `contest_events` (its `seq` is the event feed's token), with
 * who may read it (`audience`): `all`; `jury`; `team` (that team and the
 * jury); `nonjury` (everyone but the jury: what the jury saw earlier,
 * released when the contest starts or at the unfreeze). The same log feeds
 * the NDJSON event feed and wakes the live scoreboards (one fan-out: `ContestBus`).
 *
 * Thresholds of the clock (start, freeze, end) are announced lazily: the
 * first reader after a threshold appends its events (`catchUp`), and the
 * contest's `feed_phase` records that it was done.
 */
import { and, asc, eq, gt, inArray, lt, max, or } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestEvents, contests } from "../../db/schema.ts";
import { endMs, freezeContestMs } from "./clock.ts";
import { timesOf, type ContestRow } from "./access.ts";

export type Audience = "all" | "jury" | "team" | "nonjury";

/** One change, as stored. */
export interface ContestEvent {
  type: string;
  /** The object's id; null for a singleton (`contest`, `state`) or a whole collection. */
  id: string | null;
  /** The object; null for a deletion. */
  data: unknown;
  audience: Audience;
  /** For `team` events: whose. */
  teamId?: string | null;
  /** When it happened, ms. */
  atMs: number;
}

/** Who reads the feed: the jury, a team, or the public. */
export type FeedReader = { kind: "jury" } | { kind: "team"; teamId: string } | { kind: "public" };

type Db = Pick<Database, "insert">;

/** Appends events in order, and wakes the contest's listeners. */
export async function appendEvents(db: Db, bus: ContestBus | null, contestId: string, events: readonly ContestEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(contestEvents).values(
    events.map((e) => ({
      contestId,
      type: e.type,
      objectId: e.id,
      data: e.data === null ? null : JSON.stringify(e.data),
      audience: e.audience,
      teamId: e.teamId ?? null,
      createdAt: new Date(e.atMs),
    })),
  );
  bus?.changed(contestId);
}

/** The audiences a reader may see, as a WHERE clause. */
export function readable(reader: FeedReader) {
  if (reader.kind === "jury") return inArray(contestEvents.audience, ["all", "jury", "team"]);
  const open = inArray(contestEvents.audience, ["all", "nonjury"]);
  if (reader.kind === "public") return open;
  return or(open, and(eq(contestEvents.audience, "team"), eq(contestEvents.teamId, reader.teamId)));
}

/** A stored event as the feed sends it: one NDJSON line's object. */
export interface FeedLine {
  type: string;
  id: string | null;
  data: unknown;
  token: string;
}

/**
 * The events a reader may see after `sinceSeq`, oldest first, at most `limit`.
 * @returns lines ready to send (`token` is the row's seq).
 */
export async function readEvents(db: Database, contestId: string, reader: FeedReader, sinceSeq: number, limit = 5000): Promise<{ lines: FeedLine[]; lastSeq: number }> {
  const rows = await db
    .select({ seq: contestEvents.seq, type: contestEvents.type, id: contestEvents.objectId, data: contestEvents.data })
    .from(contestEvents)
    .where(and(eq(contestEvents.contestId, contestId), gt(contestEvents.seq, sinceSeq), readable(reader)))
    .orderBy(asc(contestEvents.seq))
    .limit(limit);
  return {
    lines: rows.map((r) => ({ type: r.type, id: r.id, data: r.data === null ? null : JSON.parse(r.data), token: String(r.seq) })),
    lastSeq: rows.length ? rows[rows.length - 1]!.seq : sinceSeq,
  };
}

/**
 * The objects of one type as the reader may see them now: each id's latest
 * readable event, deletions dropped, in order of first appearance. The Contest
 * API's collections are read this way, so an endpoint never shows what its
 * reader's feed has not announced (the freeze included).
 * @param onlyId one object's events only.
 * @returns `[id, data]` pairs; a singleton type (`state`, `contest`) has id null.
 */
export async function latestObjects(db: Database, contestId: string, reader: FeedReader, type: string, onlyId?: string): Promise<Map<string | null, unknown>> {
  const rows = await db
    .select({ id: contestEvents.objectId, data: contestEvents.data })
    .from(contestEvents)
    .where(and(eq(contestEvents.contestId, contestId), eq(contestEvents.type, type), onlyId === undefined ? undefined : eq(contestEvents.objectId, onlyId), readable(reader)))
    .orderBy(asc(contestEvents.seq));
  const out = new Map<string | null, unknown>();
  for (const r of rows) {
    if (r.data === null) out.delete(r.id);
    else out.set(r.id, JSON.parse(r.data));
  }
  return out;
}

/** The newest token the reader may resume from: the log's last seq (0 when empty). */
export async function lastSeq(db: Database, contestId: string): Promise<number> {
  const [row] = await db.select({ seq: max(contestEvents.seq) }).from(contestEvents).where(eq(contestEvents.contestId, contestId));
  return row?.seq ?? 0;
}

/** The clock's thresholds in order: start, freeze (when there is one), end; ms since the epoch. */
export function thresholds(c: ContestRow): { name: "start" | "freeze" | "end"; atMs: number }[] {
  const t = timesOf(c);
  const freeze = freezeContestMs(t);
  const list: { name: "start" | "freeze" | "end"; atMs: number }[] = [{ name: "start", atMs: t.startsAtMs }];
  if (freeze !== null) list.push({ name: "freeze", atMs: t.startsAtMs + freeze });
  list.push({ name: "end", atMs: endMs(t) });
  return list;
}

/**
 * Announces the thresholds passed by `nowMs` that the log has not announced
 * yet: one announcer per contest and threshold in this process, after a fresh
 * read of `feed_phase` (processes racing may both announce: harmless duplicates).
 * @param eventsAt builds the events of one threshold (the state, and at the start the problems for non-jury readers).
 * @returns the contest row as it is now (its `feedPhase` advanced).
 */
export async function catchUp(
  db: Database,
  bus: ContestBus | null,
  contest: ContestRow,
  nowMs: number,
  eventsAt: (name: "start" | "freeze" | "end", atMs: number, contest: ContestRow) => Promise<ContestEvent[]>,
): Promise<ContestRow> {
  const list = thresholds(contest);
  const target = list.filter((t) => t.atMs <= nowMs).length;
  if (target <= contest.feedPhase) return contest;
  // Every viewer's request reaches a threshold at once: one announces, the others in this process wait for it.
  const key = `${contest.id}:${target}`;
  let running = announcing.get(key);
  if (!running) {
    running = announce(db, bus, contest, target, eventsAt).finally(() => announcing.delete(key));
    announcing.set(key, running);
  }
  await running;
  return { ...contest, feedPhase: target };
}

const announcing = new Map<string, Promise<void>>();

async function announce(
  db: Database,
  bus: ContestBus | null,
  contest: ContestRow,
  target: number,
  eventsAt: (name: "start" | "freeze" | "end", atMs: number, contest: ContestRow) => Promise<ContestEvent[]>,
): Promise<void> {
  // The caller's row may be stale: another request or process may have announced already.
  const [fresh] = await db.select({ feedPhase: contests.feedPhase }).from(contests).where(eq(contests.id, contest.id));
  const from = fresh?.feedPhase ?? contest.feedPhase;
  if (from >= target) return;
  // No interactive transaction (docs/decisions/041): the events go first, then the phase moves on.
  // Two processes racing both append (the spec allows duplicate events); a crash between the two
  // re-announces at the next read. Nothing is lost either way.
  const advanced = { ...contest, feedPhase: target };
  for (const t of thresholds(contest).slice(from, target)) await appendEvents(db, null, contest.id, await eventsAt(t.name, t.atMs, advanced));
  await db
    .update(contests)
    .set({ feedPhase: target })
    .where(and(eq(contests.id, contest.id), lt(contests.feedPhase, target)));
  bus?.changed(contest.id);
}

/**
 * The one fan-out of contest changes: the event feed, the live scoreboards
 * and the contest pages wait on it. In-process (the web server judges or
 * hears every judge host's finish itself).
 */
export class ContestBus {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Tells everyone waiting on the contest that something changed. */
  changed(contestId: string): void {
    const set = this.waiters.get(contestId);
    if (!set) return;
    this.waiters.delete(contestId);
    for (const wake of set) wake();
  }

  /** Resolves at the contest's next change, after `timeoutMs`, or when `signal` aborts. */
  next(contestId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(contestId);
      if (!set) this.waiters.set(contestId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.waiters.get(contestId)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      signal?.addEventListener("abort", done, { once: true });
      set.add(done);
    });
  }
}
