/** The resolver's order: bottom team first, one hidden cell at a time, ranks recomputed after each. */
import { describe, expect, test } from "bun:test";
import { revealAt } from "./reveal.ts";
import { rankRows, rowOf, type BoardRules, type BoardSubmission } from "./scoring.ts";

const P = ["A", "B"];
const rules = (freezeAtMs: number | null): BoardRules => ({ scoring: "icpc", penaltyMinutes: 20, freezeAtMs, untilMs: null });
const min = (m: number) => m * 60_000;
const subs: BoardSubmission[] = [
  { teamId: "t1", problemId: "A", contestTimeMs: min(10), verdict: "AC", hiddenPassed: 3, hiddenTotal: 3 },
  { teamId: "t2", problemId: "A", contestTimeMs: min(20), verdict: "AC", hiddenPassed: 3, hiddenTotal: 3 },
  // After the freeze (at 100): t2 solves B, t3 solves A and fails B.
  { teamId: "t2", problemId: "B", contestTimeMs: min(105), verdict: "AC", hiddenPassed: 3, hiddenTotal: 3 },
  { teamId: "t3", problemId: "A", contestTimeMs: min(101), verdict: "AC", hiddenPassed: 3, hiddenTotal: 3 },
  { teamId: "t3", problemId: "B", contestTimeMs: min(110), verdict: "WA", hiddenPassed: 0, hiddenTotal: 3 },
];
const board = (freeze: number | null) =>
  rankRows(
    "icpc",
    ["t1", "t2", "t3"].map((t) => rowOf(t, P, subs.filter((s) => s.teamId === t), rules(freeze))),
    (id) => id,
  );
const name = (id: string) => id;

describe("revealAt", () => {
  test("step 0 is the frozen board; the total is its hidden cells", () => {
    const r = revealAt("icpc", board(min(100)), board(null), name, 0);
    expect([r.step, r.total, r.revealed]).toEqual([0, 3, null]);
    expect(r.rows.map((x) => x.teamId)).toEqual(["t1", "t2", "t3"]);
  });

  test("the lowest team's first hidden problem goes first; ranks follow each step; the end is the final board", () => {
    const order = [1, 2, 3].map((k) => revealAt("icpc", board(min(100)), board(null), name, k));
    expect(order.map((r) => r.revealed)).toEqual([
      { teamId: "t3", problemId: "A" },
      { teamId: "t3", problemId: "B" },
      { teamId: "t2", problemId: "B" },
    ]);
    // After t3's A (101 minutes) it passes nobody: t1 and t2 solved A earlier with fewer minutes.
    expect(order[0]!.rows.map((x) => [x.teamId, x.rank])).toEqual([
      ["t1", 1],
      ["t2", 2],
      ["t3", 3],
    ]);
    // t2's B makes it first.
    expect(order[2]!.rows.map((x) => x.teamId)).toEqual(["t2", "t1", "t3"]);
    const end = revealAt("icpc", board(min(100)), board(null), name, 99);
    expect(end.step).toBe(3);
    expect(end.rows.map((x) => [x.teamId, x.numSolved, x.penaltyMinutes])).toEqual(board(null).map((x) => [x.teamId, x.numSolved, x.penaltyMinutes]));
  });
});
