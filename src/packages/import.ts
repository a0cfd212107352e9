/**
 * A read package → a problem of this judge: the statement split into the
 * problem's fields, the first sample as the sample (judged as test 0), the
 * other samples and the secret data as hidden tests in the format's order,
 * the package's limits with one time limit for every language, and the
 * `kattis` checker with the package's validator flags.
 */
import type { Database } from "../../db/index.ts";
import { AppError } from "../errors.ts";
import { problemInput, type ProblemInput } from "../problems/input.ts";
import { DEFAULT_TIME_LIMIT_MS, PROBLEM_LIMITS, type Difficulty, type PythonImplementation } from "../problems/limits.ts";
import type { ProblemShape } from "../problems/shape.ts";
import { createProblem } from "../problems/store.ts";
import { discardStaged, publishStaged, stageProblem } from "../problems/staged.ts";
import { PackageError } from "./files.ts";
import { ceilingMessage, CEILING_SETTINGS, DEFAULT_CEILINGS, type ProblemCeilings } from "../problems/ceilings.ts";
import type { PackageTest, ProblemPackage, TimeLimitSource } from "./format.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import { deriveTimeLimit, derivedFrom, NO_STATED_TIME_LIMIT, type DerivedTimeLimit } from "./verify.ts";
import { splitStatement } from "./statement.ts";
import { keepPackageMeta } from "./package-meta.ts";
import { saveAssets } from "./assets.ts";
import { tagsFromKeywords } from "../problems/tags/keywords.ts";

export interface ImportOptions {
  courseId?: string;
  difficulty?: Difficulty;
  /** This server's ceilings (config.ceilings); DEFAULT_CEILINGS when not given. */
  ceilings?: ProblemCeilings;
  /** What runs Python 3 submissions, chosen by the importer (where the contest ran Python on PyPy); else the package's `languages` decides. */
  pythonImplementation?: PythonImplementation;
  /**
   * The sandbox that derives the time limit of a package that states none
   * (importPackage): its accepted submissions are judged before the problem
   * exists. Without one (or without accepted submissions) such a package gets
   * DEFAULT_TIME_LIMIT_MS, and the result says so.
   */
  backend?: SandboxBackend | null;
  /** A limit already derived for this package (the CLI's verify did it): used as is. */
  derivedTimeLimit?: DerivedTimeLimit;
  /**
   * Write the problem staged under this id (../problems/staged.ts): row, tests, package data and
   * images each in short writes, shown in one write at the end, removed if any step fails.
   * Without it the problem is written in one transaction (small packages, the inline import).
   */
  stagedId?: string;
}

/**
 * The format's memory limit of a package that sets none, KiB: 1024 MiB for
 * legacy packages, 2048 MiB from 2023-07 on (spec/legacy.md and
 * spec/2025-09.md, `limits.memory`).
 */
export function formatDefaultMemoryKib(version: ProblemPackage["formatVersion"]): number {
  return (version === "legacy" ? 1024 : 2048) * 1024;
}

/** Where an imported problem's time limit came from: a file of the package, its accepted submissions, or this judge's default. */
export type ImportedTimeLimitSource = TimeLimitSource | "derived" | "default";

export interface ImportResult {
  problem: ProblemShape;
  /** What the package had that the problem does not keep, and limits that were chosen here. */
  warnings: string[];
  /** Example submissions found (for verify), by expected outcome. */
  submissions: Record<string, number>;
  /** Where the problem's time limit came from. */
  timeLimitSource: ImportedTimeLimitSource;
  /** The same in words, e.g. "domjudge-problem.ini (timelimit, DOMjudge)" or "derived from 2 accepted submissions: …". */
  timeLimitFrom: string;
}

/** The words for a stated limit's file, as the import result says them. */
const STATED_FROM: Record<TimeLimitSource, string> = {
  "problem.yaml": "problem.yaml (limits.time_limit)",
  ".timelimit": ".timelimit (DOMjudge)",
  "domjudge-problem.ini": "domjudge-problem.ini (timelimit, DOMjudge)",
  "problem.xml": "problem.xml (the tests testset's time-limit, Polygon)",
};

/**
 * The time limit a package gets, ms, and where it came from: the limit it
 * states (statedTimeLimit in ./format.ts), else the one derived from its
 * accepted submissions, else DEFAULT_TIME_LIMIT_MS with a warning that says
 * why (never silently).
 */
function timeLimitOf(pkg: ProblemPackage, derived: DerivedTimeLimit | undefined, warnings: string[]): { timeLimitMs: number; source: ImportedTimeLimitSource; from: string } {
  if (pkg.timeLimitMs !== null) {
    const source = pkg.timeLimitSource ?? "problem.yaml";
    return { timeLimitMs: pkg.timeLimitMs, source, from: STATED_FROM[source] };
  }
  if (derived && derived.passed > 0) return { timeLimitMs: derived.timeLimitMs, source: "derived", from: derivedFrom(derived) };
  const why = derived
    ? `none of its ${derived.accepted} accepted submission(s) passed every test, so none could be derived`
    : pkg.submissions.some((s) => s.expected === "AC")
      ? "this server has no sandbox to derive one from its accepted submissions"
      : "it has no accepted submissions to derive one from";
  warnings.push(`${NO_STATED_TIME_LIMIT} (problem.yaml limits.time_limit, .timelimit or domjudge-problem.ini) and ${why}: ${DEFAULT_TIME_LIMIT_MS} ms for now; set the real one in the problem's form`);
  return { timeLimitMs: DEFAULT_TIME_LIMIT_MS, source: "default", from: `this judge's default (the package states none and ${why})` };
}

/**
 * The sample shown to solvers and the tests judged after it. The first
 * sample with an answer is the problem's sample (judged as test 0). An
 * interactive problem needs no sample answer (its validator may need none)
 * and no judged sample at all (samples given only as `.interaction`): the
 * first sample's input is then shown with an empty answer, which the judge
 * does not run as test 0, and the judged samples go first among the hidden
 * tests, so each is still judged.
 * @throws PackageError when a problem that is not interactive has no sample.
 */
function sampleAndRest(pkg: ProblemPackage, warnings: string[]): { sample: { input: string; answer: string }; rest: PackageTest[] } {
  const first = pkg.tests[0];
  if (first?.sample && (first.answer.trim() !== "" || !pkg.interactive)) return { sample: first, rest: pkg.tests.slice(1) };
  if (!pkg.interactive) throw new PackageError("data/sample/", "no sample test: the first sample is shown to solvers and judged first");
  if (!first?.sample) {
    if (!pkg.sampleInteractions.length) warnings.push("the package has no sample: solvers see none");
    return { sample: { input: "", answer: "" }, rest: pkg.tests };
  }
  return { sample: { input: first.input, answer: "" }, rest: pkg.tests };
}

/**
 * The problem input a package becomes (validated like a form's), with where its time limit came from.
 * @throws PackageError when a limit is outside this judge's bounds; AppError BAD_INPUT naming the field otherwise.
 */
export function problemFromPackage(
  pkg: ProblemPackage,
  opts: ImportOptions = {},
): { input: ProblemInput; warnings: string[]; timeLimitSource: ImportedTimeLimitSource; timeLimitFrom: string } {
  const warnings = [...pkg.warnings];
  const { sample, rest } = sampleAndRest(pkg, warnings);
  const { description, input, output, constraints } = splitStatement(pkg.statement);
  const limit = timeLimitOf(pkg, opts.derivedTimeLimit, warnings);
  const timeLimitMs = limit.timeLimitMs;
  const t = PROBLEM_LIMITS.timeLimitMs;
  if (timeLimitMs < t.min || timeLimitMs > t.max) {
    const file = limit.source === "derived" || limit.source === "default" ? "problem.yaml" : limit.source;
    throw new PackageError(file, `time limit ${timeLimitMs / 1000} s is outside this judge's ${t.min / 1000}–${t.max / 1000} s`);
  }
  const ceilings = opts.ceilings ?? DEFAULT_CEILINGS;
  const memoryLimitKib = packageMemoryKib(pkg, ceilings, warnings);
  if (rest.length > ceilings.testCount) {
    throw new PackageError("data/", `${rest.length + 1} test cases; the sample and ${ceilingMessage("testCount", ceilings)} more`);
  }
  // The samples' exchanges (.interaction) are shown with the statement, each once.
  let shownDescription = description || pkg.statement.trim() || pkg.name;
  const interactions = pkg.sampleInteractions.filter((i) => i.text.trim() && !shownDescription.includes(i.text.trim()));
  if (interactions.length) {
    const several = interactions.length > 1;
    shownDescription += `\n\n## Sample interaction${several ? "s" : ""}\n\nLines starting with \`<\` are what the validator sends; lines starting with \`>\` are what your program writes.`;
    interactions.forEach((i, n) => {
      shownDescription += `${several ? `\n\n### Sample ${n + 1}` : ""}\n\n\`\`\`\n${i.text.trimEnd()}\n\`\`\``;
    });
  }
  const raw = {
    title: pkg.name,
    description: shownDescription,
    inputFormat: input || "See the description.",
    outputFormat: output || "See the description.",
    constraints: constraints || `Time limit ${timeLimitMs / 1000} s for every language, memory ${Math.round(memoryLimitKib / 1024)} MiB.`,
    sampleInput: sample.input,
    sampleOutput: sample.answer,
    difficulty: opts.difficulty ?? "medium",
    hiddenTestCases: hiddenOf(pkg, rest, warnings),
    timeLimitMs,
    memoryLimitKib,
    checker: pkg.validator ? (pkg.validator.testlib ? "testlib" : "custom") : "kattis",
    checkerFlags: pkg.validatorFlags,
    ...(pkg.validator ? { validator: { files: pkg.validator.files, args: pkg.validator.args, ...(pkg.validator.testlib ? { testlib: pkg.validator.testlib } : {}) } } : {}),
    timeScaledByLanguage: false,
    interactive: pkg.interactive,
    validationPasses: pkg.validationPasses,
    pythonImplementation: opts.pythonImplementation ?? pkg.pythonImplementation,
    // The groups' sizes come with the spec; the hidden tests are the secret ones in order (other samples go first, to no group).
    ...(pkg.scoring ? { scoring: pkg.scoring } : {}),
    ...(opts.courseId ? { courseId: opts.courseId } : {}),
  };
  const parsed = problemInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".");
    throw new AppError("BAD_INPUT", { message: `package: ${field}: ${issue.message}`, field });
  }
  return { input: parsed.data, warnings, timeLimitSource: limit.source, timeLimitFrom: limit.from };
}

/**
 * The memory limit a package gets: its `limits.memory`, else the format's
 * default for its version; a default above this server's ceiling becomes the
 * ceiling (with a warning), a stated limit above it is refused naming the
 * setting that would allow it.
 * @throws PackageError (problem.yaml, limits.memory).
 */
function packageMemoryKib(pkg: ProblemPackage, ceilings: ProblemCeilings, warnings: string[]): number {
  const m = PROBLEM_LIMITS.memoryLimitKib;
  if (pkg.memoryLimitKib === null) {
    const byFormat = formatDefaultMemoryKib(pkg.formatVersion);
    if (byFormat <= ceilings.memoryLimitKib) return byFormat;
    warnings.push(
      `limits.memory is not set: the ${pkg.formatVersion} format's default is ${byFormat / 1024} MiB, above this server's ceiling; ${ceilings.memoryLimitKib / 1024} MiB instead (the setting ${CEILING_SETTINGS.memoryLimitKib} allows more)`,
    );
    return ceilings.memoryLimitKib;
  }
  const kib = pkg.memoryLimitKib;
  if (kib < m.min) throw new PackageError("problem.yaml", `limits.memory ${kib / 1024} MiB: a problem's memory limit is at least ${m.min / 1024} MiB`);
  if (kib > ceilings.memoryLimitKib) throw new PackageError("problem.yaml", `limits.memory ${kib / 1024} MiB: a problem's memory limit is ${ceilingMessage("memoryLimitKib", ceilings)}`);
  return kib;
}

/**
 * The hidden tests of an imported problem: every test after the first sample,
 * in the format's order; on a scoring problem only the secret ones (its
 * groups' tests: other samples score nothing and are left out, with a warning).
 */
function hiddenOf(pkg: ProblemPackage, rest: PackageTest[], warnings: string[]): { input: string; expectedOutput: string }[] {
  const kept = pkg.scoring ? rest.filter((t) => !t.sample) : rest;
  if (kept.length < rest.length) warnings.push(`${rest.length - kept.length} more sample(s) left out: a scoring problem's hidden tests are its groups' tests`);
  return kept.map((tc) => ({ input: tc.input, expectedOutput: tc.answer }));
}

/**
 * Creates the problem from a read package, owned by `userId` (the caller has
 * checked the right to create it, in a course when `courseId` is given).
 * @throws PackageError, AppError BAD_INPUT / PAYLOAD_TOO_LARGE (413).
 */
export async function importPackage(db: Database, userId: string, pkg: ProblemPackage, opts: ImportOptions = {}): Promise<ImportResult> {
  let derivedTimeLimit = opts.derivedTimeLimit;
  if (pkg.timeLimitMs === null && !derivedTimeLimit && opts.backend && pkg.submissions.some((s) => s.expected === "AC")) {
    // Checked first, so a package refused for its tests or limits costs no judging.
    problemFromPackage(pkg, opts);
    derivedTimeLimit = await deriveTimeLimit(opts.backend, pkg, packageMemoryKib(pkg, opts.ceilings ?? DEFAULT_CEILINGS, []));
  }
  const { input, warnings, timeLimitSource, timeLimitFrom } = problemFromPackage(pkg, { ...opts, ...(derivedTimeLimit ? { derivedTimeLimit } : {}) });
  // problem.yaml's keywords become topic tags through the vocabulary's synonyms; one that means no tag is a warning.
  const keywordTags = await tagsFromKeywords(db, pkg.keywords, pkg.keywordsSource);
  warnings.push(...keywordTags.warnings);
  if (keywordTags.slugs.length) input.tags = keywordTags.slugs;
  const ceilings = opts.ceilings ?? DEFAULT_CEILINGS;
  const stagedId = opts.stagedId;
  let problem: ProblemShape;
  try {
    problem = stagedId ? await stageProblem(db, stagedId, userId, input, ceilings) : await createProblem(db, userId, input, ceilings);
    // A derived limit is the problem's own from now on: a later verify judges at it, as at a stated one.
    await keepPackageMeta(db, problem._id, timeLimitSource === "derived" ? { ...pkg, timeLimitMs: problem.timeLimitMs } : pkg);
    await saveAssets(db, problem._id, pkg.assets);
    if (stagedId) await publishStaged(db, stagedId);
  } catch (err) {
    if (stagedId) await discardStaged(db, stagedId);
    throw err;
  }
  const submissions: Record<string, number> = {};
  for (const s of pkg.submissions) submissions[s.expected] = (submissions[s.expected] ?? 0) + 1;
  return { problem, warnings, submissions, timeLimitSource, timeLimitFrom };
}

