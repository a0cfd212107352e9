/**
 * Scoring by test groups, case by case against the package format's 2025-09
 * text (Result Aggregation): test scores, group aggregation, require_pass,
 * secret's aggregation, the verdict, and every judge error it names.
 */
import { describe, expect, test } from "bun:test";
import { scoringInput, scoringProblem, type ScoringSpec, type TestGroupSpec } from "../problems/scoring-spec.ts";
import { groupContinues, groupOfTests, groupResult, groupRuns, submissionScore, testScore, type GroupResult, type ScoredTest } from "./groups.ts";

const AC: ScoredTest = { verdict: "AC" };
const WA: ScoredTest = { verdict: "WA" };
const TLE: ScoredTest = { verdict: "TLE" };
const group = (over: Partial<TestGroupSpec>): TestGroupSpec => ({ name: "g", maxScore: 30, aggregation: "pass-fail", requirePass: [], testCount: 3, ...over });
const spec = (over: Partial<ScoringSpec> = {}): ScoringSpec => ({
  maxScore: 100,
  aggregation: "sum",
  requirePass: [],
  groups: [group({ name: "small", maxScore: 20, testCount: 2 }), group({ name: "medium", maxScore: 30, testCount: 2, requirePass: ["small"] }), group({ name: "large", maxScore: 50, testCount: 3, aggregation: "sum" })],
  ...over,
});
const ok = (r: GroupResult | { error: string }) => {
  if ("error" in r) throw new Error(r.error);
  return r;
};

describe("test scores", () => {
  test("sum: an equal share; min: the group's maximum; pass-fail: none", () => {
    expect(testScore(group({ aggregation: "sum", maxScore: 30, testCount: 3 }), AC)).toBe(10);
    expect(testScore(group({ aggregation: "min", maxScore: 30 }), AC)).toBe(30);
    expect(testScore(group({ aggregation: "pass-fail" }), AC)).toBe(0);
    expect(testScore(group({ aggregation: "sum" }), WA)).toBe(0);
  });
  test("score_multiplier.txt scales the maximum, score.txt replaces it", () => {
    expect(testScore(group({ aggregation: "sum", maxScore: 30, testCount: 3 }), { verdict: "AC", scoreFile: { kind: "multiplier", text: "0.5\n" } })).toBe(5);
    expect(testScore(group({ aggregation: "min", maxScore: 30 }), { verdict: "AC", scoreFile: { kind: "score", text: "12.5" } })).toBe(12.5);
  });
  test.each([
    ["both files", group({ aggregation: "sum" }), { verdict: "AC", scoreFile: { kind: "both" } }, "both"],
    ["a score file from a rejecting validator", group({ aggregation: "sum" }), { verdict: "WA", scoreFile: { kind: "score", text: "1" } }, "rejected but wrote"],
    ["a score file in a pass-fail group", group({}), { verdict: "AC", scoreFile: { kind: "score", text: "1" } }, "pass-fail group"],
    ["a multiplier over 1", group({ aggregation: "sum" }), { verdict: "AC", scoreFile: { kind: "multiplier", text: "1.5" } }, "outside [0, 1]"],
    ["a score over the test's maximum", group({ aggregation: "sum", maxScore: 30, testCount: 3 }), { verdict: "AC", scoreFile: { kind: "score", text: "11" } }, "outside [0, 10]"],
    ["not a number", group({ aggregation: "min" }), { verdict: "AC", scoreFile: { kind: "score", text: "ten" } }, "not a number"],
  ] as [string, TestGroupSpec, ScoredTest, string][])("judge error: %s", (_, g, t, message) => {
    const r = testScore(g, t);
    expect(typeof r === "number" ? `score ${r}` : r.error).toContain(message);
  });
});

describe("groups", () => {
  test("pass-fail: all or nothing; sum: the sum; min: the minimum", () => {
    expect(ok(groupResult(group({}), [AC, AC, AC]))).toMatchObject({ score: 30, verdict: "AC" });
    expect(ok(groupResult(group({}), [AC, WA]))).toMatchObject({ score: 0, verdict: "WA", testsRun: 2 });
    expect(ok(groupResult(group({ aggregation: "sum" }), [AC, WA, AC]))).toMatchObject({ score: 20, verdict: "WA" });
    expect(ok(groupResult(group({ aggregation: "min" }), [AC, { verdict: "AC", scoreFile: { kind: "multiplier", text: "0.5" } }, AC]))).toMatchObject({ score: 15, verdict: "AC" });
    expect(ok(groupResult(group({ aggregation: "sum", maxScore: 100, testCount: 3 }), [AC, AC, AC])).score).toBe(100);
  });
  test("a group not run scores 0 with no verdict", () => {
    expect(ok(groupResult(group({}), null))).toMatchObject({ score: 0, verdict: null, testsRun: 0 });
  });
  test("early stopping: pass-fail and min stop at the first failure, sum runs on", () => {
    expect(groupContinues({ aggregation: "pass-fail" }, "WA")).toBe(false);
    expect(groupContinues({ aggregation: "min" }, "TLE")).toBe(false);
    expect(groupContinues({ aggregation: "sum" }, "WA")).toBe(true);
    expect(groupContinues({ aggregation: "pass-fail" }, "AC")).toBe(true);
  });
  test("require_pass: runs only when every named group (or sample) was accepted", () => {
    const accepted = new Map([["sample", true], ["small", false]]);
    expect(groupRuns({ requirePass: ["sample"] }, accepted)).toBe(true);
    expect(groupRuns({ requirePass: ["sample", "small"] }, accepted)).toBe(false);
    expect(groupRuns({ requirePass: [] }, accepted)).toBe(true);
  });
});

describe("the submission's score and verdict", () => {
  const s = spec();
  const results = (small: ScoredTest[] | null, medium: ScoredTest[] | null, large: ScoredTest[] | null) => [
    groupResult(s.groups[0]!, small),
    groupResult(s.groups[1]!, medium),
    groupResult(s.groups[2]!, large),
  ];
  test("full marks is AC", () => {
    expect(submissionScore(s, results([AC, AC], [AC, AC], [AC, AC, AC]), "AC")).toMatchObject({ score: 100, maxScore: 100, verdict: "AC" });
  });
  test("a failed group: the first failing test's verdict, with the score (e.g. WA, 70/100)", () => {
    expect(submissionScore(s, results([AC, AC], [AC, WA], [AC, AC, AC]), "AC")).toMatchObject({ score: 70, verdict: "WA" });
    expect(submissionScore(s, results([AC, TLE], null, [AC, WA, AC]), "AC")).toMatchObject({ score: 33.333333, verdict: "TLE" });
  });
  test("every test accepted but a partial score from the validator is WA, not AC", () => {
    const partial: ScoredTest = { verdict: "AC", scoreFile: { kind: "multiplier", text: "0.5" } };
    expect(submissionScore(s, results([AC, AC], [AC, AC], [AC, AC, partial]), "AC")).toMatchObject({ score: 91.666667, verdict: "WA" });
  });
  test("secret's min and pass-fail aggregations; secret requiring the sample", () => {
    const min = spec({ aggregation: "min", maxScore: 20, groups: [group({ name: "a", maxScore: 20 }), group({ name: "b", maxScore: 20 })] });
    expect(submissionScore(min, [groupResult(min.groups[0]!, [AC, AC, AC]), groupResult(min.groups[1]!, [WA])], "AC")).toMatchObject({ score: 0, verdict: "WA" });
    const pf = spec({ aggregation: "pass-fail", maxScore: 1, groups: [group({ name: "a", maxScore: 1 })] });
    expect(submissionScore(pf, [groupResult(pf.groups[0]!, [AC, AC, AC])], "AC")).toMatchObject({ score: 1, verdict: "AC" });
    const needsSample = spec({ requirePass: ["sample"] });
    expect(submissionScore(needsSample, results([AC, AC], [AC, AC], [AC, AC, AC]), "WA")).toMatchObject({ score: 0, verdict: "WA" });
  });
  test("a judge error anywhere is IE with the reason", () => {
    const r = submissionScore(s, results([AC, AC], [AC, AC], [AC, AC, { verdict: "AC", scoreFile: { kind: "both" } }]), "AC");
    expect(r).toMatchObject({ verdict: "IE", score: 0 });
    expect(r.error).toContain("large: the validator wrote both");
  });
  test("tests map to groups in order", () => {
    expect(groupOfTests(s)).toEqual([0, 0, 1, 1, 2, 2, 2]);
  });
});

describe("the spec's own rules", () => {
  test("a valid spec passes; defaults fill in secret's 100 and sum, a group's pass-fail", () => {
    const parsed = scoringInput.parse({ groups: [{ name: "a", maxScore: 40, testCount: 1 }, { name: "b", maxScore: 60, testCount: 2, requirePass: ["a", "sample"] }] });
    expect(parsed).toMatchObject({ maxScore: 100, aggregation: "sum", groups: [{ aggregation: "pass-fail" }, { aggregation: "pass-fail" }] });
    const counted = { ...parsed, groups: parsed.groups.map((g) => ({ ...g, testCount: g.testCount! })) };
    expect(scoringProblem(counted, 3)).toBeNull();
    expect(scoringProblem(counted, 4)?.message).toContain("hold 3 tests");
  });
  test.each([
    ["points that do not add up", { groups: [{ name: "a", maxScore: 40, testCount: 1 }] }, "at most 40 points together"],
    ["a later or unknown group required", { groups: [{ name: "a", maxScore: 50, testCount: 1, requirePass: ["b"] }, { name: "b", maxScore: 50, testCount: 1 }] }, "earlier pass-fail group"],
    ["a sum group required", { groups: [{ name: "a", maxScore: 50, testCount: 1, aggregation: "sum" }, { name: "b", maxScore: 50, testCount: 1, requirePass: ["a"] }] }, "earlier pass-fail group"],
    ["a name used twice", { groups: [{ name: "a", maxScore: 50, testCount: 1 }, { name: "a", maxScore: 50, testCount: 1 }] }, "used twice"],
    ["a sum group under a pass-fail secret", { aggregation: "pass-fail", groups: [{ name: "a", maxScore: 100, testCount: 1, aggregation: "sum" }] }, "Must be pass-fail"],
    ["secret requiring a group", { requirePass: ["a"], groups: [{ name: "a", maxScore: 100, testCount: 1 }] }, "only require sample"],
  ])("refused: %s", (_, raw, message) => {
    const r = scoringInput.safeParse(raw);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain(message);
  });
});
