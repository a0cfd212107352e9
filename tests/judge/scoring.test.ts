// A scoring problem (test groups with points) through the product's doors:
// written with the form's payload (each hidden test labelled with its group),
// refused with the field named when the groups do not add up, judged on the
// real sandbox (bwrap) group by group, and scored in an assignment's
// gradebook as points per group. The verdict cases on every backend are the
// golden suite's *-scoring-*; the rules, src/judge/groups.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { request } from "../api.ts";
import { courseApp, world, type CourseApp, type World } from "../courses/fixtures.ts";
import { judgeConfig, preparePch } from "./fixtures.ts";

setDefaultTimeout(60_000);

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 520)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 520 });
  w = await world(a);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

const scoring = {
  maxScore: 100,
  groups: [
    { name: "small", maxScore: 20 },
    { name: "medium", maxScore: 30, requirePass: ["small"] },
    { name: "large", maxScore: 50, aggregation: "sum" },
  ],
};
const tests = [
  { input: "2000000000 2000000000\n", expectedOutput: "4000000000\n", group: "large" },
  { input: "3 4\n", expectedOutput: "7\n", group: "small" },
  { input: "1000 2000\n", expectedOutput: "3000\n", group: "medium" },
  { input: "-2000000000 -2000000000\n", expectedOutput: "-4000000000\n", group: "large" },
  { input: "10 20\n", expectedOutput: "30\n", group: "small" },
];
const body = (over: Record<string, unknown> = {}) => ({
  title: "A + B by subtasks",
  description: "Add two integers.",
  inputFormat: "a b",
  outputFormat: "a + b",
  constraints: "|a|, |b| <= 2*10^9",
  sampleInput: "1 2\n",
  sampleOutput: "3\n",
  difficulty: "medium",
  courseId: "",
  hiddenTestCases: tests,
  scoring,
  ...over,
});
const SMALL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a <= 100 else 0)\n";

describe("a scoring problem", () => {
  let problemId = "";

  test("is refused with the field named when a test has no group, or the points do not add up", async () => {
    const missing = await request(a.app, "POST", "/api/problems", {
      token: w.instructor.token,
      body: body({ courseId: w.courseId, hiddenTestCases: [...tests, { input: "1 1\n", expectedOutput: "2\n" }] }),
    });
    expect([missing.status, missing.body.field]).toEqual([400, "hiddenTestCases.5.group"]);
    const unknown = await request(a.app, "POST", "/api/problems", {
      token: w.instructor.token,
      body: body({ courseId: w.courseId, hiddenTestCases: [...tests, { input: "1 1\n", expectedOutput: "2\n", group: "huge" }] }),
    });
    expect([unknown.status, unknown.body.field]).toEqual([400, "hiddenTestCases.5.group"]);
    const short = await request(a.app, "POST", "/api/problems", {
      token: w.instructor.token,
      body: body({ courseId: w.courseId, scoring: { ...scoring, groups: scoring.groups.slice(0, 2) }, hiddenTestCases: tests.slice(1, 3) }),
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain("at most 50 points together");
  });

  test("is written with labelled tests: stored in group order, the owner sees the labels, everyone sees the groups and points", async () => {
    const r = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: body({ courseId: w.courseId }) });
    expect(r.status).toBe(201);
    problemId = r.body._id;
    expect(r.body.scoring).toEqual({
      maxScore: 100,
      aggregation: "sum",
      requirePass: [],
      groups: [
        { name: "small", maxScore: 20, aggregation: "pass-fail", requirePass: [], testCount: 2 },
        { name: "medium", maxScore: 30, aggregation: "pass-fail", requirePass: ["small"], testCount: 1 },
        { name: "large", maxScore: 50, aggregation: "sum", requirePass: [], testCount: 2 },
      ],
    });
    expect(r.body.hiddenTestCases.map((t: { group: string; input: string }) => `${t.group}:${t.input.trim()}`)).toEqual([
      "small:3 4",
      "small:10 20",
      "medium:1000 2000",
      "large:2000000000 2000000000",
      "large:-2000000000 -2000000000",
    ]);
    // Changing only the points keeps the tests in their groups.
    const moved = await request(a.app, "PUT", `/api/problems/${problemId}`, {
      token: w.instructor.token,
      body: { scoring: { ...scoring, groups: [{ name: "small", maxScore: 30 }, { name: "medium", maxScore: 20, requirePass: ["small"] }, scoring.groups[2]] } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.scoring.groups.map((g: { maxScore: number; testCount: number }) => [g.maxScore, g.testCount])).toEqual([[30, 2], [20, 1], [50, 2]]);
    const back = await request(a.app, "PUT", `/api/problems/${problemId}`, { token: w.instructor.token, body: { scoring } });
    expect(back.status).toBe(200);
  });

  test("a submission in an assignment scores points per group; the gradebook shows them", async () => {
    const assignment = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.instructor.token,
      body: { title: "Subtasks", opensAt: "2026-03-02T08:00:00Z", dueAt: "2026-03-20T08:00:00Z", scoring: "partial", problems: [{ problemId, points: 10 }] },
    });
    expect(assignment.status).toBe(201);
    a.clock.set("2026-03-05T10:00:00Z");
    const sub = await request(a.app, "POST", `/api/assignments/${assignment.body.id}/submissions`, {
      token: w.student.token,
      body: { problemId, code: SMALL_ONLY, language: "py" },
    });
    expect(sub.status).toBe(201);
    // small passes (20); medium fails (0); large: the negative test is right (25 of 50).
    expect(sub.body).toMatchObject({ verdict: "WA", score: 45, maxScore: 100 });
    expect(sub.body.groups).toEqual([
      { name: "small", score: 20, maxScore: 20, verdict: "AC", testsRun: 2 },
      { name: "medium", score: 0, maxScore: 30, verdict: "WA", testsRun: 1 },
      { name: "large", score: 25, maxScore: 50, verdict: "WA", testsRun: 2 },
    ]);
    const grades = await request(a.app, "GET", `/api/assignments/${assignment.body.id}/grades`, { token: w.ta.token });
    const cell = grades.body.cells.find((c: { userId: string }) => c.userId === w.student.id);
    expect(cell).toMatchObject({ score: 4.5, verdict: "WA" });
    const full = await request(a.app, "POST", `/api/assignments/${assignment.body.id}/submissions`, {
      token: w.student.token,
      body: { problemId, code: "a, b = map(int, input().split())\nprint(a + b)\n", language: "py" },
    });
    expect(full.body).toMatchObject({ verdict: "AC", score: 100, maxScore: 100 });
  });
});
