/** Applying a live scoreboard delta (pure): rows replaced, order and ranks taken, a mismatched base refused. */
import { describe, expect, test } from "bun:test";
import { applyDelta, firstSolveMarks, isDelta, marksMoved, type ScoreboardDelta } from "./board-delta.ts";
import type { BoardRow } from "./scoring.ts";

const row = (teamId: string, rank: number, numSolved: number, first = false): BoardRow => ({
  teamId,
  rank,
  numSolved,
  penaltyMinutes: numSolved * 20,
  score: numSolved * 100,
  lastSolvedAtMs: null,
  cells: [{ problemId: "p1", numJudged: numSolved, numPending: 0, solved: numSolved > 0, solvedAtMs: numSolved ? 60_000 : null, penaltyMinutes: 0, score: 0, scoreAtMs: null, firstToSolve: first }],
});
const board = { contestId: "c", version: 4, frozen: false, rows: [row("a", 1, 2), row("b", 2, 1), row("c", 3, 0)], teams: { a: {}, b: {}, c: {} } };

describe("scoreboard deltas", () => {
  test("the changed row replaces its old one; the order and everyone's ranks come from the delta", () => {
    const delta: ScoreboardDelta = { kind: "delta", contestId: "c", baseVersion: 4, version: 5, frozen: false, rows: [row("c", 1, 3)], order: [["c", 1], ["a", 2], ["b", 3]] };
    expect(isDelta(delta)).toBe(true);
    expect(isDelta(board)).toBe(false);
    const next = applyDelta(board, delta)!;
    expect(next.version).toBe(5);
    expect(next.rows.map((r) => [r.teamId, r.rank, r.numSolved])).toEqual([["c", 1, 3], ["a", 2, 2], ["b", 3, 1]]);
    // What the delta does not carry stays (team names, problems).
    expect(next.teams).toBe(board.teams);
    // The held board is not changed in place.
    expect(board.rows.map((r) => r.rank)).toEqual([1, 2, 3]);
  });

  test("a delta from another version or contest, or naming an unknown team, is refused (null: fetch the board)", () => {
    const base = { kind: "delta" as const, contestId: "c", baseVersion: 4, version: 5, frozen: true, rows: [], order: [["a", 1], ["b", 2], ["c", 3]] as [string, number][] };
    expect(applyDelta(board, { ...base, baseVersion: 3 })).toBeNull();
    expect(applyDelta(board, { ...base, contestId: "d" })).toBeNull();
    expect(applyDelta(board, { ...base, order: [["z", 1]] })).toBeNull();
    expect(applyDelta(board, base)!.frozen).toBe(true);
  });

  test("first-to-solve marks that moved name both teams", () => {
    const before = firstSolveMarks([row("a", 1, 1, true), row("b", 2, 1, false)]);
    const after = firstSolveMarks([row("a", 1, 1, false), row("b", 2, 1, true)]);
    expect(marksMoved(before, after).sort()).toEqual(["a", "b"]);
    expect(marksMoved(before, before)).toEqual([]);
  });
});
