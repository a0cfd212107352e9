/**
 * This server's ceilings on what one problem may ask for and hold: the
 * highest memory limit, and the size of its hidden tests and of a package
 * read from disk. They are settings (src/config.ts) because what a host can
 * give differs; the zod bounds of PROBLEM_LIMITS (./limits.ts) are the hard
 * outer bounds no setting passes. A refusal names the setting that would
 * allow it (`ceilingMessage`).
 *
 * Defaults: memory 2048 MiB, the 2023-07/2025-09 package format's default
 * memory limit (a real contest package fits without a setting); tests
 * 128 MiB each and 512 MiB per problem (NWERC/BAPC test data is tens to a few
 * hundred MiB), 1000 tests per problem (IOI-style subtask packages reach a
 * few hundred); a package read from disk (`bun run problem -- import`) up to
 * 1024 MiB unpacked. Uploads over HTTP keep their own smaller limit
 * (PACKAGE_LIMITS.zipMaxBytes, src/packages/files.ts): the request body is
 * held in memory.
 */
import { PROBLEM_LIMITS } from "./limits.ts";

const MIB = 1024 * 1024;

export interface ProblemCeilings {
  /** Highest memory limit a problem may set, KiB. */
  memoryLimitKib: number;
  /** One hidden test case, input plus expected output, bytes. */
  testCaseBytes: number;
  /** All hidden tests of one problem, bytes. */
  testsTotalBytes: number;
  /** A package read from a folder or zip on disk, all files unpacked, bytes (one file: `testCaseBytes`). */
  packageBytes: number;
  /** Hidden tests of one problem (each is a sandbox run per submission). */
  testCount: number;
  /**
   * The judging work a public problem of an ordinary user may ask of every
   * submission: hidden tests × passes × time limit, ms. Staff problems
   * (course problems, problems of admins and course creators) are bounded by
   * the other ceilings only; anyone may create a public problem, so its
   * author may not set it up to hold a judge slot for hours (review N1).
   */
  publicWorkMs: number;
}

/** The settings (environment variables, MiB) behind each ceiling, named in refusals. */
export const CEILING_SETTINGS: Record<keyof ProblemCeilings, string> = {
  testCount: "PROBLEM_TEST_COUNT_MAX",
  memoryLimitKib: "PROBLEM_MEMORY_MAX_MIB",
  testCaseBytes: "PROBLEM_TEST_MAX_MIB",
  testsTotalBytes: "PROBLEM_TESTS_MAX_MIB",
  packageBytes: "PACKAGE_MAX_MIB",
  publicWorkMs: "PUBLIC_PROBLEM_WORK_MAX_SECONDS",
};

/**
 * Defaults of the settings, in their units (`CEILING_UNITS`; the module comment says where they come from).
 * Public work: 300 s, e.g. 150 tests at 2 s, or 100 tests at 1 s with 3 passes (Codeforces
 * problems have tens to a couple of hundred tests at 1–2 s).
 */
export const CEILING_DEFAULTS: Record<keyof ProblemCeilings, number> = {
  testCount: 1000,
  publicWorkMs: 300,
  memoryLimitKib: 2048,
  testCaseBytes: 128,
  testsTotalBytes: 512,
  packageBytes: 1024,
};

/** Hard outer bounds of the settings, in their units: memory and tests PROBLEM_LIMITS' zod bounds; data what one process holds in memory while judging. */
export const CEILING_MAX: Record<keyof ProblemCeilings, number> = {
  testCount: PROBLEM_LIMITS.maxTestCases,
  memoryLimitKib: PROBLEM_LIMITS.memoryLimitKib.max / 1024,
  testCaseBytes: 1024,
  testsTotalBytes: 4096,
  packageBytes: 8192,
  publicWorkMs: 1_000_000,
};

/** The unit of each setting as refusals and config errors name it. */
export const CEILING_UNITS: Record<keyof ProblemCeilings, string> = {
  testCount: "tests",
  memoryLimitKib: "MiB",
  testCaseBytes: "MiB",
  testsTotalBytes: "MiB",
  packageBytes: "MiB",
  publicWorkMs: "s",
};

/** Ceilings from the settings' values (in `CEILING_UNITS`). */
export function ceilingsFromSettings(mib: Record<keyof ProblemCeilings, number>): ProblemCeilings {
  return {
    memoryLimitKib: mib.memoryLimitKib * 1024,
    testCaseBytes: mib.testCaseBytes * MIB,
    testsTotalBytes: mib.testsTotalBytes * MIB,
    packageBytes: mib.packageBytes * MIB,
    testCount: mib.testCount,
    publicWorkMs: mib.publicWorkMs * 1000,
  };
}

/** The ceilings of a server that sets none. */
export const DEFAULT_CEILINGS: ProblemCeilings = ceilingsFromSettings(CEILING_DEFAULTS);

/** "at most 2048 MiB on this server (PROBLEM_MEMORY_MAX_MIB allows more, up to 65536)": the refusal's tail. */
export function ceilingMessage(key: keyof ProblemCeilings, ceilings: ProblemCeilings): string {
  const unit = key === "testCount" ? "" : ` ${CEILING_UNITS[key]}`;
  const n =
    key === "testCount" ? ceilings.testCount : key === "memoryLimitKib" ? ceilings.memoryLimitKib / 1024 : key === "publicWorkMs" ? ceilings.publicWorkMs / 1000 : ceilings[key] / MIB;
  const hard = CEILING_MAX[key];
  return n >= hard
    ? `at most ${fmt(n)}${unit}, this judge's hard bound`
    : `at most ${fmt(n)}${unit} on this server (the setting ${CEILING_SETTINGS[key]} allows more, up to ${hard}${unit})`;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
