/**
 * Problem packages from the command line, with the server's configuration:
 *
 * - `import PATH --owner EMAIL [--course ID] [--difficulty easy|medium|hard] [--python cpython|pypy]`:
 *   imports a package (a folder or a .zip) as a problem owned by an existing
 *   account; prints the new problem's id, what the problem does not keep, and
 *   the example submissions, and where the time limit came from (problem.yaml,
 *   DOMjudge's .timelimit or domjudge-problem.ini). A package that states none
 *   is verified first and gets the limit derived from its accepted submissions,
 *   as the format says.
 * - `verify PATH`: judges every example submission with this judge's sandbox and
 *   default validator and prints one row per submission, like problemtools'
 *   verifyproblem (src/packages/verify.ts).
 *
 * Judging takes this process's sandbox (ISOLATE_BOX_ID_START, SANDBOX_ROOT) like
 * any judging process: beside a running server give it its own range.
 * Exit code 1 on any problem (with the file and line that causes it) or mismatch.
 */
import { CompileCache, compileCacheSettings } from "../judge/compile-cache.ts";
import { readFileSync, statSync } from "node:fs";
import { migrateDatabase, openDatabase } from "../../db/index.ts";
import { userIdByEmail } from "../accounts/user.ts";
import { exitOnConfigError, loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { DIFFICULTIES, PYTHON_IMPLEMENTATIONS, type Difficulty, type PythonImplementation } from "../problems/limits.ts";
import { filesFromFolder, filesFromZip, packageLimits, PackageError, type PackageFiles } from "./files.ts";
import type { ProblemPackage } from "./format.ts";
import { readAnyPackage } from "./read.ts";
import { runsPrograms } from "./polygon/generate.ts";
import { progressWords } from "./polygon/progress.ts";
import { importPackage } from "./import.ts";
import { formatReport, verifyPackage, type DerivedTimeLimit, type VerifyReport } from "./verify.ts";
import { createSandbox } from "../../isolate/index.ts";
import { lockSandbox, sandboxOptions } from "../sandbox.ts";
import type { Config } from "../config.ts";

export const PROBLEM_USAGE =
  "usage: bun run problem -- import PATH --owner EMAIL [--course COURSE_ID] [--difficulty easy|medium|hard] [--python cpython|pypy]\n       bun run problem -- verify PATH";

/** Verifies `pkg` in this process's sandbox, printing rows as they come. @returns the report, or null (printed why) without a sandbox. */
async function verifyHere(config: Config, pkg: ProblemPackage): Promise<VerifyReport | null> {
  let unlock: (() => void) | null = null;
  try {
    unlock = lockSandbox(config);
  } catch (err) {
    console.error(`problem: ${(err as Error).message}`);
    return null;
  }
  const sandbox = await createSandbox(sandboxOptions(config), () => {});
  try {
    if (!sandbox.backend) {
      console.error(`problem: cannot verify: ${sandbox.reason}`);
      return null;
    }
    console.log(`problem: verifying ${pkg.submissions.length} submissions of "${pkg.name}" (${pkg.tests.length} tests, ${sandbox.backend.description ?? sandbox.name})`);
    const report = await verifyPackage(sandbox.backend, pkg, (row) => console.log(`problem:   ${row.ok ? "ok" : "FAIL"} ${row.path}: ${row.verdict}, ${row.maxTimeMs} ms`));
    for (const line of formatReport(pkg.name, report)) console.log(line);
    return report;
  } finally {
    await sandbox.backend?.close();
    unlock();
  }
}

/**
 * Reads a package whose reading runs programs (./polygon/generate.ts) with this host's sandbox, printing progress.
 * @throws PackageError as the read does; Error when the sandbox is held or absent.
 */
async function readInSandbox(config: Config, files: PackageFiles): Promise<ProblemPackage> {
  const unlock = lockSandbox(config);
  const sandbox = await createSandbox(sandboxOptions(config), () => {});
  try {
    if (!sandbox.backend) throw new Error(`cannot generate or validate the tests: ${sandbox.reason}`);
    const { dir, maxBytes } = compileCacheSettings(config);
    const cache = await CompileCache.open(dir, maxBytes);
    return await readAnyPackage(files, { backend: sandbox.backend, ceilings: config.ceilings, cache, onProgress: (p) => console.log(`problem: ${progressWords(p)}`) });
  } finally {
    await sandbox.backend?.close();
    unlock();
  }
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** @returns the exit code. */
export async function problemCli(argv: string[]): Promise<number> {
  const [command, path] = argv;
  const owner = option(argv, "--owner");
  const difficulty = option(argv, "--difficulty");
  // What runs Python 3 submissions, where the contest ran Python on PyPy (else the package's `languages` decides).
  const python = option(argv, "--python");
  const usable =
    (command === "verify" && path) ||
    (command === "import" && path && owner && (difficulty === undefined || DIFFICULTIES.includes(difficulty as Difficulty)) && (python === undefined || PYTHON_IMPLEMENTATIONS.includes(python as PythonImplementation)));
  if (!usable) {
    console.error(PROBLEM_USAGE);
    return 1;
  }
  const config = await exitOnConfigError(() => loadConfig(process.env));
  let pkg: ProblemPackage;
  try {
    const limits = packageLimits(config.ceilings, "disk");
    const files = statSync(path).isDirectory() ? filesFromFolder(path, limits) : filesFromZip(readFileSync(path), limits);
    // A standard Polygon package's tests are generated (and any package's validators run) in this host's sandbox.
    pkg = runsPrograms(files) ? await readInSandbox(config, files) : await readAnyPackage(files);
    if (python) pkg = { ...pkg, pythonImplementation: python as PythonImplementation };
  } catch (err) {
    console.error(`problem: ${err instanceof PackageError ? err.message : String(err)}`);
    return 1;
  }
  if (command === "verify") {
    if (!pkg.submissions.length) {
      console.error("problem: the package has no example submissions to verify (submissions/accepted, wrong_answer, ...)");
      return 1;
    }
    const report = await verifyHere(config, pkg);
    return report?.ok ? 0 : 1;
  }
  let derivedTimeLimit: DerivedTimeLimit | undefined;
  if (pkg.timeLimitMs === null && pkg.submissions.some((s) => s.expected === "AC")) {
    const report = await verifyHere(config, pkg);
    if (!report) return 1;
    const accepted = report.rows.filter((r) => r.expected === "AC");
    derivedTimeLimit = {
      timeLimitMs: report.timeLimitMs,
      slowestAcMs: report.slowestAcMs,
      acToTimeLimit: pkg.timeMultipliers.acToTimeLimit,
      accepted: accepted.length,
      passed: accepted.filter((r) => r.verdictHigh === "AC").length,
    };
  }
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    const userId = await userIdByEmail(db, owner!);
    if (!userId) {
      console.error(`problem: no account with the email ${owner} (sign up first)`);
      return 1;
    }
    const course = option(argv, "--course");
    const r = await importPackage(db, userId, pkg, {
      ...(course ? { courseId: course } : {}),
      ...(difficulty ? { difficulty: difficulty as Difficulty } : {}),
      ceilings: config.ceilings,
      ...(python ? { pythonImplementation: python as PythonImplementation } : {}),
      ...(derivedTimeLimit ? { derivedTimeLimit } : {}),
    });
    console.log(`problem: imported "${r.problem.title}" as ${r.problem._id} (${r.problem.hiddenTestCount + 1} tests, ${r.problem.timeLimitMs} ms for every language, checker ${r.problem.checker}${r.problem.checkerFlags ? ` ${r.problem.checkerFlags}` : ""})`);
    console.log(`problem: time limit from ${r.timeLimitFrom}`);
    for (const w of r.warnings) console.log(`problem: note: ${w}`);
    const subs = Object.entries(r.submissions).map(([k, n]) => `${n} ${k}`);
    if (subs.length) console.log(`problem: example submissions: ${subs.join(", ")}`);
    return 0;
  } catch (err) {
    console.error(`problem: ${err instanceof PackageError || err instanceof AppError ? err.message : String(err)}`);
    return 1;
  } finally {
    client.close();
  }
}
