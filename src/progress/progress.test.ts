/**
 * Progress (issue 35) on a real libSQL file: calendar days and streaks in the
 * viewer's zone (across a DST change and the zone's midnight), counts from the
 * status rows, and who sees whose (private by default, public profiles show
 * public work only, course staff see their course only, a student nobody else's).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestDb } from "../../tests/db.ts";
import type { Database } from "../../db/index.ts";
import { AppError } from "../errors.ts";
import { recordProblemStatus } from "../problems/bank/status.ts";
import { courseStudentProgress, publicProfile } from "./access.ts";
import { setProfile } from "../accounts/profile.ts";
import { progressFor } from "./progress.ts";
import { handleField, setProfileInput } from "./shape.ts";
import { streaks } from "./streaks.ts";
import { addDays, dayKey, isTimeZone, timeZoneField } from "./zone.ts";

let db: Database;
let cleanup: () => void;
const iso = (s: string) => Date.parse(s);

async function user(id: string) {
  await db.run(sql`INSERT INTO users (id, first_name, last_name, email, email_normalized) VALUES (${id}, ${"F" + id}, ${"L" + id}, ${id + "@x"}, ${id + "@x"})`);
}
async function problem(id: string, difficulty: string, courseId: string | null = null) {
  await db.run(sql`INSERT INTO problems (id, title, description, input_format, output_format, constraints, sample_input, sample_output, difficulty, user_id, course_id)
    VALUES (${id}, ${"Title " + id}, 'd', '', '', '', '1', '1', ${difficulty}, 'staffA', ${courseId})`);
}
let n = 0;
async function submit(userId: string, problemId: string, verdict: string, at: string, opts: { language?: string; assignmentId?: string; contestId?: string } = {}) {
  await db.run(sql`INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, created_at, assignment_id, contest_id)
    VALUES (${`s${++n}`}, ${userId}, ${problemId}, ${opts.language ?? "py"}, '', 'done', ${verdict}, ${iso(at)}, ${opts.assignmentId ?? null}, ${opts.contestId ?? null})`);
  await recordProblemStatus(db, { userId, problemId });
}
async function rejects(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof AppError ? err.kind : String(err);
  }
  return "resolved";
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  for (const id of ["staffA", "staffB", "stu", "stu2", "lone"]) await user(id);
  await db.run(sql`INSERT INTO courses (id, title, code, code_normalized, created_by) VALUES ('cA', 'Course A', 'A1', 'a1', 'staffA'), ('cB', 'Course B', 'B1', 'b1', 'staffB')`);
  await db.run(sql`INSERT INTO course_members (course_id, user_id, role) VALUES ('cA','staffA','instructor'), ('cA','stu','student'), ('cA','stu2','student'), ('cB','staffB','ta'), ('cB','stu','student')`);
  await problem("pe1", "easy");
  await problem("pe2", "easy");
  await problem("pm1", "medium");
  await problem("ph1", "hard");
  await problem("pcA", "medium", "cA");
  await problem("pcB", "hard", "cB");
  await db.run(sql`INSERT INTO assignments (id, course_id, title, opens_at, feedback) VALUES ('aA', 'cA', 'Week 1', 0, 'verdict'), ('aB', 'cB', 'Week 1', 0, 'verdict')`);
  await db.run(sql`INSERT INTO assignment_problems (assignment_id, problem_id, ordinal) VALUES ('aA','pcA',0), ('aA','pe1',1), ('aB','pcB',0)`);
  const tag = async (problemId: string, slug: string) =>
    db.run(sql`INSERT INTO problem_tags (problem_id, tag_id) SELECT ${problemId}, id FROM tags WHERE slug = ${slug}`);
  await tag("pe1", "math");
  await tag("pe2", "math");
  await tag("pe2", "greedy");
  await tag("pm1", "graphs");
  // Europe/Berlin changes to summer time on 2026-03-29 at 01:00 UTC (02:00 → 03:00 local).
  await submit("stu", "pe1", "WA", "2026-03-27T22:30:00Z"); // 23:30 CET, the 27th in Berlin (UTC too)
  await submit("stu", "pe1", "AC", "2026-03-28T23:30:00Z"); // 00:30 CET on the 29th in Berlin, still the 28th in UTC
  await submit("stu", "pe2", "AC", "2026-03-29T22:30:00Z", { language: "cpp" }); // 00:30 CEST on the 30th in Berlin
  await submit("stu", "pm1", "TLE", "2026-03-30T21:59:00Z"); // 23:59 CEST, the 30th in Berlin
  await submit("stu", "pm1", "IE", "2026-03-31T10:00:00Z"); // the judge's fault: never a day of activity
  await submit("stu", "pe2", "AC", "2025-01-01T12:00:00Z"); // more than a year before: outside the calendar
  // Course work: an AC in course A's assignment, a WA in course B's, a contest AC on a public problem.
  await submit("stu", "pcA", "AC", "2026-03-20T12:00:00Z", { assignmentId: "aA" });
  await submit("stu", "pcB", "WA", "2026-03-21T12:00:00Z", { assignmentId: "aB" });
  await db.run(sql`PRAGMA foreign_keys = OFF`);
  await submit("stu", "ph1", "AC", "2026-03-22T12:00:00Z", { contestId: "contest-1" });
  await db.run(sql`PRAGMA foreign_keys = ON`);
  await submit("stu2", "pe1", "AC", "2026-03-25T12:00:00Z");
});
afterAll(() => cleanup());

const NOW = iso("2026-03-31T12:00:00Z");

describe("days in the viewer's zone", () => {
  test("a day key is the zone's calendar date, across the DST change", () => {
    expect(dayKey(iso("2026-03-28T23:30:00Z"), "Europe/Berlin")).toBe("2026-03-29");
    expect(dayKey(iso("2026-03-28T23:30:00Z"), "UTC")).toBe("2026-03-28");
    expect(dayKey(iso("2026-03-29T22:30:00Z"), "Europe/Berlin")).toBe("2026-03-30"); // after the change: UTC+2
    expect(dayKey(iso("2026-03-29T21:30:00Z"), "Europe/Berlin")).toBe("2026-03-29");
    expect(dayKey(iso("2026-03-28T23:30:00Z"), "America/Los_Angeles")).toBe("2026-03-28");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
  });

  test("zones are validated: IANA names pass, anything else is refused naming the field's rule", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("+02:00")).toBe(false);
    expect(timeZoneField.safeParse(undefined).data).toBe("UTC");
    expect(timeZoneField.safeParse("Nowhere/City").success).toBe(false);
  });

  test("the calendar counts accepted and other judged submissions per Berlin day; IE and older than a year do not count", async () => {
    const p = await progressFor(db, "stu", { timeZone: "Europe/Berlin", nowMs: NOW });
    expect(p.to).toBe("2026-03-31");
    expect(p.from).toBe("2025-04-01");
    const days = Object.fromEntries(p.calendar.map((d) => [d.date, [d.accepted, d.attempted]]));
    expect(days).toEqual({
      "2026-03-20": [1, 0],
      "2026-03-21": [0, 1],
      "2026-03-22": [1, 0],
      "2026-03-27": [0, 1],
      "2026-03-29": [1, 0],
      "2026-03-30": [1, 1],
    });
    expect([p.submissionsInYear, p.acceptedInYear, p.activeDays]).toEqual([7, 4, 6]);
  });

  test("the same submissions in UTC fall on other days, so the streaks differ", async () => {
    const berlin = await progressFor(db, "stu", { timeZone: "Europe/Berlin", nowMs: NOW });
    const utc = await progressFor(db, "stu", { timeZone: "UTC", nowMs: NOW });
    expect(utc.calendar.map((d) => d.date).slice(-4)).toEqual(["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"]);
    // Berlin: 29 and 30 (28 empty there); today (31) has only an IE, so the streak ends yesterday.
    expect([berlin.currentStreak, berlin.longestStreak]).toEqual([2, 3]);
    // UTC: 27, 28, 29, 30 in a row.
    expect([utc.currentStreak, utc.longestStreak]).toEqual([4, 4]);
    // Two days later nothing is current any more.
    const later = await progressFor(db, "stu", { timeZone: "UTC", nowMs: NOW + 2 * 86_400_000 });
    expect([later.currentStreak, later.longestStreak]).toEqual([0, 4]);
  });

  test("streaks: today or yesterday keeps the current one; the longest is the longest run", () => {
    expect(streaks(new Set(["2026-01-01", "2026-01-02", "2026-01-04"]), "2026-01-04")).toEqual({ current: 1, longest: 2 });
    expect(streaks(new Set(["2026-01-02", "2026-01-03"]), "2026-01-04")).toEqual({ current: 2, longest: 2 });
    expect(streaks(new Set(["2025-12-31", "2026-01-01"]), "2026-01-03")).toEqual({ current: 0, longest: 2 });
    expect(streaks(new Set(), "2026-01-03")).toEqual({ current: 0, longest: 0 });
  });
});

describe("counts from the status rows", () => {
  test("solved by difficulty and tag, languages, recently solved and pick up where you left off", async () => {
    const p = await progressFor(db, "stu", { timeZone: "UTC", nowMs: NOW });
    expect([p.solved, p.attempted]).toEqual([4, 2]); // pe1, pe2, pcA, ph1 solved; pm1, pcB attempted
    expect(p.solvedByDifficulty).toEqual({ easy: 2, medium: 1, hard: 1 });
    expect(p.solvedByTag).toEqual([
      { slug: "math", name: "Mathematics", solved: 2 },
      { slug: "greedy", name: "Greedy", solved: 1 },
    ]);
    expect(p.languages).toEqual([
      { language: "py", submissions: 6, solved: 3 },
      { language: "cpp", submissions: 1, solved: 1 },
    ]);
    expect(p.recentlySolved.map((r) => r.problemId)).toEqual(["pe1", "ph1", "pcA", "pe2"]);
    expect(p.recentlySolved[0]).toMatchObject({ title: "Title pe1", difficulty: "easy", at: "2026-03-28T23:30:00.000Z", submissions: 2 });
    expect(p.pickUp.map((r) => r.problemId)).toEqual(["pm1", "pcB"]);
  });

  test("a user with nothing has empty progress", async () => {
    const p = await progressFor(db, "lone", { timeZone: "UTC", nowMs: NOW });
    expect([p.solved, p.attempted, p.calendar.length, p.currentStreak, p.recentlySolved.length]).toEqual([0, 0, 0, 0, 0]);
  });

  test("the year's read searches an index, never scans the submissions", async () => {
    const plan = await db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT s.created_at, s.verdict, s.language, s.problem_id FROM submissions s
      WHERE s.user_id = 'stu' AND s.created_at >= 0 AND s.status = 'done' AND s.verdict IS NOT NULL AND s.verdict <> 'IE'`);
    expect(plan.map((r) => r.detail).join(" | ")).toMatch(/^SEARCH s USING INDEX \w+ \(status=\? AND user_id=\? AND created_at>\?\)$/);
  });
});

describe("who sees whose", () => {
  test("private by default: an unknown handle and a private one get the same 404", async () => {
    await setProfile(db, "stu", { handle: "stella", profilePublic: false });
    expect(await rejects(publicProfile(db, "stella", "UTC"))).toBe("PROFILE_NOT_FOUND");
    expect(await rejects(publicProfile(db, "nobody-here", "UTC"))).toBe("PROFILE_NOT_FOUND");
  });

  test("a public profile shows the handle and public work only: no contest, no course, no name", async () => {
    await setProfile(db, "stu", { handle: "stella", profilePublic: true });
    const prof = await publicProfile(db, "stella", "UTC", NOW);
    expect(Object.keys(prof).sort()).toEqual(["handle", "progress"]);
    expect(JSON.stringify(prof)).not.toContain("Fstu");
    expect(JSON.stringify(prof)).not.toContain("stu@x");
    expect(prof.progress.recentlySolved.map((r) => r.problemId).sort()).toEqual(["pe1", "pe2"]); // not ph1 (contest) nor pcA (course)
    expect(prof.progress.pickUp.map((r) => r.problemId)).toEqual(["pm1"]); // not pcB
    expect(prof.progress.calendar.map((d) => d.date)).toEqual(["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"]);
    // Removing the handle makes the profile private again.
    await setProfile(db, "stu", { handle: null, profilePublic: true });
    expect(await rejects(publicProfile(db, "stella", "UTC"))).toBe("PROFILE_NOT_FOUND");
  });

  test("handles: lower-cased, checked, reserved words refused, unique", async () => {
    expect(handleField.parse("  Ada_Lovelace-1 ")).toBe("ada_lovelace-1");
    expect(setProfileInput.safeParse({ handle: "ab", profilePublic: true }).error?.issues[0]?.path).toEqual(["handle"]);
    expect(setProfileInput.safeParse({ handle: "has space", profilePublic: true }).success).toBe(false);
    expect(setProfileInput.safeParse({ handle: "x".repeat(33), profilePublic: true }).success).toBe(false);
    expect(await rejects(setProfile(db, "lone", { handle: "admin", profilePublic: true }))).toBe("HANDLE_RESERVED");
    await setProfile(db, "stu2", { handle: "taken", profilePublic: true });
    expect(await rejects(setProfile(db, "lone", { handle: "taken", profilePublic: true }))).toBe("HANDLE_TAKEN");
    // Keeping one's own handle is no conflict.
    expect(await setProfile(db, "stu2", { handle: "taken", profilePublic: false })).toEqual({ handle: "taken", profilePublic: false });
  });

  test("course staff see a student within their course only: A's instructor sees A's work, nothing of B's or of practice", async () => {
    const a = await courseStudentProgress(db, { id: "staffA", siteRole: "user" }, "cA", "stu", "UTC", NOW);
    expect(a.student).toMatchObject({ id: "stu", firstName: "Fstu", role: "student" });
    expect([a.progress.solved, a.progress.attempted]).toEqual([1, 0]);
    expect(a.progress.recentlySolved.map((r) => r.problemId)).toEqual(["pcA"]);
    expect(a.progress.calendar.map((d) => d.date)).toEqual(["2026-03-20"]); // not the practice, contest or course B days
    const b = await courseStudentProgress(db, { id: "staffB", siteRole: "user" }, "cB", "stu", "UTC", NOW);
    expect(b.progress.pickUp.map((r) => r.problemId)).toEqual(["pcB"]);
    expect(b.progress.solved).toBe(0);
  });

  test("staff of course A cannot see a student through course B, nor a non-student; a student sees no other student", async () => {
    expect(await rejects(courseStudentProgress(db, { id: "staffA", siteRole: "user" }, "cB", "stu", "UTC"))).toBe("COURSE_NOT_FOUND");
    expect(await rejects(courseStudentProgress(db, { id: "staffB", siteRole: "user" }, "cB", "stu2", "UTC"))).toBe("MEMBER_NOT_FOUND");
    expect(await rejects(courseStudentProgress(db, { id: "staffA", siteRole: "user" }, "cA", "staffA", "UTC"))).toBe("MEMBER_NOT_FOUND");
    expect(await rejects(courseStudentProgress(db, { id: "stu2", siteRole: "user" }, "cA", "stu", "UTC"))).toBe("FORBIDDEN");
    expect(await rejects(courseStudentProgress(db, { id: "lone", siteRole: "user" }, "cA", "stu", "UTC"))).toBe("COURSE_NOT_FOUND");
  });
});
