/**
 * `bun run problem -- import PATH --owner EMAIL [--course ID] [--difficulty easy|medium|hard]`:
 * imports a problem package (a folder or a .zip) as a problem owned by an
 * existing account, with the server's configuration (DATABASE_URL, ...).
 * Prints the new problem's id, what the package had that the problem does not
 * keep, and its example submissions. Exit code 1 on any problem, with the file
 * and line that causes it.
 */
import { readFileSync, statSync } from "node:fs";
import { migrateDatabase, openDatabase } from "../../db/index.ts";
import { userIdByEmail } from "../accounts/user.ts";
import { exitOnConfigError, loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { DIFFICULTIES, type Difficulty } from "../problems/limits.ts";
import { filesFromFolder, filesFromZip, PackageError } from "./files.ts";
import { readPackage } from "./format.ts";
import { importPackage } from "./import.ts";

export const PROBLEM_USAGE = "usage: bun run problem -- import PATH --owner EMAIL [--course COURSE_ID] [--difficulty easy|medium|hard]";

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** @returns the exit code. */
export async function problemCli(argv: string[]): Promise<number> {
  const [command, path] = argv;
  const owner = option(argv, "--owner");
  const difficulty = option(argv, "--difficulty");
  if (command !== "import" || !path || !owner || (difficulty !== undefined && !DIFFICULTIES.includes(difficulty as Difficulty))) {
    console.error(PROBLEM_USAGE);
    return 1;
  }
  let pkg;
  try {
    const files = statSync(path).isDirectory() ? filesFromFolder(path) : filesFromZip(readFileSync(path));
    pkg = readPackage(files);
  } catch (err) {
    console.error(`problem: ${err instanceof PackageError ? err.message : String(err)}`);
    return 1;
  }
  const config = await exitOnConfigError(() => loadConfig(process.env));
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    const userId = await userIdByEmail(db, owner);
    if (!userId) {
      console.error(`problem: no account with the email ${owner} (sign up first)`);
      return 1;
    }
    const course = option(argv, "--course");
    const r = await importPackage(db, userId, pkg, { ...(course ? { courseId: course } : {}), ...(difficulty ? { difficulty: difficulty as Difficulty } : {}) });
    console.log(`problem: imported "${r.problem.title}" as ${r.problem._id} (${r.problem.hiddenTestCount + 1} tests, ${r.problem.timeLimitMs} ms for every language, checker kattis${r.problem.checkerFlags ? ` ${r.problem.checkerFlags}` : ""})`);
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
