/** The bank fixture (tests/fixtures/bank-fixture.ts) at a small size: its status rows and counters are what recordProblemStatus makes. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { createTestDb } from "../../../tests/db.ts";
import { buildBankFixture, type BankFixture } from "../../../tests/fixtures/bank-fixture.ts";
import { registerContestGuards } from "../../contests/guards.ts";
import { listBank } from "./list.ts";
import { bankQueryInput } from "./shape.ts";
import { recordProblemStatus } from "./status.ts";

let db: Database;
let cleanup: () => void;
let fx: BankFixture;
const NOW = Date.UTC(2026, 10, 1);

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  registerContestGuards();
  fx = await buildBankFixture(db, { problems: 400, submissions: 20_000, users: 1_000 }, NOW);
});
afterAll(() => cleanup());

const snapshot = async () => ({
  stats: await db.all(sql`SELECT * FROM problem_stats ORDER BY problem_id`),
  rows: await db.all(sql`SELECT * FROM user_problem_status ORDER BY user_id, problem_id`),
});

test("the fixture's rows and counters are recordProblemStatus's: re-recording pairs changes nothing", async () => {
  const before = await snapshot();
  expect(before.rows.length).toBeGreaterThan(1000);
  const pairs = await db.all<{ user_id: string; problem_id: string }>(sql`SELECT DISTINCT user_id, problem_id FROM submissions ORDER BY id LIMIT 60`);
  const course = await db.all<{ user_id: string; problem_id: string }>(sql`SELECT DISTINCT user_id, problem_id FROM submissions WHERE assignment_id IS NOT NULL LIMIT 10`);
  expect(course.length).toBeGreaterThan(0);
  for (const p of [...pairs, ...course]) await recordProblemStatus(db, { userId: p.user_id, problemId: p.problem_id });
  expect(await snapshot()).toEqual(before);
});

test("course submissions never reach the public counters; tags and search work on it", async () => {
  const [row] = await db.all<{ n: number }>(sql`SELECT sum(submitters) AS n FROM problem_stats WHERE problem_id IN (SELECT id FROM problems WHERE course_id IS NOT NULL)`);
  expect(row!.n).toBe(0);
  const viewer = { id: fx.viewerId, siteRole: "user" as const };
  const found = await listBank(db, viewer, bankQueryInput.parse({ q: "shortest path" }), NOW);
  expect(found.total).toBeGreaterThan(0);
  for (const p of found.problems) expect(p.match!.highlights.length).toBeGreaterThan(0);
  const tagged = await listBank(db, viewer, bankQueryInput.parse({ tag: "graphs" }), NOW);
  expect(tagged.total).toBeGreaterThan(0);
  for (const p of tagged.problems) expect(p.tags.map((t) => t.slug)).toContain("graphs");
  const mine = await listBank(db, { id: fx.viewerId, siteRole: "user" }, bankQueryInput.parse({ source: "course" }), NOW);
  // The viewer studies every course; only even courses' assignments have opened (2 of 5, 20 problems each).
  expect(mine.total).toBe(40);
  const contest = await listBank(db, { id: fx.viewerId, siteRole: "user" }, bankQueryInput.parse({ source: "contest" }), NOW);
  // The finished contest's five problems of course 1 (not opened there); not those of the contest to come.
  expect(contest.total).toBe(5);
});
