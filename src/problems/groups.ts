/**
 * Hidden tests and test groups together: a scoring problem's hidden tests are
 * its groups' tests in order (src/problems/scoring-spec.ts). A write labels
 * each test with its group's name; the store orders the tests by group and
 * counts each group's tests. The owner's view labels them back.
 */
import { AppError } from "../errors.ts";
import { scoringProblem, type ScoringInput, type ScoringSpec } from "./scoring-spec.ts";

/** A hidden test (re-exported by ./shape.ts, which labels tests with this module). */
export interface HiddenTestCase {
  input: string;
  expectedOutput: string;
  /** A scoring problem's test, as written and in the owner's view: its group's name. */
  group?: string;
}

/**
 * Orders `tests` by their groups and counts them into the spec.
 * @returns the stored spec (null for a pass-fail problem) and the tests in judging order, unlabelled.
 * @throws AppError BAD_INPUT naming `hiddenTestCases.N.group` (missing or unknown) or `scoring...` (a rule of the format, an empty group).
 */
export function arrangeGroups(scoring: ScoringInput | ScoringSpec | null, tests: HiddenTestCase[]): { scoring: ScoringSpec | null; tests: HiddenTestCase[] } {
  const plain = (t: HiddenTestCase): HiddenTestCase => ({ input: t.input, expectedOutput: t.expectedOutput });
  if (!scoring) return { scoring: null, tests: tests.map(plain) };
  const index = new Map(scoring.groups.map((g, i) => [g.name, i]));
  const buckets: HiddenTestCase[][] = scoring.groups.map(() => []);
  const labelled = tests.some((t) => t.group !== undefined);
  if (labelled) {
    tests.forEach((t, i) => {
      const at = t.group === undefined ? undefined : index.get(t.group);
      if (at === undefined) {
        const field = `hiddenTestCases.${i}.group`;
        throw new AppError("BAD_INPUT", { field, message: `${field}: ${t.group === undefined ? "Required on a scoring problem (the test's group)" : `${t.group} is not one of the groups`}` });
      }
      buckets[at]!.push(plain(t));
    });
  } else {
    // Unlabelled tests: the sizes the spec gives (an import, or tests already in order).
    let next = 0;
    scoring.groups.forEach((g, i) => {
      const n = g.testCount ?? 0;
      buckets[i] = tests.slice(next, next + n).map(plain);
      next += n;
    });
    if (next !== tests.length) throw new AppError("BAD_INPUT", { field: "scoring.groups", message: `scoring.groups: the groups hold ${next} tests; there are ${tests.length} hidden tests (label each test with its group)` });
  }
  const spec: ScoringSpec = { maxScore: scoring.maxScore, aggregation: scoring.aggregation, requirePass: scoring.requirePass, groups: scoring.groups.map((g, i) => ({ ...g, testCount: buckets[i]!.length })) };
  const empty = spec.groups.findIndex((g) => g.testCount === 0);
  if (empty >= 0) throw new AppError("BAD_INPUT", { field: `scoring.groups.${empty}`, message: `scoring.groups.${empty}: group ${spec.groups[empty]!.name} has no test` });
  const wrong = scoringProblem(spec);
  if (wrong) {
    const field = ["scoring", ...wrong.path].join(".");
    throw new AppError("BAD_INPUT", { field, message: `${field}: ${wrong.message}` });
  }
  return { scoring: spec, tests: buckets.flat() };
}

/** The owner's view: each hidden test labelled with its group. */
export function labelTests(scoring: ScoringSpec | null, tests: HiddenTestCase[]): HiddenTestCase[] {
  if (!scoring) return tests;
  const names = scoring.groups.flatMap((g) => Array.from({ length: g.testCount }, () => g.name));
  return tests.map((t, i) => (names[i] === undefined ? t : { ...t, group: names[i] }));
}
