/**
 * One user's storage: what their live problems hold in the database (hidden
 * tests, statements and samples, a custom validator, package examples and
 * translations, statement images; a course problem counts for its owner), and
 * the quota a write that adds to it must stay under (USER_STORAGE_MAX_MIB,
 * default 2048 MiB: four problems at PROBLEM_TESTS_MAX_MIB's 512, while an
 * ordinary problem holds a few MiB). Admins are exempt. Sizes are the stored
 * bytes as SQLite keeps them (`octet_length`, read from the record headers,
 * never the data itself), so the sum costs no more than counting rows.
 *
 * A deleted problem counts for nothing: its hidden tests and images are
 * removed (`freeDeletedProblems`) once no submission of it waits to be judged,
 * keeping the row its submissions' history names.
 */
import { and, eq, inArray, isNotNull, isNull, ne, notInArray, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problemAssets, problemPackages, problems, submissions, testCases, users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { ProblemCeilings } from "./ceilings.ts";
import { deleteAssetsOf } from "../packages/asset-cleanup.ts";

import { STORAGE_SETTING, USER_STORAGE_DEFAULT_MIB, type StorageCeiling } from "./quota-setting.ts";

export { STORAGE_SETTING, USER_STORAGE_DEFAULT_MIB, type StorageCeiling } from "./quota-setting.ts";

const MIB = 1024 * 1024;
/** "12.3 MiB". */
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

/** Ceilings that may carry the quota (`config.ceilings` does; DEFAULT_CEILINGS, used by the CLI and tests, does not). */
export type WithStorage = ProblemCeilings & Partial<StorageCeiling>;

/** The quota in `ceilings`, or the default when they carry none. */
export function storageQuotaBytes(ceilings: WithStorage): number {
  return ceilings.userStorageBytes ?? USER_STORAGE_DEFAULT_MIB * MIB;
}

/** UTF-8 bytes of hidden tests (input and expected output). */
export function testBytesOf(tests: readonly { input: string; expectedOutput: string }[]): number {
  let n = 0;
  for (const t of tests) n += Buffer.byteLength(t.input) + Buffer.byteLength(t.expectedOutput);
  return n;
}

/** Bytes a problem's own columns hold (statement, samples, validator), as SQL over `problems`. */
const problemRowBytes = sql<number>`coalesce(octet_length(${problems.title}), 0) + coalesce(octet_length(${problems.description}), 0)
  + coalesce(octet_length(${problems.inputFormat}), 0) + coalesce(octet_length(${problems.outputFormat}), 0)
  + coalesce(octet_length(${problems.constraints}), 0) + coalesce(octet_length(${problems.sampleInput}), 0)
  + coalesce(octet_length(${problems.sampleOutput}), 0) + coalesce(octet_length(${problems.validator}), 0)`;

/**
 * What `userId`'s live problems store, bytes: hidden tests, the problems' own
 * columns, package examples and translations, statement images.
 * @param exceptProblemId leaves one problem out (its new size is counted by the caller).
 */
export async function storedBytesOf(db: Database, userId: string, exceptProblemId?: string): Promise<number> {
  const owned = and(eq(problems.userId, userId), isNull(problems.deletedAt), exceptProblemId ? ne(problems.id, exceptProblemId) : undefined);
  const ids = db.select({ id: problems.id }).from(problems).where(owned);
  const [rows, tests, assets, packages] = await Promise.all([
    db.select({ n: sql<number>`coalesce(sum(${problemRowBytes}), 0)` }).from(problems).where(owned),
    db
      .select({ n: sql<number>`coalesce(sum(octet_length(${testCases.input}) + octet_length(${testCases.expectedOutput})), 0)` })
      .from(testCases)
      .where(inArray(testCases.problemId, ids)),
    db.select({ n: sql<number>`coalesce(sum(octet_length(${problemAssets.content})), 0)` }).from(problemAssets).where(inArray(problemAssets.problemId, ids)),
    db
      .select({ n: sql<number>`coalesce(sum(octet_length(${problemPackages.examples}) + coalesce(octet_length(${problemPackages.translations}), 0)), 0)` })
      .from(problemPackages)
      .where(inArray(problemPackages.problemId, ids)),
  ]);
  return Number(rows[0]?.n ?? 0) + Number(tests[0]?.n ?? 0) + Number(assets[0]?.n ?? 0) + Number(packages[0]?.n ?? 0);
}

/** What one problem's hidden tests hold now, bytes. */
export async function storedTestBytes(db: Database, problemId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(octet_length(${testCases.input}) + octet_length(${testCases.expectedOutput})), 0)` })
    .from(testCases)
    .where(eq(testCases.problemId, problemId));
  return Number(row?.n ?? 0);
}

/** UTF-8 bytes of the text fields a problem write stores in the problem's own row (absent ones count 0). */
export function rowBytesOf(values: Partial<Record<"title" | "description" | "inputFormat" | "outputFormat" | "constraints" | "sampleInput" | "sampleOutput", string>> & { validator?: unknown }): number {
  let n = 0;
  for (const k of ["title", "description", "inputFormat", "outputFormat", "constraints", "sampleInput", "sampleOutput"] as const) n += Buffer.byteLength(values[k] ?? "");
  if (values.validator) n += Buffer.byteLength(JSON.stringify(values.validator));
  return n;
}

/**
 * Refuses a write that would take `ownerId`'s storage over the quota. A
 * write that adds nothing (`addedBytes` ≤ 0) always passes, so a user over a
 * lowered quota can still shrink and fix their problems. Admins are exempt.
 * @param addedBytes what the write adds to the owner's stored bytes (its new size minus what it replaces).
 * @param exceptProblemId the problem being replaced, left out of the current use (its new size is in `addedBytes`).
 * @throws AppError PAYLOAD_TOO_LARGE (413) on `field`, naming the owner's use, the quota and the setting.
 */
export async function assertStorageQuota(
  db: Database,
  ownerId: string,
  addedBytes: number,
  ceilings: WithStorage,
  field: string,
  exceptProblemId?: string,
): Promise<void> {
  if (addedBytes <= 0) return;
  const [owner] = await db.select({ siteRole: users.siteRole }).from(users).where(eq(users.id, ownerId)).limit(1);
  if (owner?.siteRole === "admin") return;
  const quota = storageQuotaBytes(ceilings);
  const used = await storedBytesOf(db, ownerId, exceptProblemId);
  if (used + addedBytes <= quota) return;
  throw new AppError("PAYLOAD_TOO_LARGE", {
    field,
    message:
      `${field}: this adds ${mib(addedBytes)} to the ${mib(used)} the owner's problems already store; ` +
      `one user's problems may store ${quota / MIB} MiB together (the setting ${STORAGE_SETTING}); delete problems or their tests to make room`,
    details: { setting: STORAGE_SETTING, usedBytes: used, addedBytes, quotaBytes: quota },
  });
}

/**
 * Removes the hidden tests and statement images of deleted problems (`problemIds`,
 * else every deleted one) that no submission waits for (queued, compiling or
 * running: those are still judged against the tests they were submitted to;
 * the next delete frees them). The problem row stays: submissions name it.
 * @returns how many tests were removed.
 */
export async function freeDeletedProblems(db: Database, problemIds?: string[]): Promise<number> {
  const waited = db.selectDistinct({ id: submissions.problemId }).from(submissions).where(inArray(submissions.status, ["queued", "compiling", "running"]));
  const deleted = db
    .select({ id: problems.id })
    .from(problems)
    .where(and(isNotNull(problems.deletedAt), isNull(problems.stagedAt), problemIds ? inArray(problems.id, problemIds) : undefined, notInArray(problems.id, waited)));
  const [tests] = await db.batch([db.delete(testCases).where(inArray(testCases.problemId, deleted)), deleteAssetsOf(db, deleted)]);
  return tests.rowsAffected;
}
