/**
 * Scoreboards as pure functions: a team's row from its submissions, and the
 * ranking of rows. Two rules:
 *
 * - `icpc` (ICPC World Finals rules, as DOMjudge and the Contest API's
 *   `pass-fail` scoreboard apply them): a problem is solved at its first
 *   accepted submission; its penalty is the minutes (rounded down) from the
 *   start to that submission plus `penaltyMinutes` for every rejected
 *   submission before it; compile errors (and internal errors, the system's
 *   fault) do not count; submissions after the first accepted one are
 *   ignored. Rows rank by solved count (more first), then total penalty
 *   (less first); equal rows share a rank.
 * - `ioi` (IOI/CMS rules, the Contest API's `score` scoreboard): per problem
 *   0–100. A scoring problem (test groups with points) takes, for every
 *   group, the best score any submission reached in it, summed and taken as
 *   a share of the maximum (IOI's rule since 2017, CMS's "sum of the best
 *   subtask scores": two submissions that each solve half the subtasks
 *   make the whole). Any other problem takes the best submission's score:
 *   100 when accepted, else the share of hidden tests passed. Rows rank by
 *   total score, equal totals share a rank. No penalty.
 *
 * Freeze: a submission made at or after `freezeAtMs` (contest time) shows as
 * pending, its result hidden. Submissions at or after `untilMs` are not on
 * the board (a virtual participant sees everyone as at their elapsed time).
 */
import type { VerdictCode } from "../verdicts.ts";

export type ContestScoring = "icpc" | "ioi";

/** One submission as the scoreboard sees it. */
export interface BoardSubmission {
  teamId: string;
  problemId: string;
  /** Ms since the team's window started. */
  contestTimeMs: number;
  /** Null while queued or being judged. */
  verdict: VerdictCode | null;
  /** Hidden tests passed and their count (IOI's partial score). */
  hiddenPassed: number;
  hiddenTotal: number;
  /** A scoring problem's score and maximum (test groups with points): IOI's partial score instead of the tests' share. */
  score?: number;
  maxScore?: number;
  /** A scoring problem's points per group, in the problem's group order (IOI's best-per-group rule). */
  groupScores?: readonly number[];
}

export interface BoardRules {
  scoring: ContestScoring;
  penaltyMinutes: number;
  /** Contest time from which results are hidden (the freeze), or null. */
  freezeAtMs: number | null;
  /** Contest time from which submissions are left off, or null. */
  untilMs: number | null;
}

/** A cell: one team on one problem. */
export interface BoardCell {
  problemId: string;
  /** Judged submissions that count (up to and including the first accepted one). */
  numJudged: number;
  /** Submissions whose result is not shown (being judged, or made during the freeze). */
  numPending: number;
  solved: boolean;
  /** Contest time of the first accepted submission (ICPC), ms; null when unsolved. */
  solvedAtMs: number | null;
  /** ICPC: minutes this problem adds to the penalty (0 unless solved). */
  penaltyMinutes: number;
  /** IOI: the best score, 0–100 (two decimals). ICPC: 100 when solved, else 0. */
  score: number;
  /** Contest time of the submission that first reached `score`, ms; null while the score is 0. */
  scoreAtMs: number | null;
  /** Whether this was the problem's first solve on the board (set by `rankRows`). */
  firstToSolve: boolean;
}

export interface BoardRow {
  teamId: string;
  /** 1 for the best; equal rows share a rank. Set by `rankRows`. */
  rank: number;
  numSolved: number;
  /** ICPC: total penalty, minutes. */
  penaltyMinutes: number;
  /** IOI: total score. */
  score: number;
  /** Contest time of the team's last accepted submission that counted, ms (a display tiebreak only). */
  lastSolvedAtMs: number | null;
  cells: BoardCell[];
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * A submission's IOI score, 0–100: AC is 100; on a scoring problem its score's
 * share of the maximum (points per test group); otherwise the share of hidden
 * tests passed.
 */
export function submissionScore(s: Pick<BoardSubmission, "verdict" | "hiddenPassed" | "hiddenTotal" | "score" | "maxScore">): number {
  if (s.verdict === "AC") return 100;
  if (s.verdict === null) return 0;
  if (s.score !== undefined && s.maxScore) return round2((100 * Math.min(s.score, s.maxScore)) / s.maxScore);
  if (s.hiddenTotal <= 0) return 0;
  return round2((100 * Math.min(s.hiddenPassed, s.hiddenTotal)) / s.hiddenTotal);
}

/**
 * A problem's IOI score over a team's submissions so far, 0–100: the best
 * submission's score, or on a scoring problem the sum of each group's best
 * score (points) over the maximum. Submissions are added in time order.
 */
export class BestScore {
  private bestWhole = 0;
  private groups: number[] | null = null;
  private maxScore = 0;

  /** Adds a judged submission. @returns the problem's score with it, 0–100 (two decimals). */
  add(s: Pick<BoardSubmission, "verdict" | "hiddenPassed" | "hiddenTotal" | "score" | "maxScore" | "groupScores">): number {
    this.bestWhole = Math.max(this.bestWhole, submissionScore(s));
    if (s.groupScores && s.maxScore) {
      // A problem's groups are fixed while its submissions count; a changed shape (the author edited the groups) starts over at that submission's.
      if (!this.groups || this.groups.length !== s.groupScores.length || this.maxScore !== s.maxScore) {
        this.groups = s.groupScores.map(() => 0);
        this.maxScore = s.maxScore;
      }
      s.groupScores.forEach((g, i) => (this.groups![i] = Math.max(this.groups![i]!, g)));
    }
    return this.score();
  }

  score(): number {
    if (!this.groups || !this.maxScore) return this.bestWhole;
    const sum = this.groups.reduce((a, b) => a + b, 0);
    return Math.max(this.bestWhole, round2((100 * Math.min(sum, this.maxScore)) / this.maxScore));
  }
}

/** Whether a judged verdict counts as an attempt (compile and internal errors do not). */
export function countsAsAttempt(verdict: VerdictCode): boolean {
  return verdict !== "CE" && verdict !== "IE";
}

/**
 * One team's cell on one problem.
 * @param subs that team's submissions to that problem, any order.
 */
export function cellOf(problemId: string, subs: readonly BoardSubmission[], rules: BoardRules): BoardCell {
  const cell: BoardCell = { problemId, numJudged: 0, numPending: 0, solved: false, solvedAtMs: null, penaltyMinutes: 0, score: 0, scoreAtMs: null, firstToSolve: false };
  const ordered = [...subs].filter((s) => rules.untilMs === null || s.contestTimeMs < rules.untilMs).sort((a, b) => a.contestTimeMs - b.contestTimeMs);
  let rejected = 0;
  const best = new BestScore();
  for (const s of ordered) {
    const hidden = s.verdict === null || (rules.freezeAtMs !== null && s.contestTimeMs >= rules.freezeAtMs);
    if (hidden) {
      cell.numPending++;
      continue;
    }
    const verdict = s.verdict!;
    if (!countsAsAttempt(verdict)) continue;
    cell.numJudged++;
    if (rules.scoring === "ioi") {
      const score = best.add(s);
      if (score > cell.score) {
        cell.score = score;
        cell.scoreAtMs = s.contestTimeMs;
      }
      if (verdict === "AC" && !cell.solved) {
        cell.solved = true;
        cell.solvedAtMs = s.contestTimeMs;
      }
      continue;
    }
    if (verdict === "AC") {
      cell.solved = true;
      cell.solvedAtMs = s.contestTimeMs;
      cell.penaltyMinutes = Math.floor(s.contestTimeMs / 60_000) + rules.penaltyMinutes * rejected;
      cell.score = 100;
      cell.scoreAtMs = s.contestTimeMs;
      break;
    }
    rejected++;
  }
  return cell;
}

/**
 * A team's row (unranked: `rank` is 0 until `rankRows`).
 * @param problemIds the contest's problems in label order.
 * @param subs that team's submissions, any order.
 */
export function rowOf(teamId: string, problemIds: readonly string[], subs: readonly BoardSubmission[], rules: BoardRules): BoardRow {
  const byProblem = new Map<string, BoardSubmission[]>();
  for (const s of subs) {
    const list = byProblem.get(s.problemId);
    if (list) list.push(s);
    else byProblem.set(s.problemId, [s]);
  }
  return rowFromCells(teamId, problemIds.map((p) => cellOf(p, byProblem.get(p) ?? [], rules)), rules.scoring);
}

/** A row's totals from its cells (unranked: `rank` 0 until `rankRows`). */
export function rowFromCells(teamId: string, cells: BoardCell[], scoring: ContestScoring): BoardRow {
  const solved = cells.filter((c) => c.solved);
  return {
    teamId,
    rank: 0,
    numSolved: solved.length,
    penaltyMinutes: scoring === "icpc" ? solved.reduce((t, c) => t + c.penaltyMinutes, 0) : 0,
    score: round2(cells.reduce((t, c) => t + c.score, 0)),
    lastSolvedAtMs: solved.length ? Math.max(...solved.map((c) => c.solvedAtMs!)) : null,
    cells,
  };
}

/** Negative when `a` ranks above `b`, 0 when they share a rank. */
export function compareRows(scoring: ContestScoring, a: BoardRow, b: BoardRow): number {
  if (scoring === "ioi") return b.score - a.score;
  return b.numSolved - a.numSolved || a.penaltyMinutes - b.penaltyMinutes;
}

/**
 * Sorts rows best first, sets shared ranks (1 + the number of rows strictly
 * better) and marks each problem's first solve (earliest solve time; equal
 * times are all first).
 * @param nameOf the display tiebreak inside a shared rank.
 */
export function rankRows(scoring: ContestScoring, rows: BoardRow[], nameOf: (teamId: string) => string): BoardRow[] {
  rows.sort((a, b) => compareRows(scoring, a, b) || nameOf(a.teamId).localeCompare(nameOf(b.teamId)) || a.teamId.localeCompare(b.teamId));
  for (let i = 0; i < rows.length; i++) {
    rows[i]!.rank = i > 0 && compareRows(scoring, rows[i - 1]!, rows[i]!) === 0 ? rows[i - 1]!.rank : i + 1;
  }
  const firstAt = new Map<string, number>();
  for (const row of rows) {
    for (const cell of row.cells) {
      cell.firstToSolve = false;
      if (cell.solvedAtMs === null) continue;
      const best = firstAt.get(cell.problemId);
      if (best === undefined || cell.solvedAtMs < best) firstAt.set(cell.problemId, cell.solvedAtMs);
    }
  }
  for (const row of rows) for (const cell of row.cells) cell.firstToSolve = cell.solvedAtMs !== null && cell.solvedAtMs === firstAt.get(cell.problemId);
  return rows;
}
