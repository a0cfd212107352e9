/**
 * Rejudging after a fix: the owner rejudges every submission of a problem (or
 * one), the judge runs them again through the real sandbox, the history keeps
 * the old verdict, and nobody else may.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { problemBody, request, signUp } from "../../tests/api.ts";
import { startJudgeApp, type JudgeApp } from "../../tests/judge/app.ts";
import { eventually } from "../../tests/judge/fixtures.ts";

setDefaultTimeout(60_000);
let ja: JudgeApp;
let app: JudgeApp["app"];

beforeAll(async () => {
  ja = await startJudgeApp(86);
  app = ja.app;
}, 60_000);
afterAll(async () => {
  await ja?.close();
});

const DOUBLE = "print(2 * int(input()))\n";

describe("rejudge", () => {
  test("after a test is fixed, rejudging the problem turns its WA submissions AC and keeps the old verdict", async () => {
    const owner = await signUp(app);
    const student = await signUp(app);
    const body = problemBody({ title: "Double", outputFormat: "2n", sampleInput: "2\n", sampleOutput: "4\n", hiddenTestCases: undefined });
    const p = await request(app, "POST", "/api/problems", { token: owner.token, body: { ...body, hiddenTestCases: [{ input: "5\n", expectedOutput: "11\n" }] } });
    const first = await request(app, "POST", "/api/submissions", { token: student.token, body: { problemId: p.body._id, code: DOUBLE, language: "py" } });
    const mine = await request(app, "POST", "/api/submissions", { token: owner.token, body: { problemId: p.body._id, code: DOUBLE, language: "py" } });
    expect([first.body.verdict, mine.body.verdict]).toEqual(["WA", "WA"]);

    // Nobody but the owner may rejudge.
    expect((await request(app, "POST", `/api/problems/${p.body._id}/rejudge`, { token: student.token })).status).toBe(403);
    expect((await request(app, "POST", `/api/submissions/${first.body._id}/rejudge`, { token: student.token })).status).toBe(404);

    const fixed = await request(app, "PUT", `/api/problems/${p.body._id}`, { token: owner.token, body: { hiddenTestCases: [{ input: "5\n", expectedOutput: "10\n" }] } });
    expect(fixed.status).toBe(200);
    const rejudged = await request(app, "POST", `/api/problems/${p.body._id}/rejudge`, { token: owner.token });
    expect(rejudged.body).toEqual({ queued: 2 });

    const history = async () => (await request(app, "GET", `/api/submissions/${p.body._id}`, { token: student.token })).body[0];
    await eventually(async () => (await history()).status === "done", 30_000, 50);
    expect(await history()).toMatchObject({ _id: first.body._id, verdict: "AC", previousVerdict: "WA", isPassed: true, testsPassed: 2 });

    // One submission, by the owner (once its rejudge above is done).
    const ownerRow = async () => (await request(app, "GET", `/api/submissions/${p.body._id}`, { token: owner.token })).body[0];
    await eventually(async () => (await ownerRow()).status === "done", 30_000, 50);
    expect(await ownerRow()).toMatchObject({ verdict: "AC", previousVerdict: "WA" });
    const again = await request(app, "POST", `/api/submissions/${mine.body._id}/rejudge`, { token: owner.token });
    expect(again.body).toEqual({ id: mine.body._id, status: "queued" });
    await eventually(async () => (await request(app, "GET", `/api/submissions/${p.body._id}`, { token: owner.token })).body[0].status === "done", 30_000, 50);
    expect((await request(app, "GET", `/api/submissions/${p.body._id}`, { token: owner.token })).body[0]).toMatchObject({ verdict: "AC", previousVerdict: "AC" });
  });
});
