/**
 * What an import keeps of a package beyond the problem (table
 * problem_packages): its example submissions and time multipliers, for
 * verifies (./verify-service.ts) and a limit derived after the import. Its
 * own module so the importer (./import.ts) and the verifies' service, which
 * reads the import's result, do not import each other.
 */
import type { Database } from "../../db/index.ts";
import { problemPackages, type PackageExample } from "../../db/schema.ts";
import type { ProblemPackage } from "./format.ts";

/** Keeps a package's examples and time multipliers for later verifies. */
export async function keepPackageMeta(db: Database, problemId: string, pkg: ProblemPackage): Promise<void> {
  const examples: PackageExample[] = pkg.submissions.map((s) => ({ path: s.path, expected: s.expected, language: s.language, code: s.code, ...(s.expectedScore ? { expectedScore: s.expectedScore } : {}) }));
  await db.insert(problemPackages).values({
    problemId,
    examples,
    acToTimeLimit: pkg.timeMultipliers.acToTimeLimit,
    timeLimitToTle: pkg.timeMultipliers.timeLimitToTle,
    timeLimitGiven: pkg.timeLimitMs !== null,
    translations: pkg.translations,
    statementLanguage: pkg.statementLanguage ?? statementLanguageOf(pkg.statementFile),
  });
}

/** The language code a statement file names (`statement/problem.sv.tex` → "sv"); "en" for `problem.md` / `problem.tex`. */
export function statementLanguageOf(file: string): string {
  return /problem\.([a-z]{2,3})\.(md|tex)$/.exec(file)?.[1] ?? "en";
}
