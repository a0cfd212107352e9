/**
 * Problems in the database: reading a live problem, the owner check, the
 * test-case checks, and the writes (create, update, soft delete). Every other
 * module that needs a problem reads it through here. Throws AppError from the
 * catalogue (src/errors.ts): PROBLEM_NOT_FOUND (404), the owner 403s with the
 * product's texts, PAYLOAD_TOO_LARGE (413), RATE_LIMITED (429).
 */
import { and, asc, count, eq, inArray, isNull, isNotNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { problems, testCases } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { ValidatorSpec } from "./validator-spec.ts";
import { formatBytes, utf8Bytes } from "../lib/fields.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { checkerProblem, type ProblemInput, type ProblemUpdate } from "./input.ts";
import { arrangeGroups, labelTests } from "./groups.ts";
import { PROBLEM_LIMITS } from "./limits.ts";
import { assertPublicWork } from "./work.ts";
import { ceilingMessage, DEFAULT_CEILINGS, type ProblemCeilings } from "./ceilings.ts";
import { toProblemShape, type HiddenTestCase, type ProblemRow, type ProblemShape } from "./shape.ts";
import { assertStorageQuota, freeDeletedProblems, rowBytesOf, storedTestBytes, testBytesOf } from "./quota.ts";
import { requireTags } from "./tags/vocabulary.ts";
import { addTagsStatements, copyTagsStatement, replaceTagsStatements, tagsByName, tagsOfProblem } from "./tags/problem-tags.ts";
import type { TagRef } from "./tags/input.ts";

/** A live (not deleted) problem row, or null. */
export async function getLiveProblem(db: Database, id: string): Promise<ProblemRow | null> {
  const [row] = await db
    .select()
    .from(problems)
    .where(and(eq(problems.id, id), isNull(problems.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * A live problem row.
 * @param field names the request field in the 404 (e.g. `problemId`), when the id came from a body.
 * @throws AppError PROBLEM_NOT_FOUND (404) when absent or deleted.
 */
export async function requireLiveProblem(db: Database, id: string, field?: string): Promise<ProblemRow> {
  const row = await getLiveProblem(db, id);
  if (!row) throw new AppError("PROBLEM_NOT_FOUND", field ? { field } : undefined);
  return row;
}

/**
 * A problem row whether deleted or not (judging and history keep working
 * after a delete), or null when it never existed or is still being imported (./staged.ts).
 */
export async function getProblemEvenDeleted(db: Database, id: string): Promise<ProblemRow | null> {
  const [row] = await db
    .select()
    .from(problems)
    .where(and(eq(problems.id, id), isNull(problems.stagedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Loads a live problem the caller owns.
 * @throws AppError PROBLEM_NOT_FOUND (404), or `forbidden` (403: "You can only update/delete your own problems.").
 */
export async function requireOwned(
  db: Database,
  id: string,
  userId: string,
  forbidden: "NOT_PROBLEM_OWNER_UPDATE" | "NOT_PROBLEM_OWNER_DELETE" | "NOT_PROBLEM_OWNER_EXPORT",
): Promise<ProblemRow> {
  const row = await requireLiveProblem(db, id);
  if (row.userId !== userId) throw new AppError(forbidden);
  return row;
}

/** Number of hidden tests per problem (of `problemIds`, or of every problem). */
export async function countTests(db: Database, problemIds?: string[]): Promise<Map<string, number>> {
  const q = db.select({ problemId: testCases.problemId, n: count() }).from(testCases);
  const rows = await (problemIds ? q.where(inArray(testCases.problemId, problemIds)) : q).groupBy(testCases.problemId);
  return new Map(rows.map((r) => [r.problemId, r.n]));
}

/** The hidden tests of problems, in order, by problem id (for their owner, and for the judge). */
export async function readHiddenTests(db: Database, problemIds: string[]): Promise<Map<string, HiddenTestCase[]>> {
  const byProblem = new Map<string, HiddenTestCase[]>(problemIds.map((id) => [id, []]));
  if (!problemIds.length) return byProblem;
  const rows = await db
    .select({ problemId: testCases.problemId, input: testCases.input, expectedOutput: testCases.expectedOutput })
    .from(testCases)
    .where(problemIds.length === 1 ? eq(testCases.problemId, problemIds[0]!) : inArray(testCases.problemId, problemIds))
    .orderBy(asc(testCases.problemId), asc(testCases.ordinal));
  for (const t of rows) byProblem.get(t.problemId)?.push({ input: t.input, expectedOutput: t.expectedOutput });
  return byProblem;
}

/** The custom validators of `problemIds` (those without one are absent). */
export async function readValidators(db: Database, problemIds: string[]): Promise<Map<string, ValidatorSpec>> {
  const out = new Map<string, ValidatorSpec>();
  if (!problemIds.length) return out;
  const rows = await db
    .select({ id: problems.id, validator: problems.validator })
    .from(problems)
    .where(and(inArray(problems.id, problemIds), isNotNull(problems.validator)));
  for (const r of rows) if (r.validator) out.set(r.id, r.validator);
  return out;
}

/**
 * Drops test cases left completely blank (the product's form starts with one
 * empty row) and enforces this server's byte ceilings with 413s naming the
 * field and the setting that allows more (./ceilings.ts).
 * @throws AppError PAYLOAD_TOO_LARGE naming `hiddenTestCases.N` or `hiddenTestCases`.
 */
export function checkTestCases(cases: HiddenTestCase[], ceilings: ProblemCeilings): HiddenTestCase[] {
  const kept = cases.filter((tc) => tc.input.trim() !== "" || tc.expectedOutput.trim() !== "");
  if (kept.length > ceilings.testCount) {
    throw new AppError("PAYLOAD_TOO_LARGE", { field: "hiddenTestCases", message: `hiddenTestCases: ${kept.length} tests; a problem holds ${ceilingMessage("testCount", ceilings)}` });
  }
  let total = 0;
  cases.forEach((tc, i) => {
    const bytes = utf8Bytes(tc.input) + utf8Bytes(tc.expectedOutput);
    if (bytes > ceilings.testCaseBytes) {
      throw new AppError("PAYLOAD_TOO_LARGE", {
        field: `hiddenTestCases.${i}`,
        message: `hiddenTestCases.${i}: ${formatBytes(bytes)}; a test case (input and expected output) may hold ${ceilingMessage("testCaseBytes", ceilings)}`,
      });
    }
    total += bytes;
  });
  if (total > ceilings.testsTotalBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", {
      field: "hiddenTestCases",
      message: `hiddenTestCases: ${formatBytes(total)}; a problem's tests may hold ${ceilingMessage("testsTotalBytes", ceilings)} in all`,
    });
  }
  return kept;
}

/**
 * Each problem write may store up to 64 MiB of tests: one user's writes are
 * rate-limited so nobody fills the disk (the limiter is `problemWritesByUser`, src/context.ts).
 * @throws AppError RATE_LIMITED with the seconds to wait.
 */
export function limitProblemWrites(limiter: RateLimiter, userId: string): void {
  const gate = limiter.hit(userId);
  if (!gate.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: gate.retryAfterSeconds });
}

/** A problem row's public shape (no hidden tests), with its tags. */
export async function publicShape(db: Database, row: ProblemRow): Promise<ProblemShape> {
  const [counts, tags] = await Promise.all([countTests(db, [row.id]), tagsOfProblem(db, row.id)]);
  return toProblemShape(row, counts.get(row.id) ?? 0, tags);
}

/**
 * Creates a problem owned by `userId` (in `input.courseId` when given: the
 * caller checks the right to); the problem and its tests land in one batch,
 * together or not at all.
 * @returns the new problem's shape with its hidden tests (the caller owns it).
 * @throws AppError PAYLOAD_TOO_LARGE (413).
 */
/**
 * The judge limits of a problem write, checked where they are stored (whatever
 * door or importer the values came through): PROBLEM_LIMITS' bounds.
 * @throws AppError BAD_INPUT naming timeLimitMs or memoryLimitKib.
 */
export function assertLimits(values: { timeLimitMs?: number; memoryLimitKib?: number }, ceilings: ProblemCeilings): void {
  for (const key of ["timeLimitMs", "memoryLimitKib"] as const) {
    const v = values[key];
    const { min, max } = PROBLEM_LIMITS[key];
    if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) {
      throw new AppError("BAD_INPUT", { field: key, message: `${key}: must be a whole number from ${min} to ${max}` });
    }
  }
  const memory = values.memoryLimitKib;
  if (memory !== undefined && memory > ceilings.memoryLimitKib) {
    throw new AppError("BAD_INPUT", { field: "memoryLimitKib", message: `memoryLimitKib: ${memory / 1024} MiB; a problem's memory limit is ${ceilingMessage("memoryLimitKib", ceilings)}` });
  }
}

/**
 * Sets a problem's time limit (a verify derived it), a new version of it.
 * @throws AppError BAD_INPUT (timeLimitMs) outside PROBLEM_LIMITS.
 */
export async function setTimeLimit(db: Database, problemId: string, timeLimitMs: number): Promise<void> {
  assertLimits({ timeLimitMs }, DEFAULT_CEILINGS);
  await db
    .update(problems)
    .set({ timeLimitMs, version: sql`${problems.version} + 1`, updatedAt: new Date() })
    .where(eq(problems.id, problemId));
}

/**
 * A copy of `source` with its hidden tests and validator, owned by `owner` (in a course when `courseId` is given).
 * The caller has checked the right to copy it (src/problems/access.ts, `mayCopyWithTests`).
 * @param ceilings this server's (`config.ceilings`: the copy counts against the owner's USER_STORAGE_MAX_MIB).
 * @throws AppError PAYLOAD_TOO_LARGE (413) on `problemId` past the owner's storage quota.
 */
export async function copyProblem(db: Database, source: ProblemRow, owner: { userId: string; courseId: string | null }, ceilings: ProblemCeilings): Promise<ProblemShape> {
  await assertStorageQuota(db, owner.userId, (await storedTestBytes(db, source.id)) + rowBytesOf(source), ceilings, "problemId");
  const tests = (await readHiddenTests(db, [source.id])).get(source.id) ?? [];
  const id = newId();
  const { id: _id, createdAt: _c, updatedAt: _u, deletedAt: _d, version: _v, ...values } = source;
  const [inserted] = await db.batch([
    db.insert(problems).values({ ...values, id, userId: owner.userId, courseId: owner.courseId }).returning(),
    ...(tests.length ? [db.insert(testCases).values(tests.map((t, ordinal) => ({ problemId: id, ordinal, ...t })))] : []),
    // The copy keeps its topic tags.
    copyTagsStatement(db, source.id, id),
  ] as unknown as [never]);
  return toProblemShape((inserted as ProblemRow[])[0]!, tests.length, await tagsOfProblem(db, id), tests);
}

/** A new problem's row (without its id), its arranged hidden tests and its resolved tags, every check passed. */
export interface CheckedProblem {
  values: Omit<typeof problems.$inferInsert, "id">;
  tests: HiddenTestCase[];
  /** The tags `input.tags` means (src/problems/tags), each once, in the order given. */
  tags: (TagRef & { id: string })[];
}

/**
 * Checks a new problem of `userId` (limits, tests, groups, storage quota, public work, tags) and arranges it for the write.
 * @throws AppError BAD_INPUT (400; `tags` naming a word that means no tag), PAYLOAD_TOO_LARGE (413).
 */
export async function checkNewProblem(db: Database, userId: string, input: ProblemInput, ceilings: ProblemCeilings): Promise<CheckedProblem> {
  assertLimits(input, ceilings);
  const arranged = arrangeGroups(input.scoring ?? null, checkTestCases(input.hiddenTestCases, ceilings));
  const tests = arranged.tests;
  await assertStorageQuota(db, userId, testBytesOf(tests) + rowBytesOf(input), ceilings, "hiddenTestCases");
  await assertPublicWork(db, { ownerId: userId, courseId: input.courseId ?? null, timeLimitMs: input.timeLimitMs, validationPasses: input.validationPasses, testCount: tests.length }, ceilings);
  const tags = await requireTags(db, input.tags ?? []);
  const { hiddenTestCases: _ignored, courseId, scoring: _s, tags: _t, ...values } = input;
  return { values: { ...values, userId, courseId: courseId ?? null, scoring: arranged.scoring }, tests, tags };
}

export async function createProblem(db: Database, userId: string, input: ProblemInput, ceilings: ProblemCeilings): Promise<ProblemShape> {
  const { values, tests, tags } = await checkNewProblem(db, userId, input, ceilings);
  const id = newId();
  const insert = db
    .insert(problems)
    .values({ ...values, id })
    .returning();
  // One statement per test: a single multi-row insert binds (copies) every test at once, up to PROBLEM_TESTS_MAX_MIB more memory.
  const testInserts = tests.map((tc, ordinal) => db.insert(testCases).values({ problemId: id, ordinal, ...tc }));
  const tagInserts = addTagsStatements(db, id, tags.map((t) => t.id));
  const [inserted] = await db.batch([insert, ...testInserts, ...tagInserts] as [typeof insert, ...never[]]);
  const row = inserted[0];
  if (!row) throw new AppError("INTERNAL");
  return toProblemShape(row, tests.length, tagsByName(tags), tests);
}

/**
 * Updates `current` (a live problem the caller may edit); bumps the version.
 * `hiddenTestCases`, when given, replaces every test atomically.
 * @returns the updated shape with its hidden tests.
 * @throws AppError PROBLEM_NOT_FOUND (404) when it was deleted meanwhile, PAYLOAD_TOO_LARGE (413).
 */
export async function updateProblem(db: Database, current: ProblemRow, input: ProblemUpdate, ceilings: ProblemCeilings): Promise<ProblemShape> {
  const { id, hiddenTestCases, tags: tagWords, ...changes } = input;
  assertLimits(changes, ceilings);
  const tags = tagWords === undefined ? undefined : await requireTags(db, tagWords);
  const checker = changes.checker ?? current.checker;
  const validator = changes.validator === undefined ? current.validator : changes.validator;
  const wrong = checkerProblem({ checker, validator, interactive: changes.interactive ?? current.interactive, validationPasses: changes.validationPasses ?? current.validationPasses });
  if (wrong) throw new AppError("BAD_INPUT", { field: wrong.field, message: `${wrong.field}: ${wrong.message}` });
  // Test groups: new ones, or new tests under the current ones, are arranged together.
  let tests = hiddenTestCases ? checkTestCases(hiddenTestCases, ceilings) : undefined;
  const { scoring: newScoring, ...plainChanges } = changes;
  let scoring = current.scoring ?? null;
  if (newScoring !== undefined || tests) {
    const spec = newScoring === undefined ? scoring : newScoring;
    const source = tests ?? labelTests(current.scoring ?? null, (await readHiddenTests(db, [id])).get(id) ?? []);
    const arranged = arrangeGroups(spec, source);
    scoring = arranged.scoring;
    tests = arranged.tests;
  }
  if (tests || changes.timeLimitMs !== undefined || changes.validationPasses !== undefined) {
    const testCount = tests ? tests.length : ((await countTests(db, [id])).get(id) ?? 0);
    const limits = { timeLimitMs: changes.timeLimitMs ?? current.timeLimitMs, validationPasses: changes.validationPasses ?? current.validationPasses };
    await assertPublicWork(db, { ownerId: current.userId, courseId: current.courseId, ...limits, testCount }, ceilings);
  }
  // What the edit adds to the owner's storage: new tests for the stored ones, the row's text grown or shrunk.
  const addedBytes = (tests ? testBytesOf(tests) - (await storedTestBytes(db, id)) : 0) + rowBytesOf({ ...current, ...plainChanges, validator }) - rowBytesOf(current);
  await assertStorageQuota(db, current.userId, addedBytes, ceilings, tests ? "hiddenTestCases" : "description");
  const updated = db
    .update(problems)
    .set({ ...plainChanges, scoring, version: current.version + 1, updatedAt: new Date() })
    .where(and(eq(problems.id, id), isNull(problems.deletedAt)))
    .returning();
  // New tests and new tags are written with the row, together or not at all.
  const testWrites = tests ? [db.delete(testCases).where(eq(testCases.problemId, id)), ...(tests.length ? [db.insert(testCases).values(tests.map((tc, ordinal) => ({ problemId: id, ordinal, ...tc })))] : [])] : [];
  const tagWrites = tags ? replaceTagsStatements(db, id, tags.map((t) => t.id)) : [];
  const results = await db.batch([updated, ...testWrites, ...tagWrites] as [typeof updated, ...never[]]);
  const row: ProblemRow | undefined = results[0][0];
  if (!row) throw new AppError("PROBLEM_NOT_FOUND");
  const [own, shownTags] = await Promise.all([readHiddenTests(db, [id]).then((m) => m.get(id) ?? []), tagsOfProblem(db, id)]);
  return toProblemShape(row, own.length, shownTags, own);
}

/**
 * Soft-deletes a problem: it leaves every list and byId, while its
 * submissions stay readable by their authors. Its hidden tests and images are
 * removed (./quota.ts `freeDeletedProblems`), now or, while a submission of it
 * waits to be judged, at a later delete.
 */
export async function softDeleteProblem(db: Database, id: string): Promise<void> {
  const now = new Date();
  await db.update(problems).set({ deletedAt: now, updatedAt: now }).where(eq(problems.id, id));
  // Its tests and images go now (or at a later delete, once its waiting submissions are judged): the row stays for their history.
  await freeDeletedProblems(db);
}
