/**
 * The reveal at the award ceremony, as the ICPC resolver runs it: start from
 * the frozen scoreboard; at each step take the lowest-ranked team that still
 * has a hidden (pending) result, reveal its first such problem (in label
 * order) as the final board has it, and rank again. Pure: the same boards and
 * step always give the same board.
 */
import { rankRows, rowFromCells, type BoardRow, type ContestScoring } from "./scoring.ts";

export interface RevealStep {
  /** Steps taken (0: the frozen board). */
  step: number;
  /** Steps in all: the hidden cells of the frozen board. */
  total: number;
  /** The cell the last step revealed, null at step 0. */
  revealed: { teamId: string; problemId: string } | null;
  /** The board after `step` steps, ranked. */
  rows: BoardRow[];
}

const copy = (r: BoardRow): BoardRow => ({ ...r, cells: r.cells.map((c) => ({ ...c })) });

/**
 * The board after `step` reveal steps (clamped to the total).
 * @param frozen the frozen board's rows (results after the freeze pending).
 * @param final the live board's rows (every result known).
 * @param nameOf the display tiebreak inside a shared rank.
 */
export function revealAt(scoring: ContestScoring, frozen: readonly BoardRow[], final: readonly BoardRow[], nameOf: (teamId: string) => string, step: number): RevealStep {
  const finalOf = new Map(final.map((r) => [r.teamId, r]));
  let rows = rankRows(scoring, frozen.map(copy), nameOf);
  const total = rows.reduce((n, r) => n + r.cells.filter((c) => c.numPending > 0).length, 0);
  let revealed: RevealStep["revealed"] = null;
  let taken = 0;
  while (taken < Math.min(step, total)) {
    const row = [...rows].reverse().find((r) => r.cells.some((c) => c.numPending > 0));
    if (!row) break;
    const at = row.cells.findIndex((c) => c.numPending > 0);
    const cell = row.cells[at]!;
    const known = finalOf.get(row.teamId)?.cells.find((c) => c.problemId === cell.problemId);
    // A result still being judged at the reveal stays pending in `final`; it is shown as judged so far.
    const shown = known ? { ...known, numPending: 0 } : { ...cell, numPending: 0 };
    const cells = row.cells.map((c, i) => (i === at ? shown : c));
    rows = rankRows(scoring, rows.map((r) => (r.teamId === row.teamId ? rowFromCells(r.teamId, cells, scoring) : r)), nameOf);
    revealed = { teamId: row.teamId, problemId: cell.problemId };
    taken++;
  }
  return { step: taken, total, revealed, rows };
}
