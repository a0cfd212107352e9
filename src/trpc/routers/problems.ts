/**
 * Problems: list, byId, create, update, delete (soft). Hidden test cases are
 * returned only to the problem's creator, and only by `list` (the edit form
 * prefills from it); no other route ever returns hidden input or output.
 */
import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { newId } from "../../../db/ids.ts";
import { problems, revisions, testCases } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { formatBytes, idField, requiredBlock, requiredText, utf8Bytes } from "../../lib/fields.ts";
import { shareJson } from "../../lib/json.ts";
import type { RateLimiter } from "../../lib/rate-limit.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

/** Size limits (issue #2): title in characters, the rest in UTF-8 bytes. */
export const PROBLEM_LIMITS = {
  titleMaxChars: 200,
  /** description, inputFormat, outputFormat, constraints, sampleInput, sampleOutput. */
  statementMaxBytes: 64 * 1024,
  /** One hidden test case: input plus expected output. */
  testCaseMaxBytes: 16 * 1024 * 1024,
  /** All hidden test cases of one problem together. */
  testsTotalMaxBytes: 64 * 1024 * 1024,
  maxTestCases: 200,
  /** Per-problem judge limits: bounds accepted on create/update. */
  timeLimitMs: { min: 100, max: 10_000, default: 2000 },
  memoryLimitKib: { min: 16 * 1024, max: 1024 * 1024, default: 256 * 1024 },
} as const;

export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
export const CHECKERS = ["lines", "tokens", "float"] as const;

const testCaseText = z.string({
  error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text"),
});

/**
 * Test inputs are stored with LF line ends, as Polygon and DMOJ normalise test
 * data: a CRLF input (pasted from Windows, or sent through the API) would
 * otherwise hand `getline`/`strip("\n")`-style solutions a stray `\r` and turn
 * correct code into WA. Expected outputs need no such care: every checker
 * already reads CRLF as LF.
 */
const toLf = (s: string) => s.replace(/\r\n?/g, "\n");

/**
 * Each problem write may store up to 64 MiB of tests: one user's writes are
 * rate-limited so nobody fills the disk (limit in src/context.ts).
 * @throws AppError RATE_LIMITED with the seconds to wait.
 */
function limitProblemWrites(limiter: RateLimiter, userId: string): void {
  const gate = limiter.hit(userId);
  if (!gate.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: gate.retryAfterSeconds });
}

const fields = {
  title: requiredText(PROBLEM_LIMITS.titleMaxChars),
  description: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  inputFormat: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  outputFormat: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  constraints: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  sampleInput: requiredBlock(PROBLEM_LIMITS.statementMaxBytes).transform(toLf),
  sampleOutput: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  difficulty: z.enum(DIFFICULTIES, { error: "Must be easy, medium or hard" }),
  // Missing input/expectedOutput count as empty: the spec's form does not mark them required.
  hiddenTestCases: z
    .array(z.object({ input: testCaseText.transform(toLf).default(""), expectedOutput: testCaseText.default("") }), {
      error: "Must be a list of { input, expectedOutput }",
    })
    .max(PROBLEM_LIMITS.maxTestCases, { error: `At most ${PROBLEM_LIMITS.maxTestCases} test cases` }),
  timeLimitMs: z
    .number({ error: "Must be a number of milliseconds" })
    .int({ error: "Must be a whole number of milliseconds" })
    .min(PROBLEM_LIMITS.timeLimitMs.min, { error: `At least ${PROBLEM_LIMITS.timeLimitMs.min} ms` })
    .max(PROBLEM_LIMITS.timeLimitMs.max, { error: `At most ${PROBLEM_LIMITS.timeLimitMs.max} ms` }),
  memoryLimitKib: z
    .number({ error: "Must be a number of KiB" })
    .int({ error: "Must be a whole number of KiB" })
    .min(PROBLEM_LIMITS.memoryLimitKib.min, { error: "At least 16 MiB (16384 KiB)" })
    .max(PROBLEM_LIMITS.memoryLimitKib.max, { error: "At most 1024 MiB (1048576 KiB)" }),
  checker: z.enum(CHECKERS, { error: "Must be lines, tokens or float" }),
};

/**
 * Create input. Unknown keys (`_id`, `user`, `__v`, `version`, ...) are
 * stripped by zod, so nobody can set a problem's owner or version.
 */
export const problemInput = z.object({
  ...fields,
  hiddenTestCases: fields.hiddenTestCases.default([]),
  timeLimitMs: fields.timeLimitMs.optional(),
  memoryLimitKib: fields.memoryLimitKib.optional(),
  checker: fields.checker.optional(),
});
export type ProblemInput = z.infer<typeof problemInput>;

/** Update input: the id plus any subset of the create fields; `hiddenTestCases`, when given, replaces all tests. */
export const problemUpdateInput = z.object({
  id: idField(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  inputFormat: fields.inputFormat.optional(),
  outputFormat: fields.outputFormat.optional(),
  constraints: fields.constraints.optional(),
  sampleInput: fields.sampleInput.optional(),
  sampleOutput: fields.sampleOutput.optional(),
  difficulty: fields.difficulty.optional(),
  hiddenTestCases: fields.hiddenTestCases.optional(),
  timeLimitMs: fields.timeLimitMs.optional(),
  memoryLimitKib: fields.memoryLimitKib.optional(),
  checker: fields.checker.optional(),
});

export interface HiddenTestCase {
  input: string;
  expectedOutput: string;
}

/** A problem as every route returns it. `hiddenTestCases` only on the caller's own problems in `list`. */
export interface ProblemShape {
  _id: string;
  title: string;
  description: string;
  inputFormat: string;
  outputFormat: string;
  constraints: string;
  sampleInput: string;
  sampleOutput: string;
  difficulty: (typeof DIFFICULTIES)[number];
  /** Creator's user id. */
  user: string;
  timeLimitMs: number;
  memoryLimitKib: number;
  checker: (typeof CHECKERS)[number];
  /** Number of hidden test cases (their content stays hidden). */
  hiddenTestCount: number;
  /** The spec's version field: incremented on every update. */
  __v: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  hiddenTestCases?: HiddenTestCase[];
}

type ProblemRow = typeof problems.$inferSelect;

function toShape(row: ProblemRow, hiddenTestCount: number, hidden?: HiddenTestCase[]): ProblemShape {
  const shape: ProblemShape = {
    _id: row.id,
    title: row.title,
    description: row.description,
    inputFormat: row.inputFormat,
    outputFormat: row.outputFormat,
    constraints: row.constraints,
    sampleInput: row.sampleInput,
    sampleOutput: row.sampleOutput,
    difficulty: row.difficulty,
    user: row.userId,
    timeLimitMs: row.timeLimitMs,
    memoryLimitKib: row.memoryLimitKib,
    checker: row.checker,
    hiddenTestCount,
    __v: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (hidden) shape.hiddenTestCases = hidden;
  return shape;
}

/**
 * Drops test cases left completely blank (the spec's form starts with one
 * empty row) and enforces the byte limits with 413s naming the field.
 */
export function checkTestCases(cases: HiddenTestCase[]): HiddenTestCase[] {
  const kept = cases.filter((tc) => tc.input.trim() !== "" || tc.expectedOutput.trim() !== "");
  let total = 0;
  cases.forEach((tc, i) => {
    const bytes = utf8Bytes(tc.input) + utf8Bytes(tc.expectedOutput);
    if (bytes > PROBLEM_LIMITS.testCaseMaxBytes) {
      throw new AppError("PAYLOAD_TOO_LARGE", {
        field: `hiddenTestCases.${i}`,
        message: `hiddenTestCases.${i}: a test case may hold at most ${formatBytes(PROBLEM_LIMITS.testCaseMaxBytes)}`,
      });
    }
    total += bytes;
  });
  if (total > PROBLEM_LIMITS.testsTotalMaxBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", {
      field: "hiddenTestCases",
      message: `hiddenTestCases: a problem's tests may hold at most ${formatBytes(PROBLEM_LIMITS.testsTotalMaxBytes)} in all`,
    });
  }
  return kept;
}

/** A live (not deleted) problem row, or null. */
export async function getLiveProblem(db: Database, id: string): Promise<ProblemRow | null> {
  const [row] = await db
    .select()
    .from(problems)
    .where(and(eq(problems.id, id), isNull(problems.deletedAt)))
    .limit(1);
  return row ?? null;
}

interface ListCache {
  /** `revisions('problems')` when `shapes` was read. */
  key: string;
  /** Shared by every request that finds this key, the ones arriving while it is still being read included. */
  shapes: Promise<readonly Readonly<ProblemShape>[]>;
}
const listCaches = new WeakMap<Database, ListCache>();
const revisionQueries = new WeakMap<Database, ReturnType<typeof prepareRevision>>();
function prepareRevision(db: Database) {
  return db.select({ value: revisions.value }).from(revisions).where(eq(revisions.name, "problems")).prepare();
}

/**
 * The public shapes of every live problem (no hidden tests), oldest first,
 * cached per database handle. Freshness: triggers (migration 0003) bump
 * `revisions('problems')` on every insert, update and delete of problems and
 * test cases, by any writer in any process; one primary-key read per call
 * compares it. The revision is read before the rows, so a write racing a
 * rebuild costs one more rebuild, never a stale answer after the write.
 * Concurrent callers that see the same new revision share one rebuild.
 * Why: docs/decisions/024-problem-list-cache.md. The shapes are shared between
 * requests: never mutate them (copy, as `list` does for the owner's tests).
 */
export async function publicProblemList(db: Database): Promise<readonly Readonly<ProblemShape>[]> {
  let revision = revisionQueries.get(db);
  if (!revision) {
    revision = prepareRevision(db);
    revisionQueries.set(db, revision);
  }
  const [rev] = await revision.execute();
  // No revision row (a database migrated by hand without 0003): never cache.
  const key = rev ? String(rev.value) : `uncached:${Math.random()}`;
  const cached = listCaches.get(db);
  if (cached?.key === key) return cached.shapes;
  // One read per revision: requests that arrive while it runs (a burst right after a write) wait for it
  // instead of each reading 1,000 rows and each getting its own copy to serialise.
  const entry: ListCache = { key, shapes: readPublicShapes(db) };
  listCaches.set(db, entry);
  entry.shapes.catch(() => {
    if (listCaches.get(db) === entry) listCaches.delete(db);
  });
  return entry.shapes;
}

async function readPublicShapes(db: Database): Promise<readonly Readonly<ProblemShape>[]> {
  const [rows, counts] = await Promise.all([
    db.select().from(problems).where(isNull(problems.deletedAt)).orderBy(asc(problems.createdAt), asc(problems.id)),
    countTests(db),
  ]);
  // Not Object.freeze'd: JSC serialises frozen objects several times slower; `readonly` types guard them instead.
  // shareJson: the REST door serialises this array (and each shape) once, not per request (src/lib/json.ts).
  return shareJson(rows.map((r) => toShape(r, counts.get(r.id) ?? 0)));
}

/** Each owner's problem ids in one cached list, indexed once per list (the list route asks on every request). */
const ownersIndex = new WeakMap<readonly Readonly<ProblemShape>[], Map<string, string[]>>();
function ownProblemIds(shapes: readonly Readonly<ProblemShape>[], userId: string): string[] {
  let index = ownersIndex.get(shapes);
  if (!index) {
    index = new Map();
    for (const p of shapes) {
      const ids = index.get(p.user);
      if (ids) ids.push(p._id);
      else index.set(p.user, [p._id]);
    }
    ownersIndex.set(shapes, index);
  }
  return index.get(userId) ?? [];
}

async function countTests(db: Database, problemIds?: string[]): Promise<Map<string, number>> {
  const q = db.select({ problemId: testCases.problemId, n: count() }).from(testCases);
  const rows = await (problemIds ? q.where(inArray(testCases.problemId, problemIds)) : q).groupBy(testCases.problemId);
  return new Map(rows.map((r) => [r.problemId, r.n]));
}

/** Loads a live problem the caller owns, or throws 404 / the given 403. */
async function requireOwned(
  db: Database,
  id: string,
  userId: string,
  forbidden: "NOT_PROBLEM_OWNER_UPDATE" | "NOT_PROBLEM_OWNER_DELETE",
): Promise<ProblemRow> {
  const row = await getLiveProblem(db, id);
  if (!row) throw new AppError("PROBLEM_NOT_FOUND");
  if (row.userId !== userId) throw new AppError(forbidden);
  return row;
}

export const problemsRouter = router({
  /**
   * Every live problem, oldest first; hidden tests only on the caller's own.
   * The public part comes from `publicProblemList` (cached until a problem
   * changes); only the caller's own hidden tests are read per request.
   */
  list: protectedProcedure.query(async ({ ctx }): Promise<ProblemShape[]> => {
    const shapes = await publicProblemList(ctx.db);
    const ownIds = ownProblemIds(shapes, ctx.user.id);
    if (!ownIds.length) return shapes as ProblemShape[];
    const own = new Map<string, HiddenTestCase[]>(ownIds.map((id) => [id, []]));
    const tests = await ctx.db
      .select({ problemId: testCases.problemId, input: testCases.input, expectedOutput: testCases.expectedOutput })
      .from(testCases)
      .where(inArray(testCases.problemId, ownIds))
      .orderBy(asc(testCases.problemId), asc(testCases.ordinal));
    for (const t of tests) own.get(t.problemId)?.push({ input: t.input, expectedOutput: t.expectedOutput });
    return shapes.map((p) => (own.has(p._id) ? { ...p, hiddenTestCases: own.get(p._id) } : p));
  }),

  /** One live problem without hidden tests; works signed out. @throws PROBLEM_NOT_FOUND (404). */
  byId: publicProcedure.input(z.object({ id: idField() })).query(async ({ ctx, input }): Promise<ProblemShape> => {
    const row = await getLiveProblem(ctx.db, input.id);
    if (!row) throw new AppError("PROBLEM_NOT_FOUND");
    const counts = await countTests(ctx.db, [row.id]);
    return toShape(row, counts.get(row.id) ?? 0);
  }),

  /** Creates a problem owned by the caller. @throws BAD_INPUT (400), PAYLOAD_TOO_LARGE (413). */
  create: protectedProcedure.input(problemInput).mutation(async ({ ctx, input }): Promise<ProblemShape> => {
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    const tests = checkTestCases(input.hiddenTestCases);
    const { hiddenTestCases: _ignored, ...values } = input;
    const id = newId();
    const insert = ctx.db
      .insert(problems)
      .values({ ...values, id, userId: ctx.user.id })
      .returning();
    // One batch: the problem and its tests land together or not at all.
    const [inserted] = tests.length
      ? await ctx.db.batch([
          insert,
          ctx.db.insert(testCases).values(tests.map((tc, ordinal) => ({ problemId: id, ordinal, ...tc }))),
        ])
      : await ctx.db.batch([insert]);
    const row = inserted[0];
    if (!row) throw new AppError("INTERNAL");
    return toShape(row, tests.length, tests);
  }),

  /**
   * Updates the caller's problem; bumps `__v`. `hiddenTestCases`, when given,
   * replaces every test atomically.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403), BAD_INPUT (400), PAYLOAD_TOO_LARGE (413).
   */
  update: protectedProcedure.input(problemUpdateInput).mutation(async ({ ctx, input }): Promise<ProblemShape> => {
    const current = await requireOwned(ctx.db, input.id, ctx.user.id, "NOT_PROBLEM_OWNER_UPDATE");
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    const { id, hiddenTestCases, ...changes } = input;
    const tests = hiddenTestCases ? checkTestCases(hiddenTestCases) : undefined;
    const updated = ctx.db
      .update(problems)
      .set({ ...changes, version: current.version + 1, updatedAt: new Date() })
      .where(and(eq(problems.id, id), isNull(problems.deletedAt)))
      .returning();
    let row: ProblemRow | undefined;
    if (tests) {
      const del = ctx.db.delete(testCases).where(eq(testCases.problemId, id));
      const results = tests.length
        ? await ctx.db.batch([
            updated,
            del,
            ctx.db.insert(testCases).values(tests.map((tc, ordinal) => ({ problemId: id, ordinal, ...tc }))),
          ])
        : await ctx.db.batch([updated, del]);
      row = results[0][0];
    } else {
      [row] = await updated;
    }
    if (!row) throw new AppError("PROBLEM_NOT_FOUND");
    const own = await ctx.db
      .select({ input: testCases.input, expectedOutput: testCases.expectedOutput })
      .from(testCases)
      .where(eq(testCases.problemId, id))
      .orderBy(asc(testCases.ordinal));
    return toShape(row, own.length, own);
  }),

  /**
   * Soft-deletes the caller's problem: it leaves every list and byId, while
   * its submissions stay readable by their authors.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_DELETE (403).
   */
  delete: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => {
    await requireOwned(ctx.db, input.id, ctx.user.id, "NOT_PROBLEM_OWNER_DELETE");
    const now = new Date();
    await ctx.db.update(problems).set({ deletedAt: now, updatedAt: now }).where(eq(problems.id, input.id));
    return { message: "Problem deleted successfully!", _id: input.id };
  }),
});
