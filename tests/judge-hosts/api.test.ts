/**
 * The judge API (/api/judge, src/judge-hosts) driven by a test acting as a
 * judge host, against a server that does not judge in process: claim with the
 * test data by hash, progress and finish fenced by the claim token, a finish
 * written once (retries accepted, a late answer from a lost claim refused),
 * leases expiring on the server's clock, and host authentication.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { judgeFinishes } from "../../db/schema.ts";
import { createApp } from "../../src/app.ts";
import { addHost, listHosts, revokeHost } from "../../src/judge-hosts/hosts.ts";
import { forgetTestData } from "../../src/judge-hosts/jobs.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { problemBody, request, signUp } from "../api.ts";
import { silentLog } from "../judge/fixtures.ts";
import { createTestServices, type TestServices } from "../services.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let hostA: string;
let hostB: string;
let user: Awaited<ReturnType<typeof signUp>>;
let problemId: string;

beforeAll(async () => {
  // One user submits every job here and hosts hold several at once: the per-user cap (JUDGE_JOBS_PER_USER,
  // src/submissions/queue.test.ts) is not what these tests are about.
  t = await createTestServices({ env: { JUDGE_IN_PROCESS: "false", JUDGE_LEASE_SECONDS: "1", JUDGE_JOBS_PER_USER: "1000" } });
  t.services.judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox: t.services.sandbox, cacheDir: join(t.dir, "cache") });
  app = createApp(t.services);
  hostA = (await addHost(t.services.db, "host-a")).token;
  hostB = (await addHost(t.services.db, "host-b")).token;
  user = await signUp(app);
  const p = await request(app, "POST", "/api/problems", {
    token: user.token,
    body: problemBody({ title: "Add", sampleInput: "1 2\n", sampleOutput: "3\n", hiddenTestCases: [{ input: "5 5\n", expectedOutput: "10\n" }] }),
  });
  problemId = p.body._id;
});
afterAll(() => t?.cleanup());

async function host(token: string, method: string, path: string, body?: unknown) {
  const res = await app.request(`/api/judge${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-judge-version": "test-1" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) : null };
}

async function submit(code = "print(3)"): Promise<string> {
  const r = await request(app, "POST", "/api/submissions?wait=false", { token: user.token, body: { problemId, code, language: "py" } });
  expect(r.status).toBe(202);
  return r.body.id;
}

const row = async (id: string) => (await request(app, "GET", `/api/submissions/${problemId}`, { token: user.token })).body.find((s: { _id: string }) => s._id === id);

describe("judge API", () => {
  test("claim → test data by hash → progress → finish: the submission is judged; a retried finish is accepted, a different one refused", async () => {
    const id = await submit("print(sum(map(int, input().split())))");
    const claim = await host(hostA, "POST", "/claim", { waitMs: 2000 });
    expect(claim.status).toBe(200);
    const job = claim.body;
    expect(job).toMatchObject({ submissionId: id, language: "py", leaseMs: 1000, hiddenTotal: 1, problem: { checker: "lines", timeLimitMs: 2000 } });
    expect(job.tests.map((x: { index: number }) => x.index)).toEqual([0, 1]);
    // The host list counts the jobs each host holds.
    expect((await listHosts(t.services.db)).map((h) => [h.name, h.jobsInHand])).toEqual([
      ["host-a", 1],
      ["host-b", 0],
    ]);
    const input1 = await host(hostA, "GET", `/testdata/${job.tests[1].inputSha256}`);
    const answer1 = await host(hostA, "GET", `/testdata/${job.tests[1].answerSha256}`);
    expect([input1.body, answer1.body]).toEqual(["5 5\n", "10\n"]);
    expect((await host(hostA, "GET", `/testdata/${"0".repeat(64)}`)).status).toBe(404);
    // A server restarted since the claim holds no test data; the problem the host names brings it back.
    forgetTestData();
    expect((await host(hostA, "GET", `/testdata/${job.tests[1].inputSha256}`)).status).toBe(404);
    expect((await host(hostA, "GET", `/testdata/${job.tests[1].inputSha256}?problem=${job.problem.id}`)).body).toBe("5 5\n");
    expect((await host(hostA, "GET", `/testdata/${"0".repeat(64)}?problem=${job.problem.id}`)).status).toBe(404);

    const token = job.claimToken;
    expect((await host(hostA, "POST", `/jobs/${id}/progress`, { claimToken: token, clear: true, update: { status: "running", testsTotal: 2 } })).status).toBe(200);
    for (const index of [0, 1]) {
      expect((await host(hostA, "POST", `/jobs/${id}/progress`, { claimToken: token, test: { index, isSample: index === 0, verdict: "AC", timeMs: 12, memoryKib: 4000 } })).status).toBe(200);
    }
    const values = { verdict: "AC", isPassed: true, testsPassed: 2, hiddenPassed: 1, hiddenTotal: 1, timeMs: 12, memoryKib: 4000 };
    expect((await host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: token, values })).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: "done", verdict: "AC", isPassed: true, testsPassed: 2 });
    // The answer was lost and the host retries: accepted, written once.
    expect((await host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: token, values })).status).toBe(200);
    expect((await host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: token, values: { ...values, verdict: "WA", isPassed: false } })).status).toBe(409);
    expect((await t.services.db.select().from(judgeFinishes)).filter((f) => f.submissionId === id)).toHaveLength(1);
  });

  test("a claim that lost its lease (server clock) is refused; the job goes to another host and is finished once", async () => {
    const id = await submit();
    const first = (await host(hostA, "POST", "/claim", { waitMs: 2000 })).body;
    expect(first.submissionId).toBe(id);
    await Bun.sleep(1300); // longer than the 1 s lease, no renewal
    const second = (await host(hostB, "POST", "/claim", { waitMs: 2000 })).body;
    expect(second.submissionId).toBe(id);
    expect(second.claimToken).not.toBe(first.claimToken);
    const values = { verdict: "WA", isPassed: false, testsPassed: 0 };
    expect((await host(hostA, "POST", `/jobs/${id}/renew`, { claimToken: first.claimToken })).status).toBe(409);
    expect((await host(hostA, "POST", `/jobs/${id}/progress`, { claimToken: first.claimToken, test: { index: 0, isSample: true, verdict: "WA", timeMs: 1, memoryKib: 1 } })).status).toBe(409);
    expect((await host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: first.claimToken, values })).status).toBe(409);
    expect((await host(hostB, "POST", `/jobs/${id}/finish`, { claimToken: second.claimToken, values: { verdict: "AC", isPassed: true, testsPassed: 2, hiddenPassed: 1 } })).status).toBe(200);
    expect(await row(id)).toMatchObject({ verdict: "AC" });
    const finishes = (await t.services.db.select().from(judgeFinishes)).filter((f) => f.submissionId === id);
    expect(finishes.map((f) => [f.host, f.verdict])).toEqual([["host-b", "AC"]]);
  });

  test("no job: 204 after the wait; a released job is claimable again", async () => {
    const none = await host(hostA, "POST", "/claim", { waitMs: 300 });
    expect(none.status).toBe(204);
    const id = await submit();
    const job = (await host(hostA, "POST", "/claim", { waitMs: 2000 })).body;
    expect((await host(hostA, "POST", `/jobs/${id}/release`, { claimToken: job.claimToken })).status).toBe(200);
    expect((await host(hostB, "POST", "/claim", { waitMs: 2000 })).body.submissionId).toBe(id);
  });

  test("a host names the languages it can judge: it is never given another language's job", async () => {
    const id = await submit();
    expect((await host(hostA, "POST", "/claim", { waitMs: 0, languages: ["cpp", "java"] })).status).toBe(204);
    expect((await host(hostA, "POST", "/claim", { waitMs: 0, languages: [] })).status).toBe(204);
    const bad = await host(hostA, "POST", "/claim", { waitMs: 0, languages: ["cobol"] });
    expect(bad.status).toBe(400);
    const job = (await host(hostA, "POST", "/claim", { waitMs: 0, languages: ["py"] })).body;
    expect(job.submissionId).toBe(id);
    expect((await host(hostA, "POST", `/jobs/${id}/release`, { claimToken: job.claimToken })).status).toBe(200);
    const again = (await host(hostA, "POST", "/claim", { waitMs: 0, languages: ["cpp", "java", "py"] })).body;
    expect(again.submissionId).toBe(id);
    expect((await host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: again.claimToken, values: { verdict: "WA", isPassed: false } })).status).toBe(200);
  });

  test("Python 3 on a PyPy problem goes only to a host that has PyPy, and the job says so", async () => {
    const p = await request(app, "POST", "/api/problems", {
      token: user.token,
      body: problemBody({ title: "On PyPy", sampleInput: "1 2\n", sampleOutput: "3\n", pythonImplementation: "pypy" }),
    });
    const r = await request(app, "POST", "/api/submissions?wait=false", { token: user.token, body: { problemId: p.body._id, code: "print(3)", language: "py" } });
    expect(r.status).toBe(202);
    expect((await host(hostA, "POST", "/claim", { waitMs: 0, languages: ["cpp", "py"] })).status).toBe(204);
    const job = (await host(hostB, "POST", "/claim", { waitMs: 0, languages: ["py", "pypy"] })).body;
    expect(job).toMatchObject({ submissionId: r.body.id, language: "py", problem: { pythonImplementation: "pypy" } });
    expect((await host(hostB, "POST", `/jobs/${r.body.id}/finish`, { claimToken: job.claimToken, values: { verdict: "WA", isPassed: false } })).status).toBe(200);
  });

  test("only host tokens: none, a user's session or a revoked host get 401; bad bodies 400 naming the field", async () => {
    expect((await app.request("/api/judge/claim", { method: "POST" })).status).toBe(401);
    expect((await host(user.token, "POST", "/claim", { waitMs: 0 })).status).toBe(401);
    const { token } = await addHost(t.services.db, "host-gone");
    await revokeHost(t.services.db, "host-gone");
    expect((await host(token, "POST", "/claim", { waitMs: 0 })).status).toBe(401);
    const badBody = await host(hostA, "POST", "/jobs/x/finish", { claimToken: "t", values: { verdict: "MAYBE", isPassed: true } });
    expect(badBody.status).toBe(400);
    expect(badBody.body).toMatchObject({ field: "values.verdict" });
    const forged = await host(hostA, "POST", "/jobs/x/progress", { claimToken: "t", update: { userId: "someone-else" } });
    expect(forged.status).toBe(400);
  });
});

describe("a judge host is trusted only for its own claims", () => {
  test("a scoring problem's report must fit its groups: the maximum, a score within it, AC only at full score, the groups by name", async () => {
    const p = await request(app, "POST", "/api/problems", {
      token: user.token,
      body: problemBody({
        title: "Add by subtasks", sampleInput: "1 2\n", sampleOutput: "3\n",
        hiddenTestCases: [{ input: "5 5\n", expectedOutput: "10\n", group: "a" }, { input: "6 6\n", expectedOutput: "12\n", group: "b" }],
        scoring: { groups: [{ name: "a", maxScore: 40 }, { name: "b", maxScore: 60 }] },
      }),
    });
    expect(p.status).toBe(201);
    const r = await request(app, "POST", "/api/submissions?wait=false", { token: user.token, body: { problemId: p.body._id, code: "print(3)", language: "py" } });
    const job = (await host(hostA, "POST", "/claim", { waitMs: 2000 })).body;
    expect(job.problem.scoring.maxScore).toBe(100);
    const finish = (values: Record<string, unknown>) => host(hostA, "POST", `/jobs/${r.body.id}/finish`, { claimToken: job.claimToken, values });
    const groups = (a: number, b: number) => [
      { name: "a", score: a, maxScore: 40, verdict: a === 40 ? "AC" : "WA", testsRun: 1 },
      { name: "b", score: b, maxScore: 60, verdict: b === 60 ? "AC" : "WA", testsRun: 1 },
    ];
    const cases: [Record<string, unknown>, string][] = [
      [{ verdict: "WA", isPassed: false, score: 40, maxScore: 50, groupResults: groups(40, 0) }, "maxScore"],
      [{ verdict: "WA", isPassed: false, score: 140, maxScore: 100, groupResults: groups(40, 60) }, "score"],
      [{ verdict: "AC", isPassed: true, testsPassed: 3, hiddenPassed: 2, hiddenTotal: 2, score: 40, maxScore: 100, groupResults: groups(40, 0) }, "verdict"],
      [{ verdict: "AC", isPassed: true, testsPassed: 3, hiddenPassed: 2, hiddenTotal: 2 }, "score"],
      [{ verdict: "WA", isPassed: false, score: 40, maxScore: 100, groupResults: groups(40, 0).slice(0, 1) }, "groupResults"],
    ];
    for (const [values, field] of cases) {
      const res = await finish(values);
      expect({ field, status: res.status, named: res.body.field }).toEqual({ field, status: 400, named: field });
    }
    expect((await finish({ verdict: "WA", isPassed: false, testsPassed: 2, hiddenPassed: 1, hiddenTotal: 2, score: 40, maxScore: 100, groupResults: groups(40, 0) })).status).toBe(200);
    const done = (await request(app, "GET", `/api/submissions/${p.body._id}`, { token: user.token })).body[0];
    expect(done).toMatchObject({ verdict: "WA", score: 40, maxScore: 100 });
  });

  test("a report must fit the job: counts past its tests, AC without every test passed, isPassed without AC are 400 and change nothing", async () => {
    const id = await submit();
    const job = (await host(hostA, "POST", "/claim", { waitMs: 2000 })).body;
    const finish = (values: Record<string, unknown>) => host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: job.claimToken, values });
    const cases: [Record<string, unknown>, string][] = [
      [{ verdict: "AC", isPassed: true, testsPassed: 1, hiddenPassed: 0, hiddenTotal: 1 }, "verdict"],
      [{ verdict: "WA", isPassed: false, testsPassed: 1, hiddenPassed: 5, hiddenTotal: 1 }, "hiddenPassed"],
      [{ verdict: "WA", isPassed: false, testsPassed: 1, hiddenPassed: 0, hiddenTotal: 7 }, "hiddenTotal"],
      [{ verdict: "WA", isPassed: true, testsPassed: 1 }, "isPassed"],
      [{ verdict: "WA", isPassed: false, testsPassed: 9 }, "testsPassed"],
      [{ verdict: "WA", isPassed: false, testsPassed: 1, score: 10, maxScore: 100, groupResults: [] }, "score"],
    ];
    for (const [values, field] of cases) {
      const r = await finish(values);
      expect({ field, status: r.status, named: r.body.field }).toEqual({ field, status: 400, named: field });
    }
    expect((await host(hostA, "POST", `/jobs/${id}/progress`, { claimToken: job.claimToken, update: { testsTotal: 40 } })).status).toBe(400);
    expect((await row(id)).status).not.toBe("done");
    expect((await finish({ verdict: "AC", isPassed: true, testsPassed: 2, hiddenPassed: 1, hiddenTotal: 1 })).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: "done", verdict: "AC" });
  });

  test("test data is served only for problems of jobs the host holds now, by hash or by naming the problem", async () => {
    const id = await submit();
    const job = (await host(hostA, "POST", "/claim", { waitMs: 2000 })).body;
    const sha = job.tests[1].inputSha256;
    expect((await host(hostA, "GET", `/testdata/${sha}`)).body).toBe("5 5\n");
    // Another host that holds no job: neither the hash nor naming the problem opens it.
    const idle = (await addHost(t.services.db, "host-idle")).token;
    expect((await host(idle, "GET", `/testdata/${sha}`)).status).toBe(404);
    expect((await host(idle, "GET", `/testdata/${sha}?problem=${problemId}`)).status).toBe(404);
    expect((await host(hostA, "POST", `/jobs/${id}/finish`, { claimToken: job.claimToken, values: { verdict: "WA", isPassed: false, testsPassed: 0 } })).status).toBe(200);
    // Once the job is finished, host A holds it no longer either (unless it holds another job of this problem).
    const stillHeld = (await t.services.db.all<{ n: number }>(`SELECT count(*) AS n FROM submissions WHERE lease_owner = 'judge-host/host-a' AND status IN ('compiling', 'running')` as never))[0]!.n;
    expect((await host(hostA, "GET", `/testdata/${sha}`)).status).toBe(stillHeld ? 200 : 404);
  });

  test("a host holds at most the capacity its operator gave it: a claim past it is 429 until a job is finished", async () => {
    const small = (await addHost(t.services.db, "host-small", 1)).token;
    const first = await submit();
    const second = await submit();
    const job = (await host(small, "POST", "/claim", { waitMs: 2000 })).body;
    expect([first, second]).toContain(job.submissionId);
    const full = await host(small, "POST", "/claim", { waitMs: 0 });
    expect(full.status).toBe(429);
    expect(full.body.error).toContain("capacity");
    expect((await host(small, "POST", `/jobs/${job.submissionId}/finish`, { claimToken: job.claimToken, values: { verdict: "WA", isPassed: false } })).status).toBe(200);
    const next = await host(small, "POST", "/claim", { waitMs: 2000 });
    expect(next.status).toBe(200);
    expect((await host(small, "POST", `/jobs/${next.body.submissionId}/finish`, { claimToken: next.body.claimToken, values: { verdict: "WA", isPassed: false } })).status).toBe(200);
    await expect(addHost(t.services.db, "host-huge", 1000)).rejects.toThrow("capacity 1000: a whole number from 1 to 64");
  });
});
