/**
 * A scoring problem's test groups (IOI-style subtasks), as the package
 * format's 2025-09 version defines them ("Scoring Problems", "Test Data
 * Groups"): `secret` has a maximum score (default 100) and an aggregation of
 * its groups (`sum` by default, `min`, or `pass-fail`); each group has its
 * own maximum, aggregation (`pass-fail` by default, `sum`, `min`) and
 * `require_pass` (earlier pass-fail groups, or `sample`). The hidden tests are
 * the groups' tests in order: group 1's `testCount` tests first, then group
 * 2's, and so on. Stored as JSON on the problem (null: a pass-fail problem).
 * Only bounded maximum scores are supported (the format's `unbounded` is
 * refused). No imports but zod: the client bundles this file.
 */
import { z } from "zod";

export const AGGREGATIONS = ["pass-fail", "sum", "min"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export interface TestGroupSpec {
  /** The group's name, e.g. "group1" (the package's `data/secret/<name>/`). */
  name: string;
  /** Points of the group at full marks (the format's `max_score`). */
  maxScore: number;
  aggregation: Aggregation;
  /** Groups (earlier, pass-fail) or "sample" that must be accepted before this one runs. */
  requirePass: string[];
  /** How many hidden tests, in order, are this group's. */
  testCount: number;
}

export interface ScoringSpec {
  /** The submission's score at full marks (`secret`'s max_score; default 100). */
  maxScore: number;
  /** How `secret` aggregates its groups (default sum). */
  aggregation: Aggregation;
  /** `secret`'s own require_pass: only "sample" may be named. */
  requirePass: string[];
  groups: TestGroupSpec[];
}

/** Bounds of a scoring spec. */
export const SCORING_LIMITS = { maxGroups: 50, maxScore: 1_000_000, nameMaxChars: 40 } as const;

/** The best score the groups can give together (what `secret` at full marks must equal). */
export function bestPossible(spec: Pick<ScoringSpec, "aggregation" | "maxScore" | "groups">): number {
  if (spec.aggregation === "pass-fail") return spec.maxScore;
  const maxes = spec.groups.map((g) => g.maxScore);
  return spec.aggregation === "sum" ? maxes.reduce((a, b) => a + b, 0) : Math.min(...maxes);
}

/**
 * What is wrong with a spec, or null: every rule of the format this judge
 * keeps, with the path of the field.
 */
export function scoringProblem(spec: ScoringSpec, hiddenTestCount?: number): { path: (string | number)[]; message: string } | null {
  const names = new Set<string>();
  const passFail = new Set<string>(["sample"]);
  if (spec.requirePass.some((r) => r !== "sample")) return { path: ["requirePass"], message: "secret may only require sample" };
  for (const [i, g] of spec.groups.entries()) {
    if (names.has(g.name) || g.name === "sample") return { path: ["groups", i, "name"], message: `Group name ${g.name} is used twice (or is "sample")` };
    for (const r of g.requirePass) {
      if (!passFail.has(r)) return { path: ["groups", i, "requirePass"], message: `${r}: a group may only require sample or an earlier pass-fail group` };
    }
    if (spec.aggregation === "pass-fail" && g.aggregation !== "pass-fail") return { path: ["groups", i, "aggregation"], message: "Must be pass-fail when the whole problem is pass-fail" };
    names.add(g.name);
    if (g.aggregation === "pass-fail") passFail.add(g.name);
  }
  const best = bestPossible(spec);
  if (Math.abs(best - spec.maxScore) > 1e-9) {
    return { path: ["maxScore"], message: `The groups give at most ${best} points together (${spec.aggregation}); the problem's maximum is ${spec.maxScore}` };
  }
  if (hiddenTestCount !== undefined) {
    const counted = spec.groups.reduce((n, g) => n + g.testCount, 0);
    if (counted !== hiddenTestCount) return { path: ["groups"], message: `The groups hold ${counted} tests; the problem has ${hiddenTestCount} hidden tests` };
  }
  return null;
}

const name = z
  .string({ error: "Must be text" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: "Letters, digits, _ . - (starting with a letter or digit)" })
  .max(SCORING_LIMITS.nameMaxChars, { error: `At most ${SCORING_LIMITS.nameMaxChars} characters` });
const points = z
  .number({ error: "Must be a number of points" })
  .positive({ error: "Must be more than 0" })
  .max(SCORING_LIMITS.maxScore, { error: `At most ${SCORING_LIMITS.maxScore}` });

/** The zod input of a scoring spec (the form, the API, an import). */
export const scoringInput = z
  .object({
    maxScore: points.default(100),
    aggregation: z.enum(AGGREGATIONS, { error: "Must be pass-fail, sum or min" }).default("sum"),
    requirePass: z.array(z.string()).max(1).default([]),
    groups: z
      .array(
        z.object({
          name,
          maxScore: points,
          aggregation: z.enum(AGGREGATIONS, { error: "Must be pass-fail, sum or min" }).default("pass-fail"),
          requirePass: z.array(name.or(z.literal("sample"))).max(SCORING_LIMITS.maxGroups).default([]),
          /** Given by an import; from the form and the API it is counted from the tests' `group` labels. */
          testCount: z.number({ error: "Must be a number of tests" }).int({ error: "Must be a whole number" }).min(1, { error: "A group holds at least one test" }).optional(),
        }),
        { error: "Must be a list of groups" },
      )
      .min(1, { error: "At least one group" })
      .max(SCORING_LIMITS.maxGroups, { error: `At most ${SCORING_LIMITS.maxGroups} groups` }),
  })
  .superRefine((spec, ctx) => {
    const wrong = scoringProblem({ ...spec, groups: spec.groups.map((g) => ({ ...g, testCount: g.testCount ?? 1 })) });
    if (wrong) ctx.addIssue({ code: "custom", message: wrong.message, path: wrong.path });
  });

/** A scoring spec as written (the group sizes may still be counted from the tests). */
export type ScoringInput = z.infer<typeof scoringInput>;
