/**
 * Each viewer's sight kept in memory (./sight-cache.ts, docs/decisions/083-bank-sight-in-memory.md)
 * is never served past a write or a time that changes it: every kind of write the rules read, and
 * every time the clock alone opens something, shows on the next read. Real libSQL file, the
 * migrations' own triggers, the contests' registered grant.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, assignments, contestEntries, contestProblems, contestRoles, contests, contestTeamMembers, contestTeams, courseMembers, courses, problems, users } from "../../../db/schema.ts";
import { createTestDb } from "../../../tests/db.ts";
import { problemRow } from "../../../tests/fixtures/problem.ts";
import type { Caller } from "../../accounts/user.ts";
import { registerContestGuards } from "../../contests/guards.ts";
import { listBank } from "./list.ts";
import { readBankState } from "./revision.ts";
import { bankQueryInput } from "./shape.ts";
import { keptSights, nextChangeAfter, sightOf } from "./sight-cache.ts";

let db: Database;
let cleanup: () => void;
const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
const MINUTE = 60_000;
const me: Caller = { id: "me", siteRole: "user" };
const teacher: Caller = { id: "teacher", siteRole: "user" };

const revision = async () => (await readBankState(db, me.id)).sight;
/** The viewer's private ids at `now`, through the bank's own list (the cache's one caller). */
const seen = async (viewer: Caller, now = NOW) => (await listBank(db, viewer, bankQueryInput.parse({ source: "course", limit: 100 }), now)).problems.map((p) => p.id).concat(
  (await listBank(db, viewer, bankQueryInput.parse({ source: "contest", limit: 100 }), now)).problems.map((p) => p.id),
).sort();

const contest = { title: "Cup", durationMinutes: 60, scoring: "icpc" as const, registration: "open" as const, createdBy: "teacher" };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  registerContestGuards();
  for (const id of ["me", "teacher"]) await db.insert(users).values({ id, firstName: id, lastName: "X", email: `${id}@x.test`, emailNormalized: `${id}@x.test` });
  await db.insert(courses).values({ id: "c", title: "Algorithms", code: "ALG", codeNormalized: "alg", createdBy: "teacher" });
  await db.insert(courseMembers).values({ courseId: "c", userId: "teacher", role: "instructor" });
  for (const id of ["cOpen", "cLater", "cNew", "kRun", "kSoon", "kJury", "kExam", "kVirtual"]) {
    await db.insert(problems).values(problemRow("teacher", { id, title: `Problem ${id}`, courseId: "c", createdAt: new Date(NOW - DAY) }));
  }
  await db.insert(assignments).values({ id: "a1", courseId: "c", title: "Week 1", opensAt: new Date(NOW - DAY), feedback: "full" });
  await db.insert(assignments).values({ id: "a2", courseId: "c", title: "Week 9", opensAt: new Date(NOW + 2 * DAY), feedback: "full" });
  await db.insert(assignmentProblems).values([{ assignmentId: "a1", problemId: "cOpen", ordinal: 0 }, { assignmentId: "a2", problemId: "cLater", ordinal: 0 }]);
  // Public contests listing the course's problems (created by the teacher: their jury).
  await db.insert(contests).values({ ...contest, id: "run", shortName: "run", startsAt: new Date(NOW - 10 * MINUTE) });
  await db.insert(contests).values({ ...contest, id: "soon", shortName: "soon", startsAt: new Date(NOW + DAY) });
  await db.insert(contests).values({ ...contest, id: "jury", shortName: "jury", startsAt: new Date(NOW + 5 * DAY) });
  await db.insert(contests).values({ ...contest, id: "exam", shortName: "exam", startsAt: new Date(NOW - 10 * MINUTE), lockDown: true });
  await db.insert(contests).values({ ...contest, id: "virt", shortName: "virt", startsAt: new Date(NOW - 10 * DAY) , durationMinutes: 60 * 24 * 30 });
  await db.insert(contestProblems).values([
    { contestId: "run", problemId: "kRun", label: "A", ordinal: 0 },
    { contestId: "soon", problemId: "kSoon", label: "A", ordinal: 0 },
    { contestId: "jury", problemId: "kJury", label: "A", ordinal: 0 },
    { contestId: "exam", problemId: "kExam", label: "A", ordinal: 0 },
    { contestId: "virt", problemId: "kVirtual", label: "A", ordinal: 0 },
  ]);
});
afterAll(() => cleanup());

async function join(contestId: string, virtualStartsAt: Date | null = null) {
  const teamId = `t-${contestId}`;
  await db.insert(contestTeams).values({ id: teamId, contestId, name: `me ${contestId}`, nameNormalized: `me ${contestId}`, virtualStartsAt });
  await db.insert(contestTeamMembers).values({ contestId, teamId, userId: "me" });
}

describe("a kept sight", () => {
  test("is read once per viewer and then served from memory while nothing changes", async () => {
    expect(await seen(me)).toEqual([]);
    const rev = await revision();
    expect(rev).not.toBeNull();
    const first = await sightOf(db, me, NOW, rev);
    expect(await sightOf(db, me, NOW + MINUTE, rev)).toBe(first); // the same object: no read
    expect(keptSights(db)).toBeGreaterThan(0);
    // Another viewer has their own.
    const theirs = await sightOf(db, teacher, NOW, rev);
    expect(theirs).not.toBe(first);
    expect(theirs.course.sort()).toEqual(["cLater", "cNew", "cOpen", "kExam", "kJury", "kRun", "kSoon", "kVirtual"]);
  });

  test("shows every kind of write the rules read on the next read", async () => {
    // Joining the course: the opened assignment's problem.
    await db.insert(courseMembers).values({ courseId: "c", userId: "me", role: "student" });
    expect(await seen(me)).toEqual(["cOpen"]);
    // A problem added to the opened assignment.
    await db.insert(assignmentProblems).values({ assignmentId: "a1", problemId: "cNew", ordinal: 1 });
    expect(await seen(me)).toEqual(["cNew", "cOpen"]);
    // Its deletion from the bank (the problem's own row).
    await db.update(problems).set({ deletedAt: new Date(NOW) }).where(eq(problems.id, "cNew"));
    expect(await seen(me)).toEqual(["cOpen"]);
    // An assignment's opening moved into the past.
    await db.update(assignments).set({ opensAt: new Date(NOW - MINUTE) }).where(eq(assignments.id, "a2"));
    expect(await seen(me)).toEqual(["cLater", "cOpen"]);
    await db.update(assignments).set({ opensAt: new Date(NOW + 2 * DAY) }).where(eq(assignments.id, "a2"));
    expect(await seen(me)).toEqual(["cOpen"]);
    // Made a TA: the course's every problem (staff see drafts).
    await db.update(courseMembers).set({ role: "ta" }).where(and(eq(courseMembers.courseId, "c"), eq(courseMembers.userId, "me")));
    expect(await seen(me)).toEqual(["cLater", "cOpen", "kExam", "kJury", "kRun", "kSoon", "kVirtual"]);
    await db.delete(courseMembers).where(eq(courseMembers.userId, "me"));
    expect(await seen(me)).toEqual([]);
    // Registering for a running contest: its problem, through the contest.
    await join("run");
    expect(await seen(me)).toEqual(["kRun"]);
    // A jury grant for a contest not yet started.
    await db.insert(contestRoles).values({ contestId: "jury", userId: "me", role: "jury" });
    expect(await seen(me)).toEqual(["kJury", "kRun"]);
    // A contest that asks for an entry: nothing until the participant enters.
    await join("exam");
    expect(await seen(me)).toEqual(["kJury", "kRun"]);
    await db.insert(contestEntries).values({ contestId: "exam", userId: "me", enteredAt: new Date(NOW) });
    expect(await seen(me)).toEqual(["kExam", "kJury", "kRun"]);
    // The contest's problem list changes.
    await db.delete(contestProblems).where(eq(contestProblems.problemId, "kRun"));
    expect(await seen(me)).toEqual(["kExam", "kJury"]);
  });

  test("ends at the next time the clock opens something: an assignment, a contest's start and end, a virtual window", async () => {
    const read = async (now: number) => sightOf(db, me, now, await revision());
    // The assignment a2 opens at NOW + 2 days (me is back in the course).
    await db.insert(courseMembers).values({ courseId: "c", userId: "me", role: "student" });
    const before = await read(NOW + 2 * DAY - 1);
    expect(await read(NOW + 2 * DAY - 1)).toBe(before);
    expect((await read(NOW + 2 * DAY)).course).toContain("cLater");
    // The contest `soon` starts at NOW + 1 day: its problem is its participants' from then.
    await join("soon");
    expect((await read(NOW + DAY - 1)).contest).not.toContain("kSoon");
    expect((await read(NOW + DAY)).contest).toContain("kSoon");
    // A virtual window starting later in `virt` (running for 30 days): its problem from the window's start.
    await join("virt", new Date(NOW + 3 * DAY));
    expect((await read(NOW + 3 * DAY - 1)).contest).not.toContain("kVirtual");
    expect((await read(NOW + 3 * DAY)).contest).toContain("kVirtual");
    // A contest the viewer is not in: its problems for everyone once it is over.
    await db.delete(contestTeamMembers).where(eq(contestTeamMembers.userId, "me"));
    const end = NOW + DAY + 60 * MINUTE;
    expect((await read(end - 1)).contest).not.toContain("kSoon");
    expect((await read(end)).contest).toContain("kSoon");
    expect(await nextChangeAfter(db, end)).toBe(NOW + 2 * DAY);
    // A request whose clock is earlier than the kept sight's reads it afresh (never a later sight for an earlier time).
    expect((await read(NOW)).course).not.toContain("cLater");
  });

  test("writes the rules do not read bump nothing", async () => {
    const rev = await revision();
    await db.update(contests).set({ feedPhase: 2 }).where(eq(contests.id, "run"));
    await db.update(assignments).set({ scoresVersion: 7 }).where(eq(assignments.id, "a1"));
    await db.update(courseMembers).set({ extraMinutes: 30 }).where(eq(courseMembers.userId, "me"));
    await db.update(problems).set({ title: "Renamed" }).where(eq(problems.id, "cOpen"));
    expect(await revision()).toBe(rev);
  });

  test("without the revision row (a database before migration 0044) nothing is kept", async () => {
    await db.run(sql`DELETE FROM revisions WHERE name = 'sight'`);
    expect(await revision()).toBeNull();
    const a = await sightOf(db, me, NOW, null);
    expect(await sightOf(db, me, NOW, null)).not.toBe(a);
    expect((await seen(me)).length).toBeGreaterThan(0);
  });
});
