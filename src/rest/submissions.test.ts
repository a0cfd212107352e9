/** Submission history over REST: own submissions only, newest first, per-test detail. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { submissions, submissionTests } from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { problemBody, request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

test("lists the caller's own submissions for the problem, newest first, with per-test results", async () => {
  const author = await signUp(app);
  const me = await signUp(app);
  const stranger = await signUp(app);
  const p = (await request(app, "POST", "/api/problems", { token: author.token, body: problemBody() })).body;
  const other = (await request(app, "POST", "/api/problems", { token: author.token, body: problemBody({ title: "Other" }) })).body;
  const base = Date.now() - 60_000;
  await t.services.db.insert(submissions).values([
    { id: "sub-old", userId: me.user.id, problemId: p._id, language: "cpp", code: "old", status: "done", verdict: "WA", isPassed: false, output: "3\n", expectedOutput: "2\n", testsPassed: 0, testsTotal: 3, timeMs: 5, memoryKib: 1000, createdAt: new Date(base) },
    { id: "sub-new", userId: me.user.id, problemId: p._id, language: "py", code: "new", status: "done", verdict: "AC", isPassed: true, output: "2\n", expectedOutput: "2\n", testsPassed: 3, testsTotal: 3, timeMs: 20, memoryKib: 9000, createdAt: new Date(base + 1000) },
    { id: "sub-queued", userId: me.user.id, problemId: p._id, language: "java", code: "queued", createdAt: new Date(base + 2000) },
    { id: "sub-theirs", userId: stranger.user.id, problemId: p._id, language: "cpp", code: "theirs", createdAt: new Date(base + 3000) },
    { id: "sub-elsewhere", userId: me.user.id, problemId: other._id, language: "cpp", code: "elsewhere", createdAt: new Date(base + 4000) },
  ]);
  await t.services.db.insert(submissionTests).values([
    { submissionId: "sub-new", index: 1, isSample: false, verdict: "AC", timeMs: 20, memoryKib: 9000 },
    { submissionId: "sub-new", index: 0, isSample: true, verdict: "AC", timeMs: 10, memoryKib: 8000 },
    { submissionId: "sub-new", index: 2, isSample: false, verdict: "AC", timeMs: 15, memoryKib: 8500 },
  ]);

  const res = await request(app, "GET", `/api/submissions/${p._id}`, { token: me.token });
  expect(res.status).toBe(200);
  expect(res.body.map((s: { _id: string }) => s._id)).toEqual(["sub-queued", "sub-new", "sub-old"]);
  const [queued, accepted, wrong] = res.body;
  expect(accepted).toMatchObject({
    _id: "sub-new",
    code: "new",
    language: "py",
    output: "2\n",
    expectedOutput: "2\n",
    isPassed: true,
    verdict: "AC",
    status: "done",
    timeMs: 20,
    memoryKib: 9000,
    testsPassed: 3,
    testsTotal: 3,
    problemTitle: "Add One",
    problemDeleted: false,
  });
  expect(accepted.tests).toEqual([
    { index: 0, isSample: true, verdict: "AC", timeMs: 10, memoryKib: 8000 },
    { index: 1, isSample: false, verdict: "AC", timeMs: 20, memoryKib: 9000 },
    { index: 2, isSample: false, verdict: "AC", timeMs: 15, memoryKib: 8500 },
  ]);
  expect(new Date(accepted.createdAt).getTime()).toBe(base + 1000);
  expect(wrong).toMatchObject({ verdict: "WA", isPassed: false, tests: [] });
  expect(queued).toMatchObject({ status: "queued", verdict: null, isPassed: false, timeMs: null });

  // The cookie works too, and other users see only their own.
  const viaCookie = await request(app, "GET", `/api/submissions/${p._id}`, { cookie: me.cookie });
  expect(viaCookie.body).toHaveLength(3);
  const theirs = await request(app, "GET", `/api/submissions/${p._id}`, { token: stranger.token });
  expect(theirs.body.map((s: { _id: string }) => s._id)).toEqual(["sub-theirs"]);
  const none = await request(app, "GET", `/api/submissions/${p._id}`, { token: author.token });
  expect(none.body).toEqual([]);
});

test("401 without a session, 404 for a problem that never existed", async () => {
  const me = await signUp(app);
  const p = (await request(app, "POST", "/api/problems", { token: me.token, body: problemBody() })).body;
  expect((await request(app, "GET", `/api/submissions/${p._id}`)).status).toBe(401);
  const missing = await request(app, "GET", "/api/submissions/never-existed", { token: me.token });
  expect(missing.status).toBe(404);
  expect(missing.body.code).toBe("PROBLEM_NOT_FOUND");
});
