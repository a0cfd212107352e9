/**
 * Staged problems (./staged.ts): a problem an import is still writing appears
 * nowhere — no list, read, export, edit, submission, course list, assignment,
 * copy, or deleted-problem sweep reaches it — until one write publishes it;
 * discarding removes it and its tests. Real app, real libSQL file.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { problems, testCases } from "../../db/schema.ts";
import { newId } from "../../db/ids.ts";
import { request } from "../../tests/api.ts";
import { courseApp, trpcMutation, trpcQuery, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { problemBody } from "../../tests/fixtures/problem.ts";
import { problemInput } from "./input.ts";
import { DEFAULT_CEILINGS } from "./ceilings.ts";
import { discardAllStaged, discardStaged, publishStaged, stageProblem } from "./staged.ts";
import { freeDeletedProblems } from "./quota.ts";
import { getProblemEvenDeleted, requireLiveProblem } from "./store.ts";

let a: CourseApp;
let w: World;
beforeAll(async () => {
  a = await courseApp();
  w = await world(a);
});
afterAll(() => a.t.cleanup());

const TITLE = "Staged Zebra Problem";

async function stage(courseId?: string): Promise<string> {
  const id = newId();
  const input = problemInput.parse(problemBody({ title: TITLE, ...(courseId ? { courseId } : {}), hiddenTestCases: [{ input: "1\n", expectedOutput: "2\n" }, { input: "2\n", expectedOutput: "3\n" }] }));
  await stageProblem(a.t.services.db, id, w.owner.id, input, DEFAULT_CEILINGS);
  return id;
}

const titlesIn = (body: unknown) => JSON.stringify(body).includes(TITLE);

test("a staged problem appears nowhere until published; a delete's sweep leaves its tests; discarding removes it", async () => {
  const db = a.t.services.db;
  const publicId = await stage();
  const courseProblemId = await stage(w.courseId);
  // A live problem of the owner, deleted: the sweep that frees deleted problems' tests runs.
  const other = await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: problemBody({ title: "Other" }) });
  expect(other.status).toBe(201);

  for (const who of [w.owner, w.admin, w.student]) {
    const list = await request(a.app, "GET", "/api/problems", { token: who.token });
    expect(list.status).toBe(200);
    expect(titlesIn(list.body)).toBe(false);
    const courseList = await trpcQuery(a.app, who.token, "courses.problems", { courseId: w.courseId });
    expect(courseList.status).toBe(200);
    expect(titlesIn(courseList.data)).toBe(false);
    for (const id of [publicId, courseProblemId]) {
      expect((await request(a.app, "GET", `/api/problems/${id}`, { token: who.token })).status).toBe(404);
      expect((await request(a.app, "GET", `/api/problems/${id}/package`, { token: who.token })).status).toBe(404);
      expect((await request(a.app, "PUT", `/api/problems/${id}`, { token: who.token, body: { title: "Renamed" } })).status).toBe(404);
      // Submitting reads the problem through requireLiveProblem (this test's app has no sandbox, so its door answers 503 first).
      await expect(requireLiveProblem(a.t.services.db, id, "problemId")).rejects.toMatchObject({ status: 404 });
      expect((await trpcQuery(a.app, who.token, "problems.verifyStatus", { id })).status).toBe(404);
    }
  }
  // Signed out too.
  expect((await request(a.app, "GET", `/api/problems/${publicId}`)).status).toBe(404);
  // Pickers: an assignment cannot name it, a course cannot take a copy of it.
  const assignment = await trpcMutation(a.app, w.owner.token, "assignments.create", {
    courseId: w.courseId,
    title: "Week 1",
    opensAt: new Date(Date.now() - 60_000).toISOString(),
    problems: [{ problemId: courseProblemId, points: 100 }],
  });
  expect(assignment.status).toBeGreaterThanOrEqual(400);
  expect(assignment.status).toBeLessThan(500);
  const copy = await trpcMutation(a.app, w.owner.token, "problems.copyToCourse", { problemId: publicId, courseId: w.courseId });
  expect(copy.status).toBe(404);
  // History reads (deleted problems included) do not see it either.
  expect(await getProblemEvenDeleted(db, publicId)).toBeNull();

  // Deleting another problem sweeps deleted problems' tests: the staged ones keep theirs.
  expect((await request(a.app, "DELETE", `/api/problems/${other.body._id}`, { token: w.owner.token })).status).toBe(200);
  await freeDeletedProblems(db);
  expect(await db.$count(testCases, eq(testCases.problemId, publicId))).toBe(2);

  // Published: visible, with its tests, in one write.
  await publishStaged(db, publicId);
  const byId = await request(a.app, "GET", `/api/problems/${publicId}`, { token: w.owner.token });
  expect(byId.status).toBe(200);
  expect(byId.body.title).toBe(TITLE);
  expect(byId.body.hiddenTestCount).toBe(2);
  expect(titlesIn((await request(a.app, "GET", "/api/problems", { token: w.student.token })).body)).toBe(true);
  // A published problem is no longer staged: discarding leaves it.
  expect(await discardStaged(db, publicId)).toBe(false);

  // The course one is discarded (as a failed import's would be): row and tests gone.
  expect(await discardAllStaged(db)).toBe(1);
  expect(await db.$count(problems, eq(problems.id, courseProblemId))).toBe(0);
  expect(await db.$count(testCases, eq(testCases.problemId, courseProblemId))).toBe(0);
  const left = await db.all<{ n: number }>(sql`select count(*) as n from problems where staged_at is not null`);
  expect(Number(left[0]!.n)).toBe(0);
});
