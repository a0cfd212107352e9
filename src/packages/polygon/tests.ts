/**
 * The `tests` testset of a Polygon package → the importer's tests and, when
 * the package gives points, the problem's scored groups
 * (src/problems/scoring-spec.ts):
 *
 * - test i is `input-path-pattern` % i with its answer `answer-path-pattern` % i
 *   (a full package has every one), or, in a standard package, what
 *   ./generate.ts made of it (its input generated, its answer the main
 *   solution's output); CRLF line endings become LF, as CMS's dos2unix makes them;
 * - samples (`sample="true"`) go first, in order, the others after, in order;
 * - `points-policy="complete-group"` → a pass-fail group worth the group's
 *   points (else the sum of its tests'); `each-test` → a sum group worth the sum
 *   of its tests' points (this judge gives every test of a sum group an equal
 *   share: unequal points are a warning); a group of samples only scores
 *   nothing here, and depending on it means `sample`;
 * - `dependencies` → `require_pass` on earlier complete-group groups; one the
 *   judge cannot honour (on an each-test or a later group) is a warning;
 * - points on tests without groups → one sum group per run of equal points.
 */
import type { ScoringSpec, TestGroupSpec } from "../../problems/scoring-spec.ts";
import { scoringProblem } from "../../problems/scoring-spec.ts";
import { PackageError, text, type PackageFiles } from "../files.ts";
import type { PackageTest } from "../format.ts";
import { unixLines, type MadeTests } from "./generate.ts";
import { DESCRIPTOR, testPath, type PolygonGroup, type PolygonTest, type PolygonTestset } from "./descriptor.ts";

const WHERE = 'judging/testset[name=tests]';

/**
 * The tests, samples first.
 * @param interactive an interactive problem's answer may be absent (its interactor may need none).
 * @throws PackageError naming the test of a standard package, or the missing file.
 */
export function readTests(files: PackageFiles, ts: PolygonTestset, interactive: boolean, made: MadeTests = new Map()): { tests: PackageTest[]; polygon: PolygonTest[] } {
  if (!ts.tests.length) throw new PackageError(DESCRIPTOR, `${WHERE}: no tests`);
  const read = ts.tests.map((t) => {
    const inputPath = testPath(ts.inputPattern, t.index);
    const answerPath = testPath(ts.answerPattern, t.index);
    const here = made.get(t.index);
    if (here) return { test: { name: inputPath, sample: t.sample, input: here.input, answer: here.answer }, polygon: t };
    const raw = text(files, inputPath);
    if (raw === null) {
      if (t.method === "generated") {
        throw new PackageError(DESCRIPTOR, `${WHERE}/tests/test ${t.index}: method="generated"${t.cmd ? ` (cmd "${t.cmd.slice(0, 80)}")` : ""} and ${inputPath} is not in the package: it was not generated`);
      }
      throw new PackageError(inputPath, `missing: problem.xml lists test ${t.index} (${WHERE})`);
    }
    // CRLF as LF, as CMS's dos2unix does (a package made by running doall.sh on Windows has CRLF files).
    const input = unixLines(raw);
    let answer = text(files, answerPath);
    if (answer === null && interactive) answer = "";
    if (answer === null) throw new PackageError(answerPath, `missing: the answer of test ${t.index} (a full package has every answer)`);
    return { test: { name: inputPath, sample: t.sample, input, answer: unixLines(answer) }, polygon: t };
  });
  const ordered = [...read.filter((r) => r.polygon.sample), ...read.filter((r) => !r.polygon.sample)];
  // The first sample is shown to solvers and judged first; an interactive problem may go without (its exchanges are its samples).
  if (!interactive && !ordered[0]!.polygon.sample) throw new PackageError(DESCRIPTOR, `${WHERE}/tests: no test is marked sample="true" (the first sample is shown to solvers and judged first)`);
  return { tests: ordered.map((r) => r.test), polygon: ordered.map((r) => r.polygon) };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The scored groups, or null for a problem without points.
 * @param tests the testset's tests in the order readTests gave (samples first).
 * @throws PackageError naming the group or test that cannot be mapped.
 */
export function readScoring(ts: PolygonTestset, tests: PolygonTest[], warnings: string[]): ScoringSpec | null {
  const scored = tests.some((t) => (t.points ?? 0) > 0) || ts.groups.some((g) => (g.points ?? 0) > 0);
  if (!scored) {
    if (ts.groups.length) warnings.push(`${WHERE}/groups: the groups give no points: the problem is judged pass-fail, test by test`);
    return null;
  }
  const hidden = tests.filter((t) => !t.sample);
  for (const t of tests) if (t.sample && (t.points ?? 0) > 0) warnings.push(`${WHERE}/tests/test ${t.index}: a sample's ${t.points} points are not counted (samples score nothing here)`);
  if (!hidden.length) throw new PackageError(DESCRIPTOR, `${WHERE}: points are given, but every test is a sample`);
  const spec = ts.groups.length || hidden.some((t) => t.group) ? groupedScoring(ts, tests, hidden, warnings) : ungroupedScoring(hidden);
  const wrong = scoringProblem(spec, hidden.length);
  if (wrong) throw new PackageError(DESCRIPTOR, `${WHERE}/groups: ${wrong.path.join(".")}: ${wrong.message}`);
  return spec;
}

/** Points without groups: a sum group for each run of tests with equal points. */
function ungroupedScoring(hidden: PolygonTest[]): ScoringSpec {
  const groups: TestGroupSpec[] = [];
  let prev: number | null = null;
  for (const t of hidden) {
    const p = t.points ?? 0;
    if (p <= 0) throw new PackageError(DESCRIPTOR, `${WHERE}/tests/test ${t.index}: no points, among tests that have points (this judge scores every test of a scored problem)`);
    if (p === prev) {
      const g = groups.at(-1)!;
      g.testCount++;
      g.maxScore += p;
    } else groups.push({ name: `tests-${groups.length + 1}`, maxScore: p, aggregation: "sum", requirePass: [], testCount: 1 });
    prev = p;
  }
  return { maxScore: sum(groups.map((g) => g.maxScore)), aggregation: "sum", requirePass: [], groups };
}

function groupedScoring(ts: PolygonTestset, all: PolygonTest[], hidden: PolygonTest[], warnings: string[]): ScoringSpec {
  const declared = new Map<string, PolygonGroup>(ts.groups.map((g) => [g.name, g]));
  // Groups of samples only score nothing here: depending on one means depending on the sample.
  const sampleOnly = new Set(all.filter((t) => t.sample && t.group).map((t) => t.group!).filter((g) => !hidden.some((t) => t.group === g)));
  const order: string[] = [];
  for (const [i, t] of hidden.entries()) {
    if (!t.group) throw new PackageError(DESCRIPTOR, `${WHERE}/tests/test ${t.index}: no group, while other tests have groups`);
    if (!declared.has(t.group)) declared.set(t.group, { name: t.group, points: null, pointsPolicy: "each-test", feedbackPolicy: null, dependencies: [] });
    if (order.at(-1) !== t.group) {
      if (order.includes(t.group)) throw new PackageError(DESCRIPTOR, `${WHERE}/tests/test ${t.index}: group ${t.group}'s tests are not consecutive (test ${hidden[i - 1]!.index} is in ${hidden[i - 1]!.group}): this judge runs a group's tests together`);
      order.push(t.group);
    }
  }
  const passFail = new Set<string>();
  const groups: TestGroupSpec[] = order.map((name) => {
    const g = declared.get(name)!;
    const own = hidden.filter((t) => t.group === name);
    const testPoints = own.map((t) => t.points ?? 0);
    if (g.feedbackPolicy && g.feedbackPolicy !== "complete") warnings.push(`${WHERE}/groups/group ${name}: feedback-policy ${g.feedbackPolicy} is not honoured (feedback follows this judge's own settings)`);
    const requirePass: string[] = [];
    for (const dep of g.dependencies) {
      if (sampleOnly.has(dep)) requirePass.push("sample");
      else if (passFail.has(dep)) requirePass.push(dep);
      else warnings.push(`${WHERE}/groups/group ${name}/dependencies/dependency ${dep}: not honoured (this judge lets a group depend only on the samples or on an earlier complete-group group)`);
    }
    if (g.pointsPolicy === "complete-group") {
      const maxScore = g.points ?? sum(testPoints);
      if (!(maxScore > 0)) throw new PackageError(DESCRIPTOR, `${WHERE}/groups/group ${name}: complete-group with no points: not supported yet (every scored group here is worth points)`);
      passFail.add(name);
      return { name, maxScore, aggregation: "pass-fail", requirePass: [...new Set(requirePass)], testCount: own.length };
    }
    const maxScore = sum(testPoints);
    if (!(maxScore > 0)) throw new PackageError(DESCRIPTOR, `${WHERE}/groups/group ${name}: each-test with no points on its tests: not supported yet (every scored group here is worth points)`);
    if (new Set(testPoints).size > 1) warnings.push(`${WHERE}/groups/group ${name}: its tests' points differ (${testPoints.join(", ")}): this judge gives each test an equal share of the group's ${maxScore}`);
    if (g.points !== null && Math.abs(g.points - maxScore) > 1e-9) warnings.push(`${WHERE}/groups/group ${name}: points ${g.points} differ from its tests' sum ${maxScore}: the group is worth its tests' sum (each-test)`);
    return { name, maxScore, aggregation: "sum", requirePass: [...new Set(requirePass)], testCount: own.length };
  });
  for (const g of ts.groups) if (!order.includes(g.name) && !sampleOnly.has(g.name)) warnings.push(`${WHERE}/groups/group ${g.name}: no test is in it: left out`);
  return { maxScore: sum(groups.map((g) => g.maxScore)), aggregation: "sum", requirePass: [], groups };
}
