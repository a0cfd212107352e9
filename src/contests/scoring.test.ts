/** The scoreboard's rules as pure functions: ICPC penalty and ties, IOI best scores, the freeze, virtual windows, the clock. */
import { describe, expect, test } from "bun:test";
import { freezeContestMs, isFrozenAt, phaseAt, windowOf } from "./clock.ts";
import { cellOf, rankRows, rowOf, submissionScore, type BoardRules, type BoardSubmission } from "./scoring.ts";
import type { VerdictCode } from "../verdicts.ts";

const MIN = 60_000;
const icpc: BoardRules = { scoring: "icpc", penaltyMinutes: 20, freezeAtMs: null, untilMs: null };
const ioi: BoardRules = { scoring: "ioi", penaltyMinutes: 20, freezeAtMs: null, untilMs: null };

function sub(teamId: string, problemId: string, minute: number, verdict: VerdictCode | null, hiddenPassed = 0, hiddenTotal = 4): BoardSubmission {
  return { teamId, problemId, contestTimeMs: minute * MIN + 30_000, verdict, hiddenPassed, hiddenTotal };
}

describe("ICPC cells", () => {
  test("penalty = minutes to the first AC (rounded down) + 20 per rejection before it; CE and IE do not count", () => {
    const cell = cellOf("A", [sub("t", "A", 10, "WA"), sub("t", "A", 12, "CE"), sub("t", "A", 15, "IE"), sub("t", "A", 20, "TLE"), sub("t", "A", 33, "AC")], icpc);
    expect(cell).toMatchObject({ solved: true, numJudged: 3, numPending: 0, penaltyMinutes: 33 + 2 * 20, solvedAtMs: 33 * MIN + 30_000 });
  });

  test("submissions after the first AC are ignored, whatever their verdict", () => {
    const cell = cellOf("A", [sub("t", "A", 5, "AC"), sub("t", "A", 6, "WA"), sub("t", "A", 7, "AC")], icpc);
    expect(cell).toMatchObject({ solved: true, numJudged: 1, penaltyMinutes: 5 });
  });

  test("the order is by time, not by the order given", () => {
    const cell = cellOf("A", [sub("t", "A", 50, "AC"), sub("t", "A", 40, "WA")], icpc);
    expect(cell.penaltyMinutes).toBe(50 + 20);
  });

  test("an unsolved problem adds no penalty, however many rejections", () => {
    const cell = cellOf("A", [sub("t", "A", 1, "WA"), sub("t", "A", 2, "RE")], icpc);
    expect(cell).toMatchObject({ solved: false, numJudged: 2, penaltyMinutes: 0 });
  });

  test("a submission being judged is pending", () => {
    expect(cellOf("A", [sub("t", "A", 1, "WA"), sub("t", "A", 2, null)], icpc)).toMatchObject({ numJudged: 1, numPending: 1, solved: false });
  });

  test("the configured penalty is used", () => {
    expect(cellOf("A", [sub("t", "A", 1, "WA"), sub("t", "A", 2, "AC")], { ...icpc, penaltyMinutes: 5 }).penaltyMinutes).toBe(2 + 5);
  });
});

describe("the freeze", () => {
  const frozen: BoardRules = { ...icpc, freezeAtMs: 60 * MIN };

  test("a submission at or after the freeze is pending, its verdict unseen; before it, counted", () => {
    const atFreeze: BoardSubmission = { teamId: "t", problemId: "A", contestTimeMs: 60 * MIN, verdict: "AC", hiddenPassed: 4, hiddenTotal: 4 };
    const justBefore: BoardSubmission = { ...atFreeze, contestTimeMs: 60 * MIN - 1, verdict: "WA" };
    expect(cellOf("A", [justBefore, atFreeze], frozen)).toMatchObject({ numJudged: 1, numPending: 1, solved: false, penaltyMinutes: 0 });
    expect(cellOf("A", [justBefore, atFreeze], icpc)).toMatchObject({ numJudged: 2, solved: true, penaltyMinutes: 60 + 20 });
  });

  test("the clock: the freeze starts freezeMinutes before the end and lasts until the unfreeze, also after the end", () => {
    const t = { startsAtMs: 0, durationMinutes: 300, freezeMinutes: 60, unfrozenAtMs: null };
    expect(freezeContestMs(t)).toBe(240 * MIN);
    expect(isFrozenAt(t, 240 * MIN - 1)).toBe(false);
    expect(isFrozenAt(t, 240 * MIN)).toBe(true);
    expect(isFrozenAt(t, 400 * MIN)).toBe(true);
    expect(isFrozenAt({ ...t, unfrozenAtMs: 310 * MIN }, 400 * MIN)).toBe(false);
    expect(isFrozenAt({ ...t, freezeMinutes: null }, 260 * MIN)).toBe(false);
    expect([phaseAt(t, -1), phaseAt(t, 0), phaseAt(t, 300 * MIN - 1), phaseAt(t, 300 * MIN)]).toEqual(["upcoming", "running", "running", "over"]);
  });
});

describe("ranking", () => {
  test("more solved first, then less penalty; equal rows share a rank and the next rank skips", () => {
    const subs = [
      sub("a", "A", 10, "AC"),
      sub("b", "A", 5, "AC"),
      sub("b", "B", 5, "AC"), // b: 2 solved, 10
      sub("c", "A", 9, "WA"),
      sub("c", "A", 9, "AC"), // c: 1 solved, 9 + 20 = 29
      sub("d", "A", 29, "AC"), // d: 1 solved, 29: ties with c
    ];
    const rows = ["a", "b", "c", "d", "e"].map((t) => rowOf(t, ["A", "B"], subs.filter((s) => s.teamId === t), icpc));
    const ranked = rankRows("icpc", rows, (id) => id);
    expect(ranked.map((r) => [r.teamId, r.rank, r.numSolved, r.penaltyMinutes])).toEqual([
      ["b", 1, 2, 10],
      ["a", 2, 1, 10],
      ["c", 3, 1, 29],
      ["d", 3, 1, 29],
      ["e", 5, 0, 0],
    ]);
  });

  test("first to solve: the earliest solve of each problem, shared when equal", () => {
    const subs = [sub("a", "A", 10, "AC"), sub("b", "A", 10, "AC"), sub("c", "A", 3, "WA"), sub("c", "B", 12, "AC")];
    const rows = rankRows("icpc", ["a", "b", "c"].map((t) => rowOf(t, ["A", "B"], subs.filter((s) => s.teamId === t), icpc)), (id) => id);
    const first = rows.flatMap((r) => r.cells.filter((c) => c.firstToSolve).map((c) => `${r.teamId}:${c.problemId}`)).sort();
    expect(first).toEqual(["a:A", "b:A", "c:B"]);
  });
});

describe("IOI", () => {
  test("per problem the best score of any submission (AC 100, else the share of hidden tests); rows rank by total", () => {
    expect(submissionScore({ verdict: "WA", hiddenPassed: 1, hiddenTotal: 3 })).toBe(33.33);
    expect(submissionScore({ verdict: "CE", hiddenPassed: 0, hiddenTotal: 3 })).toBe(0);
    // A scoring problem (test groups with points): its score's share of the maximum, not the tests' share.
    expect(submissionScore({ verdict: "WA", hiddenPassed: 1, hiddenTotal: 3, score: 45, maxScore: 100 })).toBe(45);
    expect(submissionScore({ verdict: "WA", hiddenPassed: 3, hiddenTotal: 3, score: 7, maxScore: 20 })).toBe(35);
    const subs = [sub("a", "A", 1, "WA", 2, 4), sub("a", "A", 2, "WA", 1, 4), sub("a", "B", 3, "AC", 4, 4), sub("b", "A", 1, "TLE", 3, 4), sub("b", "B", 2, "WA", 3, 4)];
    const rows = rankRows("ioi", ["a", "b"].map((t) => rowOf(t, ["A", "B"], subs.filter((s) => s.teamId === t), ioi)), (id) => id);
    expect(rows.map((r) => [r.teamId, r.rank, r.score])).toEqual([
      ["a", 1, 150],
      ["b", 1, 150],
    ]);
    expect(rows[0]!.cells.map((c) => c.score)).toEqual([50, 100]);
  });

  test("a scoring problem sums each group's best score over all submissions (IOI since 2017); the freeze hides what came after", () => {
    const scored = (minute: number, groupScores: number[], verdict: VerdictCode = "WA"): BoardSubmission => ({
      ...sub("t", "S", minute, verdict, 0, 6),
      score: groupScores.reduce((a, b) => a + b, 0),
      maxScore: 100,
      groupScores,
    });
    // Groups worth 20, 30, 50: one submission solves the first and third, a later one the second only.
    const first = scored(10, [20, 0, 50]);
    const second = scored(20, [0, 30, 0]);
    expect(cellOf("S", [first], ioi)).toMatchObject({ score: 70, scoreAtMs: 10 * MIN + 30_000 });
    expect(cellOf("S", [second, first], ioi)).toMatchObject({ score: 100, scoreAtMs: 20 * MIN + 30_000, solved: false });
    // A partial group score counts by its best too (sum groups).
    expect(cellOf("S", [scored(1, [20, 12.5, 0]), scored(2, [0, 7.5, 10])], ioi).score).toBe(42.5);
    // Submissions made during the freeze stay hidden on the public board: the group's best is the one before.
    expect(cellOf("S", [first, second], { ...ioi, freezeAtMs: 15 * MIN })).toMatchObject({ score: 70, numPending: 1 });
    // A problem whose groups changed shape (the author edited them) starts over with the new shape's submission.
    expect(cellOf("S", [first, { ...scored(30, [10, 10]), maxScore: 20 }], ioi).score).toBe(100);
    // A compile error scores nothing and changes nothing.
    expect(cellOf("S", [first, scored(40, [0, 0, 0], "CE")], ioi).score).toBe(70);
  });
});

describe("virtual participation", () => {
  test("a virtual window starts at the participant's start; submissions at or after the elapsed time are left off", () => {
    const t = { startsAtMs: 1_000, durationMinutes: 120, freezeMinutes: null, unfrozenAtMs: null };
    expect(windowOf(t, 50_000 * MIN)).toEqual({ startMs: 50_000 * MIN, endMs: 50_000 * MIN + 120 * MIN });
    const subs = [sub("a", "A", 10, "AC"), sub("b", "A", 30, "AC")];
    const asAt20 = { ...icpc, untilMs: 20 * MIN };
    expect(cellOf("A", subs.filter((s) => s.teamId === "a"), asAt20).solved).toBe(true);
    expect(cellOf("A", subs.filter((s) => s.teamId === "b"), asAt20)).toMatchObject({ solved: false, numJudged: 0, numPending: 0 });
  });
});
