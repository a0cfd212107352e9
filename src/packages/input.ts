/** What a package import accepts (zod), how a package's faults reach the caller, and the import as a caller asks for it. */
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { authorizeProblemWrite } from "../problems/access.ts";
import { filesFromZip, packageLimits } from "./files.ts";
import type { ProblemCeilings } from "../problems/ceilings.ts";
import { readPackage } from "./format.ts";
import { importPackage, type ImportResult } from "./import.ts";
import { idField } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { DIFFICULTIES, PYTHON_IMPLEMENTATIONS } from "../problems/limits.ts";
import { PACKAGE_LIMITS, PackageError } from "./files.ts";

/** Base64 of the zip, at most PACKAGE_LIMITS.zipMaxBytes once decoded. */
const BASE64_MAX_CHARS = Math.ceil(PACKAGE_LIMITS.zipMaxBytes / 3) * 4;

export const packageImportInput = z.object({
  /** The package's zip, base64. */
  package: z
    .string({ error: (iss) => (iss.input === undefined ? "Required (the package's zip)" : "Must be the zip as base64 text") })
    .min(1, { error: "Required" })
    .max(BASE64_MAX_CHARS, { error: `At most ${PACKAGE_LIMITS.zipMaxBytes / (1024 * 1024)} MiB` })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: "Must be the zip as base64 text" }),
  courseId: idField().optional(),
  difficulty: z.enum(DIFFICULTIES, { error: `Must be ${listInWords(DIFFICULTIES)}` }).optional(),
  /** What runs Python 3 submissions (where the contest ran Python on PyPy); absent: the package's `languages` decides. */
  pythonImplementation: z.enum(PYTHON_IMPLEMENTATIONS, { error: `Must be ${listInWords(PYTHON_IMPLEMENTATIONS)}` }).optional(),
});

/**
 * Runs a package step; a PackageError becomes 400 BAD_INPUT on the field
 * `package`, its message naming the file and line.
 */
export async function readPackageOrExplain<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof PackageError) throw new AppError("BAD_INPUT", { message: `package: ${err.message}`, field: "package" });
    throw err;
  }
}

/**
 * Imports a package (the zip, base64) as a new problem of `user` (in
 * `courseId` when given: problem.edit there).
 * @throws BAD_INPUT (400) naming the package file and line (and the setting that would allow what a ceiling refused), FORBIDDEN (403), RATE_LIMITED (429).
 */
export async function importPackageAs(
  db: Database,
  user: Caller,
  input: z.infer<typeof packageImportInput>,
  limiter: RateLimiter,
  ceilings: ProblemCeilings,
): Promise<ImportResult> {
  await authorizeProblemWrite(db, user, input.courseId, limiter);
  const pkg = await readPackageOrExplain(() => readPackage(filesFromZip(Buffer.from(input.package, "base64"), packageLimits(ceilings, "upload"))));
  return readPackageOrExplain(() => importPackage(db, user.id, pkg, { courseId: input.courseId, difficulty: input.difficulty, ceilings, ...(input.pythonImplementation ? { pythonImplementation: input.pythonImplementation } : {}) }));
}
