/**
 * A problem's statement in every language it has (issue 34 §8): the main
 * statement's language (the problem's own description; "en" unless its
 * package's main file named another) and the others as Markdown by language
 * code (ISO 639-1/-2, as the Kattis format names them: `problem.sv.md`).
 * Kept with the package (problem_packages.translations, statement_language);
 * a problem written here has its main statement only.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problemPackages } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireVisibleProblem } from "./access.ts";

export interface ProblemStatements {
  /** The main statement's language code ("en", "sv", ...). */
  language: string;
  /** Every other language's statement, whole, as Markdown (with `$…$` math), by language code. */
  translations: Record<string, string>;
}

/**
 * The statements of a problem the caller may see.
 * @throws AppError PROBLEM_NOT_FOUND (404) when it is not visible to the caller.
 */
export async function readStatements(db: Database, user: Caller | null, problemId: string, now: number): Promise<ProblemStatements> {
  await requireVisibleProblem(db, user, problemId, now);
  const [row] = await db
    .select({ language: problemPackages.statementLanguage, translations: problemPackages.translations })
    .from(problemPackages)
    .where(eq(problemPackages.problemId, problemId))
    .limit(1);
  if (!row) return { language: "en", translations: {} };
  const translations = { ...row.translations };
  delete translations[row.language];
  return { language: row.language, translations };
}
