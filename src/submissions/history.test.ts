/**
 * A submission history says where each submission was made (decision 057):
 * practice, an assignment (with its title) or a contest (with its title),
 * through both doors (tRPC submissions.list, GET /api/submissions/:problemId),
 * for one problem or for all; and it is only ever the caller's own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, contests, problems, submissions } from "../../db/schema.ts";
import { request } from "../../tests/api.ts";
import { courseApp, trpcQuery, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { problemRow } from "../../tests/fixtures/problem.ts";

let a: CourseApp;
let w: World;
let problemA: string;
let problemB: string;
let assignmentId: string;
let contestId: string;
const made: Record<string, string> = {}; // label → submission id

beforeAll(async () => {
  a = await courseApp();
  w = await world(a);
  const db = a.t.services.db;
  problemA = newId();
  problemB = newId();
  await db.insert(problems).values(problemRow(w.owner.id, { id: problemA, title: "Sum of Two", courseId: w.courseId }));
  await db.insert(problems).values(problemRow(w.owner.id, { id: problemB, title: "Brackets" }));
  assignmentId = newId();
  await db.insert(assignments).values({ id: assignmentId, courseId: w.courseId, title: "Week 1", opensAt: new Date("2026-03-01T00:00:00Z"), dueAt: new Date("2026-03-09T00:00:00Z"), feedback: "tests" });
  await db.insert(assignmentProblems).values({ assignmentId, problemId: problemA, ordinal: 0, points: 100 });
  contestId = newId();
  await db.insert(contests).values({ id: contestId, shortName: "spring", title: "Spring Cup", startsAt: new Date("2026-03-01T09:00:00Z"), durationMinutes: 120, scoring: "icpc", registration: "open", createdBy: w.owner.id });
  const rows: [string, string, string, Partial<typeof submissions.$inferInsert>][] = [
    ["practice", w.student.id, problemA, {}],
    ["assignment", w.student.id, problemA, { assignmentId }],
    ["contest", w.student.id, problemB, { contestId }],
    ["other", w.student2.id, problemA, {}],
  ];
  for (const [i, [label, userId, problemId, extra]] of rows.entries()) {
    const [row] = await db
      .insert(submissions)
      .values({ userId, problemId, language: "cpp", code: "int main(){}\n", status: "done", verdict: label === "contest" ? "CE" : "AC", isPassed: label !== "contest", createdAt: new Date(Date.parse("2026-03-02T08:00:00Z") + i * 60_000), ...extra })
      .returning({ id: submissions.id });
    made[label] = row!.id;
  }
}, 60_000);

afterAll(async () => {
  await a?.close();
});

describe("the history's context", () => {
  test("one problem: practice and assignment, newest first, the assignment's title", async () => {
    const r = await trpcQuery(a.app, w.student.token, "submissions.list", { problemId: problemA });
    expect(r.status).toBe(200);
    expect(r.data.map((s: any) => [s._id, s.context])).toEqual([
      [made.assignment, { kind: "assignment", id: assignmentId, name: "Week 1" }],
      [made.practice, { kind: "practice" }],
    ]);
  });

  test("every problem: the contest's too, with its title; the REST door says the same", async () => {
    const r = await trpcQuery(a.app, w.student.token, "submissions.list", {});
    expect(r.status).toBe(200);
    expect(r.data.map((s: any) => [s._id, s.problemTitle, s.verdict, s.context.kind, s.context.name ?? null])).toEqual([
      [made.contest, "Brackets", "CE", "contest", "Spring Cup"],
      [made.assignment, "Sum of Two", "AC", "assignment", "Week 1"],
      [made.practice, "Sum of Two", "AC", "practice", null],
    ]);
    const rest = await request(a.app, "GET", `/api/submissions/${problemB}`, { token: w.student.token });
    expect(rest.status).toBe(200);
    expect(rest.body.map((s: any) => s.context)).toEqual([{ kind: "contest", id: contestId, name: "Spring Cup" }]);
  });

  test("only the caller's own: another student sees theirs alone, staff their own (none), the signed-out nothing", async () => {
    const other = await trpcQuery(a.app, w.student2.token, "submissions.list", {});
    expect(other.data.map((s: any) => s._id)).toEqual([made.other]);
    const otherOne = await trpcQuery(a.app, w.student2.token, "submissions.list", { problemId: problemB });
    expect(otherOne.data).toEqual([]);
    const staff = await trpcQuery(a.app, w.instructor.token, "submissions.list", {});
    expect(staff.data).toEqual([]);
    const admin = await trpcQuery(a.app, w.admin.token, "submissions.list", {});
    expect(admin.data).toEqual([]);
    const anon = await trpcQuery(a.app, null, "submissions.list", {});
    expect(anon.status).toBe(401);
  });

  test("a bad problem id names the field; an unknown one is 404", async () => {
    const bad = await trpcQuery(a.app, w.student.token, "submissions.list", { problemId: "" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.error)).toContain("problemId");
    const unknown = await trpcQuery(a.app, w.student.token, "submissions.list", { problemId: newId() });
    expect(unknown.status).toBe(404);
  });
});
