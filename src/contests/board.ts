/**
 * Live scoreboards, kept in memory per contest and view (`jury`: live;
 * `public`: frozen during the freeze), built once from the contest's
 * submissions and then updated incrementally: a judged submission recomputes
 * only its team's row and re-ranks (./scoring.ts), and bumps the board's
 * version; every viewer of a version is served one cached JSON encoding.
 * A virtual participant's board is built on demand (everyone as at their
 * elapsed time, with their own row).
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestTeams, submissions } from "../../db/schema.ts";
import type { VerdictCode } from "../verdicts.ts";
import { timesOf, type ContestRow } from "./access.ts";
import { freezeContestMs, isFrozenAt } from "./clock.ts";
import { rankRows, rowOf, type BoardRow, type BoardRules, type BoardSubmission } from "./scoring.ts";
import { problemsOf } from "./store.ts";
import { teamsOf, type TeamRow } from "./teams.ts";
import type { ContestProblemInfo } from "./ccs/objects.ts";
import { firstSolveMarks, marksMoved, type ScoreboardDelta } from "./board-delta.ts";

export type BoardView = "jury" | "public";

/** A scoreboard as the routes answer it. */
export interface Scoreboard {
  contestId: string;
  scoring: "icpc" | "ioi";
  /** Whether results after the freeze are hidden on this board. */
  frozen: boolean;
  /** Contest time the board is shown at for a virtual participant, ms; null for the real contest. */
  virtualElapsedMs: number | null;
  version: number;
  problems: { problemId: string; label: string; color: string | null; title: string }[];
  teams: Record<string, { name: string; organization: string }>;
  rows: BoardRow[];
}

interface Cached {
  contest: ContestRow;
  problems: ContestProblemInfo[];
  teams: Map<string, TeamRow>;
  rules: BoardRules;
  rows: Map<string, BoardRow>;
  ranked: BoardRow[];
  version: number;
  json: string | null;
  /** Whether the board says it is frozen (the public view from the freeze to the unfreeze). */
  frozenNow: boolean;
  /** Whether the board leaves the problems out (the public view before the start: nobody but the jury may know them yet). */
  problemsHidden: boolean;
  /** The latest versions' changes (newest last, at most CHANGES_KEPT): the teams whose rows changed, or null for a change of the whole board. */
  changes: { version: number; teams: string[] | null }[];
}

/** Versions a viewer may lag behind and still get a delta. */
const CHANGES_KEPT = 32;

function noteChange(c: Cached, teams: string[] | null): void {
  c.changes.push({ version: c.version, teams });
  if (c.changes.length > CHANGES_KEPT) c.changes.shift();
}

/** The delta from `sinceVersion` to the board now, when the kept changes cover it and are all rows; else null. */
function deltaOf(c: Cached, sinceVersion: number): ScoreboardDelta | null {
  if (sinceVersion < 0 || sinceVersion >= c.version) return null;
  const newer = c.changes.filter((x) => x.version > sinceVersion);
  if (newer.length !== c.version - sinceVersion || newer.some((x) => x.teams === null)) return null;
  const teams = new Set(newer.flatMap((x) => x.teams!));
  return {
    kind: "delta",
    contestId: c.contest.id,
    baseVersion: sinceVersion,
    version: c.version,
    frozen: c.frozenNow,
    rows: [...teams].flatMap((id) => c.rows.get(id) ?? []).map((r) => shown(c, r)),
    order: c.ranked.map((r) => [r.teamId, r.rank]),
  };
}

/** A row as the board shows it: without its cells while the problems are hidden (each names its problem). */
function shown(c: Cached, row: BoardRow): BoardRow {
  return c.problemsHidden ? { ...row, cells: [] } : row;
}

/** A board submission from a row, with contest time from the team's window start. */
function toBoard(
  s: { teamId: string | null; problemId: string; createdAt: Date; status: string; verdict: VerdictCode | null; hiddenPassed: number; hiddenTotal: number; score: number | null; maxScore: number | null; groupResults: { score: number }[] | null },
  startMs: number,
): BoardSubmission {
  return {
    teamId: s.teamId!,
    problemId: s.problemId,
    contestTimeMs: s.createdAt.getTime() - startMs,
    verdict: s.status === "done" ? s.verdict : null,
    hiddenPassed: s.hiddenPassed,
    hiddenTotal: s.hiddenTotal,
    ...(s.score !== null && s.maxScore ? { score: s.score, maxScore: s.maxScore } : {}),
    ...(s.score !== null && s.maxScore && s.groupResults?.length ? { groupScores: s.groupResults.map((g) => g.score) } : {}),
  };
}

const boardColumns = {
  teamId: submissions.teamId,
  problemId: submissions.problemId,
  createdAt: submissions.createdAt,
  status: submissions.status,
  verdict: submissions.verdict,
  hiddenPassed: submissions.hiddenPassed,
  hiddenTotal: submissions.hiddenTotal,
  score: submissions.score,
  maxScore: submissions.maxScore,
  groupResults: submissions.groupResults,
};

/**
 * The rules of a view: the public view hides results of submissions made
 * after the freeze until the unfreeze (a rule that holds at any time: such
 * submissions exist only once the freeze has begun).
 */
export function rulesOf(c: ContestRow, view: BoardView): BoardRules {
  const t = timesOf(c);
  const hide = view === "public" && c.unfrozenAt === null;
  return { scoring: c.scoring, penaltyMinutes: c.penaltyMinutes, freezeAtMs: hide ? freezeContestMs(t) : null, untilMs: t.durationMinutes * 60_000 };
}

export class Boards {
  private readonly cache = new Map<string, Cached>();
  /** The last version of each dropped board: a rebuild continues after it, so a version never names two boards (a viewer's delta base stays unambiguous). */
  private readonly dropped = new Map<string, number>();
  constructor(private readonly db: Database) {}

  /** Drops a contest's boards (its settings, problems or teams changed, or it was unfrozen). */
  invalidate(contestId: string): void {
    for (const [key, c] of [...this.cache]) {
      if (!key.startsWith(`${contestId}:`)) continue;
      this.dropped.set(key, c.version);
      this.cache.delete(key);
    }
  }

  /** The real contest's board for a view, built on first use. */
  async board(contest: ContestRow, view: BoardView, nowMs: number): Promise<Scoreboard> {
    const cached = await this.cached(contest, view, nowMs);
    return this.shape(cached, null);
  }

  /** The board as one JSON text, encoded once per version. */
  async boardJson(contest: ContestRow, view: BoardView, nowMs: number): Promise<{ json: string; version: number }> {
    const cached = await this.cached(contest, view, nowMs);
    cached.json ??= JSON.stringify(this.shape(cached, null));
    return { json: cached.json, version: cached.version };
  }

  /**
   * The real contest's board for a view as a viewer holding `sinceVersion`
   * needs it: a delta when the changes since are rows only and still kept
   * (./board-delta.ts), else the whole board; null when it holds the current version.
   */
  async boardSince(contest: ContestRow, view: BoardView, nowMs: number, sinceVersion: number): Promise<Scoreboard | ScoreboardDelta | null> {
    const cached = await this.cached(contest, view, nowMs);
    if (sinceVersion === cached.version) return null;
    return deltaOf(cached, sinceVersion) ?? this.shape(cached, null);
  }

  /**
   * A judged (or newly made) contest submission: its team's row is recomputed
   * in every cached view of the contest.
   * @returns whether any board changed.
   */
  async teamChanged(contestId: string, teamId: string): Promise<boolean> {
    const views = [...this.cache].filter(([key]) => key.startsWith(`${contestId}:`));
    if (views.length === 0) return false;
    if (!views.every(([, c]) => c.teams.has(teamId))) {
      // Not on the boards: a virtual team (never on them), or a team made since they were built
      // (a course student's, made on first use), which they must show: rebuild.
      const [team] = await this.db.select({ virtualStartsAt: contestTeams.virtualStartsAt }).from(contestTeams).where(eq(contestTeams.id, teamId));
      if (!team || team.virtualStartsAt !== null) return false;
      this.invalidate(contestId);
      return true;
    }
    // One read of the team's submissions serves every view.
    const rows = await this.db
      .select(boardColumns)
      .from(submissions)
      .where(and(eq(submissions.contestId, contestId), eq(submissions.teamId, teamId)));
    for (const [, cached] of views) {
      const startMs = cached.contest.startsAt.getTime();
      const marks = firstSolveMarks(cached.ranked);
      cached.rows.set(teamId, rowOf(teamId, cached.problems.map((p) => p.problemId), rows.map((r) => toBoard(r, startMs)), cached.rules));
      cached.ranked = rankRows(cached.contest.scoring, [...cached.rows.values()], (id) => cached.teams.get(id)?.name ?? id);
      cached.version++;
      cached.json = null;
      noteChange(cached, [teamId, ...marksMoved(marks, firstSolveMarks(cached.ranked)).filter((id) => id !== teamId)]);
    }
    return true;
  }

  /**
   * A virtual participant's board: every real team as at `elapsedMs` of
   * contest time, and the virtual team's own row; frozen as the real contest
   * was at that time.
   */
  async virtualBoard(contest: ContestRow, team: TeamRow, elapsedMs: number): Promise<Scoreboard> {
    const problems = await problemsOf(this.db, contest.id);
    const teams = (await teamsOf(this.db, contest.id)).filter((t) => t.virtualStartsAt === null || t.id === team.id);
    const freeze = freezeContestMs(timesOf(contest));
    const rules: BoardRules = {
      scoring: contest.scoring,
      penaltyMinutes: contest.penaltyMinutes,
      freezeAtMs: freeze !== null && elapsedMs >= freeze ? freeze : null,
      untilMs: Math.min(elapsedMs, contest.durationMinutes * 60_000),
    };
    const cached = await this.build(contest, problems, teams, rules, team);
    cached.frozenNow = rules.freezeAtMs !== null;
    return this.shape(cached, elapsedMs);
  }

  /** The board as the public saw it frozen, even after the unfreeze (the reveal starts there); built on demand. */
  async frozenBoard(contest: ContestRow): Promise<Scoreboard> {
    const problems = await problemsOf(this.db, contest.id);
    const teams = (await teamsOf(this.db, contest.id)).filter((t) => t.virtualStartsAt === null);
    const built = await this.build(contest, problems, teams, { ...rulesOf(contest, "jury"), freezeAtMs: freezeContestMs(timesOf(contest)) }, null);
    return this.shape(built, null);
  }

  private async cached(contest: ContestRow, view: BoardView, nowMs: number): Promise<Cached> {
    const key = `${contest.id}:${view}`;
    const hit = this.cache.get(key);
    // A caller holding an older row than the board's (a request that read it before a change) is served the
    // newer board, by the newer row's rules: rebuilding from the old row would put the old rules back for every viewer.
    const fresh = hit && hit.contest.updatedAt.getTime() >= contest.updatedAt.getTime() ? hit : null;
    const rulesRow = fresh?.contest ?? contest;
    const frozenNow = view === "public" && isFrozenAt(timesOf(rulesRow), nowMs);
    // Titles are for those who may read the problems: before the start, the jury only (the contest page and
    // the Contest API hold them back alike; participants get them at the start, in the real window).
    const problemsHidden = view === "public" && nowMs < rulesRow.startsAt.getTime();
    if (fresh) {
      if (fresh.frozenNow !== frozenNow || fresh.problemsHidden !== problemsHidden) {
        fresh.frozenNow = frozenNow;
        fresh.problemsHidden = problemsHidden;
        fresh.version++;
        fresh.json = null;
        noteChange(fresh, null);
      }
      return fresh;
    }
    const problems = await problemsOf(this.db, contest.id);
    const teams = (await teamsOf(this.db, contest.id)).filter((t) => t.virtualStartsAt === null);
    const built = await this.build(contest, problems, teams, rulesOf(contest, view), null);
    built.version = (hit?.version ?? this.dropped.get(key) ?? 0) + 1;
    built.frozenNow = frozenNow;
    built.problemsHidden = problemsHidden;
    this.cache.set(key, built);
    return built;
  }

  private async build(contest: ContestRow, problems: ContestProblemInfo[], teams: TeamRow[], rules: BoardRules, virtual: TeamRow | null): Promise<Cached> {
    const rows = await this.db
      .select(boardColumns)
      .from(submissions)
      .where(and(eq(submissions.contestId, contest.id), isNotNull(submissions.teamId)));
    const byTeam = new Map<string, BoardSubmission[]>(teams.map((t) => [t.id, []]));
    const teamMap = new Map(teams.map((t) => [t.id, t]));
    for (const r of rows) {
      const team = teamMap.get(r.teamId!);
      if (!team) continue;
      const startMs = team.virtualStartsAt?.getTime() ?? contest.startsAt.getTime();
      const s = toBoard(r, startMs);
      byTeam.get(team.id)!.push(s);
    }
    const ids = problems.map((p) => p.problemId);
    const rowMap = new Map<string, BoardRow>();
    // A virtual participant sees their own results as they arrive: no freeze on their own row.
    for (const t of teams) rowMap.set(t.id, rowOf(t.id, ids, byTeam.get(t.id) ?? [], virtual && t.id === virtual.id ? { ...rules, freezeAtMs: null } : rules));
    const ranked = rankRows(contest.scoring, [...rowMap.values()], (id) => teamMap.get(id)?.name ?? id);
    return { contest, problems, teams: teamMap, rules, rows: rowMap, ranked, version: 1, json: null, frozenNow: rules.freezeAtMs !== null, problemsHidden: false, changes: [] };
  }

  private shape(c: Cached, virtualElapsedMs: number | null): Scoreboard {
    return {
      contestId: c.contest.id,
      scoring: c.contest.scoring,
      frozen: c.frozenNow,
      virtualElapsedMs,
      version: c.version,
      problems: c.problemsHidden ? [] : c.problems.map((p) => ({ problemId: p.problemId, label: p.label, color: p.color, title: p.title })),
      teams: Object.fromEntries([...c.teams.values()].map((t) => [t.id, { name: t.name, organization: t.organization }])),
      rows: c.problemsHidden ? c.ranked.map((r) => shown(c, r)) : c.ranked,
    };
  }
}
