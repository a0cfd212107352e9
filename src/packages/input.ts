/** What a package import accepts (zod), and how a package's faults reach the caller. */
import { z } from "zod";
import { AppError } from "../errors.ts";
import { idField } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { DIFFICULTIES } from "../problems/limits.ts";
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
