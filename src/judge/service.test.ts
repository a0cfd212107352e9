// The judge service and its queue consumer over a real database with a fake
// sandbox of scripted results (logic only; real programs: tests/judge/):
// judging concurrency equals SANDBOX_POOL_SIZE, an expired lease of another
// host's worker is taken over while running (not only at start), and a Run
// whose sandbox keeps failing answers IE — never a user verdict.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { submissions } from "../../db/schema.ts";
import { createTestDb } from "../../tests/db.ts";
import { captureLog, eventually, FakeBackend, insertProblem, insertUser, judgeConfig, type FakeStep } from "../../tests/judge/fixtures.ts";
import { SANDBOX_RETRIES } from "./compile.ts";
import { JudgeService } from "./service.ts";
import { createSubmission } from "../submissions/create.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
let cacheDir: string;
let backend: FakeBackend;
let judge: JudgeService | null;

beforeEach(async () => {
  t = await createTestDb();
  cacheDir = mkdtempSync(join(tmpdir(), "oj-service-cache-"));
  backend = new FakeBackend();
  judge = null;
});
afterEach(async () => {
  await judge?.stop();
  t.cleanup();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function service(env: Record<string, string>, log = captureLog()) {
  judge = await JudgeService.create({
    config: judgeConfig(t.url, env),
    db: t.db,
    log,
    sandbox: { backend },
    cacheDir,
    pollMs: 50,
  });
  return { judge, log };
}

const statusOf = async (id: string) => (await t.db.query.submissions.findFirst({ where: eq(submissions.id, id) }))!;

describe("queue consumer", () => {
  for (const poolSize of [1, 3]) {
    test(`judges SANDBOX_POOL_SIZE (${poolSize}) submissions at once, never more`, async () => {
      let active = 0;
      let peak = 0;
      // Every sandbox step takes a while, so overlapping jobs are seen.
      const slow = (): FakeStep => ({
        result: { stdout: "3\n" },
        before: async () => {
          active++;
          peak = Math.max(peak, active);
          await Bun.sleep(60);
          active--;
        },
      });
      const userId = await insertUser(t.db);
      const problemId = await insertProblem(t.db, userId, { sampleInput: "1 2\n", sampleOutput: "3\n" });
      const n = poolSize * 3;
      // Python: syntax check + the sample, two steps per submission; distinct code, so each compiles.
      backend.push(...Array.from({ length: 2 * n }, slow));
      const { judge } = await service({ SANDBOX_POOL_SIZE: String(poolSize) });
      const ids: string[] = [];
      // From as many users: one user's jobs are judged one at a time (JUDGE_JOBS_PER_USER).
      for (let i = 0; i < n; i++) ids.push((await createSubmission(judge.submissions, await insertUser(t.db), { problemId, language: "py", code: `print(3) # ${i}` })).id);
      await judge.start();
      await eventually(async () => {
        const rows = await t.db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        return rows.every((r) => r.status === "done");
      });
      expect(peak).toBe(poolSize);
      const verdicts = await t.db.select({ verdict: submissions.verdict }).from(submissions).where(inArray(submissions.id, ids));
      expect(verdicts.map((v) => v.verdict)).toEqual(Array.from({ length: n }, () => "AC"));
      expect(judge.activeConsumer?.judged).toBe(n);
    });
  }

  test("fair share through the consumer: a user's later single submission is not stuck behind another's burst", async () => {
    const alice = await insertUser(t.db, "alice");
    const bob = await insertUser(t.db, "bob");
    const problemId = await insertProblem(t.db, alice, { sampleInput: "1 2\n", sampleOutput: "3\n" });
    backend.push(...Array.from({ length: 14 }, () => ({ result: { stdout: "3\n" } })));
    const { judge } = await service({ SANDBOX_POOL_SIZE: "1" });
    const burst: string[] = [];
    for (let i = 0; i < 6; i++) burst.push((await createSubmission(judge.submissions, alice, { problemId, language: "py", code: `print(3) # a${i}` })).id);
    await Bun.sleep(5);
    const single = (await createSubmission(judge.submissions, bob, { problemId, language: "py", code: "print(3) # b" })).id;
    // Record the order in which the consumer claims jobs.
    const order: string[] = [];
    const claim = judge.queue.claim.bind(judge.queue);
    judge.queue.claim = async () => {
      const row = await claim();
      if (row) order.push(row.userId === bob ? "B" : "A");
      return row;
    };
    await judge.start();
    await eventually(async () => (await statusOf(single)).status === "done" && (await statusOf(burst.at(-1)!)).status === "done");
    // Alice's oldest first, then Bob, then the rest of Alice's burst.
    expect(order.join("")).toBe("ABAAAAA");
  });

  test("a job whose lease expired on another host is taken over while the consumer runs", async () => {
    const userId = await insertUser(t.db);
    const problemId = await insertProblem(t.db, userId, { sampleInput: "1 2\n", sampleOutput: "3\n" });
    // Held by a worker on another machine (its pid means nothing here), lease still valid for 1.5 s.
    const [row] = await t.db
      .insert(submissions)
      .values({
        userId,
        problemId,
        language: "py",
        code: "print(3)",
        status: "running",
        leaseOwner: "other-host.example:4242:cafebabe",
        leaseExpiresAt: new Date(Date.now() + 1500),
        attempts: 1,
      })
      .returning({ id: submissions.id });
    const id = row!.id;
    backend.push({ result: {} }, { result: { stdout: "3\n" } });
    const { judge, log } = await service({ JUDGE_LEASE_SECONDS: "2" });
    await judge.start();
    // At start the lease was live: left alone.
    expect((await statusOf(id)).leaseOwner).toBe("other-host.example:4242:cafebabe");
    const done = await eventually(async () => {
      const r = await statusOf(id);
      return r.status === "done" ? r : null;
    }, 10_000);
    expect(done.verdict).toBe("AC");
    expect(done.attempts).toBe(2);
    expect(done.leaseOwner).toBeNull();
    expect(log.lines.some((l) => l.message === "judge: recovered abandoned jobs")).toBe(true);
  });
});

describe("Run with a failing sandbox", () => {
  test("a run that keeps failing in the sandbox answers IE with correct: false, after logged retries", async () => {
    const xx: FakeStep = { result: { status: "XX", message: "bwrap: Creating new namespace failed", stdout: "2\n", exitCode: 0 } };
    backend.push({ result: {}, creates: ["prog"] }, ...Array.from({ length: SANDBOX_RETRIES + 1 }, () => xx));
    const { judge, log } = await service({});
    const userId = await insertUser(t.db);
    const res = await judge.run(userId, { language: "cpp", code: "int main(){}", input: "1\n", expectedOutput: "2\n" });
    expect(res.verdict).toBe("IE");
    expect(res.correct).toBe(false);
    expect(log.lines.filter((l) => l.message === "judge: sandbox failure, retrying the run").length).toBe(SANDBOX_RETRIES);
    expect(log.lines.some((l) => l.message === "judge: sandbox failure during a run")).toBe(true);
    expect(backend.requests.length).toBe(2 + SANDBOX_RETRIES);
    expect(backend.released).toBe(backend.acquired);
  });

  test("a fresh Python run that keeps failing in the sandbox answers IE, without `correct` when nothing was expected", async () => {
    const xx: FakeStep = { result: { status: "XX", message: "EAGAIN" } };
    backend.push(...Array.from({ length: SANDBOX_RETRIES + 1 }, () => xx));
    const { judge } = await service({});
    const res = await judge.run(await insertUser(t.db), { language: "py", code: "print(1)", input: "" });
    expect(res).toMatchObject({ verdict: "IE", output: "", exitCode: null });
    expect("correct" in res).toBe(false);
  });
});

describe("Run's per-user limit on runs in flight", () => {
  test("concurrent runs under a problem's limits (a tRPC batch, parallel requests) cannot all pass the check together", async () => {
    // The problem lookup is an await: with the in-flight count taken only after it, all five runs
    // below passed the check together and held five boxes at once.
    let active = 0;
    let peak = 0;
    const slow = (i: number): FakeStep => ({
      result: { stdout: `${i}\n` },
      before: async () => {
        active++;
        peak = Math.max(peak, active);
        await Bun.sleep(80);
        active--;
      },
    });
    // Answers for the two runs that may start (a third would find none and fail otherwise than 429).
    backend.push(slow(0), slow(1));
    const { judge } = await service({ RUNS_IN_FLIGHT_PER_USER: "2", RUN_RATE_PER_MINUTE: "100" });
    const userId = await insertUser(t.db);
    const problemId = await insertProblem(t.db, userId, { sampleInput: "", sampleOutput: "0\n" });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => judge.run(userId, { language: "py", code: `print(${i})`, input: "", problemId })),
    );
    const refused = outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(2);
    expect(refused.map((e) => e.kind)).toEqual(["RATE_LIMITED", "RATE_LIMITED", "RATE_LIMITED"]);
    expect(peak).toBeLessThanOrEqual(2);
    // The slots are given back: the user can run again.
    backend.push(slow(9));
    expect((await judge.run(userId, { language: "py", code: "print(9)", input: "", problemId })).output).toBe("9\n");
  });
});
