/**
 * Staged problems: how a package import writes a problem of up to
 * PROBLEM_TESTS_MAX_MIB without holding the database's write lock for the
 * whole write (docs/decisions/048, second addendum).
 *
 * Rules:
 * - A staged problem is a `problems` row with `staged_at` set, and also
 *   `deleted_at` (the same instant), so every read that shows only live
 *   problems (`deleted_at is null`: lists, search, byId, pickers, contests,
 *   exports, stats) never shows it; the reads that also show deleted
 *   problems (a submission's history, judging) exclude `staged_at` as well
 *   (./store.ts `getProblemEvenDeleted`, ./quota.ts `freeDeletedProblems`).
 * - Its row is written first, then each hidden test in a statement (a
 *   transaction) of its own, so a write of the server waits for one test's
 *   insert at most, never for the whole package.
 * - `publishStaged` makes it visible in one short write (clears both marks);
 *   until then nobody can name it, so nothing references it.
 * - A failed import discards its staged problem (`discardStaged`, each test
 *   deleted in its own statement too); a killed import's row is discarded by
 *   the server that started it, and any left over (the server was killed) at
 *   the server's next start (`discardAllStaged`): one server imports into its
 *   database (`bun run worker` never imports).
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, testCases } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { ProblemCeilings } from "./ceilings.ts";
import type { ProblemInput } from "./input.ts";
import { toProblemShape, type ProblemShape } from "./shape.ts";
import { checkNewProblem } from "./store.ts";
import { addTagsStatements, tagsByName } from "./tags/problem-tags.ts";

/**
 * Writes a new problem of `userId` as staged, under `id` (chosen by the
 * server, so it can discard the row if the importing process dies): every
 * check of ./store.ts `createProblem`, then the row, then one statement per
 * hidden test.
 * @returns the problem's shape (with its tests) as it will be once published.
 * @throws AppError BAD_INPUT (400), PAYLOAD_TOO_LARGE (413); a test insert's failure leaves the staged row for the caller to discard.
 */
export async function stageProblem(db: Database, id: string, userId: string, input: ProblemInput, ceilings: ProblemCeilings): Promise<ProblemShape> {
  const { values, tests, tags } = await checkNewProblem(db, userId, input, ceilings);
  const now = new Date();
  const insert = db
    .insert(problems)
    .values({ ...values, id, deletedAt: now, stagedAt: now })
    .returning();
  // Its tags with the row (a discard removes them with it, on delete cascade).
  const [[row]] = await db.batch([insert, ...addTagsStatements(db, id, tags.map((t) => t.id))] as [typeof insert, ...never[]]);
  if (!row) throw new AppError("INTERNAL");
  for (const [ordinal, tc] of tests.entries()) {
    await db.insert(testCases).values({ problemId: id, ordinal, ...tc });
    // Copy this test's pages from the WAL into the database here, between our transactions (a checkpoint takes no
    // write lock): else the server's next small commit would find hundreds of MiB to checkpoint and do it on its thread.
    await db.run(sql`PRAGMA wal_checkpoint(PASSIVE)`);
  }
  return toProblemShape({ ...row, deletedAt: null, stagedAt: null }, tests.length, tagsByName(tags), tests);
}

/**
 * Makes the staged problem `id` visible: one update that clears `staged_at` and `deleted_at`.
 * @throws AppError INTERNAL (500) when no staged problem `id` exists (discarded meanwhile).
 */
export async function publishStaged(db: Database, id: string): Promise<void> {
  const now = new Date();
  const done = await db
    .update(problems)
    .set({ stagedAt: null, deletedAt: null, createdAt: now, updatedAt: now })
    .where(and(eq(problems.id, id), isNotNull(problems.stagedAt)));
  if (done.rowsAffected !== 1) throw new AppError("INTERNAL", { message: "the imported problem was removed before it could be shown" });
}

/**
 * Removes the staged problem `id` (a published or unknown id is left alone):
 * its tests one statement each, then the row (its images and package data go with it, on delete cascade).
 * @returns whether a staged problem was removed.
 */
export async function discardStaged(db: Database, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: problems.id })
    .from(problems)
    .where(and(eq(problems.id, id), isNotNull(problems.stagedAt)))
    .limit(1);
  if (!row) return false;
  const ordinals = await db.select({ ordinal: testCases.ordinal }).from(testCases).where(eq(testCases.problemId, id));
  for (const { ordinal } of ordinals) await db.delete(testCases).where(and(eq(testCases.problemId, id), eq(testCases.ordinal, ordinal)));
  await db.delete(problems).where(and(eq(problems.id, id), isNotNull(problems.stagedAt)));
  return true;
}

/**
 * Removes every staged problem: at the server's start, what an import killed with its server left behind.
 * @returns how many were removed.
 */
export async function discardAllStaged(db: Database): Promise<number> {
  const rows = await db.select({ id: problems.id }).from(problems).where(isNotNull(problems.stagedAt));
  let n = 0;
  for (const r of rows) if (await discardStaged(db, r.id)) n++;
  return n;
}

