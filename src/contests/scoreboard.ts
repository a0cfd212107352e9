/**
 * The scoreboard as each caller may see it — the jury live, a virtual
 * participant as at their elapsed time, everyone else frozen during the
 * freeze — its live stream, and what the unfreeze and the finalization
 * release: the hidden results and the awards.
 */
import { and, eq, gte, isNull } from "drizzle-orm";
import type { Caller } from "../accounts/user.ts";
import { contestTeams, submissions } from "../../db/schema.ts";
import { findContest, requireContest, roleIn, timesOf, type ContestAccess, type ContestRow } from "./access.ts";
import { canInContest } from "./permissions.ts";
import { rulesOf, type Scoreboard } from "./board.ts";
import type { ScoreboardDelta } from "./board-delta.ts";
import { durationMs, freezeContestMs } from "./clock.ts";
import { contestCaughtUp, type ContestDeps } from "./contests.ts";
import type { Audience, ContestEvent } from "./feed.ts";
import { ccsSubmissionColumns, judgedEvents, runsOf } from "./runtime.ts";
import type { CcsSubmissionRow } from "./ccs/objects.ts";

/** The board for a caller whose access is checked. */
export async function boardFor(deps: ContestDeps, access: ContestAccess): Promise<Scoreboard> {
  const contest = await contestCaughtUp(deps, access.contest);
  const nowMs = deps.now();
  const elapsed = virtualElapsedMs(access, contest, nowMs);
  if (elapsed !== null) return deps.contests.boards.virtualBoard(contest, access.team!, elapsed);
  return deps.contests.boards.board(contest, access.role === "jury" ? "jury" : "public", nowMs);
}

/** A virtual participant's elapsed contest time (bounded by the duration), ms; null for everyone else. */
function virtualElapsedMs(access: ContestAccess, contest: ContestRow, nowMs: number): number | null {
  const start = access.team?.virtualStartsAt?.getTime() ?? null;
  if (access.role !== "participant" || start === null) return null;
  return Math.max(0, Math.min(nowMs - start, durationMs(timesOf(contest))));
}

/**
 * The scoreboard as the caller may see it, as JSON text: the jury's and the
 * public board are encoded once per version, every viewer of a version
 * getting the same text (a virtual participant's board is encoded for them).
 * @throws CONTEST_NOT_FOUND (404).
 */
export async function readScoreboardJson(deps: ContestDeps, user: Caller | null, id: string): Promise<string> {
  const access = await requireContest(deps.db, user, id, "scoreboard.view");
  const contest = await contestCaughtUp(deps, access.contest);
  const nowMs = deps.now();
  if (virtualElapsedMs(access, contest, nowMs) !== null) return JSON.stringify(await boardFor(deps, access));
  return (await deps.contests.boards.boardJson(contest, access.role === "jury" ? "jury" : "public", nowMs)).json;
}

/**
 * The scoreboard as the caller may see it.
 * @throws CONTEST_NOT_FOUND (404).
 */
export async function readScoreboard(deps: ContestDeps, user: Caller | null, id: string): Promise<Scoreboard> {
  return boardFor(deps, await requireContest(deps.db, user, id, "scoreboard.view"));
}

/**
 * The scoreboard now and after every change (a new version), until `signal`
 * aborts: the whole board first (unless the viewer holds the current
 * version), then deltas (./board-delta.ts) while the viewer can take them.
 * @param sinceVersion the version the client holds (-1: none).
 */
export async function* scoreboardChanges(
  deps: ContestDeps,
  user: Caller | null,
  id: string,
  sinceVersion: number,
  signal?: AbortSignal,
): AsyncGenerator<Scoreboard | ScoreboardDelta> {
  let access = await requireContest(deps.db, user, id, "scoreboard.view");
  let last = sinceVersion;
  let lastVirtualMinute = -1;
  while (!signal?.aborted) {
    // The rules (freeze, unfreeze, problems, the contest itself) are read again at every turn: a stream
    // opened before the jury changed them must not keep the old ones, nor rebuild the shared board from them.
    // So is the caller's role: a revoked jury member's stream turns public at its next push (a full board, not a delta).
    const fresh = await findContest(deps.db, access.contest.id);
    const standing = fresh ? await roleIn(deps.db, fresh, user) : null;
    if (!fresh || !standing || !canInContest(standing.role, "scoreboard.view")) return;
    if (standing.role !== access.role) last = -1;
    access = { contest: fresh, ...standing };
    const contest = await contestCaughtUp(deps, access.contest);
    const nowMs = deps.now();
    if (virtualElapsedMs(access, contest, nowMs) !== null) {
      const board = await boardFor(deps, access);
      // A virtual board changes with the clock: send it again every minute of elapsed time.
      const minute = Math.floor(board.virtualElapsedMs! / 60_000);
      if (board.version !== last || minute !== lastVirtualMinute) {
        last = board.version;
        lastVirtualMinute = minute;
        yield board;
      }
      await deps.contests.bus.next(access.contest.id, 10_000, signal);
      continue;
    }
    const view = access.role === "jury" ? "jury" : "public";
    const next = await deps.contests.boards.boardSince(contest, view, nowMs, last);
    if (next) {
      last = next.version;
      yield next;
    }
    await deps.contests.bus.next(access.contest.id, 30_000, signal);
  }
}

/**
 * What the unfreeze releases to everyone but the jury: the judged submissions
 * the freeze hid, and, when the results were finalized while frozen, the
 * awards of the thawed board (for everyone: `awardEvents`).
 * @param c the unfrozen row (`unfrozenAt` set).
 */
export async function releasedEvents(deps: ContestDeps, c: ContestRow, nowMs: number): Promise<ContestEvent[]> {
  const awards = c.finalizedAt !== null ? await awardEvents(deps, c, nowMs) : [];
  const freeze = freezeContestMs(timesOf(c));
  if (freeze === null) return awards;
  const rows = await deps.db
    .select(ccsSubmissionColumns)
    .from(submissions)
    .innerJoin(contestTeams, eq(contestTeams.id, submissions.teamId))
    .where(and(eq(submissions.contestId, c.id), isNull(contestTeams.virtualStartsAt), gte(submissions.createdAt, new Date(c.startsAt.getTime() + freeze)), eq(submissions.status, "done")));
  const out: ContestEvent[] = [];
  for (const r of rows as CcsSubmissionRow[]) {
    for (const e of judgedEvents(c, r, await runsOf(deps.db, r.id))) out.push({ ...e, audience: "nonjury", teamId: null });
  }
  return [...out, ...awards];
}

/** The awards the board gives: `winner` and `first-to-solve-<problem>` (ccs-specs' known awards). */
export function awardsOf(board: Scoreboard): { id: string; citation: string; team_ids: string[] }[] {
  const top = board.rows.filter((r) => r.rank === 1 && (r.numSolved > 0 || r.score > 0)).map((r) => r.teamId);
  const awards = [{ id: "winner", citation: "Contest winner", team_ids: top }];
  for (const p of board.problems) {
    const first = board.rows.filter((r) => r.cells.some((cell) => cell.problemId === p.problemId && cell.firstToSolve)).map((r) => r.teamId);
    awards.push({ id: `first-to-solve-${p.problemId}`, citation: `First to solve problem ${p.label}`, team_ids: first });
  }
  return awards;
}

/**
 * The final awards as events, each from the board its audience may see
 * (decision 046): once the board is thawed (or never froze), the one board's
 * awards for everyone; while the public board is still frozen, the jury's live
 * board's for the jury and the frozen board's for everyone else, so that
 * finalizing before the thaw publishes no frozen result (the unfreeze then
 * announces the thawed board's awards to everyone: `releasedEvents`).
 */
export async function awardEvents(deps: ContestDeps, c: ContestRow, nowMs: number): Promise<ContestEvent[]> {
  const events = (board: Scoreboard, audience: Audience): ContestEvent[] => awardsOf(board).map((a) => ({ type: "awards", id: a.id, data: a, audience, atMs: nowMs }));
  const jury = await deps.contests.boards.board(c, "jury", nowMs);
  if (rulesOf(c, "public").freezeAtMs === null) return events(jury, "all");
  return [...events(jury, "jury"), ...events(await deps.contests.boards.board(c, "public", nowMs), "nonjury")];
}
