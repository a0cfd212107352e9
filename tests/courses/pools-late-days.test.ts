/**
 * Pools and late days through the REST doors over a real libSQL file (issue
 * 37 §3, §6): a student sees and may submit only the pool problem drawn for
 * them; staff see the draw; the gradebook and its CSV have one column per slot
 * and the late days; spending late days moves the due time (penalty only past
 * them), cannot overdraw, is for students only, and staff refund.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newId } from "../../db/ids.ts";
import { eq } from "drizzle-orm";
import { problems, submissions } from "../../db/schema.ts";
import { drawFor } from "../../src/courses/pools/draw.ts";
import { slotPointsTotal } from "../../src/courses/pools/slot-column.ts";
import { recomputeAssignment } from "../../src/courses/scores.ts";
import { request } from "../api.ts";
import { problemRow } from "../fixtures/problem.ts";
import { courseApp, world, type CourseApp, type World } from "./fixtures.ts";
import { submissionTarget } from "../../src/courses/course-problems.ts";
import { AppError } from "../../src/errors.ts";

const DAY = 86_400_000;
const DUE = Date.parse("2026-03-09T12:00:00Z");
let a: CourseApp;
let w: World;
let assignmentId: string;
const ids = { solo: newId(), p1: newId(), p2: newId(), p3: newId() };
let pool: { problemId: string; slot: number }[];

beforeAll(async () => {
  a = await courseApp();
  a.clock.set("2026-03-01T12:00:00Z");
  w = await world(a);
  const db = a.t.services.db;
  for (const [k, id] of Object.entries(ids)) await db.insert(problems).values(problemRow(w.owner.id, { id, title: `Problem ${k}`, courseId: w.courseId }));
  const r = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
    token: w.instructor.token,
    body: {
      title: "Homework 3",
      opensAt: "2026-03-02T12:00:00Z",
      dueAt: new Date(DUE).toISOString(),
      closesAt: new Date(DUE + 3 * DAY).toISOString(),
      latePenaltyPercent: 50,
      latePenaltyUnit: "day",
      problems: [
        { problemId: ids.solo, points: 10 },
        { problemId: ids.p1, points: 20, slot: 5 },
        { problemId: ids.p2, points: 20, slot: 5 },
        { problemId: ids.p3, points: 20, slot: 5 },
      ],
    },
  });
  expect(r.status).toBe(201);
  assignmentId = r.body.id;
  pool = [ids.solo, ids.p1, ids.p2, ids.p3].map((problemId, i) => ({ problemId, slot: i === 0 ? 0 : 1 }));
  a.clock.set("2026-03-03T12:00:00Z");
}, 60_000);

afterAll(async () => {
  await a?.close();
});

const drawnOf = (userId: string) => drawFor(assignmentId, pool, userId)[1]!;

describe("a problem per student from a pool", () => {
  test("the editor's pool is one slot; a pool whose points differ is refused naming the field", async () => {
    const staff = await request(a.app, "GET", `/api/assignments/${assignmentId}`, { token: w.ta.token });
    expect(staff.body.problems.map((p: { slot: number }) => p.slot)).toEqual([0, 1, 1, 1]);
    expect(staff.body.totalPoints).toBe(30);
    // What an LMS is told the maximum is (src/lti/grades.ts): each slot once.
    expect(await slotPointsTotal(a.t.services.db, assignmentId)).toBe(30);
    const bad = await request(a.app, "PATCH", `/api/assignments/${assignmentId}`, {
      token: w.instructor.token,
      body: { problems: [{ problemId: ids.p1, points: 20, slot: 1 }, { problemId: ids.p2, points: 30, slot: 1 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("problems.1.points");
  });

  test("a student sees only their drawn problem, the same one every time", async () => {
    for (const s of [w.student, w.student2]) {
      const mine = drawnOf(s.id);
      for (let i = 0; i < 2; i++) {
        const r = await request(a.app, "GET", `/api/assignments/${assignmentId}`, { token: s.token });
        expect(r.body.problems.map((p: { problemId: string }) => p.problemId)).toEqual([ids.solo, mine]);
        expect(r.body.totalPoints).toBe(30);
      }
      const list = await request(a.app, "GET", `/api/courses/${w.courseId}/problems`, { token: s.token });
      expect(list.body.map((p: { _id: string }) => p._id).sort()).toEqual([ids.solo, mine].sort());
    }
  });

  test("a student cannot open or submit a pool problem drawn for someone else (403 naming the field); staff can", async () => {
    const mine = drawnOf(w.student.id);
    const other = [ids.p1, ids.p2, ids.p3].find((p) => p !== mine)!;
    expect((await request(a.app, "GET", `/api/problems/${other}`, { token: w.student.token })).status).toBe(404);
    expect((await request(a.app, "GET", `/api/problems/${mine}`, { token: w.student.token })).status).toBe(200);
    expect((await request(a.app, "GET", `/api/problems/${other}`, { token: w.ta.token })).status).toBe(200);
    // Submitting goes through submissionTarget (src/submissions/create.ts) after the judge's own checks; this test app
    // has no sandbox (the suite's boxes 5600-5607 are above bwrap's uid range), so the rule is asked directly, on the real database.
    const db = a.t.services.db;
    const row = async (id: string) => (await db.select().from(problems).where(eq(problems.id, id)))[0]!;
    const student = { id: w.student.id, siteRole: "user" as const };
    const refused = await submissionTarget(db, student as never, await row(other), assignmentId, a.clock()).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.kind).toBe("PROBLEM_NOT_DRAWN");
    expect(refused.status).toBe(403);
    expect(refused.field).toBe("problemId");
    // Without naming the assignment, the problem counts for none of theirs: not found.
    const unnamed = await submissionTarget(db, student as never, await row(other), undefined, a.clock()).catch((e) => e);
    expect(unnamed.kind).toBe("PROBLEM_NOT_FOUND");
    // Their own drawn problem counts for the assignment, and staff may submit any.
    expect(await submissionTarget(db, student as never, await row(mine), assignmentId, a.clock())).toEqual({ assignmentId, runAllTests: false });
    expect(await submissionTarget(db, { id: w.ta.id, siteRole: "user" } as never, await row(other), assignmentId, a.clock())).toEqual({ assignmentId, runAllTests: false });
  });

  test("staff see who got which; students may not", async () => {
    const r = await request(a.app, "GET", `/api/assignments/${assignmentId}/pool-draws`, { token: w.ta.token });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    const draws = new Map(r.body[0].draws.map((d: { userId: string; problemId: string }) => [d.userId, d.problemId]));
    expect(draws.get(w.student.id)).toBe(drawnOf(w.student.id));
    expect(draws.get(w.student2.id)).toBe(drawnOf(w.student2.id));
    expect(r.body[0].problems.reduce((s: number, p: { students: number }) => s + p.students, 0)).toBe(2);
    expect((await request(a.app, "GET", `/api/assignments/${assignmentId}/pool-draws`, { token: w.student.token })).status).toBe(403);
  });
});

describe("a pool students have drawn from is kept", () => {
  test("once a student submitted, changing a pool's problems or place is refused (409 naming problems); the same pool passes", async () => {
    const body = (list: { problemId: string; points: number; slot?: number }[]) => ({ token: w.instructor.token, body: { problems: list } });
    const made = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.instructor.token,
      body: { title: "Quiz", opensAt: "2026-03-02T12:00:00Z", problems: [{ problemId: ids.p1, points: 5, slot: 1 }, { problemId: ids.p2, points: 5, slot: 1 }] },
    });
    expect(made.status).toBe(201);
    const quiz = made.body.id;
    const pooled = [{ problemId: ids.p1, points: 5, slot: 1 }, { problemId: ids.p2, points: 5, slot: 1 }];
    // Opened, nobody has drawn yet: a change passes.
    expect((await request(a.app, "PATCH", `/api/assignments/${quiz}`, body([...pooled, { problemId: ids.p3, points: 5, slot: 1 }]))).status).toBe(200);
    expect((await request(a.app, "PATCH", `/api/assignments/${quiz}`, body(pooled))).status).toBe(200);
    const drawn = drawFor(quiz, [{ problemId: ids.p1, slot: 0 }, { problemId: ids.p2, slot: 0 }], w.student2.id)[0]!;
    await a.t.services.db.insert(submissions).values({ userId: w.student2.id, problemId: drawn, assignmentId: quiz, language: "py", code: "print(1)", status: "done", verdict: "WA", createdAt: new Date(a.clock()) });
    for (const changed of [
      [...pooled, { problemId: ids.p3, points: 5, slot: 1 }], // a third problem in the pool
      [pooled[0]!], // the pool down to one problem
      [{ problemId: ids.solo, points: 5 }, ...pooled], // the pool moved to the second slot
    ]) {
      const r = await request(a.app, "PATCH", `/api/assignments/${quiz}`, body(changed));
      expect([r.status, r.body.code, r.body.field]).toEqual([409, "POOL_IN_USE", "problems"]);
    }
    // The same pool with a new slot after it, other points: passes.
    const kept = await request(a.app, "PATCH", `/api/assignments/${quiz}`, body([{ problemId: ids.p1, points: 7, slot: 1 }, { problemId: ids.p2, points: 7, slot: 1 }, { problemId: ids.solo, points: 3 }]));
    expect(kept.status).toBe(200);
    expect((await request(a.app, "GET", `/api/assignments/${quiz}`, { token: w.student2.token })).body.problems.map((p: { problemId: string }) => p.problemId)).toEqual([drawn, ids.solo]);
  });
});

describe("late days", () => {
  test("the course gives 3; the student sees them; spending needs a whole number of days naming the field", async () => {
    const noDays = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student.token, body: { days: 1 } });
    expect(noDays.status).toBe(409);
    expect(noDays.body.field).toBe("days");
    const set = await request(a.app, "PATCH", `/api/courses/${w.courseId}`, { token: w.owner.token, body: { lateDays: 3 } });
    expect(set.status).toBe(200);
    expect(set.body.lateDays).toBe(3);
    const r = await request(a.app, "GET", `/api/assignments/${assignmentId}`, { token: w.student.token });
    expect(r.body.lateDays).toEqual({ allowed: 3, remaining: 3, spentHere: 0 });
    for (const days of [0, 1.5, "2"]) {
      const bad = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student.token, body: { days } });
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe("days");
    }
  });

  test("staff cannot spend; a student spends 2 (after the due time), cannot overdraw, and the penalty applies only past the days spent", async () => {
    expect((await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.ta.token, body: { days: 1 } })).status).toBe(403);
    const db = a.t.services.db;
    // Solved 1.5 days after the due time: one late day would leave half a day late (50 % off), two leave none.
    await db.insert(submissions).values({ userId: w.student.id, problemId: ids.solo, assignmentId, language: "py", code: "print(1)", status: "done", verdict: "AC", createdAt: new Date(DUE + 1.5 * DAY) });
    await recomputeAssignment(db, assignmentId);
    const score = async () => (await request(a.app, "GET", `/api/assignments/${assignmentId}`, { token: w.student.token })).body.myScore.problems[ids.solo];
    expect(await score()).toMatchObject({ score: 0, late: true });
    a.clock.set(DUE + 2 * DAY);
    const one = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student.token, body: { days: 1 } });
    expect(one.status).toBe(201);
    expect(one.body).toEqual({ allowed: 3, spent: 1, remaining: 2, spentHere: 1 });
    expect(await score()).toMatchObject({ score: 5, late: true });
    const two = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student.token, body: { days: 1 } });
    expect(two.body).toEqual({ allowed: 3, spent: 2, remaining: 1, spentHere: 2 });
    expect(await score()).toMatchObject({ score: 10, late: false });
    const view = await request(a.app, "GET", `/api/assignments/${assignmentId}`, { token: w.student.token });
    expect(view.body.window.dueAt).toBe(new Date(DUE + 2 * DAY).toISOString());
    expect(view.body.window.close).toBe(new Date(DUE + 5 * DAY).toISOString());
    expect(view.body.state).toBe("open");
    // The recomputation wrote a 0 cell for every problem; the student's score names only their own.
    expect(Object.keys(view.body.myScore.problems).sort()).toEqual([ids.solo, drawnOf(w.student.id)].sort());
    const over = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student.token, body: { days: 2 } });
    expect(over.status).toBe(409);
    expect(over.body.field).toBe("days");
    expect(over.body.message).toContain("only 1 of your 3 late days remain");
  });

  test("the gradebook and its CSV: one column per slot (the pool's with the drawn problem) and the late days", async () => {
    const g = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.ta.token });
    expect(g.body.slots.map((s: { problemIds: string[] }) => s.problemIds.length)).toEqual([1, 3]);
    expect(g.body.drawn[w.student.id]).toEqual([ids.solo, drawnOf(w.student.id)]);
    expect(g.body.lateDays).toEqual({ allowed: 3, spent: { [w.student.id]: 2 } });
    const csv = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades?format=csv`, { token: w.owner.token });
    const lines = String(csv.body).trim().split("\n");
    expect(lines[0]).toBe("student_id,email,name,Problem solo (10),Problem solo late,pool 2 (20),pool 2 late,pool 2 problem,late_days,total");
    const row = lines.find((l) => l.startsWith(w.student.id))!;
    const titles: Record<string, string> = { [ids.p1]: "Problem p1", [ids.p2]: "Problem p2", [ids.p3]: "Problem p3" };
    expect(row.split(",").slice(3)).toEqual(["10", "", "0", "", titles[drawnOf(w.student.id)]!, "2", "10"]);
  });

  test("staff refund one day (the penalty is back), then the rest; a student cannot refund; nothing to refund is named", async () => {
    expect((await request(a.app, "DELETE", `/api/assignments/${assignmentId}/late-days/${w.student.id}`, { token: w.student.token })).status).toBe(403);
    const one = await request(a.app, "DELETE", `/api/assignments/${assignmentId}/late-days/${w.student.id}?days=1`, { token: w.ta.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ allowed: 3, spent: 1, remaining: 2, spentHere: 1 });
    const g = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.ta.token });
    expect(g.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student.id && c.problemId === ids.solo)).toMatchObject({ score: 5, late: true });
    const rest = await request(a.app, "DELETE", `/api/assignments/${assignmentId}/late-days/${w.student.id}`, { token: w.instructor.token });
    expect(rest.body).toEqual({ allowed: 3, spent: 0, remaining: 3, spentHere: 0 });
    const none = await request(a.app, "DELETE", `/api/assignments/${assignmentId}/late-days/${w.student.id}`, { token: w.instructor.token });
    expect(none.status).toBe(400);
    expect(none.body.field).toBe("userId");
  });

  test("too late even with the days: refused saying when it closed", async () => {
    a.clock.set(DUE + 4.5 * DAY);
    const r = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student2.token, body: { days: 1 } });
    expect(r.status).toBe(409);
    expect(r.body.field).toBe("days");
    expect(r.body.message).toContain(new Date(DUE + 4 * DAY).toISOString());
    const ok = await request(a.app, "POST", `/api/assignments/${assignmentId}/late-days`, { token: w.student2.token, body: { days: 2 } });
    expect(ok.status).toBe(201);
  });
});
