/**
 * Verifies a package's example submissions the way problemtools'
 * `verifyproblem` does (../shared/packages.md §4), with this judge's sandbox,
 * compiler commands and validators:
 *
 * - the time limit (TL) is the package's, or derived: the slowest accepted
 *   submission's slowest test T_ac, TL = max(1, ceil(T_ac · ac_to_time_limit /
 *   resolution)) · resolution with a resolution of 1 s (problemtools);
 * - each submission is compiled once and run on the tests in the format's order
 *   (samples, then secret data by path) under TL_high = TL · time_limit_to_tle,
 *   so a test slower than TL is TLE at TL and one slower than TL_high is TLE
 *   even with the safety margin; the submission's verdict is its first non-AC
 *   test's (legacy `worst_error`, `on_reject: break`);
 * - it passes when that verdict is what its folder says (`rejected`: any of
 *   WA, TLE, RE), and a time-limit-exceeded submission must still be TLE at
 *   TL_high; verdicts that differ between TL and TL_high are flagged as
 *   sensitive to the time limit. MLE satisfies an RE folder, as in problemtools
 *   (it is kept apart for a Polygon solution tagged memory-limit-exceeded).
 * Outputs are judged by the package's own output validator when it has one,
 * else by the default validator with the package's flags.
 */
import { compileSource, runProgram } from "../../isolate/exec.ts";
import type { Box, SandboxBackend } from "../../isolate/types.ts";
import { prepareValidator, runValidator, type CompileValidator, type ReadyValidator } from "../judge/validator.ts";
import type { BuildStep } from "../judge/validator-build.ts";
import { passFailVerdict } from "../judge/testlib.ts";
import { judgePassedTest } from "../judge/interactive.ts";
import { judgingLanguage } from "../judge/languages.ts";
import { judgeScored, scoreMatches } from "./verify-scoring.ts";
import { OUTPUT_LIMIT_BYTES } from "../judge/limits.ts";
import { decideVerdict } from "../judge/verdict.ts";
import { reportedTimeMs } from "../judge/compile.ts";
import { PROBLEM_LIMITS } from "../problems/limits.ts";
import type { ExpectedOutcome, PackageSubmission, ProblemPackage } from "./format.ts";

/** Resolution the derived time limit is rounded up to, ms (problemtools' time_resolution default, 1 s). */
export const TIME_RESOLUTION_MS = 1000;
/**
 * The most CPU time one run of a verify may take, ms: the problems' own ceiling
 * (PROBLEM_LIMITS.timeLimitMs.max), whatever a package's multipliers say. The
 * derived limit is clamped to it too, so a verify never holds a box longer
 * than a submission could.
 */
export const VERIFY_RUN_MAX_MS: number = PROBLEM_LIMITS.timeLimitMs.max;

/**
 * The wall-clock limit of one verify run, ms, for its CPU limit (TL_high):
 * 2 × CPU + 1 s. A verify classifies by CPU time (problemtools' way), so its
 * wall clock only stops a program that sleeps or waits; it leaves room for a
 * busy machine, where a JVM's start or a spinning TLE example gets its CPU
 * seconds late and a tight wall clock would end it first (an AC read as TLE,
 * a TLE example whose CPU time never reached TL_high). Judging keeps its own,
 * tighter wall clock (runWallLimitMs), which bounds what a submission holds.
 * @example verifyWallLimitMs(1500) === 4000
 */
export function verifyWallLimitMs(cpuTimeLimitMs: number): number {
  return 2 * cpuTimeLimitMs + 1000;
}
/** Time limit the accepted submissions run under while the limit is being derived, ms. */
export const DERIVING_TIME_LIMIT_MS = VERIFY_RUN_MAX_MS;

/** A verify's verdicts: MLE apart from RE (a Polygon solution may expect it; a Kattis folder's RE takes it, as problemtools does). */
export type VerifyVerdict = "AC" | "WA" | "TLE" | "RE" | "MLE" | "CE" | "IE";

export interface VerifyRow {
  path: string;
  language: PackageSubmission["language"];
  expected: ExpectedOutcome;
  /** Verdict at TL. */
  verdict: VerifyVerdict;
  /** Verdict with TL_high (the safety margin). */
  verdictHigh: VerifyVerdict;
  /** Slowest test's CPU time, ms (of the tests run); its wall time where the wall clock ended it (reportedTimeMs). */
  maxTimeMs: number;
  ok: boolean;
  /** Why it did not pass, or a warning (sensitive to the time limit). */
  note?: string;
  /** A scoring package: the score it got, of the maximum, and the range it was expected in (if the package says). */
  score?: number;
  maxScore?: number;
  expectedScore?: [number, number];
}

export interface VerifyReport {
  timeLimitMs: number;
  /** Where TL came from. */
  timeLimitSource: "package" | "derived";
  timeLimitHighMs: number;
  /** Slowest accepted test, ms, and TL / that (the margin); null without accepted submissions. */
  slowestAcMs: number | null;
  rows: VerifyRow[];
  ok: boolean;
}

export function matches(expected: ExpectedOutcome, verdict: VerifyVerdict): boolean {
  if (expected === "rejected") return verdict === "WA" || verdict === "TLE" || verdict === "RE" || verdict === "MLE";
  if (expected === "PAC") return verdict !== "AC" && verdict !== "CE" && verdict !== "IE";
  // problemtools counts running out of memory as a run-time error.
  if (expected === "RE") return verdict === "RE" || verdict === "MLE";
  // Polygon's tags that allow two verdicts.
  if (expected === "TLE-or-AC") return verdict === "TLE" || verdict === "AC";
  if (expected === "TLE-or-MLE") return verdict === "TLE" || verdict === "MLE";
  return expected === verdict;
}

interface Judged {
  verdict: VerifyVerdict;
  verdictHigh: VerifyVerdict;
  maxTimeMs: number;
  detail?: string;
  /** A scoring package's score and maximum. */
  score?: number;
  maxScore?: number;
}

/**
 * A package's validator builds, kept for the verify of that package only: a
 * testlib checker (testlib.h takes ~10 s of CPU to compile) is built once, not
 * once per example submission. Kept while the package object lives.
 */
const builds = new WeakMap<ProblemPackage, Map<string, BuildStep>>();

/** Compiles in the box itself (verify keeps no compile cache but the package's own builds). */
function compileDirectly(box: Box, pkg: ProblemPackage): CompileValidator {
  const built = builds.get(pkg) ?? new Map<string, BuildStep>();
  builds.set(pkg, built);
  return {
    async compile(language, code) {
      const c = await compileSource(box, language, code);
      if (c.ok) return { kind: "ok", files: c.artifacts };
      return c.result.status === "XX" ? { kind: "ie", detail: c.result.message ?? "sandbox failure" } : { kind: "ce", diagnostics: c.diagnostics };
    },
    cached: async (keyText, make) => {
      const kept = built.get(keyText);
      if (kept) return kept;
      const made = await make();
      if (made.cacheable) built.set(keyText, made.step);
      return made.step;
    },
  };
}

/** Compiles and runs one submission on every test (stopping at the first failure at TL_high). */
async function judge(backend: SandboxBackend, pkg: ProblemPackage, example: PackageSubmission, tlMs: number, tlHighMs: number, memoryLimitKib: number): Promise<Judged> {
  // Python 3 on a PyPy package runs on PyPy, as the judge will run it.
  const s = { ...example, language: judgingLanguage(example.language, pkg) };
  // The package's own validator runs in a box of its own, taken with the program's.
  const [box, vbox] = pkg.validator ? await backend.acquireMany(2) : [await backend.acquire(), undefined];
  try {
    let validator: ReadyValidator | null = null;
    if (pkg.validator && vbox) {
      const ready = await prepareValidator(compileDirectly(vbox, pkg), vbox, pkg.validator);
      if ("error" in ready) return { verdict: "IE", verdictHigh: "IE", maxTimeMs: 0, detail: ready.error };
      validator = ready;
    }
    const compiled = await compileSource(box, s.language, s.code);
    if (!compiled.ok) {
      const ie = compiled.result.status === "XX";
      return { verdict: ie ? "IE" : "CE", verdictHigh: ie ? "IE" : "CE", maxTimeMs: 0, detail: compiled.diagnostics.split("\n")[0] };
    }
    let verdict: VerifyVerdict | null = null;
    let maxTimeMs = 0;
    if (pkg.scoring) {
      const j = await judgeScored({ box, ...(vbox ? { vbox } : {}), validator }, { ...pkg, scoring: pkg.scoring }, s.language, compiled, tlMs, tlHighMs, memoryLimitKib, verifyWallLimitMs(tlHighMs));
      const v = verifyVerdict(j.verdict);
      return { verdict: v, verdictHigh: v, maxTimeMs: j.maxTimeMs, score: j.score, maxScore: j.maxScore, ...(j.detail ? { detail: j.detail } : {}) };
    }
    if (validator && vbox && (pkg.interactive || pkg.validationPasses > 1)) {
      // Interactive or multi-pass: each test through the validator as the judge runs it (src/judge/interactive.ts).
      for (const test of pkg.tests) {
        const t = await judgePassedTest({
          box, vbox, validator, language: s.language, entry: compiled.entry, files: compiled.artifacts, filesInBox: true,
          limits: { timeLimitMs: tlHighMs, memoryLimitKib, outputLimitBytes: OUTPUT_LIMIT_BYTES },
          input: test.input, answer: test.answer, interactive: pkg.interactive, passes: pkg.validationPasses,
        });
        const cpuMs = Math.max(...t.runs.map((r) => r.cpuTimeMs), 0);
        maxTimeMs = Math.max(maxTimeMs, ...t.runs.map(reportedTimeMs));
        const high = verifyVerdict(passFailVerdict(t));
        // problemtools: slower than TL is TLE, except a WA the validator decided first.
        const atTl: VerifyVerdict = t.validatorFirst ? high : cpuMs > tlMs || high === "TLE" ? "TLE" : high;
        if (verdict === null && atTl !== "AC") verdict = atTl;
        if (high !== "AC") return { verdict: verdict ?? atTl, verdictHigh: high, maxTimeMs, detail: `${test.name}: ${high}` };
      }
      return { verdict: verdict ?? "AC", verdictHigh: "AC", maxTimeMs };
    }
    for (const test of pkg.tests) {
      const result = await runProgram(box, s.language, {
        entry: compiled.entry,
        stdin: test.input,
        timeLimitMs: tlHighMs,
        wallTimeLimitMs: verifyWallLimitMs(tlHighMs),
        memoryLimitKib,
      });
      // A run the wall clock ended took at least its wall time, as the judge reports it (reportedTimeMs).
      maxTimeMs = Math.max(maxTimeMs, reportedTimeMs(result));
      const decided =
        validator && vbox && result.status === "OK"
          ? passFailVerdict(await runValidator(vbox, (req) => vbox.run(req), validator, test.input, test.answer, result.stdout))
          : decideVerdict(result, test.answer, "kattis", pkg.validatorFlags).verdict;
      const high = verifyVerdict(decided);
      // problemtools: slower than TL is TLE whatever happened next.
      const atTl: VerifyVerdict = result.cpuTimeMs > tlMs || high === "TLE" ? "TLE" : high;
      if (verdict === null && atTl !== "AC") verdict = atTl;
      if (high !== "AC") return { verdict: verdict ?? atTl, verdictHigh: high, maxTimeMs, detail: `${test.name}: ${high}` };
    }
    return { verdict: verdict ?? "AC", verdictHigh: "AC", maxTimeMs };
  } finally {
    await backend.release(box!);
    if (vbox) await backend.release(vbox);
  }
}

/** A judge verdict as verify names it: OLE is a run-time error (problemtools'); MLE stays apart, and a Kattis RE folder takes it (matches). */
function verifyVerdict(v: string): VerifyVerdict {
  return v === "OLE" ? "RE" : (v as VerifyVerdict);
}

/** A run made under the generous deriving limit, read again at TL and TL_high (its times hold). */
function reread(j: Judged, tl: number, tlHigh: number): Judged {
  if (j.verdictHigh !== "AC") return j;
  return { ...j, verdict: j.maxTimeMs > tl ? "TLE" : "AC", verdictHigh: j.maxTimeMs > tlHigh ? "TLE" : "AC" };
}

/** A time limit derived from a package's accepted submissions (deriveTimeLimit). */
export interface DerivedTimeLimit {
  /** TL, ms, within PROBLEM_LIMITS. */
  timeLimitMs: number;
  /** The slowest test of the accepted submissions that passed, ms (T_ac); null when none passed. */
  slowestAcMs: number | null;
  /** The package's ac_to_time_limit the limit was derived with. */
  acToTimeLimit: number;
  /** Accepted submissions judged, and how many of them passed every test under the deriving limit. */
  accepted: number;
  passed: number;
}

/**
 * problemtools' rule: the accepted submissions run under a generous limit
 * (DERIVING_TIME_LIMIT_MS), then TL = max(1, ceil(T_ac · ac_to_time_limit /
 * TIME_RESOLUTION_MS)) · TIME_RESOLUTION_MS, kept within the problems' bounds.
 */
async function derive(backend: SandboxBackend, pkg: ProblemPackage, memoryLimitKib: number, yieldToJudging: () => Promise<void>): Promise<DerivedTimeLimit & { judged: Map<PackageSubmission, Judged> }> {
  const accepted = pkg.submissions.filter((s) => s.expected === "AC");
  const judged = new Map<PackageSubmission, Judged>();
  for (const s of accepted) {
    await yieldToJudging();
    judged.set(s, await judge(backend, pkg, s, DERIVING_TIME_LIMIT_MS, DERIVING_TIME_LIMIT_MS, memoryLimitKib));
  }
  const passedTimes = [...judged.values()].filter((j) => j.verdictHigh === "AC").map((j) => j.maxTimeMs);
  const tAc = Math.max(0, ...passedTimes);
  const raw = Math.max(1, Math.ceil((tAc * pkg.timeMultipliers.acToTimeLimit) / TIME_RESOLUTION_MS)) * TIME_RESOLUTION_MS;
  return {
    timeLimitMs: Math.min(PROBLEM_LIMITS.timeLimitMs.max, Math.max(PROBLEM_LIMITS.timeLimitMs.min, raw)),
    slowestAcMs: passedTimes.length ? tAc : null,
    acToTimeLimit: pkg.timeMultipliers.acToTimeLimit,
    accepted: accepted.length,
    passed: passedTimes.length,
    judged,
  };
}

/** How an import says a derived limit came about. */
export function derivedFrom(d: DerivedTimeLimit): string {
  const n = d.passed;
  return `derived from ${n} accepted submission${n === 1 ? "" : "s"} (the package states none): slowest test ${d.slowestAcMs} ms × ac_to_time_limit ${d.acToTimeLimit}, rounded up to whole seconds`;
}

/** How the warning of an import whose package states no time limit begins (the import's result may replace it once one is derived). */
export const NO_STATED_TIME_LIMIT = "the package states no time limit";

/**
 * Derives a package's time limit from its accepted submissions, as
 * problemtools does for a package that states none (see derive): what an
 * import does before the problem exists, so it is never judged at a limit
 * the package did not mean.
 * @param memoryLimitKib the memory limit the problem will have.
 * @returns the limit with what it came from; `passed: 0` when no accepted submission passed (the limit then means nothing).
 */
export async function deriveTimeLimit(
  backend: SandboxBackend,
  pkg: ProblemPackage,
  memoryLimitKib: number,
  /** Awaited before each accepted submission takes a box (the server passes one: live judging goes first). */
  yieldToJudging: () => Promise<void> = async () => {},
): Promise<DerivedTimeLimit> {
  const { judged: _judged, ...d } = await derive(backend, pkg, memoryLimitKib, yieldToJudging);
  return d;
}

/**
 * Judges every example submission of `pkg`.
 * @param onRow called as each submission is judged (progress).
 */
export async function verifyPackage(
  backend: SandboxBackend,
  pkg: ProblemPackage,
  onRow?: (row: VerifyRow) => void,
  memoryLimitKib = pkg.memoryLimitKib ?? 256 * 1024,
  /** Awaited before each example submission takes a box: live judging goes first (the server's verify passes one). */
  yieldToJudging: () => Promise<void> = async () => {},
): Promise<VerifyReport> {
  const rows: VerifyRow[] = [];
  let done = new Map<PackageSubmission, Judged>();
  let tl = pkg.timeLimitMs;
  let source: VerifyReport["timeLimitSource"] = "package";
  if (tl === null) {
    source = "derived";
    const d = await derive(backend, pkg, memoryLimitKib, yieldToJudging);
    done = d.judged;
    tl = d.timeLimitMs;
  }
  // Within the problems' bounds, whatever the package's numbers: the derived limit is stored on the problem.
  tl = Math.min(PROBLEM_LIMITS.timeLimitMs.max, Math.max(PROBLEM_LIMITS.timeLimitMs.min, tl));
  const tlHigh = Math.min(VERIFY_RUN_MAX_MS, Math.round(tl * pkg.timeMultipliers.timeLimitToTle));
  let slowestAc: number | null = null;
  for (const s of pkg.submissions) {
    // Accepted submissions judged while deriving ran under a looser limit: their times hold, their verdicts are re-read at TL.
    const prior = done.get(s);
    if (!prior) await yieldToJudging();
    const j = prior ? reread(prior, tl, tlHigh) : await judge(backend, pkg, s, tl, tlHigh, memoryLimitKib);
    let ok = matches(s.expected, j.verdict);
    let note: string | undefined;
    if (j.score !== undefined && j.maxScore !== undefined) {
      // A scoring package: the expected score range, else the folder (partially_accepted: strictly between 0 and full).
      ok = s.expectedScore ? scoreMatches(j.score, s.expectedScore) : s.expected === "PAC" ? j.score > 0 && j.score < j.maxScore : ok;
      if (!ok) note = `expected ${s.expectedScore ? `a score in [${s.expectedScore.join(", ")}]` : s.expected}, got ${j.verdict} ${j.score}/${j.maxScore}${j.detail ? ` (${j.detail})` : ""}`;
    } else if (!ok) note = `expected ${s.expected}, got ${j.verdict}${j.detail ? ` (${j.detail})` : ""}`;
    else if (s.expected === "TLE" && j.verdictHigh !== "TLE") {
      ok = false;
      note = `TLE only within the safety margin: finished under ${tlHigh} ms (time_limit_to_tle ${pkg.timeMultipliers.timeLimitToTle})`;
    } else if (j.verdict !== j.verdictHigh) note = `sensitive to the time limit (${j.verdict} at ${tl} ms, ${j.verdictHigh} at ${tlHigh} ms)`;
    if (s.expected === "AC" && j.verdict === "AC") slowestAc = Math.max(slowestAc ?? 0, j.maxTimeMs);
    if (s.expected === "AC" && ok && j.maxTimeMs * pkg.timeMultipliers.acToTimeLimit > tl) {
      note = `slowest test ${j.maxTimeMs} ms is within ac_to_time_limit ${pkg.timeMultipliers.acToTimeLimit} of the ${tl} ms limit`;
    }
    const row: VerifyRow = {
      path: s.path, language: s.language, expected: s.expected, verdict: j.verdict, verdictHigh: j.verdictHigh, maxTimeMs: j.maxTimeMs, ok,
      ...(note ? { note } : {}),
      ...(j.score !== undefined ? { score: j.score, maxScore: j.maxScore!, ...(s.expectedScore ? { expectedScore: s.expectedScore } : {}) } : {}),
    };
    rows.push(row);
    onRow?.(row);
  }
  return { timeLimitMs: tl, timeLimitSource: source, timeLimitHighMs: tlHigh, slowestAcMs: slowestAc, rows, ok: rows.every((r) => r.ok) };
}

/** The report as verifyproblem-style text lines. */
export function formatReport(pkgName: string, r: VerifyReport): string[] {
  const lines = [`${pkgName}: time limit ${r.timeLimitMs} ms (${r.timeLimitSource}), with safety margin ${r.timeLimitHighMs} ms`];
  const width = Math.max(10, ...r.rows.map((x) => x.path.length));
  for (const x of r.rows) {
    lines.push(`${x.ok ? "OK  " : "FAIL"} ${x.path.padEnd(width)} expected ${x.expected.padEnd(8)} got ${x.verdict.padEnd(3)} ${String(x.maxTimeMs).padStart(6)} ms${x.note ? `  ${x.note}` : ""}`);
  }
  if (r.slowestAcMs !== null) lines.push(`slowest accepted test ${r.slowestAcMs} ms: the limit is ${(r.timeLimitMs / Math.max(1, r.slowestAcMs)).toFixed(1)}x that`);
  lines.push(r.ok ? `verify: all ${r.rows.length} submissions as expected` : `verify: ${r.rows.filter((x) => !x.ok).length} of ${r.rows.length} submissions not as expected`);
  return lines;
}
