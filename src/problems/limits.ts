/**
 * A problem's bounds and defaults, defined once: the server validates against
 * them, the database columns default to them, the judge falls back to them
 * for a run without a problem, and the client's form shows them. No imports:
 * the client bundles this file as it is.
 */

const MIB_IN_KIB = 1024;

/** Size limits of a problem write: title in characters, the rest in UTF-8 bytes. */
export const PROBLEM_LIMITS = {
  titleMaxChars: 200,
  /** description, inputFormat, outputFormat, constraints, sampleInput, sampleOutput. */
  statementMaxBytes: 64 * 1024,
  /** Hidden tests of one problem: the hard outer bound; a server's own ceiling (PROBLEM_TEST_COUNT_MAX, default 1000) is checked where tests are stored. */
  maxTestCases: 10_000,
  /** Per-problem judge limits: bounds accepted on create/update, and the default of a new problem. */
  timeLimitMs: { min: 100, max: 10_000, default: 2000 },
  /**
   * `max` is the hard outer bound; a server's own ceiling (PROBLEM_MEMORY_MAX_MIB, default 2048 MiB,
   * src/problems/ceilings.ts) is checked where a problem is stored.
   */
  memoryLimitKib: { min: 16 * MIB_IN_KIB, max: 65536 * MIB_IN_KIB, default: 256 * MIB_IN_KIB },
  /**
   * Runs of the submission per test (multi-pass problems): 1 is an ordinary problem. The
   * package format's default for a multi-pass problem is 2 (`limits.validation_passes`); it
   * sets no upper bound, this judge allows 20.
   */
  validationPasses: { min: 1, max: 20, default: 1, multiPassDefault: 2 },
} as const;

/** Time limit of a problem that sets none, and of a run without a problem, ms (before the language's multiplier). */
export const DEFAULT_TIME_LIMIT_MS: number = PROBLEM_LIMITS.timeLimitMs.default;
/** Memory limit of a problem that sets none, and of a run without a problem, KiB. */
export const DEFAULT_MEMORY_LIMIT_KIB: number = PROBLEM_LIMITS.memoryLimitKib.default;

/** What runs a Python 3 submission on a problem: CPython (python3) or PyPy. */
export const PYTHON_IMPLEMENTATIONS = ["cpython", "pypy"] as const;
export type PythonImplementation = (typeof PYTHON_IMPLEMENTATIONS)[number];

export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/**
 * Output checkers (src/judge/checker.ts implements them), with their meaning
 * in plain words for authors.
 */
export const CHECKER_LABELS = {
  lines: "Lines (ignore trailing whitespace)",
  tokens: "Tokens (any whitespace)",
  float: "Floating point (1e-6 tolerance)",
  kattis: "Kattis default validator (tokens, letter case ignored unless set, optional number tolerance)",
  custom: "Custom output validator (your program decides, Kattis protocol)",
  testlib: "testlib checker (Polygon: check input output answer; exit 0 OK, 1 WA, 2 PE, 3 fail, 7 points)",
} as const;
export type CheckerName = keyof typeof CHECKER_LABELS;
export const CHECKERS = Object.keys(CHECKER_LABELS) as unknown as readonly [CheckerName, ...CheckerName[]];
/** Whether a checker is the problem's own program (its validator's files), run by the judge in a box of its own. */
export function checkerIsProgram(checker: CheckerName): boolean {
  return checker === "custom" || checker === "testlib";
}
/** The checker of a problem that sets none. */
export const DEFAULT_CHECKER: CheckerName = "lines";
