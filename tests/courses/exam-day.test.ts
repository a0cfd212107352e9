/**
 * Issue 37's "done when", end to end through the REST doors, with the real app over a real libSQL file, the real
 * sandbox (boxes 1600–1607) and a clock the test sets: an instructor runs a 90-minute exam for a lab (one student
 * with 50 % extra time, each student with their own problem from a pool), inside the lab's address range and Safe
 * Exam Browser, watches who is stuck, grades with a rubric and line comments, releases, answers a regrade request
 * and sees the grades reach the gradebook and its CSV; a student spends two late days on a homework; and each step
 * outside a rule is refused naming it. Each part's own file tests its rules in depth (exam, grading,
 * pools-late-days, analytics); this one checks that they hold together.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { createAiService } from "../../src/ai/service.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { sebHash } from "../../src/courses/exam/rules.ts";
import { createTestServices } from "../services.ts";
import { request } from "../api.ts";
import { judgeConfig, preparePch, silentLog } from "../judge/fixtures.ts";
import { addOneProblem, PY_ADD_ONE, testClock, world, type CourseApp, type World } from "./fixtures.ts";

const BOXES = { ISOLATE_BOX_ID_START: "1600", ISOLATE_BOX_ID_COUNT: "8" };
const KEY = "c".repeat(64);
const LAB = "10.20.30.40";
const PY_WRONG = "print(int(input()) + 2)\n";

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let examId: string;
let pool: string[];
/** Each student's drawn problem. */
const drawn = new Map<string, string>();
/** The extra-time student's accepted submission in the exam (graded below). */
let acceptedId: string;

/** A request from a lab machine in Safe Exam Browser (its address and the config key hash for the URL). */
function inLab(method: string, path: string, token: string, body?: unknown, peer = LAB) {
  return request(a.app, method, path, { token, peer, ...(body === undefined ? {} : { body }), headers: { "x-safeexambrowser-configkeyhash": sebHash(`http://localhost${path}`, KEY) } });
}
const api = (method: string, path: string, token: string, body?: unknown) => request(a.app, method, path, { token, ...(body === undefined ? {} : { body }) });
const csvOf = async (assignmentId: string) => (await a.app.request(`/api/assignments/${assignmentId}/grades?format=csv`, { headers: { authorization: `Bearer ${w.owner.token}` } })).text();

beforeAll(async () => {
  await preparePch();
  const config = judgeConfig("file::memory:", BOXES, 0);
  sandbox = await createSandbox(sandboxOptions(config), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  const clock = testClock("2026-04-06T08:00:00Z");
  const env = Object.fromEntries(
    Object.entries(config)
      .filter(([k]) => ["SANDBOX", "SANDBOX_ROOT", "ISOLATE_BOX_ID_START", "ISOLATE_BOX_ID_COUNT", "SANDBOX_POOL_SIZE"].includes(k))
      .map(([k, v]) => [k, String(v)]),
  );
  const t = await createTestServices({ env, clock, sandbox });
  const judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox, cacheDir: join(t.dir, "cache"), pollMs: 50, now: clock });
  t.services.judge = judge;
  await judge.start();
  t.services.ai = createAiService({ config: t.config, db: t.services.db, log: silentLog, sandbox: sandbox.backend, now: clock });
  a = {
    app: createApp(t.services),
    t,
    judge,
    clock,
    async close() {
      await judge.stop();
      t.cleanup();
    },
  };
  w = await world(a);
  pool = [];
  for (const title of ["Pool A", "Pool B"]) {
    const p = await api("POST", "/api/problems", w.instructor.token, addOneProblem({ courseId: w.courseId, title }));
    if (p.status !== 201) throw new Error(`problem: ${p.status} ${JSON.stringify(p.body)}`);
    pool.push(p.body._id);
  }
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

describe("a 90-minute exam in the lab", () => {
  test("set up: a pool of two problems in one slot, 90 minutes, the lab's range, Safe Exam Browser, lock-down; 50 % extra time for one student", async () => {
    const r = await api("POST", `/api/courses/${w.courseId}/assignments`, w.instructor.token, {
      title: "Final exam",
      opensAt: "2026-04-06T09:00:00Z",
      dueAt: "2026-04-06T12:00:00Z",
      problems: pool.map((problemId) => ({ problemId, points: 100, slot: 1 })),
      timeLimitMinutes: 90,
      accessCidrs: ["10.20.0.0/16"],
      sebConfigKeys: [KEY],
      lockDown: true,
    });
    expect(r.status).toBe(201);
    examId = r.body.id;
    expect((await api("PUT", `/api/courses/${w.courseId}/members/${w.student2.id}`, w.instructor.token, { extraTimePercent: 50 })).body).toMatchObject({ extraTimePercent: 50 });
    // Staff see who got which problem: every student one of the pool.
    const draws = await api("GET", `/api/assignments/${examId}/pool-draws`, w.ta.token);
    for (const d of draws.body[0].draws as { userId: string; problemId: string }[]) drawn.set(d.userId, d.problemId);
    expect(pool).toContain(drawn.get(w.student.id)!);
    expect(pool).toContain(drawn.get(w.student2.id)!);
  });

  test("Start in the lab: each student sees only their own problem; the 50 % student's window is 135 minutes", async () => {
    a.clock.set("2026-04-06T09:00:00Z");
    const outside = await inLab("POST", `/api/assignments/${examId}/start`, w.student.token, {}, "192.0.2.1");
    expect([outside.status, outside.body.code]).toEqual([403, "EXAM_ADDRESS_REFUSED"]);
    const noSeb = await request(a.app, "POST", `/api/assignments/${examId}/start`, { token: w.student.token, peer: LAB, body: {} });
    expect([noSeb.status, noSeb.body.code]).toEqual([403, "EXAM_SEB_REQUIRED"]);
    expect((await inLab("POST", `/api/assignments/${examId}/start`, w.student.token, {})).body).toMatchObject({ endsAt: "2026-04-06T10:30:00.000Z" });
    expect((await inLab("POST", `/api/assignments/${examId}/start`, w.student2.token, {})).body).toMatchObject({ endsAt: "2026-04-06T11:15:00.000Z" });
    for (const s of [w.student, w.student2]) {
      const seen = await inLab("GET", `/api/assignments/${examId}`, s.token);
      expect(seen.body.problems.map((p: { problemId: string }) => p.problemId)).toEqual([drawn.get(s.id)]);
    }
  });

  test("during the exam: work on the drawn problem is judged; another problem, practice or AI review is refused naming the rule", async () => {
    a.clock.set("2026-04-06T09:20:00Z");
    const mine = drawn.get(w.student.id)!;
    for (const code of [PY_WRONG, PY_WRONG, PY_WRONG]) {
      const s = await inLab("POST", `/api/assignments/${examId}/submissions`, w.student.token, { problemId: mine, code, language: "py" });
      expect([s.status, s.body.verdict]).toEqual([201, "WA"]);
    }
    const theirs = drawn.get(w.student2.id)!;
    const ok = await inLab("POST", `/api/assignments/${examId}/submissions`, w.student2.token, { problemId: theirs, code: PY_ADD_ONE, language: "py" });
    expect([ok.status, ok.body.verdict]).toEqual([201, "AC"]);
    acceptedId = ok.body._id;
    const other = pool.find((p) => p !== mine)!;
    const notDrawn = await inLab("POST", `/api/assignments/${examId}/submissions`, w.student.token, { problemId: other, code: PY_ADD_ONE, language: "py" });
    expect(notDrawn.status).toBeGreaterThanOrEqual(400);
    expect(notDrawn.status).toBeLessThan(500);
    const practice = await request(a.app, "GET", "/api/courses", { token: w.student.token, peer: LAB });
    expect([practice.status, practice.body.code]).toEqual([403, "EXAM_LOCKED_DOWN"]);
    const ai = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, peer: LAB, body: { problemId: mine, code: PY_WRONG, language: "py" } });
    expect(ai.body.code).toBe("EXAM_LOCKED_DOWN");
  }, 120_000);

  test("who is stuck: the student with three failed attempts and no AC; the other solved", async () => {
    const r = await api("GET", `/api/assignments/${examId}/analytics`, w.ta.token);
    expect(r.status).toBe(200);
    expect(r.body.stuck.students.map((s: { userId: string }) => s.userId)).toEqual([w.student.id]);
    const solved = r.body.problems.reduce((n: number, p: { solved: number }) => n + p.solved, 0);
    expect(solved).toBe(1);
    expect((await api("GET", `/api/assignments/${examId}/analytics`, w.student2.token)).status).toBe(403);
  });

  test("after the window: refused with the time for the student without extra time; still open for the one with it", async () => {
    a.clock.set("2026-04-06T10:45:00Z");
    const late = await inLab("POST", `/api/assignments/${examId}/submissions`, w.student.token, { problemId: drawn.get(w.student.id)!, code: PY_ADD_ONE, language: "py" });
    expect([late.status, late.body.code]).toEqual([403, "EXAM_WINDOW_OVER"]);
    expect(late.body.message).toContain("10:30");
    const extra = await inLab("POST", `/api/assignments/${examId}/submissions`, w.student2.token, { problemId: drawn.get(w.student2.id)!, code: PY_ADD_ONE, language: "py" });
    expect([extra.status, extra.body.verdict]).toEqual([201, "AC"]);
    // Staff see who started, from where, and who was refused.
    const log = await api("GET", `/api/assignments/${examId}/access-log`, w.ta.token);
    expect(JSON.stringify(log.body)).toContain(LAB);
    expect(JSON.stringify(log.body)).toContain("192.0.2.1");
  }, 60_000);
});

describe("grading the exam", () => {
  let submissionId: string;
  let requestId: string;

  test("a rubric and line comments stay hidden until released; then the grade reaches the gradebook and its CSV", async () => {
    a.clock.set("2026-04-06T13:00:00Z");
    const problemId = drawn.get(w.student2.id)!;
    const rubric = await api("PUT", `/api/assignments/${examId}/problems/${problemId}/rubric`, w.instructor.token, {
      mode: "replace",
      items: [
        { points: 70, description: "Correct" },
        { points: 10, description: "Readable" },
      ],
    });
    expect(rubric.status).toBe(200);
    submissionId = acceptedId;
    const review = await api("PUT", `/api/submissions/${submissionId}/review`, w.ta.token, {
      itemIds: [rubric.body.items[0].id],
      comments: [{ line: 1, text: "Name the input" }],
    });
    expect(review.body.points).toBe(70);
    const hidden = await api("GET", `/api/submissions/${submissionId}/review`, w.student2.token);
    expect([hidden.status, hidden.body.code]).toEqual([404, "REVIEW_NOT_FOUND"]);
    expect(await csvOf(examId)).not.toContain(",70,");
    expect((await api("POST", `/api/assignments/${examId}/reviews/release`, w.instructor.token, {})).body.released).toBe(1);
    // Read from home: the exam is over for the student (their close passed), so the lab's range no longer holds.
    const seen = await api("GET", `/api/submissions/${submissionId}/review`, w.student2.token);
    expect(seen.body).toMatchObject({ viewer: "student", points: 70, review: { comments: [{ line: 1, text: "Name the input" }] } });
    expect((await csvOf(examId)).split("\n").find((l) => l.startsWith(w.student2.id))).toContain(",70,");
  });

  test("a regrade request, answered with 80 points, moves the grade; a student may not answer it", async () => {
    const asked = await api("POST", `/api/submissions/${submissionId}/regrade-requests`, w.student2.token, { reason: "My names are fine" });
    expect(asked.status).toBe(201);
    requestId = asked.body.id;
    expect((await api("PATCH", `/api/regrade-requests/${requestId}`, w.student2.token, { status: "accepted", answer: "x", points: 100 })).status).toBe(403);
    const answered = await api("PATCH", `/api/regrade-requests/${requestId}`, w.instructor.token, { status: "accepted", answer: "Fair: readable after all", points: 80 });
    expect(answered.body.status).toBe("accepted");
    expect((await csvOf(examId)).split("\n").find((l) => l.startsWith(w.student2.id))).toContain(",80,");
  });
});

describe("late days on a homework", () => {
  test("two late days spent: a submission a day and a half late earns full marks; the gradebook shows the days", async () => {
    a.clock.set("2026-04-07T09:00:00Z");
    expect((await api("PATCH", `/api/courses/${w.courseId}`, w.owner.token, { lateDays: 3 })).body.lateDays).toBe(3);
    const hw = await api("POST", `/api/courses/${w.courseId}/assignments`, w.instructor.token, {
      title: "Homework 5",
      opensAt: "2026-04-07T00:00:00Z",
      dueAt: "2026-04-08T00:00:00Z",
      closesAt: "2026-04-12T00:00:00Z",
      latePenaltyPercent: 50,
      latePenaltyUnit: "day",
      problems: [{ problemId: pool[0], points: 100 }],
    });
    expect(hw.status).toBe(201);
    const tooMany = await api("POST", `/api/assignments/${hw.body.id}/late-days`, w.student.token, { days: 4 });
    expect([tooMany.status, tooMany.body.field]).toEqual([409, "days"]);
    expect((await api("POST", `/api/assignments/${hw.body.id}/late-days`, w.student.token, { days: 2 })).status).toBe(201);
    a.clock.set("2026-04-09T12:00:00Z");
    const s = await api("POST", `/api/assignments/${hw.body.id}/submissions`, w.student.token, { problemId: pool[0], code: PY_ADD_ONE, language: "py" });
    expect([s.status, s.body.verdict]).toEqual([201, "AC"]);
    const g = await api("GET", `/api/assignments/${hw.body.id}/grades`, w.ta.token);
    expect(g.body.lateDays).toEqual({ allowed: 3, spent: { [w.student.id]: 2 } });
    const cell = g.body.cells.find((c: { userId: string }) => c.userId === w.student.id);
    expect(cell.score).toBe(100);
  }, 60_000);
});
