/**
 * Scoring a submission by test groups, as the package format's 2025-09
 * version defines it ("Result Aggregation", "Scoring Test Cases", "Scoring
 * Test Data Groups", "Group Dependencies"). Pure: the judge feeds it each
 * test's verdict and the validator's score file, in order, and asks whether
 * to go on.
 *
 * - A test's maximum is the group's maximum (`min` aggregation) or its share
 *   `max_score / N` (`sum`); a failed test scores 0; an accepted one scores
 *   its maximum, or `score_multiplier.txt` × maximum, or `score.txt`.
 * - A group scores: `pass-fail`: its maximum if every test is accepted, else
 *   0; `sum`: the sum of its tests; `min`: their minimum. A group whose
 *   `require_pass` groups were not all accepted is not run and scores 0.
 * - The submission scores `secret`'s aggregation of its groups.
 * - Judge errors (IE): a score file from a rejecting validator or in a
 *   pass-fail group, both files, a multiplier outside [0, 1], a score over
 *   the test's maximum, unreadable contents.
 * Early stopping: within a `pass-fail` or `min` group the first failure
 * decides the group (it scores 0), so its other tests are not run; a `sum`
 * group runs every test.
 *
 * The verdict: AC only at full score; otherwise the first failing test's
 * verdict in judging order, or WA when every test run was accepted but the
 * score is partial (score files).
 */
import type { ScoringSpec, TestGroupSpec } from "../problems/scoring-spec.ts";
import type { TestVerdict } from "./verdict.ts";

/** What the validator wrote about an accepted test's score. */
export type ScoreFile = { kind: "score"; text: string } | { kind: "multiplier"; text: string } | { kind: "both" };

export interface ScoredTest {
  verdict: TestVerdict;
  scoreFile?: ScoreFile;
}

export interface GroupResult {
  name: string;
  score: number;
  maxScore: number;
  /** The first failing test's verdict, "AC" when all ran and passed, null when the group was not run. */
  verdict: TestVerdict | null;
  /** Tests run of the group's testCount. */
  testsRun: number;
}

export interface ScoreResult {
  score: number;
  maxScore: number;
  verdict: TestVerdict;
  groups: GroupResult[];
  /** A judge error (the problem's fault): the verdict is IE. */
  error?: string;
}

const EPS = 1e-9;
/** Scores kept to 6 decimals (sums of shares like 100/3 stay clean). */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The maximum score of one test of `g`. */
export function testMaxScore(g: Pick<TestGroupSpec, "aggregation" | "maxScore" | "testCount">): number {
  if (g.aggregation === "sum") return g.maxScore / g.testCount;
  if (g.aggregation === "min") return g.maxScore;
  return 0;
}

/**
 * One test's score.
 * @returns the score, or the judge error.
 */
export function testScore(g: TestGroupSpec, t: ScoredTest): number | { error: string } {
  if (t.scoreFile?.kind === "both") return { error: "the validator wrote both score.txt and score_multiplier.txt" };
  if (t.verdict !== "AC") return t.scoreFile ? { error: "the validator rejected but wrote a score file" } : 0;
  if (g.aggregation === "pass-fail") return t.scoreFile ? { error: `the validator wrote a score file in ${g.name}, a pass-fail group` } : 0;
  const max = testMaxScore(g);
  if (!t.scoreFile) return max;
  const value = Number(t.scoreFile.text.trim());
  if (t.scoreFile.text.trim() === "" || !Number.isFinite(value)) return { error: `the validator's ${t.scoreFile.kind === "score" ? "score.txt" : "score_multiplier.txt"} is not a number` };
  if (t.scoreFile.kind === "multiplier") {
    if (value < 0 || value > 1) return { error: `score_multiplier.txt ${value} is outside [0, 1]` };
    return value * max;
  }
  if (value < 0 || value > max + EPS) return { error: `score.txt ${value} is outside [0, ${round(max)}]` };
  return value;
}

/** Whether a group goes on after a test with this verdict (early stopping in pass-fail and min groups). */
export function groupContinues(g: Pick<TestGroupSpec, "aggregation">, verdict: TestVerdict): boolean {
  return g.aggregation === "sum" || verdict === "AC";
}

/** Whether a group runs: every group it requires (and "sample") was accepted whole. */
export function groupRuns(g: Pick<TestGroupSpec, "requirePass">, accepted: ReadonlyMap<string, boolean>): boolean {
  return g.requirePass.every((r) => accepted.get(r) === true);
}

/**
 * A group's result from its tests run, in order (those not run count as failed).
 * @param tests null when the group was not run (require_pass).
 */
export function groupResult(g: TestGroupSpec, tests: ScoredTest[] | null): GroupResult | { error: string } {
  if (tests === null) return { name: g.name, score: 0, maxScore: g.maxScore, verdict: null, testsRun: 0 };
  const scores: number[] = [];
  for (const t of tests) {
    const s = testScore(g, t);
    if (typeof s !== "number") return { error: `${g.name}: ${s.error}` };
    scores.push(s);
  }
  const failed = tests.find((t) => t.verdict !== "AC")?.verdict ?? (tests.length < g.testCount ? "WA" : null);
  const all = failed === null;
  let score: number;
  if (g.aggregation === "pass-fail") score = all ? g.maxScore : 0;
  else if (g.aggregation === "sum") score = scores.reduce((a, b) => a + b, 0);
  else score = tests.length < g.testCount ? 0 : Math.min(...scores);
  if (score > g.maxScore + EPS) return { error: `${g.name}: its score ${round(score)} exceeds its maximum ${g.maxScore}` };
  return { name: g.name, score: round(score), maxScore: g.maxScore, verdict: failed ?? "AC", testsRun: tests.length };
}

/**
 * The submission's score and verdict from its groups' results (in order).
 * @param sampleVerdict the sample's verdict (null: no sample), for `require_pass: sample` on secret.
 */
export function submissionScore(spec: ScoringSpec, groups: (GroupResult | { error: string })[], sampleVerdict: TestVerdict | null): ScoreResult {
  const ok = groups.filter((g): g is GroupResult => !("error" in g));
  const broken = groups.find((g): g is { error: string } => "error" in g);
  if (broken) return { score: 0, maxScore: spec.maxScore, verdict: "IE", groups: ok, error: broken.error };
  const secretRuns = spec.requirePass.every((r) => r !== "sample" || sampleVerdict === "AC");
  let score: number;
  if (!secretRuns) score = 0;
  else if (spec.aggregation === "pass-fail") score = ok.every((g) => g.verdict === "AC") ? spec.maxScore : 0;
  else if (spec.aggregation === "sum") score = ok.reduce((a, g) => a + g.score, 0);
  else score = Math.min(...ok.map((g) => g.score));
  score = round(score);
  if (score > spec.maxScore + EPS) return { score: 0, maxScore: spec.maxScore, verdict: "IE", groups: ok, error: `the score ${score} exceeds the maximum ${spec.maxScore}` };
  const firstFailure = ok.find((g) => g.verdict !== null && g.verdict !== "AC")?.verdict;
  const verdict: TestVerdict = score >= spec.maxScore - EPS ? "AC" : (firstFailure ?? (secretRuns ? "WA" : (sampleVerdict ?? "WA")));
  return { score, maxScore: spec.maxScore, verdict, groups: ok };
}

/**
 * Which group each hidden test (0-based) belongs to: the groups' tests in order.
 * @returns group index per test.
 */
export function groupOfTests(spec: Pick<ScoringSpec, "groups">): number[] {
  return spec.groups.flatMap((g, i) => Array.from({ length: g.testCount }, () => i));
}

/**
 * The judge's walk through a scoring problem's hidden tests: which to run
 * (groups in order; a group whose require_pass failed is not run; a
 * pass-fail or min group stops at its first failure), what each gave, and
 * the score at the end.
 */
export class GroupPlan {
  private readonly groupOf: number[];
  private readonly results: (ScoredTest[] | null | undefined)[];
  private readonly stopped: boolean[];
  private sampleVerdict: TestVerdict | null = null;

  constructor(private readonly spec: ScoringSpec) {
    this.groupOf = groupOfTests(spec);
    this.results = spec.groups.map(() => undefined);
    this.stopped = spec.groups.map(() => false);
  }

  /** The sample's verdict (it scores nothing; `require_pass: sample` reads it). */
  sample(verdict: TestVerdict): void {
    this.sampleVerdict = verdict;
  }

  /** Whether hidden test `i` (0-based) runs; decides its group's require_pass when the group starts. */
  shouldRun(i: number): boolean {
    const g = this.groupOf[i];
    if (g === undefined) return false;
    if (this.results[g] === undefined) this.results[g] = groupRuns(this.spec.groups[g]!, this.accepted()) ? [] : null;
    return this.results[g] !== null && !this.stopped[g];
  }

  /** What hidden test `i` gave. */
  record(i: number, t: ScoredTest): void {
    const g = this.groupOf[i]!;
    this.results[g]?.push(t);
    if (!groupContinues(this.spec.groups[g]!, t.verdict)) this.stopped[g] = true;
  }

  /** The score, the verdict and each group's result. */
  result(): ScoreResult {
    return submissionScore(
      this.spec,
      this.spec.groups.map((g, i) => groupResult(g, this.results[i] ?? null)),
      this.sampleVerdict,
    );
  }

  /** Which groups (and the sample) were accepted whole so far. */
  private accepted(): Map<string, boolean> {
    const m = new Map<string, boolean>([["sample", this.sampleVerdict === null || this.sampleVerdict === "AC"]]);
    this.spec.groups.forEach((g, i) => {
      const r = this.results[i];
      m.set(g.name, !!r && r.length === g.testCount && r.every((t) => t.verdict === "AC"));
    });
    return m;
  }
}
