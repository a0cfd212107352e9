/**
 * Who-is-stuck analytics against a hand-computed fixture on a real libSQL
 * file: five students, two problems, submissions that must not count (a TA's,
 * an IE, one still queued), the stuck list's hour and day windows (the
 * window's start excluded), who may read it (staff of the course only), zod's
 * refusals naming the field, and the live stream answering a new verdict.
 * Every submission reaches the analytics through the real judged hook
 * (src/courses/judging.ts), as a verdict from the judge does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, courseMembers, courses, problems, submissionFailures, submissions, users } from "../../db/schema.ts";
import { analyticsChanges } from "../../src/courses/analytics/analytics.ts";
import type { AssignmentAnalytics } from "../../src/courses/analytics/rules.ts";
import { recomputeAfterJudged } from "../../src/courses/judging.ts";
import type { VerdictCode } from "../../src/verdicts.ts";
import { courseApp, world, type CourseApp, type World } from "./fixtures.ts";
import { problemRow } from "../fixtures/problem.ts";
import { request } from "../api.ts";

const NOW = Date.parse("2026-03-02T08:00:00Z");
const MIN = 60_000;
const HOUR = 3_600_000;

let a: CourseApp;
let w: World;
let assignmentId: string;
let p1: string;
let p2: string;
const ids: Record<"A" | "B" | "C" | "D" | "E", string> = { A: "", B: "", C: "", D: "", E: "" };
/** The owner of another course. */
let otherOwner: string;

async function submit(userId: string, problemId: string, agoMs: number, verdict: VerdictCode | null, failedTest?: number) {
  const db = a.t.services.db;
  const id = newId();
  await db.insert(submissions).values({
    id,
    userId,
    problemId,
    assignmentId,
    language: "py",
    code: "print(1)",
    status: verdict ? "done" : "queued",
    verdict,
    createdAt: new Date(NOW - agoMs),
  });
  if (failedTest) await db.insert(submissionFailures).values({ submissionId: id, testIndex: failedTest, input: "", expectedOutput: "", actualOutput: "", stderr: "" });
  if (verdict) await recomputeAfterJudged(db, { id, assignmentId, userId, problemId });
  return id;
}

beforeAll(async () => {
  a = await courseApp();
  a.clock.set(NOW);
  w = await world(a);
  const db = a.t.services.db;
  ids.A = w.student.id;
  ids.B = w.student2.id;
  for (const k of ["C", "D", "E"] as const) {
    const id = newId();
    await db.insert(users).values({ id, firstName: k, lastName: "Student", email: `${k.toLowerCase()}@stuck.example`, emailNormalized: `${k.toLowerCase()}@stuck.example` });
    await db.insert(courseMembers).values({ courseId: w.courseId, userId: id, role: "student" });
    ids[k] = id;
  }
  p1 = newId();
  p2 = newId();
  await db.insert(problems).values(problemRow(w.owner.id, { id: p1, title: "One", courseId: w.courseId }));
  await db.insert(problems).values(problemRow(w.owner.id, { id: p2, title: "Two", courseId: w.courseId }));
  assignmentId = newId();
  await db.insert(assignments).values({ id: assignmentId, courseId: w.courseId, title: "Lab 1", opensAt: new Date(NOW - 2 * 86_400_000), dueAt: new Date(NOW + 86_400_000), feedback: "tests" });
  await db.insert(assignmentProblems).values([
    { assignmentId, problemId: p1, ordinal: 0, points: 10 },
    { assignmentId, problemId: p2, ordinal: 1, points: 10 },
  ]);
  // Another course, whose owner is staff there and nothing here.
  otherOwner = w.outsider.id;
  const other = newId();
  await db.insert(courses).values({ id: other, title: "Other", code: "OTHER-1", codeNormalized: "OTHER-1", createdBy: otherOwner });
  await db.insert(courseMembers).values({ courseId: other, userId: otherOwner, role: "owner" });

  // Problem One.
  await submit(ids.A, p1, 300 * MIN, "WA", 2);
  await submit(ids.A, p1, 200 * MIN, "WA", 2);
  await submit(ids.A, p1, 100 * MIN, "AC");
  await submit(ids.A, p1, 50 * MIN, "WA", 1);
  await submit(ids.B, p1, 90 * MIN, "AC");
  await submit(ids.C, p1, 40 * MIN, "CE");
  await submit(ids.C, p1, 30 * MIN, "WA", 3);
  await submit(ids.C, p1, 20 * MIN, "TLE", 2);
  await submit(ids.C, p1, 10 * MIN, "WA", 2);
  await submit(ids.D, p1, 24 * HOUR, "WA", 1); // exactly at the day window's start: outside it
  await submit(ids.D, p1, 23 * HOUR, "WA", 1);
  await submit(ids.D, p1, 2 * HOUR, "RE", 1);
  await submit(ids.D, p1, 30 * MIN, "WA", 2);
  // Not counted: a TA's submission, an internal error, one still queued.
  await submit(w.ta.id, p1, 5 * MIN, "WA", 3);
  await submit(ids.A, p1, 1 * MIN, "IE");
  await submit(ids.B, p1, 1 * MIN, null);
  // Problem Two.
  await submit(ids.A, p2, 60 * MIN, "AC");
  await submit(ids.B, p2, 70 * MIN, "WA", 1);
  await submit(ids.B, p2, 65 * MIN, "WA", 1);
  await submit(ids.B, p2, 62 * MIN, "WA", 1);
  await submit(ids.B, p2, 10 * MIN, "AC");
  await submit(ids.C, p2, 45 * MIN, "WA");
  await submit(ids.C, p2, 44 * MIN, "WA");
});

afterAll(async () => {
  await a?.close();
});

const get = (token: string, query = "") => request(a.app, "GET", `/api/assignments/${assignmentId}/analytics${query}`, { token });

describe("analytics of an assignment", () => {
  test("match the hand-computed fixture, problem by problem", async () => {
    const res = await get(w.ta.token);
    expect(res.status).toBe(200);
    expect(res.body.students).toBe(5);
    const [one, two] = res.body.problems;
    expect(one).toEqual({
      problemId: p1,
      title: "One",
      notStarted: 1,
      attempting: 2,
      solved: 2,
      attemptsBeforeAc: [
        { min: 0, max: 0, students: 1 },
        { min: 1, max: 1, students: 0 },
        { min: 2, max: 2, students: 1 },
        { min: 3, max: 4, students: 0 },
        { min: 5, max: 9, students: 0 },
        { min: 10, max: null, students: 0 },
      ],
      medianAttemptsBeforeAc: 1,
      medianTimeToSolveMs: 100 * MIN,
      verdicts: [
        { verdict: "WA", submissions: 8 },
        { verdict: "AC", submissions: 2 },
        { verdict: "TLE", submissions: 1 },
        { verdict: "RE", submissions: 1 },
        { verdict: "CE", submissions: 1 },
      ],
      failedTests: [
        { testIndex: 1, submissions: 4 },
        { testIndex: 2, submissions: 5 },
        { testIndex: 3, submissions: 1 },
      ],
      topFailedTest: 2,
    });
    expect(two).toMatchObject({
      problemId: p2,
      notStarted: 2,
      attempting: 1,
      solved: 2,
      medianAttemptsBeforeAc: 1.5,
      medianTimeToSolveMs: 30 * MIN,
      verdicts: [
        { verdict: "WA", submissions: 5 },
        { verdict: "AC", submissions: 2 },
      ],
      failedTests: [{ testIndex: 1, submissions: 3 }],
      topFailedTest: 1,
    });
    expect(two.attemptsBeforeAc.map((b: { students: number }) => b.students)).toEqual([1, 0, 0, 1, 0, 0]);
  });

  test("the stuck list: the last hour by default, three failures and no AC", async () => {
    const res = await get(w.instructor.token);
    expect(res.body.stuck).toMatchObject({ window: "hour", minFailed: 3, since: new Date(NOW - HOUR).toISOString(), until: new Date(NOW).toISOString() });
    expect(res.body.stuck.students).toEqual([
      { userId: ids.C, firstName: "C", lastName: "Student", email: "c@stuck.example", problemId: p1, failedInWindow: 4, lastVerdict: "WA", lastSubmittedAt: new Date(NOW - 10 * MIN).toISOString() },
    ]);
  });

  test("the last day counts D's three failures after the window's start (the one at its start excluded)", async () => {
    const res = await get(w.owner.token, "?window=day");
    expect(res.body.stuck.students.map((s: { userId: string; problemId: string; failedInWindow: number }) => [s.userId, s.problemId, s.failedInWindow])).toEqual([
      [ids.C, p1, 4],
      [ids.D, p1, 3],
    ]);
    const four = await get(w.owner.token, "?window=day&minFailed=4");
    expect(four.body.stuck.students.map((s: { userId: string }) => s.userId)).toEqual([ids.C]);
  });

  test("fewer failures asked: C is stuck on both problems; solved problems never are", async () => {
    const res = await get(w.ta.token, "?window=hour&minFailed=2");
    expect(res.body.stuck.students.map((s: { userId: string; problemId: string; failedInWindow: number }) => [s.userId, s.problemId, s.failedInWindow])).toEqual([
      [ids.C, p1, 4],
      [ids.C, p2, 2],
    ]);
  });

  test("students and other courses' staff are refused; the site admin reads", async () => {
    expect((await get(w.student.token)).status).toBe(403);
    expect((await get(w.student.token)).body.code).toBe("FORBIDDEN");
    const other = await get(w.outsider.token);
    expect([other.status, other.body.code]).toEqual([404, "ASSIGNMENT_NOT_FOUND"]);
    expect((await request(a.app, "GET", `/api/assignments/${assignmentId}/analytics`)).status).toBe(401);
    expect((await get(w.admin.token)).status).toBe(200);
  });

  test("bad options are 400s naming the field", async () => {
    const win = await get(w.ta.token, "?window=week");
    expect([win.status, win.body.code, win.body.field]).toEqual([400, "BAD_INPUT", "window"]);
    for (const q of ["0", "101", "2.5", "x"]) {
      const res = await get(w.ta.token, `?minFailed=${q}`);
      expect([res.status, res.body.field]).toEqual([400, "minFailed"]);
    }
  });

  test("the live stream sends the analytics again when a verdict arrives", async () => {
    const abort = new AbortController();
    const staff = { id: w.ta.id, siteRole: "user" as const };
    const events = analyticsChanges(a.t.services.db, staff, assignmentId, { window: "hour", minFailed: 3 }, a.clock, abort.signal);
    const first = (await events.next()) as IteratorYieldResult<AssignmentAnalytics>;
    expect(first.value.stuck.students.map((s) => s.userId)).toEqual([ids.C]);
    const next = events.next();
    await submit(ids.C, p1, 0, "AC");
    const second = (await next) as IteratorYieldResult<AssignmentAnalytics>;
    const one = second.value.problems[0]!;
    expect([one.solved, one.attempting]).toEqual([3, 1]);
    expect(second.value.stuck.students).toEqual([]);
    expect(second.value.version).toBeGreaterThan(first.value.version);
    abort.abort();
    await events.return(undefined);
  });

  test("a student who leaves the course no longer counts", async () => {
    const db = a.t.services.db;
    const { and, eq } = await import("drizzle-orm");
    await db.delete(courseMembers).where(and(eq(courseMembers.courseId, w.courseId), eq(courseMembers.userId, ids.D)));
    const res = await get(w.ta.token, "?window=day");
    expect(res.body.students).toBe(4);
    expect(res.body.problems[0]).toMatchObject({ notStarted: 1, attempting: 0, solved: 3 });
    expect(res.body.stuck.students).toEqual([]);
  });
});

describe("the medians' arithmetic", () => {
  test("medianOfFrequencies: the middle value, the mean of the middle two, none for nothing", async () => {
    const { medianOfFrequencies } = await import("../../src/courses/analytics/queries.ts");
    expect(medianOfFrequencies([])).toBeNull();
    expect(medianOfFrequencies([{ value: 4, count: 1 }])).toBe(4);
    expect(medianOfFrequencies([{ value: 0, count: 2 }, { value: 7, count: 1 }])).toBe(0);
    expect(medianOfFrequencies([{ value: 0, count: 1 }, { value: 3, count: 1 }])).toBe(1.5);
    expect(medianOfFrequencies([{ value: 1, count: 2 }, { value: 2, count: 2 }, { value: 9, count: 1 }])).toBe(2);
  });

  test("bucketOf puts each count of attempts in its histogram bar", async () => {
    const { bucketOf } = await import("../../src/courses/analytics/rules.ts");
    expect([0, 1, 2, 3, 4, 5, 9, 10, 250].map(bucketOf)).toEqual([0, 1, 2, 3, 3, 4, 4, 5, 5]);
  });
});
