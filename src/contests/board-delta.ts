/**
 * A scoreboard change as the live page receives it: instead of the whole
 * board (about 1 MiB of JSON for 500 teams × 12 problems, sent to every
 * viewer at every judged submission), the rows that changed and the new
 * order with its ranks (about 20 KiB). The server sends one only to a viewer
 * that holds the version it starts from; anything else (a rebuild, the freeze
 * beginning, a virtual board) goes as a whole board. Pure, shared with the
 * client (client/src/contests/ScoreboardPage.tsx applies it).
 * Measured in scripts/bench-contests.ts (docs/benchmarks.md, "Contests").
 */
import type { BoardRow } from "./scoring.ts";

export interface ScoreboardDelta {
  kind: "delta";
  contestId: string;
  /** The version the receiver must hold. */
  baseVersion: number;
  version: number;
  frozen: boolean;
  /** The rows that changed (a judged team's; teams whose first-to-solve marks moved). */
  rows: BoardRow[];
  /** Every row's team in board order, with its rank (others' ranks move when one row does). */
  order: [teamId: string, rank: number][];
}

/** What a board must have to take a delta: its version and rows. */
export interface DeltaTarget {
  contestId: string;
  version: number;
  frozen: boolean;
  rows: BoardRow[];
}

/** Whether a live message is a delta (a whole board has no `kind`). */
export function isDelta(message: object): message is ScoreboardDelta {
  return (message as { kind?: unknown }).kind === "delta";
}

/**
 * The board after `delta`.
 * @returns null when the board is not the delta's base (another contest or version): fetch the whole board again.
 */
export function applyDelta<B extends DeltaTarget>(board: B, delta: ScoreboardDelta): B | null {
  if (board.contestId !== delta.contestId || board.version !== delta.baseVersion) return null;
  const byTeam = new Map(board.rows.map((r) => [r.teamId, r]));
  for (const row of delta.rows) byTeam.set(row.teamId, row);
  const rows: BoardRow[] = [];
  for (const [teamId, rank] of delta.order) {
    const row = byTeam.get(teamId);
    if (!row) return null;
    rows.push(row.rank === rank ? row : { ...row, rank });
  }
  return { ...board, version: delta.version, frozen: delta.frozen, rows };
}

/** The (team, problem) first-to-solve marks of a board, to find the rows a re-rank changed. */
export function firstSolveMarks(rows: readonly BoardRow[]): Set<string> {
  const marks = new Set<string>();
  for (const r of rows) for (const c of r.cells) if (c.firstToSolve) marks.add(`${r.teamId}\n${c.problemId}`);
  return marks;
}

/** Teams whose marks differ between two sets from `firstSolveMarks`. */
export function marksMoved(before: Set<string>, after: Set<string>): string[] {
  const teams = new Set<string>();
  for (const m of before) if (!after.has(m)) teams.add(m.split("\n")[0]!);
  for (const m of after) if (!before.has(m)) teams.add(m.split("\n")[0]!);
  return [...teams];
}
