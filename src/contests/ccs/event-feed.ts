/**
 * The Contest API's NDJSON event feed (ccs-specs 2023-06 and 2026-01, "Event feed"): the
 * contest's change log as its reader may see it, from the beginning or after
 * `since_token`, then live as changes happen (the one fan-out, ../feed.ts
 * `ContestBus`), with a newline after `keepAliveMs` without an event (the
 * spec requires one within 120 s; the server's idle timeout is 60 s, so the
 * door sends one every 30 s).
 *
 * Tokens are the log's sequence numbers. A token is valid when this feed
 * sent it to this reader (an event of this contest the reader may see) and
 * resumes exactly after it; the log keeps every event, so none expires.
 * Anything else is a 400, as both releases require ("If the token is invalid
 * ... the request will fail with a 400 error"). `since_id`, the parameter's
 * name before 2023-06 (still what the specification's checker sends, and
 * what older clients send), is read the same way.
 */
import { and, eq } from "drizzle-orm";
import { contestEvents } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { contestCaughtUp, type ContestDeps } from "../contests.ts";
import { readable, readEvents, thresholds, type FeedLine } from "../feed.ts";
import { findContest, roleIn } from "../access.ts";
import { asRead, readerOf, type CcsCaller } from "./api.ts";

/** Keep-alive newline period of the HTTP door, ms (under Bun's 60 s idle timeout and the spec's 120 s). */
export const KEEP_ALIVE_MS = 30_000;

/** Events read per database round trip. */
const PAGE = 5000;

/**
 * The sequence number a `since_token` (or the older `since_id`) resumes after.
 * @param token the query argument; undefined: from the start (0).
 * @param field the argument's name, for the error.
 * @throws AppError CCS_BAD_TOKEN (400, naming `field`) for anything but a token this contest's feed has sent this reader.
 */
export async function sinceOf(deps: ContestDeps, caller: CcsCaller, token: string | undefined, field: "since_token" | "since_id" = "since_token"): Promise<number> {
  if (token === undefined) return 0;
  const bad = () => new AppError("CCS_BAD_TOKEN", { field, message: `${field}: ${JSON.stringify(token.slice(0, 40))} is not a token of this event feed` });
  if (!/^[1-9]\d{0,14}$/.test(token)) throw bad();
  const seq = Number(token);
  const [sent] = await deps.db
    .select({ seq: contestEvents.seq })
    .from(contestEvents)
    .where(and(eq(contestEvents.seq, seq), eq(contestEvents.contestId, caller.contest.id), readable(caller.reader)))
    .limit(1);
  if (!sent) throw bad();
  return seq;
}

/** A stored line as sent to this reader: in its release's shape, submissions with their `files`. */
function lineFor(caller: CcsCaller, line: FeedLine): string {
  return `${JSON.stringify({ type: line.type, id: line.id, data: asRead(caller, line.type, line.data), token: line.token })}\n`;
}

/** Whether the caller still reads the feed as it opened it (same role and team, the contest still theirs to read). */
async function sameReader(deps: ContestDeps, caller: CcsCaller, contest: CcsCaller["contest"]): Promise<boolean> {
  const fresh = await findContest(deps.db, contest.id);
  const standing = fresh ? await roleIn(deps.db, fresh, caller.user) : null;
  if (!fresh || !standing) return false;
  const now = readerOf({ contest: fresh, ...standing });
  return standing.role === caller.role && JSON.stringify(now) === JSON.stringify(caller.reader);
}

/**
 * The feed as text chunks (each one or more NDJSON lines, or a keep-alive "\n").
 * @param opts.follow false: end after the events there are now (`?stream=false`).
 * @param opts.keepAliveMs wall-clock ms without an event before a newline.
 * @param opts.signal ends the feed (the client went away).
 * Ends, too, when the contest is deleted or the caller's role in it changed (a contest role revoked: decision 053).
 */
export async function* eventFeed(
  deps: ContestDeps,
  caller: CcsCaller,
  sinceSeq: number,
  opts: { follow: boolean; keepAliveMs: number; signal?: AbortSignal },
): AsyncGenerator<string> {
  let since = sinceSeq;
  let contest = caller.contest;
  let lastSentAt = Date.now();
  while (!opts.signal?.aborted) {
    contest = await contestCaughtUp(deps, contest);
    // The reader's role is read again at every turn: a revoked jury member's feed ends rather than
    // going on with what only the jury reads (the client reconnects and reads as what it is now).
    if (!(await sameReader(deps, caller, contest))) return;
    const { lines, lastSeq: seq } = await readEvents(deps.db, contest.id, caller.reader, since, PAGE);
    since = seq;
    if (lines.length) {
      yield lines.map((l) => lineFor(caller, l)).join("");
      lastSentAt = Date.now();
      if (lines.length === PAGE) continue;
    }
    if (!opts.follow) return;
    const quietMs = Date.now() - lastSentAt;
    if (quietMs >= opts.keepAliveMs) {
      yield "\n";
      lastSentAt = Date.now();
      continue;
    }
    // Wake at the next change, the next threshold of the clock (start, freeze, end), or the keep-alive.
    const nowMs = deps.now();
    const next = thresholds(contest).find((t) => t.atMs > nowMs);
    const untilThreshold = next ? next.atMs - nowMs + 1 : Infinity;
    await deps.contests.bus.next(contest.id, Math.min(opts.keepAliveMs - quietMs, untilThreshold), opts.signal);
  }
}
