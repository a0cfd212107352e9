/**
 * A problem as every route returns it (REST and tRPC alike): the public
 * columns only, never the hidden tests except where a caller adds its own.
 */
import type { ValidatorSpec } from "./validator-spec.ts";
import type { ScoringSpec } from "./scoring-spec.ts";
import { labelTests, type HiddenTestCase } from "./groups.ts";
import type { problems } from "../../db/schema.ts";
import type { CheckerName, Difficulty, PythonImplementation } from "./limits.ts";
import type { TagRef } from "./tags/input.ts";

export type { HiddenTestCase };

/** A problem as every route returns it. `hiddenTestCases` only on the caller's own problems in `list`. */
export interface ProblemShape {
  _id: string;
  title: string;
  description: string;
  inputFormat: string;
  outputFormat: string;
  constraints: string;
  sampleInput: string;
  sampleOutput: string;
  difficulty: Difficulty;
  /** Creator's user id. */
  user: string;
  timeLimitMs: number;
  memoryLimitKib: number;
  checker: CheckerName;
  /** The `kattis` checker's flags ("" for none; validator-flags.ts). */
  checkerFlags: string;
  /** Java and Python get their time multipliers on top of timeLimitMs (false: one limit for every language). */
  timeScaledByLanguage: boolean;
  /** The validator talks with the submission over pipes (the format's `type: interactive`). */
  interactive: boolean;
  /** Runs of the submission per test at most: 1, or more for a multi-pass problem. */
  validationPasses: number;
  /** What runs Python 3 submissions: CPython, or PyPy (the language stays Python 3). */
  pythonImplementation: PythonImplementation;
  /** A scoring problem's test groups (points, aggregation, require_pass, sizes); null: pass-fail. Public, as a statement's subtasks are. */
  scoring: ScoringSpec | null;
  /** Number of hidden test cases (their content stays hidden). */
  hiddenTestCount: number;
  /** Topic tags (src/problems/tags), by name: the stable slug and the stored English name (the client translates the base vocabulary by slug). */
  tags: TagRef[];
  /** The spec's version field: incremented on every update. */
  __v: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  hiddenTestCases?: HiddenTestCase[];
  /** The custom checker's validator: like the hidden tests, only for those who may edit the problem. */
  validator?: ValidatorSpec | null;
}

/** A problems row as drizzle reads it. */
export type ProblemRow = typeof problems.$inferSelect;

/**
 * The public shape of a row with its tags (src/problems/tags/problem-tags.ts
 * reads them); `hidden`, when given, is attached as `hiddenTestCases` (only
 * ever the caller's own problem).
 */
export function toProblemShape(row: ProblemRow, hiddenTestCount: number, tags: TagRef[], hidden?: HiddenTestCase[]): ProblemShape {
  const shape: ProblemShape = {
    _id: row.id,
    title: row.title,
    description: row.description,
    inputFormat: row.inputFormat,
    outputFormat: row.outputFormat,
    constraints: row.constraints,
    sampleInput: row.sampleInput,
    sampleOutput: row.sampleOutput,
    difficulty: row.difficulty,
    user: row.userId,
    timeLimitMs: row.timeLimitMs,
    memoryLimitKib: row.memoryLimitKib,
    checker: row.checker,
    checkerFlags: row.checkerFlags,
    timeScaledByLanguage: row.timeScaledByLanguage,
    interactive: row.interactive,
    validationPasses: row.validationPasses,
    pythonImplementation: row.pythonImplementation,
    scoring: row.scoring ?? null,
    hiddenTestCount,
    tags,
    __v: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (hidden) {
    shape.hiddenTestCases = labelTests(row.scoring ?? null, hidden);
    shape.validator = row.validator ?? null;
  }
  return shape;
}

