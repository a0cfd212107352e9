/**
 * The gradebook CSV in the teacher's language (issue 34 §6, decision 068):
 * header labels and the "late" mark follow the account's stored language,
 * else the request's Accept-Language; English is the export as it always
 * was; ids, e-mail addresses, names, scores, points and totals, and the
 * columns' order, are the same in every language.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, problems, submissions, users } from "../../db/schema.ts";
import { setAccountLocale } from "../accounts/locale.ts";
import { recomputeAssignment } from "./scores.ts";
import { request } from "../../tests/api.ts";
import { courseApp, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { problemRow } from "../../tests/fixtures/problem.ts";

let a: CourseApp;
let w: World;
let assignmentId: string;
const OPENS = Date.parse("2026-10-01T00:00:00Z");
const DAY = 86_400_000;

beforeAll(async () => {
  a = await courseApp();
  a.clock.set(OPENS + 10 * DAY);
  w = await world(a);
  const db = a.t.services.db;
  const sum = newId();
  const sort = newId();
  await db.insert(problems).values([
    problemRow(w.owner.id, { id: sum, title: "Sum", courseId: w.courseId }),
    problemRow(w.owner.id, { id: sort, title: "Sort, then search", courseId: w.courseId }),
  ]);
  assignmentId = newId();
  await db.insert(assignments).values({
    id: assignmentId, courseId: w.courseId, title: "Week 1", opensAt: new Date(OPENS), dueAt: new Date(OPENS + 7 * DAY), closesAt: new Date(OPENS + 9 * DAY),
    latePenaltyPercent: 50, latePenaltyUnit: "day", feedback: "tests",
  });
  await db.insert(assignmentProblems).values([
    { assignmentId, problemId: sum, ordinal: 0, points: 1000 },
    { assignmentId, problemId: sort, ordinal: 1, points: 50 },
  ]);
  // The first student: Sum on time; the second: Sum a day late (half the points), Sort on time.
  await db.insert(submissions).values([
    { userId: w.student.id, problemId: sum, assignmentId, language: "py", code: "print(1)\n", status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS + DAY) },
    { userId: w.student2.id, problemId: sum, assignmentId, language: "py", code: "print(1)\n", status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS + 7 * DAY + 3_600_000) },
    { userId: w.student2.id, problemId: sort, assignmentId, language: "py", code: "print(2)\n", status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS + 2 * DAY) },
  ]);
  await recomputeAssignment(db, assignmentId);
}, 60_000);

afterAll(() => a?.close());

const csvOf = async (headers: Record<string, string> = {}) => {
  const res = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades?format=csv`, { token: w.instructor.token, headers });
  expect(res.status).toBe(200);
  return parse(res.body as string) as string[][];
};

test("English: the labels and mark as they always were", async () => {
  const [header, ...rows] = await csvOf();
  expect(header).toEqual(["student_id", "email", "name", "Sum (1000)", "Sum late", "Sort, then search (50)", "Sort, then search late", "total"]);
  const second = rows.find((r) => r[0] === w.student2.id)!;
  expect(second.slice(3)).toEqual(["500", "late", "50", "", "550"]);
});

test("German by Accept-Language, Korean from the account over it; the data columns unchanged", async () => {
  const [enHeader, ...en] = await csvOf();
  const [deHeader, ...de] = await csvOf({ "accept-language": "de-DE,de;q=0.9" });
  expect(deHeader).toEqual(["Studierenden-ID", "E-Mail-Adresse", "Name", "Sum (1000)", "Sum verspätet", "Sort, then search (50)", "Sort, then search verspätet", "Gesamt"]);
  expect(deHeader!.length).toBe(enHeader!.length);
  // Same rows, same order; only a "late" cell reads differently.
  expect(de).toEqual(en.map((r) => r.map((cell) => (cell === "late" ? "verspätet" : cell))));
  expect(de.flat()).toContain("verspätet");

  await setAccountLocale(a.t.services.db, w.instructor.id, "ko");
  try {
    const [koHeader, ...ko] = await csvOf({ "accept-language": "de" });
    expect(koHeader).toEqual(["학생 ID", "이메일 주소", "이름", "Sum (1000)", "Sum 지각", "Sort, then search (50)", "Sort, then search 지각", "합계"]);
    expect(ko).toEqual(en.map((r) => r.map((cell) => (cell === "late" ? "지각" : cell))));
  } finally {
    await a.t.services.db.update(users).set({ locale: null }).where(eq(users.id, w.instructor.id));
  }
});

