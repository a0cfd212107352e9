/** The problems domain against a real libSQL file: live reads, the owner check, test-case checks, and the writes. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AppError } from "../errors.ts";
import { createTestDb } from "../../tests/db.ts";
import { insertUser } from "../../tests/judge/fixtures.ts";
import type { Database } from "../../db/index.ts";
import { problemInput } from "./input.ts";
import { DEFAULT_CEILINGS } from "./ceilings.ts";
import { loadConfig } from "../config.ts";
import { DEFAULT_CHECKER, DEFAULT_MEMORY_LIMIT_KIB, DEFAULT_TIME_LIMIT_MS } from "./limits.ts";
import { ownProblemIds, publicProblemList } from "./list-cache.ts";
import {
  checkTestCases,
  createProblem,
  getLiveProblem,
  getProblemEvenDeleted,
  publicShape,
  readHiddenTests,
  requireLiveProblem,
  requireOwned,
  softDeleteProblem,
  updateProblem,
} from "./store.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
let db: Database;
let owner: string;
let other: string;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  owner = await insertUser(db, "owner");
  other = await insertUser(db, "other");
});
afterAll(() => t.cleanup());

const statement = {
  title: "Echo",
  description: "Print the input.",
  inputFormat: "A line.",
  outputFormat: "The line.",
  constraints: "Short.",
  sampleInput: "hi\r\n",
  sampleOutput: "hi",
  difficulty: "easy",
};

async function make(extra: Record<string, unknown> = {}) {
  return createProblem(db, owner, problemInput.parse({ ...statement, ...extra }), DEFAULT_CEILINGS);
}

/** The AppError kind a promise rejects with. */
async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err.kind;
    throw err;
  }
  return "resolved";
}

describe("problems store", () => {
  test("create stores the defaults, LF sample input and the tests in order; blank test rows are dropped", async () => {
    const p = await make({
      hiddenTestCases: [
        { input: "a\r\n", expectedOutput: "a" },
        { input: "  ", expectedOutput: "" },
        { input: "b", expectedOutput: "b" },
      ],
    });
    expect(p).toMatchObject({ user: owner, timeLimitMs: DEFAULT_TIME_LIMIT_MS, memoryLimitKib: DEFAULT_MEMORY_LIMIT_KIB, checker: DEFAULT_CHECKER, sampleInput: "hi\n", hiddenTestCount: 2 });
    expect((await readHiddenTests(db, [p._id])).get(p._id)).toEqual([
      { input: "a\n", expectedOutput: "a" },
      { input: "b", expectedOutput: "b" },
    ]);
    // The public shape never carries the tests.
    expect((await publicShape(db, await requireLiveProblem(db, p._id))).hiddenTestCases).toBeUndefined();
  });

  test("a deleted problem is not live, but judging and history can still read it", async () => {
    const p = await make();
    await softDeleteProblem(db, p._id);
    expect(await getLiveProblem(db, p._id)).toBeNull();
    expect(await kindOf(requireLiveProblem(db, p._id))).toBe("PROBLEM_NOT_FOUND");
    expect((await getProblemEvenDeleted(db, p._id))?.deletedAt).toBeInstanceOf(Date);
    expect(await getProblemEvenDeleted(db, "no-such-id")).toBeNull();
  });

  test("requireLiveProblem names the request field in its 404 when asked", async () => {
    try {
      await requireLiveProblem(db, "missing", "problemId");
      throw new Error("resolved");
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).field).toBe("problemId");
    }
  });

  test("only the owner passes requireOwned: others get the product's 403, a missing problem 404", async () => {
    const p = await make();
    expect((await requireOwned(db, p._id, owner, "NOT_PROBLEM_OWNER_UPDATE")).id).toBe(p._id);
    expect(await kindOf(requireOwned(db, p._id, other, "NOT_PROBLEM_OWNER_DELETE"))).toBe("NOT_PROBLEM_OWNER_DELETE");
    expect(await kindOf(requireOwned(db, "missing", owner, "NOT_PROBLEM_OWNER_UPDATE"))).toBe("PROBLEM_NOT_FOUND");
  });

  test("update bumps the version, keeps tests unless given, and replaces them all when given", async () => {
    const p = await make({ hiddenTestCases: [{ input: "1", expectedOutput: "1" }] });
    const row = await requireOwned(db, p._id, owner, "NOT_PROBLEM_OWNER_UPDATE");
    const renamed = await updateProblem(db, row, { id: p._id, title: "Echo 2" }, DEFAULT_CEILINGS);
    expect(renamed).toMatchObject({ title: "Echo 2", __v: 1, hiddenTestCount: 1 });
    const row2 = await requireOwned(db, p._id, owner, "NOT_PROBLEM_OWNER_UPDATE");
    const retested = await updateProblem(db, row2, { id: p._id, hiddenTestCases: [{ input: "2", expectedOutput: "2" }, { input: "3", expectedOutput: "3" }] }, DEFAULT_CEILINGS);
    expect(retested.__v).toBe(2);
    expect(retested.hiddenTestCases).toEqual([
      { input: "2", expectedOutput: "2" },
      { input: "3", expectedOutput: "3" },
    ]);
  });

  test("checkTestCases: 413 naming the test past the per-test ceiling, and the field past the total, with the setting that allows more", () => {
    // A server configured with small ceilings (PROBLEM_TEST_MAX_MIB=16, PROBLEM_TESTS_MAX_MIB=40): the same rule as the defaults, smaller.
    const small = loadConfig({ PROBLEM_TEST_MAX_MIB: "16", PROBLEM_TESTS_MAX_MIB: "40" }).ceilings;
    expect(small).toMatchObject({ testCaseBytes: 16 * 1024 * 1024, testsTotalBytes: 40 * 1024 * 1024, memoryLimitKib: 2048 * 1024 });
    const big = "x".repeat(small.testCaseBytes);
    try {
      checkTestCases([{ input: "1", expectedOutput: "1" }, { input: big, expectedOutput: "y" }], small);
      throw new Error("passed");
    } catch (err) {
      expect((err as AppError).kind).toBe("PAYLOAD_TOO_LARGE");
      expect((err as AppError).field).toBe("hiddenTestCases.1");
      expect((err as AppError).message).toContain("PROBLEM_TEST_MAX_MIB allows more");
    }
    // The number of tests is a ceiling too (1000 by default).
    const few = loadConfig({ PROBLEM_TEST_COUNT_MAX: "3" }).ceilings;
    const four = Array.from({ length: 4 }, (_, i) => ({ input: `${i}`, expectedOutput: `${i}` }));
    expect(() => checkTestCases(four, few)).toThrow("hiddenTestCases: 4 tests; a problem holds at most 3 on this server (the setting PROBLEM_TEST_COUNT_MAX allows more, up to 10000)");
    expect(checkTestCases(four, DEFAULT_CEILINGS)).toHaveLength(4);
    // The same test fits the default ceilings (128 MiB per test).
    expect(checkTestCases([{ input: big, expectedOutput: "y" }], DEFAULT_CEILINGS)).toHaveLength(1);
    const half = "x".repeat(small.testCaseBytes - 1);
    const many = Array.from({ length: 3 }, () => ({ input: half, expectedOutput: "" }));
    try {
      checkTestCases(many, small);
      throw new Error("passed");
    } catch (err) {
      expect((err as AppError).field).toBe("hiddenTestCases");
      expect((err as AppError).message).toContain("PROBLEM_TESTS_MAX_MIB allows more");
    }
  });

  test("the public list holds live problems only, and indexes each owner's problems", async () => {
    const p = await make({ title: "Listed" });
    const gone = await make({ title: "Gone" });
    await softDeleteProblem(db, gone._id);
    const list = await publicProblemList(db);
    expect(list.some((x) => x._id === p._id)).toBe(true);
    expect(list.some((x) => x._id === gone._id)).toBe(false);
    expect(list.every((x) => x.hiddenTestCases === undefined)).toBe(true);
    expect(ownProblemIds(list, owner)).toContain(p._id);
    expect(ownProblemIds(list, other)).toEqual([]);
  });
});

describe("limits are checked where they are stored", () => {
  test("a write that bypassed the form's validation (an importer, a script) is refused naming the field", async () => {
    const good = problemInput.parse({ ...statement });
    await expect(createProblem(db, owner, { ...good, timeLimitMs: 60_000 }, DEFAULT_CEILINGS)).rejects.toMatchObject({ kind: "BAD_INPUT", field: "timeLimitMs" });
    await expect(createProblem(db, owner, { ...good, memoryLimitKib: 128 * 1024 * 1024 }, DEFAULT_CEILINGS)).rejects.toMatchObject({ kind: "BAD_INPUT", field: "memoryLimitKib" });
  });

  test("the memory limit's ceiling is the server's setting (2048 MiB by default), and the refusal names it", async () => {
    const good = problemInput.parse({ ...statement });
    expect((await createProblem(db, owner, { ...good, memoryLimitKib: 2048 * 1024 }, DEFAULT_CEILINGS)).memoryLimitKib).toBe(2048 * 1024);
    const refused = createProblem(db, owner, { ...good, memoryLimitKib: 3072 * 1024 }, DEFAULT_CEILINGS);
    await expect(refused).rejects.toMatchObject({ kind: "BAD_INPUT", field: "memoryLimitKib" });
    await expect(refused).rejects.toThrow("PROBLEM_MEMORY_MAX_MIB allows more");
    const roomy = loadConfig({ PROBLEM_MEMORY_MAX_MIB: "4096" }).ceilings;
    expect((await createProblem(db, owner, { ...good, memoryLimitKib: 3072 * 1024 }, roomy)).memoryLimitKib).toBe(3072 * 1024);
    expect(() => loadConfig({ PROBLEM_MEMORY_MAX_MIB: "100000" })).toThrow("PROBLEM_MEMORY_MAX_MIB: must be at most 65536");
  });
});
