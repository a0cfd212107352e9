/**
 * The gradebook at course size: 200 students × 10 problems built from real
 * rows, totals and late marks right, and live updates: a judged submission
 * reaches an open stream as its changed cell only; a burst of changes
 * arrives in few batches, each carrying every cell that changed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, courseMembers, problems, submissions, users } from "../../db/schema.ts";
import { gradebookChanges, readGradebook } from "./gradebook.ts";
import { recomputeAfterJudged as afterJudged } from "./judging.ts";
import { recomputeAssignment } from "./scores.ts";
import { courseApp, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { problemRow } from "../../tests/fixtures/problem.ts";

const STUDENTS = 200;
const PROBLEMS = 10;
const DUE = Date.parse("2026-10-10T12:00:00Z");

let a: CourseApp;
let w: World;
let assignmentId: string;
const studentIds: string[] = [];
const problemIds: string[] = [];

beforeAll(async () => {
  a = await courseApp();
  a.clock.set("2026-10-12T00:00:00Z");
  w = await world(a);
  const db = a.t.services.db;
  for (let i = 0; i < PROBLEMS; i++) {
    const id = newId();
    problemIds.push(id);
    await db.insert(problems).values(problemRow(w.owner.id, { id, title: `P${i}`, sampleInput: "", sampleOutput: "1", courseId: w.courseId }));
  }
  assignmentId = newId();
  await db.insert(assignments).values({
    id: assignmentId,
    courseId: w.courseId,
    title: "Big",
    opensAt: new Date(DUE - 7 * 86_400_000),
    dueAt: new Date(DUE),
    closesAt: new Date(DUE + 86_400_000),
    latePenaltyPercent: 50,
    latePenaltyUnit: "day",
    feedback: "tests",
  });
  await db.insert(assignmentProblems).values(problemIds.map((problemId, ordinal) => ({ assignmentId, problemId, ordinal, points: 10 })));
  const userRows = Array.from({ length: STUDENTS }, (_, i) => ({ id: newId(), firstName: `S${i}`, lastName: "Student", email: `s${i}@big.example`, emailNormalized: `s${i}@big.example` }));
  for (let i = 0; i < userRows.length; i += 100) await db.insert(users).values(userRows.slice(i, i + 100));
  studentIds.push(...userRows.map((u) => u.id));
  await db.insert(courseMembers).values(studentIds.map((userId) => ({ courseId: w.courseId, userId, role: "student" as const })));
  // Student i solves problem j when (i + j) % 3 != 0; every 10th student solves late (one started day: 50%).
  const subs = [];
  for (const [i, userId] of studentIds.entries()) {
    for (const [j, problemId] of problemIds.entries()) {
      const solved = (i + j) % 3 !== 0;
      const at = i % 10 === 0 ? DUE + 3_600_000 : DUE - 3_600_000;
      subs.push({ userId, problemId, assignmentId, language: "py" as const, code: "print(1)", status: "done" as const, verdict: solved ? ("AC" as const) : ("WA" as const), createdAt: new Date(at) });
    }
  }
  for (let i = 0; i < subs.length; i += 500) await db.insert(submissions).values(subs.slice(i, i + 500));
  await recomputeAssignment(db, assignmentId);
}, 60_000);

afterAll(() => a?.close());

function expectedTotal(i: number): number {
  let t = 0;
  for (let j = 0; j < PROBLEMS; j++) if ((i + j) % 3 !== 0) t += i % 10 === 0 ? 5 : 10;
  return t;
}

describe("gradebook at 200 × 10", () => {
  test("every student, every problem, totals and late marks as the rules say", async () => {
    const g = await readGradebook(a.t.services.db, { id: w.ta.id, siteRole: "user" }, assignmentId, a.clock());
    const bigStudents = g.students.filter((s) => s.email.endsWith("@big.example"));
    expect(bigStudents).toHaveLength(STUDENTS);
    expect(g.problems).toHaveLength(PROBLEMS);
    expect(g.cells).toHaveLength(STUDENTS * PROBLEMS);
    for (const [i, id] of studentIds.entries()) {
      const mine = g.cells.filter((c) => c.userId === id);
      expect(mine.reduce((s, c) => s + c.score, 0)).toBe(expectedTotal(i));
      // Late marks the shown submission (the best, or the latest when none scores) as made after the due time.
      expect(mine.every((c) => c.late === (i % 10 === 0))).toBe(true);
    }
  });

  test("a judged submission reaches an open stream as exactly its changed cell", async () => {
    const db = a.t.services.db;
    const g = await readGradebook(db, { id: w.owner.id, siteRole: "user" }, assignmentId, a.clock());
    const controller = new AbortController();
    const stream = gradebookChanges(db, { id: w.owner.id, siteRole: "user" }, assignmentId, g.version, a.clock, controller.signal);
    const nextBatch = stream.next();
    // Student 3 had WA on problem 0 ((3 + 0) % 3 == 0): now an on-time AC.
    const userId = studentIds[3]!;
    const problemId = problemIds[0]!;
    await db.insert(submissions).values({ userId, problemId, assignmentId, language: "py", code: "print(2)", status: "done", verdict: "AC", createdAt: new Date(DUE - 60_000) });
    await afterJudged(db, { assignmentId, userId, problemId });
    const batch = await nextBatch;
    controller.abort();
    expect(batch.done).toBe(false);
    expect(batch.value!.cells).toEqual([{ userId, problemId, score: 10, verdict: "AC", attempts: 2, late: false, bestSubmissionId: expect.any(String) }]);
    expect(batch.value!.version).toBeGreaterThan(g.version);
  });

  test("a burst of 50 judged submissions arrives in few batches that together hold every changed cell once per change", async () => {
    const db = a.t.services.db;
    const g = await readGradebook(db, { id: w.owner.id, siteRole: "user" }, assignmentId, a.clock());
    const controller = new AbortController();
    const stream = gradebookChanges(db, { id: w.owner.id, siteRole: "user" }, assignmentId, g.version, a.clock, controller.signal);
    const targets = studentIds.slice(100, 150);
    await Promise.all(
      targets.map(async (userId) => {
        await db.insert(submissions).values({ userId, problemId: problemIds[9]!, assignmentId, language: "py", code: "x", status: "done", verdict: "AC", createdAt: new Date(DUE - 1000) });
        await afterJudged(db, { assignmentId, userId, problemId: problemIds[9]! });
      }),
    );
    const seen = new Set<string>();
    let batches = 0;
    while (seen.size < targets.length) {
      const b = await stream.next();
      batches++;
      for (const c of b.value!.cells) seen.add(c.userId);
    }
    controller.abort();
    expect([...seen].sort()).toEqual([...targets].sort());
    expect(batches).toBeLessThanOrEqual(targets.length);
  });
});
