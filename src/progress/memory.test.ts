/**
 * Progress rows kept in memory (./memory.ts) are served with one statement while nothing changed
 * them, and never past a write that did: a verdict, a rejudge that changes only a day's count, a
 * problem's edit, a course's assignment deleted, an erased account. Real libSQL file, the
 * migrations' own triggers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { createTestDb } from "../../tests/db.ts";
import { progressErasure } from "../problems/bank/erasure.ts";
import { recordProblemStatus } from "../problems/bank/status.ts";
import { keptProgress, progressOf } from "./memory.ts";
import { progressFor } from "./progress.ts";

let db: Database;
let cleanup: () => void;
const iso = (s: string) => Date.parse(s);
const NOW = iso("2026-03-31T12:00:00Z");
const TZ = "UTC";

let n = 0;
async function submit(userId: string, problemId: string, verdict: string, at: string, assignmentId: string | null = null): Promise<string> {
  const id = `s${++n}`;
  await db.run(sql`INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, created_at, assignment_id)
    VALUES (${id}, ${userId}, ${problemId}, 'py', '', 'done', ${verdict}, ${iso(at)}, ${assignmentId})`);
  await recordProblemStatus(db, { userId, problemId });
  return id;
}

/** Counts the statements `run` makes through `db.all` (every read of ./memory.ts and ./progress.ts goes through it). */
async function statementsOf<T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const all = db.all.bind(db);
  let statements = 0;
  (db as { all: unknown }).all = (...args: Parameters<typeof all>) => {
    statements++;
    return all(...args);
  };
  try {
    return { value: await run(), statements };
  } finally {
    (db as { all: unknown }).all = all;
  }
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  for (const id of ["teach", "stu", "other"]) {
    await db.run(sql`INSERT INTO users (id, first_name, last_name, email, email_normalized) VALUES (${id}, 'F', 'L', ${id + "@x"}, ${id + "@x"})`);
  }
  for (const [id, difficulty, course] of [["p1", "easy", null], ["p2", "medium", null], ["pc", "hard", "c"]] as const) {
    if (course) await db.run(sql`INSERT INTO courses (id, title, code, code_normalized, created_by) VALUES ('c', 'Course', 'C1', 'c1', 'teach') ON CONFLICT DO NOTHING`);
    await db.run(sql`INSERT INTO problems (id, title, description, input_format, output_format, constraints, sample_input, sample_output, difficulty, user_id, course_id)
      VALUES (${id}, ${"Title " + id}, 'd', '', '', '', '1', '1', ${difficulty}, 'teach', ${course})`);
  }
  await db.run(sql`INSERT INTO course_members (course_id, user_id, role) VALUES ('c', 'teach', 'instructor'), ('c', 'stu', 'student')`);
  await db.run(sql`INSERT INTO assignments (id, course_id, title, opens_at, feedback) VALUES ('a', 'c', 'Week 1', 0, 'verdict')`);
  await db.run(sql`INSERT INTO assignment_problems (assignment_id, problem_id, ordinal) VALUES ('a', 'pc', 0)`);
  await submit("stu", "p1", "AC", "2026-03-30T10:00:00Z");
  await submit("stu", "pc", "AC", "2026-03-29T10:00:00Z", "a");
});
afterAll(() => cleanup());

describe("kept progress", () => {
  test("is read once, then served with one statement; it is the same progress as read afresh", async () => {
    const first = await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW });
    expect(first).toEqual(await progressFor(db, "stu", { timeZone: TZ, nowMs: NOW }));
    expect(keptProgress(db)).toBeGreaterThan(0);
    const again = await statementsOf(() => progressOf(db, "stu", { timeZone: TZ, nowMs: NOW + 1000 }));
    expect(again.statements).toBe(1);
    expect(again.value).toEqual(first);
    // Afresh it takes three.
    expect((await statementsOf(() => progressFor(db, "stu", { timeZone: TZ, nowMs: NOW }))).statements).toBe(3);
    // A later day from the same rows: the calendar moves, the streak with it.
    const nextDay = await statementsOf(() => progressOf(db, "stu", { timeZone: TZ, nowMs: NOW + 86_400_000 }));
    expect(nextDay.statements).toBe(1);
    expect(nextDay.value.to).toBe("2026-04-01");
    expect(nextDay.value).toEqual(await progressFor(db, "stu", { timeZone: TZ, nowMs: NOW + 86_400_000 }));
    // An earlier clock than the kept rows' is read afresh.
    expect((await statementsOf(() => progressOf(db, "stu", { timeZone: TZ, nowMs: NOW - 86_400_000 }))).statements).toBe(4);
  });

  test("a verdict, and a rejudge that changes only one day's counts, show on the next read", async () => {
    await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW });
    const wa = await submit("stu", "p2", "WA", "2026-03-31T09:00:00Z");
    const after = await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW });
    expect(after.attempted).toBe(1);
    expect(after.pickUp.map((p) => p.problemId)).toEqual(["p2"]);
    // Two ACs on p1; the later one rejudged to WA: the status row's status, count and first AC stay, the day's counts move.
    const ac2 = await submit("stu", "p1", "AC", "2026-03-31T10:00:00Z");
    const before = await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW });
    expect(before.calendar.find((d) => d.date === "2026-03-31")).toEqual({ date: "2026-03-31", accepted: 1, attempted: 1 });
    await db.run(sql`UPDATE submissions SET verdict = 'WA' WHERE id = ${ac2}`);
    await recordProblemStatus(db, { userId: "stu", problemId: "p1" });
    const rejudged = await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW });
    expect(rejudged.calendar.find((d) => d.date === "2026-03-31")).toEqual({ date: "2026-03-31", accepted: 0, attempted: 2 });
    expect(rejudged).toEqual(await progressFor(db, "stu", { timeZone: TZ, nowMs: NOW }));
    expect(wa).toBeTruthy();
  });

  test("a problem's edit and deletion, and a course's assignment deleted, show on the next read", async () => {
    const course = { timeZone: TZ, nowMs: NOW, scope: { kind: "course" as const, courseId: "c" } };
    expect((await progressOf(db, "stu", course)).solved).toBe(1);
    await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW });
    await db.run(sql`UPDATE problems SET title = 'Renamed' WHERE id = 'p2'`);
    expect((await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW })).pickUp[0]!.title).toBe("Renamed");
    await db.run(sql`UPDATE problems SET deleted_at = ${NOW} WHERE id = 'p2'`);
    expect((await progressOf(db, "stu", { timeZone: TZ, nowMs: NOW })).attempted).toBe(0);
    await db.run(sql`UPDATE assignments SET deleted_at = ${NOW} WHERE id = 'a'`);
    expect((await progressOf(db, "stu", course)).solved).toBe(0);
  });

  test("each user's rows are their own; an erased account's version goes with its rows", async () => {
    const [mine, theirs] = await Promise.all([progressOf(db, "stu", { timeZone: TZ, nowMs: NOW }), progressOf(db, "other", { timeZone: TZ, nowMs: NOW })]);
    expect(mine.solved).toBeGreaterThan(0);
    expect(theirs.solved).toBe(0);
    await submit("other", "p1", "AC", "2026-03-31T08:00:00Z");
    expect((await progressOf(db, "other", { timeZone: TZ, nowMs: NOW })).solved).toBe(1);
    expect((await db.all(sql`SELECT 1 FROM progress_versions WHERE user_id = 'other'`)).length).toBe(1);
    await db.batch([...progressErasure(db, "other")]);
    expect((await db.all(sql`SELECT 1 FROM progress_versions WHERE user_id = 'other'`)).length).toBe(0);
    expect((await progressOf(db, "other", { timeZone: TZ, nowMs: NOW })).solved).toBe(0);
  });
});
