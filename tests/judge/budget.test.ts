/**
 * No user holds the judge (review N1, 2026-11-26), through the real app and
 * sandbox (two judge slots): a program that sleeps uses no CPU and passes
 * every test, so on a 1000-test problem it used to hold its slot for hours,
 * and one user's backlog took every free slot. Now one user's jobs in flight
 * are capped (JUDGE_JOBS_PER_USER, default 1), each submission has a
 * wall-clock budget (JUDGE_SUBMISSION_BUDGET_SECONDS caps it; 8 s here),
 * and a public problem of an ordinary user may not ask for that much work.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { submissions, users } from "../../db/schema.ts";
import { runWallLimitMs } from "../../isolate/exec.ts";
import { submissionBudgetMs } from "../../src/judge/budget.ts";
import { request, signUp } from "../api.ts";
import { startJudgeApp, type JudgeApp } from "./app.ts";
import { eventually } from "./fixtures.ts";

setDefaultTimeout(180_000);
let ja: JudgeApp;
const BUDGET_SECONDS = 8;

beforeAll(async () => {
  ja = await startJudgeApp(590, { JUDGE_SUBMISSION_BUDGET_SECONDS: String(BUDGET_SECONDS) });
}, 60_000);
afterAll(async () => {
  await ja?.close();
});

const TESTS = 1000;
const TIME_LIMIT_MS = 1000;
/** Sleeps 1.5 s per run: under the 2 s wall clock of a 1 s limit, with no CPU to speak of. */
const SLEEPER = "#include <cstdio>\n#include <unistd.h>\nint main() { long long a, b; scanf(\"%lld %lld\", &a, &b); usleep(1500000); printf(\"%lld\\n\", a + b); }\n";

function sumProblem(tests: number, extra: Record<string, unknown> = {}) {
  return {
    title: `Sum ${crypto.randomUUID().slice(0, 6)}`,
    description: "Print a + b.",
    inputFormat: "a b",
    outputFormat: "a + b",
    constraints: "small",
    sampleInput: "1 2\n",
    sampleOutput: "3\n",
    difficulty: "easy",
    timeLimitMs: TIME_LIMIT_MS,
    hiddenTestCases: Array.from({ length: tests }, (_, i) => ({ input: `${i} 1\n`, expectedOutput: `${i + 1}\n` })),
    ...extra,
  };
}

const rowOf = async (id: string) => (await ja.t.services.db.query.submissions.findFirst({ where: eq(submissions.id, id) }))!;

describe("no user holds the judge", () => {
  test("two sleeping submissions on a 1000-test problem delay a third user's by less than one run's wall time, and end TLE within their budget", async () => {
    const attacker = await signUp(ja.app);
    // Staff may set a 1000-test problem public (an ordinary user may not: the next test).
    await ja.t.services.db.update(users).set({ canCreateCourses: true }).where(eq(users.id, attacker.user.id));
    const big = await request(ja.app, "POST", "/api/problems", { token: attacker.token, body: sumProblem(TESTS) });
    expect(big.status).toBe(201);

    const sleeping: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await request(ja.app, "POST", "/api/submissions?wait=false", { token: attacker.token, body: { problemId: big.body._id, code: SLEEPER, language: "cpp" } });
      expect(res.status).toBe(202);
      sleeping.push(res.body.id);
    }
    // The first is being judged (it sleeps through its runs); the second waits behind the attacker's own cap.
    await eventually(async () => (await rowOf(sleeping[0]!)).status === "running", 60_000);

    const victim = await signUp(ja.app);
    const small = await request(ja.app, "POST", "/api/problems", { token: victim.token, body: sumProblem(2) });
    expect(small.status).toBe(201);
    const judged = await request(ja.app, "POST", "/api/submissions", {
      token: victim.token,
      body: { problemId: small.body._id, code: "#include <cstdio>\nint main() { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); }\n", language: "cpp" },
    });
    expect(judged.body.verdict).toBe("AC");
    const mine = await rowOf(judged.body.id ?? judged.body._id);
    const waitedMs = mine.claimedAt!.getTime() - mine.createdAt.getTime();
    expect(waitedMs).toBeLessThan(runWallLimitMs(TIME_LIMIT_MS));
    // The victim was served while the attacker's second submission still waited.
    const second = await rowOf(sleeping[1]!);
    expect(second.claimedAt === null || second.claimedAt.getTime() > mine.claimedAt!.getTime()).toBe(true);

    // Each sleeping submission ends TLE once its budget is spent, far short of its 1000 runs.
    expect(submissionBudgetMs({ tests: TESTS + 1, passes: 1, timeLimitMs: TIME_LIMIT_MS, validator: false, interactive: false }, BUDGET_SECONDS * 1000)).toBe(BUDGET_SECONDS * 1000);
    for (const id of sleeping) {
      await eventually(async () => (await rowOf(id)).status === "done", 120_000);
      const done = await rowOf(id);
      expect(done.verdict).toBe("TLE");
      expect(done.errorDetail).toContain("budget");
      expect(done.testsPassed).toBeGreaterThan(0);
      expect(done.testsPassed).toBeLessThan(TESTS);
      // The slot was held about the budget (plus the run in progress), not 1000 × 1.5 s.
      expect(done.judgedAt!.getTime() - done.claimedAt!.getTime()).toBeLessThan(BUDGET_SECONDS * 1000 + 60_000);
    }
  });

  test("a public problem of an ordinary user may not ask for more than PUBLIC_PROBLEM_WORK_MAX_SECONDS of judging per submission", async () => {
    const author = await signUp(ja.app);
    const refused = await request(ja.app, "POST", "/api/problems", { token: author.token, body: sumProblem(TESTS) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("hiddenTestCases");
    expect(JSON.stringify(refused.body)).toContain("PUBLIC_PROBLEM_WORK_MAX_SECONDS");
    // 300 tests at 1 s is 300 s: allowed; raising the time limit past the ceiling later is refused too.
    const ok = await request(ja.app, "POST", "/api/problems", { token: author.token, body: sumProblem(300) });
    expect(ok.status).toBe(201);
    const raised = await request(ja.app, "PUT", `/api/problems/${ok.body._id}`, { token: author.token, body: { timeLimitMs: 2000 } });
    expect(raised.status).toBe(400);
    expect(JSON.stringify(raised.body)).toContain("PUBLIC_PROBLEM_WORK_MAX_SECONDS");
  });
});
