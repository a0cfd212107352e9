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
import { PackageError } from "./files.ts";
import { ceilingMessage, CEILING_SETTINGS, DEFAULT_CEILINGS, type ProblemCeilings } from "../problems/ceilings.ts";
import type { ProblemPackage } from "./format.ts";
import { splitStatement } from "./statement.ts";
import { keepPackageMeta } from "./verify-service.ts";
import { saveAssets } from "./assets.ts";

export interface ImportOptions {
  courseId?: string;
  difficulty?: Difficulty;
  /** This server's ceilings (config.ceilings); DEFAULT_CEILINGS when not given. */
  ceilings?: ProblemCeilings;
  /** What runs Python 3 submissions, chosen by the importer (where the contest ran Python on PyPy); else the package's `languages` decides. */
  pythonImplementation?: PythonImplementation;
}

/**
 * The format's memory limit of a package that sets none, KiB: 1024 MiB for
 * legacy packages, 2048 MiB from 2023-07 on (spec/legacy.md and
 * spec/2025-09.md, `limits.memory`).
 */
export function formatDefaultMemoryKib(version: ProblemPackage["formatVersion"]): number {
  return (version === "legacy" ? 1024 : 2048) * 1024;
}

export interface ImportResult {
  problem: ProblemShape;
  /** What the package had that the problem does not keep, and limits that were chosen here. */
  warnings: string[];
  /** Example submissions found (for verify), by expected outcome. */
  submissions: Record<string, number>;
}

/**
 * The problem input a package becomes (validated like a form's).
 * @throws PackageError when a limit is outside this judge's bounds; AppError BAD_INPUT naming the field otherwise.
 */
export function problemFromPackage(pkg: ProblemPackage, opts: ImportOptions = {}): { input: ProblemInput; warnings: string[] } {
  const warnings = [...pkg.warnings];
  const [first, ...rest] = pkg.tests;
  const sample = first && first.sample ? first : null;
  if (!sample) throw new PackageError("data/sample/", "no sample test: the first sample is shown to solvers and judged first");
  const { description, input, output, constraints } = splitStatement(pkg.statement);
  let timeLimitMs = pkg.timeLimitMs;
  if (timeLimitMs === null) {
    timeLimitMs = DEFAULT_TIME_LIMIT_MS;
    warnings.push(`the package gives no time limit: ${DEFAULT_TIME_LIMIT_MS} ms for now; \`bun run problem -- verify\` derives it from the accepted submissions`);
  }
  const t = PROBLEM_LIMITS.timeLimitMs;
  if (timeLimitMs < t.min || timeLimitMs > t.max) {
    throw new PackageError("problem.yaml", `limits.time_limit ${timeLimitMs / 1000} s is outside this judge's ${t.min / 1000}–${t.max / 1000} s`);
  }
  const ceilings = opts.ceilings ?? DEFAULT_CEILINGS;
  const memoryLimitKib = packageMemoryKib(pkg, ceilings, warnings);
  if (rest.length > ceilings.testCount) {
    throw new PackageError("data/", `${rest.length + 1} test cases; the sample and ${ceilingMessage("testCount", ceilings)} more`);
  }
  // An interactive sample's transcript (.interaction) is shown with the statement, once.
  let shownDescription = description || pkg.statement.trim() || pkg.name;
  if (sample.interaction && !shownDescription.includes(sample.interaction.trim())) {
    shownDescription += `\n\n## Sample interaction\n\nLines starting with \`<\` are what the validator sends; lines starting with \`>\` are what your program writes.\n\n\`\`\`\n${sample.interaction.trimEnd()}\n\`\`\``;
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
    checker: pkg.validator ? "custom" : "kattis",
    checkerFlags: pkg.validatorFlags,
    ...(pkg.validator ? { validator: { files: pkg.validator.files, args: pkg.validator.args } } : {}),
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
  return { input: parsed.data, warnings };
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
function hiddenOf(pkg: ProblemPackage, rest: ProblemPackage["tests"], warnings: string[]): { input: string; expectedOutput: string }[] {
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
  const { input, warnings } = problemFromPackage(pkg, opts);
  const problem = await createProblem(db, userId, input, opts.ceilings ?? DEFAULT_CEILINGS);
  await keepPackageMeta(db, problem._id, pkg);
  await saveAssets(db, problem._id, pkg.assets);
  const submissions: Record<string, number> = {};
  for (const s of pkg.submissions) submissions[s.expected] = (submissions[s.expected] ?? 0) + 1;
  return { problem, warnings, submissions };
}
