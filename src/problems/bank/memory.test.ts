/**
 * The bank served from memory (docs/decisions/082-bank-in-memory.md) never answers from before a
 * write: every write the shared part depends on shows on the next read (through the store's own
 * functions, on a real libSQL file), and what is per viewer stays per viewer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, assignments, courseMembers, courses, problems, users } from "../../../db/schema.ts";
import { createTestDb } from "../../../tests/db.ts";
import { problemBody, problemRow } from "../../../tests/fixtures/problem.ts";
import type { Caller } from "../../accounts/user.ts";
import { assignmentUpdateInput, updateAssignment } from "../../courses/assignments.ts";
import { DEFAULT_CEILINGS } from "../ceilings.ts";
import { problemInput, problemUpdateInput } from "../input.ts";
import { createProblem, requireLiveProblem, softDeleteProblem, updateProblem } from "../store.ts";
import { addSynonym, createTag } from "../tags/curation.ts";
import { createTagInput, synonymInput } from "../tags/input.ts";
import { catalogueAt, DERIVED_MAX_BYTES } from "./catalogue.ts";
import { AfterArrival } from "./coalesce.ts";
import { listBank } from "./list.ts";
import { problemsRevision } from "../list-cache.ts";
import { bankQueryInput, type BankPage } from "./shape.ts";
import { recordProblemStatus } from "./status.ts";
import { listTagCounts } from "./tags.ts";

let db: Database;
let cleanup: () => void;
const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
const teacher: Caller = { id: "teach", siteRole: "user" };
const student: Caller = { id: "stud", siteRole: "user" };
const stranger: Caller = { id: "strange", siteRole: "user" };
const admin: Caller = { id: "boss", siteRole: "admin" };

const page = (viewer: Caller, q: Record<string, unknown> = {}, now = NOW) => listBank(db, viewer, bankQueryInput.parse(q), now);
const idsOf = (p: BankPage) => p.problems.map((x) => x.id);
const card = async (viewer: Caller, id: string, q: Record<string, unknown> = {}) => (await page(viewer, { limit: 100, ...q })).problems.find((p) => p.id === id);
const create = (owner: string, extra: Record<string, unknown>) => createProblem(db, owner, problemInput.parse(problemBody(extra)), DEFAULT_CEILINGS);

let subSeq = 0;
async function judge(userId: string, problemId: string, verdict: string): Promise<string> {
  const id = `sub${++subSeq}`;
  await db.run(sql`INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, created_at)
    VALUES (${id}, ${userId}, ${problemId}, 'python', 'print()', 'done', ${verdict}, ${NOW - DAY})`);
  await recordProblemStatus(db, { userId, problemId });
  return id;
}

let pub1 = "";
let pub2 = "";
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  for (const [id, first] of [["teach", "T"], ["stud", "S"], ["strange", "X"], ["boss", "B"]] as const) {
    await db.insert(users).values({ id, firstName: first, lastName: "Y", email: `${id}@x.test`, emailNormalized: `${id}@x.test` });
  }
  pub1 = (await create("teach", { title: "Lonely Island", description: "Count the islands.", difficulty: "easy", tags: ["graphs"] }))._id;
  pub2 = (await create("teach", { title: "Mountain Range", description: "Find the peaks.", difficulty: "medium" }))._id;
  await db.insert(courses).values({ id: "c1", title: "Algorithms", code: "ALG", codeNormalized: "alg", createdBy: "teach" });
  await db.insert(courseMembers).values([{ courseId: "c1", userId: "teach", role: "instructor" }, { courseId: "c1", userId: "stud", role: "student" }]);
  await db.insert(problems).values(problemRow("teach", { id: "cp", title: "Course Quarry", courseId: "c1", createdAt: new Date(NOW - 3 * DAY) }));
  await db.insert(assignments).values({ id: "as1", courseId: "c1", title: "Week 2", opensAt: new Date(NOW + 10 * DAY), feedback: "full" });
  await db.insert(assignmentProblems).values({ assignmentId: "as1", problemId: "cp", ordinal: 0 });
});
afterAll(() => cleanup());

describe("the shared part follows every write", () => {
  test("a verdict moves the counters, the acceptance order and the viewer's mark; a rejudge moves them back", async () => {
    await judge("strange", pub1, "WA"); // pub1: rate 0, above pub2's none
    // Read first, so the memory holds the counters before the verdict.
    expect(await card(student, pub2)).toMatchObject({ submitters: 0, solvers: 0, acceptanceRate: null, viewerStatus: null });
    expect(idsOf(await page(student, { sort: "acceptance", source: "public" }))[0]).not.toBe(pub2);
    const sub = await judge("stud", pub2, "AC");
    expect(await card(student, pub2)).toMatchObject({ submitters: 1, solvers: 1, acceptanceRate: 1, viewerStatus: "solved" });
    expect(idsOf(await page(student, { sort: "acceptance", source: "public" }))[0]).toBe(pub2);
    expect(idsOf(await page(student, { sort: "solvers", source: "public" }))[0]).toBe(pub2);
    expect(idsOf(await page(student, { status: "solved" }))).toEqual([pub2]);
    // Another viewer sees the counters, never the student's mark.
    expect(await card(stranger, pub2)).toMatchObject({ submitters: 1, solvers: 1, viewerStatus: null });
    expect((await page(stranger, { status: "solved" })).total).toBe(0);
    // A rejudge: AC becomes WA.
    await db.run(sql`UPDATE submissions SET verdict = 'WA' WHERE id = ${sub}`);
    await recordProblemStatus(db, { userId: "stud", problemId: pub2 });
    expect(await card(student, pub2)).toMatchObject({ submitters: 1, solvers: 0, acceptanceRate: 0, viewerStatus: "attempted" });
    expect((await page(student, { status: "solved" })).total).toBe(0);
    expect(idsOf(await page(student, { status: "attempted" }))).toEqual([pub2]);
  });

  test("a new problem, an edit of its title, tags and difficulty, and its deletion each show on the next read", async () => {
    const before = await page(stranger, { source: "public" });
    expect((await page(stranger, { q: "volcano" })).total).toBe(0);
    const made = await create("teach", { title: "Volcano Ash", description: "Spread of ash.", difficulty: "hard", tags: ["math"] });
    const after = await page(stranger, { source: "public" });
    expect(idsOf(after)[0]).toBe(made._id);
    expect(after.total).toBe(before.total + 1);
    expect(after.difficultyCounts.hard).toBe(before.difficultyCounts.hard + 1);
    expect(idsOf(await page(stranger, { q: "volcano" }))).toEqual([made._id]);
    expect(idsOf(await page(stranger, { tag: "math" }))).toEqual([made._id]);
    expect((await listTagCounts(db)).find((t) => t.slug === "math")!.problems).toBe(1);

    await updateProblem(db, await requireLiveProblem(db, made._id), problemUpdateInput.parse({ id: made._id, title: "Glacier Melt", tags: ["greedy"], difficulty: "easy" }), DEFAULT_CEILINGS);
    expect((await page(stranger, { q: "volcano" })).total).toBe(0);
    expect(idsOf(await page(stranger, { q: "glacier" }))).toEqual([made._id]);
    expect((await card(stranger, made._id))!).toMatchObject({ title: "Glacier Melt", difficulty: "easy", tags: [{ slug: "greedy", name: "Greedy" }] });
    expect((await page(stranger, { tag: "math" })).total).toBe(0);
    expect(idsOf(await page(stranger, { tag: "greedy" }))).toEqual([made._id]);
    expect(idsOf(await page(stranger, { sort: "title", source: "public" }))[0]).toBe(made._id);
    const edited = await page(stranger, { source: "public" });
    expect(edited.difficultyCounts.hard).toBe(before.difficultyCounts.hard);
    expect(edited.difficultyCounts.easy).toBe(before.difficultyCounts.easy + 1);
    expect((await listTagCounts(db)).find((t) => t.slug === "math")!.problems).toBe(0);

    await softDeleteProblem(db, made._id);
    expect(idsOf(await page(stranger, { source: "public" }))).toEqual(idsOf(before));
    expect((await page(stranger, { q: "glacier" })).total).toBe(0);
    expect((await page(stranger, { tag: "greedy" })).total).toBe(0);
  });

  test("a staged problem (an import still writing) shows once the import finishes", async () => {
    await db.insert(problems).values(problemRow("teach", { id: "imp", title: "Imported Orchard", stagedAt: new Date(NOW) }));
    expect((await page(stranger, { q: "orchard" })).total).toBe(0);
    await db.update(problems).set({ stagedAt: null }).where(eq(problems.id, "imp"));
    expect(idsOf(await page(stranger, { q: "orchard" }))).toEqual(["imp"]);
  });

  test("a new tag and a synonym show on the next read", async () => {
    await listTagCounts(db);
    expect((await page(stranger, { tag: "isle" })).total).toBe(0);
    await createTag(db, admin, createTagInput.parse({ slug: "islands", name: "Islands" }));
    expect((await listTagCounts(db)).find((t) => t.slug === "islands")).toEqual({ slug: "islands", name: "Islands", problems: 0 });
    await addSynonym(db, admin, synonymInput.parse({ slug: "graphs", synonym: "isle" }));
    expect(idsOf(await page(stranger, { tag: "isle" }))).toEqual([pub1]);
  });
});

describe("what is per viewer stays per viewer", () => {
  test("a course problem shows once its assignment opens, by the clock or by an edit of its date, and only to its course", async () => {
    expect(idsOf(await page(student, { source: "course" }))).toEqual([]);
    expect(idsOf(await page(teacher, { source: "course" }))).toEqual(["cp"]);
    expect(idsOf(await page(student, { source: "course" }, NOW + 11 * DAY))).toEqual(["cp"]);
    expect(idsOf(await page(student, { source: "course" }))).toEqual([]);
    await updateAssignment(db, teacher, assignmentUpdateInput.parse({ id: "as1", opensAt: new Date(NOW - DAY).toISOString() }), NOW);
    expect(idsOf(await page(student, { source: "course" }))).toEqual(["cp"]);
    expect(idsOf(await page(student, { q: "quarry" }))).toEqual(["cp"]);
    expect((await page(stranger, { q: "quarry" })).total).toBe(0);
    expect((await page(stranger)).problems.some((p) => p.id === "cp")).toBe(false);
    // Leaving the course takes it away on the next read.
    await db.delete(courseMembers).where(eq(courseMembers.userId, "stud"));
    expect((await page(student, { q: "quarry" })).total).toBe(0);
    await db.insert(courseMembers).values({ courseId: "c1", userId: "stud", role: "student" });
  });

  test("two viewers asking at once get their own sight and marks, never each other's", async () => {
    await judge("strange", pub1, "AC");
    for (let round = 0; round < 3; round++) {
      const asked = await Promise.all(Array.from({ length: 20 }, (_, i) => page(i % 2 ? student : stranger)));
      for (const [i, p] of asked.entries()) {
        const mine = i % 2 ? student : stranger;
        expect(p.problems.some((x) => x.id === "cp")).toBe(mine === student);
        expect(p.problems.find((x) => x.id === pub1)!.viewerStatus).toBe(mine === stranger ? "solved" : null);
        expect(p.problems.find((x) => x.id === pub2)!.viewerStatus).toBe(mine === student ? "attempted" : null);
        expect(p.problems.find((x) => x.id === pub1)!.owned).toBe(false);
      }
    }
  });

  test("spoiler-free mode is the viewer's own, read on every request", async () => {
    await db.update(users).set({ hideTags: true }).where(eq(users.id, "stud"));
    const [s, x] = await Promise.all([card(student, pub1), card(stranger, pub1)]);
    expect(s!.tags).toEqual([]);
    expect(x!.tags.map((t) => t.slug)).toContain("graphs");
    await db.update(users).set({ hideTags: false }).where(eq(users.id, "stud"));
    expect((await card(student, pub1))!.tags.map((t) => t.slug)).toContain("graphs");
  });
});

describe("the memory's mechanics", () => {
  test("a read never serves a caller a result begun before its call; a burst costs at most two reads", async () => {
    let value = 0;
    let reads = 0;
    const reader = new AfterArrival<null, number>((q) => q, async () => {
      reads++;
      const v = value;
      await Bun.sleep(5);
      return v;
    });
    const first = reader.run("k", null);
    await Bun.sleep(1); // the first read has begun and read `value`
    value = 1; // a write commits
    const burst = await Promise.all(Array.from({ length: 50 }, () => reader.run("k", null)));
    expect(await first).toBe(0);
    expect(burst.every((v) => v === 1)).toBe(true);
    expect(reads).toBe(2);
    expect(reader.size).toBe(0);
  });

  test("the derived values stay under their bound, and every search is cached per revision", async () => {
    const catalogue = await catalogueAt(db, await problemsRevision(db));
    for (let i = 0; i < 30; i++) await page(stranger, { q: `word${i}` });
    expect(catalogue.derived.calculatedSize).toBeLessThanOrEqual(DERIVED_MAX_BYTES);
    expect(catalogue.derived.has("fts|word7")).toBe(true);
    await create("teach", { title: "word7 arrives" });
    expect((await page(stranger, { q: "word7" })).total).toBe(1);
  });
});
