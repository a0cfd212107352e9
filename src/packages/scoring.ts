/**
 * A scoring package's test groups → the problem's ScoringSpec
 * (src/problems/scoring-spec.ts), and back.
 *
 * 2025-09 (and 2023-07): `data/secret/test_group.yaml` holds `secret`'s
 * `max_score` (default 100), `score_aggregation` (default sum) and
 * `require_pass` (only `sample`); each `data/secret/<group>/test_group.yaml`
 * its own (`score_aggregation` default pass-fail; `max_score` required, as
 * `secret` is bounded; `require_pass` names earlier groups as `secret/<group>`
 * or `sample`). `testdata.yaml` is read under the same rules. Test cases
 * directly in `data/secret` (no groups) become one group.
 *
 * Legacy: `testdata.yaml` per group with `accept_score` (default 1),
 * `reject_score` (0) and `grader_flags`: `min` makes a group all or nothing
 * (a pass-fail group worth `accept_score`), the default `sum` a sum group
 * worth `accept_score` × its tests. Other graders (avg, max, custom graders)
 * are refused, naming the file.
 */
import { scoringProblem, type Aggregation, type ScoringSpec, type TestGroupSpec } from "../problems/scoring-spec.ts";
import { PackageError, type PackageFiles } from "./files.ts";
import { readYaml, type Yaml } from "./yaml.ts";
import { lastMatching, SUBMISSIONS_YAML, type SubmissionsRule } from "./submissions-yaml.ts";


const AGG: Record<string, Aggregation> = { "pass-fail": "pass-fail", sum: "sum", min: "min" };

/** The group a secret test belongs to: the folder right under data/secret/, or null for a test directly in it. */
export function groupOfTest(name: string): string | null {
  const rest = name.slice("data/secret/".length).split("/");
  return rest.length > 1 ? rest[0]! : null;
}

function groupConfig(files: PackageFiles, dir: string): { file: string; yaml: Yaml } | null {
  for (const name of ["test_group.yaml", "testdata.yaml"]) {
    const file = `${dir}/${name}`;
    const yaml = readYaml(files, file);
    if (yaml) return { file, yaml };
  }
  return null;
}

function aggregation(c: { file: string; yaml: Yaml } | null, fallback: Aggregation): Aggregation {
  const v = c?.yaml.get("score_aggregation");
  if (v === undefined) return fallback;
  const a = typeof v === "string" ? AGG[v] : undefined;
  if (!a) throw new PackageError(c!.file, `score_aggregation ${String(v)} is not pass-fail, sum or min`, c!.yaml.line("score_aggregation"));
  return a;
}

function maxScore(c: { file: string; yaml: Yaml } | null, fallback: number | null): number {
  const v = c?.yaml.get("max_score");
  if (v === undefined) {
    if (fallback === null) throw new PackageError(c?.file ?? "data/secret/", "max_score: required for a group of a bounded secret (this judge scores bounded problems only)");
    return fallback;
  }
  if (v === "unbounded") throw new PackageError(c!.file, "max_score: unbounded scores are not supported (give the group's points)", c!.yaml.line("max_score"));
  if (typeof v !== "number" || !(v > 0)) throw new PackageError(c!.file, "max_score must be a positive number", c!.yaml.line("max_score"));
  return v;
}

function requirePass(c: { file: string; yaml: Yaml } | null): string[] {
  const v = c?.yaml.get("require_pass");
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => String(x).replace(/^secret\//, ""));
}

/**
 * Reads the groups of a scoring package.
 * @param tests the package's tests in judging order (secret ones named data/secret/...).
 * @throws PackageError naming the file, the key and its line.
 */
export function readScoring(files: PackageFiles, tests: { name: string; sample: boolean }[], formatVersion: "legacy" | "2023-07-draft" | "2025-09"): ScoringSpec {
  const secretTests = tests.filter((t) => !t.sample);
  const order: string[] = [];
  const counts = new Map<string, number>();
  for (const t of secretTests) {
    const g = groupOfTest(t.name) ?? "";
    if (!counts.has(g)) order.push(g);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  if (counts.has("") && order.length > 1) throw new PackageError("data/secret/", "test cases directly in data/secret and in groups: the format allows one or the other");
  const secret = groupConfig(files, "data/secret");
  let spec: ScoringSpec;
  if (formatVersion === "legacy") spec = legacyScoring(files, order, counts);
  else {
    const secretMax = maxScore(secret, 100);
    const secretAgg = aggregation(secret, "sum");
    const groups: TestGroupSpec[] = order.map((g) => {
      if (g === "") return { name: "secret", maxScore: secretMax, aggregation: secretAgg === "pass-fail" ? "pass-fail" : secretAgg, requirePass: [], testCount: counts.get(g)! };
      const c = groupConfig(files, `data/secret/${g}`);
      return { name: g, maxScore: maxScore(c, null), aggregation: aggregation(c, "pass-fail"), requirePass: requirePass(c), testCount: counts.get(g)! };
    });
    spec = { maxScore: secretMax, aggregation: order[0] === "" ? "sum" : secretAgg, requirePass: requirePass(secret), groups };
  }
  const wrong = scoringProblem(spec, secretTests.length);
  if (wrong) throw new PackageError(secret?.file ?? "data/secret/", `${wrong.path.join(".")}: ${wrong.message}`);
  return spec;
}

function legacyScoring(files: PackageFiles, order: string[], counts: Map<string, number>): ScoringSpec {
  const groups: TestGroupSpec[] = order.map((g) => {
    const dir = g === "" ? "data/secret" : `data/secret/${g}`;
    const c = groupConfig(files, dir) ?? groupConfig(files, "data");
    const accept = c?.yaml.get("accept_score") ?? 1;
    const reject = c?.yaml.get("reject_score") ?? 0;
    const flags = String(c?.yaml.get("grader_flags") ?? "").split(/\s+/).filter(Boolean);
    if (typeof accept !== "number" || !(accept > 0)) throw new PackageError(c!.file, "accept_score must be a positive number", c!.yaml.line("accept_score"));
    if (reject !== 0) throw new PackageError(c!.file, "reject_score other than 0 is not supported", c!.yaml.line("reject_score"));
    if (c?.yaml.get("grading") !== undefined && c.yaml.get("grading") !== "default") throw new PackageError(c.file, "custom graders are not supported", c.yaml.line("grading"));
    const unknown = flags.filter((f) => !["min", "sum", "first_error", "worst_error", "ignore_sample"].includes(f));
    if (unknown.length) throw new PackageError(c!.file, `grader_flags ${unknown.join(" ")}: not supported (min or sum)`, c!.yaml.line("grader_flags"));
    const n = counts.get(g)!;
    const min = flags.includes("min");
    return { name: g || "secret", maxScore: min ? accept : accept * n, aggregation: min ? "pass-fail" : "sum", requirePass: [], testCount: n };
  });
  return { maxScore: groups.reduce((a, g) => a + g.maxScore, 0), aggregation: "sum", requirePass: [], groups };
}

/** A spec's files for an export: data/secret/test_group.yaml and each group's. */
export function scoringFiles(spec: ScoringSpec): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {
    "data/secret/test_group.yaml": {
      max_score: spec.maxScore,
      score_aggregation: spec.aggregation,
      ...(spec.requirePass.length ? { require_pass: spec.requirePass } : {}),
    },
  };
  for (const g of spec.groups) {
    out[`data/secret/${g.name}/test_group.yaml`] = {
      max_score: g.maxScore,
      score_aggregation: g.aggregation,
      ...(g.requirePass.length ? { require_pass: g.requirePass.map((r) => (r === "sample" ? r : `secret/${r}`)) } : {}),
    };
  }
  return out;
}

/**
 * The score ranges `submissions/submissions.yaml` gives (./submissions-yaml.ts):
 * `score: 40` or `score: [30, 50]`.
 * @returns path → range, or undefined where none is given.
 * @throws PackageError naming the file and the glob of a score that is neither.
 */
export function scoresNamed(rules: readonly SubmissionsRule[]): (path: string) => [number, number] | undefined {
  const byRule = new Map<SubmissionsRule, [number, number]>();
  for (const r of rules) {
    const score = r.settings.score;
    if (score === undefined) continue;
    const range: [number, number] | null =
      typeof score === "number" ? [score, score] : Array.isArray(score) && score.length === 2 && score.every((x) => typeof x === "number") ? [score[0] as number, score[1] as number] : null;
    if (!range) throw new PackageError(SUBMISSIONS_YAML, `${r.pattern}: score must be a number or [min, max]`);
    byRule.set(r, range);
  }
  return (path) => lastMatching(rules, path, (r) => byRule.get(r));
}

/**
 * `@EXPECTED_SCORE@: 40` (or `40-60`) in a source file, as DOMjudge writes
 * expected results in one.
 * @returns the range, or null.
 */
export function expectedScoreInCode(code: string): [number, number] | null {
  const m = /@EXPECTED_SCORE@\s*:?\s*([0-9]+(?:\.[0-9]+)?)(?:\s*-\s*([0-9]+(?:\.[0-9]+)?))?/.exec(code);
  if (!m) return null;
  const a = Number(m[1]);
  return [a, m[2] === undefined ? a : Number(m[2])];
}
