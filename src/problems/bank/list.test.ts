/** The problem bank's list over a real libSQL file: search, filters, sorts, keyset paging, privacy, counters, tags. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, assignments, contestProblems, contests, courseMembers, courses, problems, users } from "../../../db/schema.ts";
import { createTestDb } from "../../../tests/db.ts";
import { problemRow } from "../../../tests/fixtures/problem.ts";
import type { Caller } from "../../accounts/user.ts";
import { registerContestGuards } from "../../contests/guards.ts";
import { AppError } from "../../errors.ts";
import { listBank } from "./list.ts";
import { bankQueryInput, type BankPage } from "./shape.ts";
import { recordProblemStatus } from "./status.ts";
import { setAccountHideTags as setHideTags } from "../../accounts/hide-tags.ts";
import { listTagCounts } from "./tags.ts";

let db: Database;
let cleanup: () => void;
const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
const me: Caller = { id: "me", siteRole: "user" };
const outsider: Caller = { id: "out", siteRole: "user" };
const admin: Caller = { id: "adm", siteRole: "admin" };

/** Public problems, oldest first (created a day apart). */
const PUBLIC = [
  { id: "p1", title: "Graph Traversal Basics", description: "Visit every vertex with a breadth-first search.", difficulty: "medium" },
  { id: "p2", title: "Sum of Two", description: "Add two integers and print the sum.", difficulty: "easy" },
  { id: "p3", title: "Café Résumé", description: "Count the accented letters on the menu.", difficulty: "easy" },
  { id: "p4", title: 'Quoted "words" and stars*', description: "An operator NEAR(a b) in plain text, and -minus: colon.", difficulty: "hard" },
  { id: "p5", title: "apple orchard", description: "Trees in rows.", difficulty: "medium" },
  { id: "p6", title: "Binary Lifting", description: "Ancestors of a tree node.", difficulty: "hard" },
] as const;

async function submit(id: string, userId: string, problemId: string, verdict: string, extra: { contestId?: string; assignmentId?: string } = {}) {
  await db.run(sql`INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, created_at, contest_id, assignment_id)
    VALUES (${id}, ${userId}, ${problemId}, 'python', 'print()', 'done', ${verdict}, ${NOW - DAY}, ${extra.contestId ?? null}, ${extra.assignmentId ?? null})`);
  await recordProblemStatus(db, { userId, problemId });
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  registerContestGuards();
  for (const [id, first] of [["me", "Me"], ["other", "Other"], ["third", "Third"], ["teacher", "Teach"], ["out", "Out"], ["adm", "Admin"]]) {
    await db.insert(users).values({ id, firstName: first!, lastName: "X", email: `${id}@x.test`, emailNormalized: `${id}@x.test` });
  }
  let i = 0;
  for (const p of PUBLIC) await db.insert(problems).values(problemRow("other", { ...p, createdAt: new Date(NOW - 100 * DAY + i++ * DAY) }));
  // Same creation time as p6: the tie goes to the id.
  await db.insert(problems).values(problemRow("me", { id: "p7", title: "Mine", description: "My own problem.", difficulty: "easy", createdAt: new Date(NOW - 100 * DAY + 5 * DAY) }));
  // Never listed: deleted, staged (a package import still writing).
  await db.insert(problems).values(problemRow("other", { id: "gone", title: "Secretword deleted", deletedAt: new Date(NOW - DAY) }));
  await db.insert(problems).values(problemRow("other", { id: "staged", title: "Secretword staged", stagedAt: new Date(NOW - DAY), deletedAt: new Date(NOW - DAY) }));

  // A course: me a student; one assignment open, one not yet.
  await db.insert(courses).values({ id: "c", title: "Algorithms", code: "ALG", codeNormalized: "alg", createdBy: "teacher" });
  await db.insert(courseMembers).values([{ courseId: "c", userId: "teacher", role: "instructor" }, { courseId: "c", userId: "me", role: "student" }]);
  await db.insert(problems).values(problemRow("teacher", { id: "cOpen", title: "Hiddenword open", courseId: "c", createdAt: new Date(NOW - 10 * DAY) }));
  await db.insert(problems).values(problemRow("teacher", { id: "cLater", title: "Hiddenword later", courseId: "c", createdAt: new Date(NOW - 9 * DAY) }));
  await db.insert(assignments).values({ id: "a1", courseId: "c", title: "Week 1", opensAt: new Date(NOW - 20 * DAY), feedback: "full" });
  await db.insert(assignments).values({ id: "a2", courseId: "c", title: "Week 9", opensAt: new Date(NOW + 20 * DAY), feedback: "full" });
  await db.insert(assignmentProblems).values([{ assignmentId: "a1", problemId: "cOpen", ordinal: 0 }, { assignmentId: "a2", problemId: "cLater", ordinal: 0 }]);

  // Another course's problems, shown only through public contests: one over (readable by all), one not yet started.
  await db.insert(courses).values({ id: "d", title: "Other", code: "OTH", codeNormalized: "oth", createdBy: "teacher" });
  await db.insert(problems).values(problemRow("teacher", { id: "dOver", title: "Hiddenword past contest", courseId: "d", createdAt: new Date(NOW - 8 * DAY) }));
  await db.insert(problems).values(problemRow("teacher", { id: "dSoon", title: "Hiddenword future contest", courseId: "d", createdAt: new Date(NOW - 7 * DAY) }));
  const contest = { title: "Cup", durationMinutes: 60, scoring: "icpc" as const, registration: "open" as const, createdBy: "teacher" };
  await db.insert(contests).values({ ...contest, id: "k1", shortName: "past", startsAt: new Date(NOW - 5 * DAY) });
  await db.insert(contests).values({ ...contest, id: "k2", shortName: "soon", startsAt: new Date(NOW + 5 * DAY) });
  await db.insert(contestProblems).values([{ contestId: "k1", problemId: "dOver", label: "A", ordinal: 0 }, { contestId: "k2", problemId: "dSoon", label: "A", ordinal: 0 }]);

  // Tags.
  await db.run(sql`INSERT INTO problem_tags (problem_id, tag_id) SELECT 'p1', id FROM tags WHERE slug IN ('graphs', 'graph-traversal')`);
  await db.run(sql`INSERT INTO problem_tags (problem_id, tag_id) SELECT 'p6', id FROM tags WHERE slug IN ('trees', 'dynamic-programming')`);
  await db.run(sql`INSERT INTO problem_tags (problem_id, tag_id) SELECT 'cOpen', id FROM tags WHERE slug = 'dynamic-programming'`);

  // Verdicts: me solved p1, attempted p2 (and cOpen in the course); other solved p1 in a contest only, p2 publicly; third tried p2 and p6.
  await submit("s1", "me", "p1", "WA");
  await submit("s2", "me", "p1", "AC");
  await submit("s3", "me", "p2", "TLE");
  await submit("s4", "me", "cOpen", "WA", { assignmentId: "a1" });
  await submit("s5", "other", "p1", "AC", { contestId: "k1" });
  await submit("s6", "other", "p2", "AC");
  await submit("s7", "third", "p2", "WA");
  await submit("s8", "third", "p6", "AC");
  await submit("s9", "third", "p5", "IE");
});
afterAll(() => cleanup());

const page = (viewer: Caller, q: Record<string, unknown> = {}, now = NOW) => listBank(db, viewer, bankQueryInput.parse(q), now);
const idsOf = (p: BankPage) => p.problems.map((x) => x.id);

/** Every row over every page, asking `limit` at a time. */
async function walk(viewer: Caller, q: Record<string, unknown>, limit: number): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const p = await page(viewer, { ...q, limit, ...(cursor ? { cursor } : {}) });
    out.push(...idsOf(p));
    if (!p.nextCursor) return out;
    cursor = p.nextCursor;
  }
  throw new Error("paging never ended");
}

describe("search", () => {
  test("every word is a prefix, in any order, and the match is plain text with offsets", async () => {
    const p = await page(me, { q: "trav GRAPH" });
    expect(idsOf(p)).toEqual(["p1"]);
    const m = p.problems[0]!.match!;
    expect(m.field).toBe("title");
    expect(m.text).toBe("Graph Traversal Basics");
    expect(m.highlights.map(([a, b]) => m.text.slice(a, b))).toEqual(["Graph", "Traversal"]);
  });

  test("a statement match shows its snippet", async () => {
    const p = await page(me, { q: "search breadth" });
    expect(idsOf(p)).toEqual(["p1"]);
    const m = p.problems[0]!.match!;
    expect(m.field).toBe("statement");
    expect(m.text).toContain("breadth-first search");
    expect(m.text).not.toMatch(/<\/?(b|mark|em)>/);
    expect(m.highlights.map(([a, b]) => m.text.slice(a, b).toLowerCase()).sort()).toEqual(["breadth", "search"]);
  });

  test("accents fold both ways", async () => {
    expect(idsOf(await page(me, { q: "cafe resume" }))).toEqual(["p3"]);
    expect(idsOf(await page(me, { q: "résumé" }))).toEqual(["p3"]);
  });

  test("quotes, stars and FTS operators in the input are only words, never a syntax error", async () => {
    expect(idsOf(await page(me, { q: '"words" stars* NEAR(a' }))).toEqual(["p4"]);
    expect(idsOf(await page(me, { q: "-minus: colon" }))).toEqual(["p4"]);
    for (const q of ['"', "*", "NEAR(", 'AND OR NOT "unterminated', "^x", "a:b", "(((", "title:graph"]) await page(me, { q });
    // Nothing searchable left: no search.
    expect((await page(me, { q: '"*(' })).total).toBe((await page(me)).total);
  });

  test("deleted, staged and unseen problems are never found", async () => {
    expect((await page(me, { q: "secretword" })).total).toBe(0);
    expect(idsOf(await page(me, { q: "hiddenword" })).sort()).toEqual(["cOpen", "dOver"]);
    expect(idsOf(await page(outsider, { q: "hiddenword" }))).toEqual(["dOver"]);
  });
});

describe("filters", () => {
  test("difficulty, with the counts of the other filters", async () => {
    const p = await page(me, { difficulty: "hard" });
    expect(idsOf(p).sort()).toEqual(["p4", "p6"]);
    expect(p.total).toBe(2);
    expect(p.difficultyCounts).toEqual({ easy: 5, medium: 2, hard: 2 });
  });

  test("tag, by slug or synonym", async () => {
    expect(idsOf(await page(me, { tag: "graphs" }))).toEqual(["p1"]);
    expect(idsOf(await page(me, { tag: "dp" })).sort()).toEqual(["cOpen", "p6"]);
    expect(idsOf(await page(outsider, { tag: "dynamic-programming" }))).toEqual(["p6"]);
    expect((await page(me, { tag: "no-such-tag" })).total).toBe(0);
  });

  test("the viewer's status: solved, attempted, untried", async () => {
    expect(idsOf(await page(me, { status: "solved" }))).toEqual(["p1"]);
    expect(idsOf(await page(me, { status: "attempted" })).sort()).toEqual(["cOpen", "p2"]);
    const untried = idsOf(await page(me, { status: "untried" }));
    expect(untried).not.toContain("p1");
    expect(untried).not.toContain("p2");
    expect(untried).toContain("p5");
    // The viewer's own status counts every submission (a contest AC included).
    expect(idsOf(await page({ id: "other", siteRole: "user" }, { status: "solved" })).sort()).toEqual(["p1", "p2"]);
  });

  test("source: public, course (by the course's rules), contest (by the contest's rules)", async () => {
    expect(idsOf(await page(me, { source: "public" })).sort()).toEqual(["p1", "p2", "p3", "p4", "p5", "p6", "p7"]);
    expect(idsOf(await page(me, { source: "course" }))).toEqual(["cOpen"]);
    expect(idsOf(await page(me, { source: "contest" }))).toEqual(["dOver"]);
    expect((await page(outsider, { source: "course" })).total).toBe(0);
    // The teacher sees the unopened assignment's problem; the student once it opens.
    const teacher: Caller = { id: "teacher", siteRole: "user" };
    expect(idsOf(await page(teacher, { source: "course" })).sort()).toEqual(["cLater", "cOpen"]);
    // The contests' creator is their jury: both contests' problems, through them.
    expect(idsOf(await page(teacher, { source: "contest" })).sort()).toEqual(["dOver", "dSoon"]);
    expect(idsOf(await page(me, { source: "course" }, NOW + 21 * DAY)).sort()).toEqual(["cLater", "cOpen"]);
    // The contest's problem once it starts, for nobody but its participants and jury; for everyone once it is over.
    expect(idsOf(await page(me, { source: "contest" }, NOW + 5 * DAY + 1))).toEqual(["dOver"]);
    expect(idsOf(await page(me, { source: "contest" }, NOW + 6 * DAY)).sort()).toEqual(["dOver", "dSoon"]);
    expect((await page(admin)).total).toBe(11);
    const all = await page(me);
    expect(all.total).toBe(9);
    expect(all.problems.find((p) => p.id === "cOpen")!.source).toBe("course");
    expect(all.problems.find((p) => p.id === "dOver")!.source).toBe("contest");
  });
});

describe("marks and counters", () => {
  test("viewer status, owned, and public counters that skip contest, course and IE submissions", async () => {
    const all = await page(me);
    const by = new Map(all.problems.map((p) => [p.id, p]));
    expect(by.get("p1")).toMatchObject({ viewerStatus: "solved", solvers: 1, submitters: 1, acceptanceRate: 1, owned: false });
    expect(by.get("p2")).toMatchObject({ viewerStatus: "attempted", solvers: 1, submitters: 3 });
    expect(by.get("p2")!.acceptanceRate).toBeCloseTo(1 / 3);
    expect(by.get("p5")).toMatchObject({ viewerStatus: null, submitters: 0, acceptanceRate: null });
    expect(by.get("cOpen")).toMatchObject({ viewerStatus: "attempted", submitters: 0, solvers: 0 });
    expect(by.get("p7")!.owned).toBe(true);
    expect(by.get("p1")!.tags.map((t) => t.slug).sort()).toEqual(["graph-traversal", "graphs"]);
    expect(JSON.stringify(all)).not.toContain("Visit every vertex");
  });

  test("spoiler-free mode hides every tag and is remembered", async () => {
    await setHideTags(db, "me", true);
    const p = await page(me, { tag: "graphs" });
    expect(p.hideTags).toBe(true);
    expect(idsOf(p)).toEqual(["p1"]);
    expect(p.problems[0]!.tags).toEqual([]);
    await setHideTags(db, "me", false);
    expect((await page(me, { tag: "graphs" })).problems[0]!.tags.length).toBe(2);
  });

  test("tag counts count public live problems only", async () => {
    const counts = new Map((await listTagCounts(db)).map((t) => [t.slug, t.problems]));
    expect(counts.get("dynamic-programming")).toBe(1);
    expect(counts.get("graphs")).toBe(1);
    expect(counts.get("geometry")).toBe(0);
  });
});

describe("sorts and paging", () => {
  test("newest first, ties by id", async () => {
    expect(idsOf(await page(me, { source: "public" }))).toEqual(["p7", "p6", "p5", "p4", "p3", "p2", "p1"]);
  });

  test("title A→Z ignoring case", async () => {
    expect(idsOf(await page(me, { source: "public", sort: "title" }))).toEqual(["p5", "p6", "p3", "p1", "p7", "p4", "p2"]);
  });

  test("acceptance (no submitters last, ties newest) and solvers", async () => {
    expect(idsOf(await page(me, { source: "public", sort: "acceptance" }))).toEqual(["p6", "p1", "p2", "p7", "p5", "p4", "p3"]);
    expect(idsOf(await page(me, { source: "public", sort: "solvers" }))).toEqual(["p6", "p2", "p1", "p7", "p5", "p4", "p3"]);
  });

  test("every sort pages with no row repeated or missing", async () => {
    for (const sort of ["newest", "title", "acceptance", "solvers"]) {
      const whole = idsOf(await page(admin, { sort, limit: 100 }));
      expect(whole.length).toBe(11);
      for (const limit of [1, 2, 3, 5]) expect(await walk(admin, { sort }, limit)).toEqual(whole);
    }
    expect(await walk(me, { q: "hiddenword" }, 1)).toEqual(["dOver", "cOpen"]);
  });

  test("a cursor made for another sort or filter, or none at all, is a 400 on cursor", async () => {
    const first = await page(me, { limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    for (const q of [
      { sort: "title", cursor: first.nextCursor },
      { difficulty: "easy", cursor: first.nextCursor },
      { q: "x", cursor: first.nextCursor },
      { cursor: "not-a-cursor" },
      { cursor: Buffer.from("[1,2,3]").toString("base64url") },
    ]) {
      const err = await page(me, q).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).field).toBe("cursor");
    }
    // The same filters with another page size keep the cursor.
    expect((await page(me, { limit: 3, cursor: first.nextCursor })).problems.length).toBe(3);
  });
});

test("a problem deleted between pages simply leaves the next one", async () => {
  const first = await page(me, { source: "public", limit: 2 });
  await db.update(problems).set({ deletedAt: new Date(NOW) }).where(eq(problems.id, "p5"));
  const next = await page(me, { source: "public", limit: 10, cursor: first.nextCursor! });
  expect(idsOf(next)).toEqual(["p4", "p3", "p2", "p1"]);
  await db.update(problems).set({ deletedAt: null }).where(eq(problems.id, "p5"));
});
