/** The submissions read side against a real libSQL file: one submission, a user's history, the public shape. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, submissions, submissionTests } from "../../db/schema.ts";
import { createTestDb } from "../../tests/db.ts";
import { insertProblem, insertUser } from "../../tests/judge/fixtures.ts";
import { AppError } from "../errors.ts";
import { listUserSubmissions, readSubmission } from "./read.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
let db: Database;
let alice: string;
let bob: string;
let problemId: string;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  alice = await insertUser(db, "alice");
  bob = await insertUser(db, "bob");
  problemId = await insertProblem(db, alice);
});
afterAll(() => t.cleanup());

async function submit(userId: string, createdAt: number, judged = true): Promise<string> {
  const [row] = await db
    .insert(submissions)
    .values({
      userId,
      problemId,
      language: "py",
      code: `print(${createdAt})`,
      status: judged ? "done" : "queued",
      verdict: judged ? "WA" : null,
      leaseOwner: judged ? null : "worker-1",
      errorDetail: "operator-only detail",
      testsTotal: 2,
      testsPassed: 1,
      createdAt: new Date(createdAt),
    })
    .returning({ id: submissions.id });
  if (judged) {
    await db.insert(submissionTests).values([
      { submissionId: row!.id, index: 1, isSample: false, verdict: "WA", timeMs: 5, memoryKib: 900 },
      { submissionId: row!.id, index: 0, isSample: true, verdict: "AC", timeMs: 4, memoryKib: 800 },
    ]);
  }
  return row!.id;
}

describe("submissions read side", () => {
  test("a user's history: newest first, only their own, tests in order", async () => {
    const older = await submit(alice, 1_000);
    const newer = await submit(alice, 2_000);
    await submit(bob, 3_000);
    const list = await listUserSubmissions(db, alice, problemId);
    expect(list.map((s) => s._id)).toEqual([newer, older]);
    expect(list[0]!.tests.map((x) => x.index)).toEqual([0, 1]);
    expect(list[0]).toMatchObject({ verdict: "WA", isPassed: false, testsPassed: 1, testsTotal: 2, problemDeleted: false });
  });

  test("the public shape never carries the lease, attempts or the operator's detail", async () => {
    const id = await submit(alice, 4_000, false);
    const found = await readSubmission(db, id);
    expect(found?.userId).toBe(alice);
    const shape = found!.submission as unknown as Record<string, unknown>;
    for (const key of ["leaseOwner", "leaseExpiresAt", "attempts", "errorDetail", "userId"]) expect(key in shape).toBe(false);
    expect(JSON.stringify(shape)).not.toContain("operator-only");
    expect(shape.status).toBe("queued");
    expect(await readSubmission(db, "missing")).toBeNull();
  });

  test("history stays readable after the problem is deleted; an unknown problem is 404", async () => {
    await db.update(problems).set({ deletedAt: new Date() }).where(eq(problems.id, problemId));
    const list = await listUserSubmissions(db, alice, problemId);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((s) => s.problemDeleted)).toBe(true);
    await expect(listUserSubmissions(db, alice, "no-such-problem")).rejects.toBeInstanceOf(AppError);
  });
});
