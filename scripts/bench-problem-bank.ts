/**
 * Problem bank benchmark (issue 35): on the bank fixture (tests/fixtures/bank-fixture.ts:
 * 10,000 problems with tags, 1,000,000 judged submissions from 50,000 users, in a
 * fresh libSQL file), each read of the bank against a bare SQL read of the same
 * rows, in the same run, through the same database client:
 * - the first page of the list (50 problems) with the viewer's marks;
 * - a tag filter (`graphs`);
 * - a two-word search (`shortest path`);
 * - the viewer's progress page (src/progress/memory.ts `progressOf`: solved counts, calendar, streaks, tags),
 *   against its three reads (status rows, the year's submissions, the solved problems' tags) as plain statements.
 * Each is run as bursts of 50 concurrent calls (Promise.all); every call's
 * latency is recorded; the kinds alternate burst by burst. SQLite answers one
 * statement at a time per connection, so a burst's p99 is about 50 × the
 * service time: the single-call median is printed beside it.
 * Also: the list page's answer size as JSON (50 and 100 problems), and what
 * `recordProblemStatus` adds to a verdict write (the judge's UPDATE of the
 * submission row, alone vs followed by the status row and counters).
 *
 * Replaces the "Problem bank" section of docs/benchmarks.md.
 * Usage: bun scripts/bench-problem-bank.ts [--bursts 30] [--no-write] [--small] [--note TEXT]
 * Goals: every p99 ≤ 30 ms and ≤ 2× its bare read; the page ≤ 50 KiB; recording a verdict ≤ 1 ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { registerContestGuards } from "../src/contests/guards.ts";
import { listBank } from "../src/problems/bank/list.ts";
import { ftsExpression, searchWords } from "../src/problems/bank/search.ts";
import { bankQueryInput } from "../src/problems/bank/shape.ts";
import { recordProblemStatus } from "../src/problems/bank/status.ts";
import { progressOf } from "../src/progress/memory.ts";
import { BANK_FIXTURE_FULL, buildBankFixture } from "../tests/fixtures/bank-fixture.ts";
import { median, ms, percentile, writeSection } from "./lib/bench-doc.ts";

const CONCURRENCY = 50;
const root = resolve(import.meta.dir, "..");
const { values: args } = parseArgs({
  options: {
    bursts: { type: "string", default: "30" },
    "no-write": { type: "boolean", default: false },
    small: { type: "boolean", default: false },
    /** A paragraph appended to the section (what the figures mean on this run's machine). */
    note: { type: "string" },
  },
});
const BURSTS = Number(args.bursts);

const dir = mkdtempSync(join(tmpdir(), "oj-bench-bank-"));
try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const { db } = await openDatabase(`file:${join(dir, "bench.db")}`);
  await migrateDatabase(db);
  registerContestGuards();
  const size = args.small ? { problems: 1000, submissions: 100_000, users: 5000 } : BANK_FIXTURE_FULL;
  const now = Date.now();
  const t0 = performance.now();
  const fx = await buildBankFixture(db, size, now);
  const buildMs = performance.now() - t0;
  console.log(`fixture: ${(buildMs / 1000).toFixed(1)} s`, Object.fromEntries(Object.entries(fx.timings).map(([k, v]) => [k, `${(v / 1000).toFixed(1)} s`])));
  const viewer = { id: fx.viewerId, siteRole: "user" as const };

  // The bare reads: the same rows of the answer written as plain statements over public problems (with
  // the same planner hints as the list: `+p.course_id`), run one after the other: the page's rows with
  // the counters and the viewer's marks, the page's tags, and the counts per difficulty.
  const barePage = (extra: ReturnType<typeof sql>) =>
    db.all<{ id: string }>(sql`SELECT p.id, p.title, p.difficulty, p.created_at, p.time_limit_ms, p.memory_limit_kib, p.interactive, p.scoring IS NOT NULL,
        p.user_id, p.course_id, s.submitters, s.solvers, u.status
      FROM problems p
      LEFT JOIN problem_stats s ON s.problem_id = p.id
      LEFT JOIN user_problem_status u ON u.user_id = ${viewer.id} AND u.problem_id = p.id
      WHERE p.deleted_at IS NULL AND p.staged_at IS NULL AND +p.course_id IS NULL ${extra}
      ORDER BY p.created_at DESC, p.id DESC LIMIT 51`);
  const bare = (extra: ReturnType<typeof sql>) => async () => {
    const rows = await barePage(extra);
    await db.all(sql`SELECT pt.problem_id, t.slug, t.name FROM problem_tags pt JOIN tags t ON t.id = pt.tag_id
      WHERE pt.problem_id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))}))`);
    await db.all(sql`SELECT p.difficulty, count(*) FROM problems p WHERE p.deleted_at IS NULL AND p.staged_at IS NULL AND p.course_id IS NULL ${extra} GROUP BY p.difficulty`);
  };
  const list = (q: Record<string, unknown>, who: { id: string; siteRole: "user" } = viewer) => () => listBank(db, who, bankQueryInput.parse(q), Date.now());
  const words = searchWords("shortest path");
  let nextViewer = 0;
  let nextProgress = 0;
  let nextBare = 0;
  /** The progress page's three reads as plain statements (what src/progress/progress.ts reads afresh). */
  const bareProgress = async (userId: string) => {
    const [rows] = await Promise.all([
      db.all<{ problem_id: string; status: string }>(sql`SELECT s.problem_id, p.title, p.difficulty, s.status, s.submission_count, s.last_submitted_at, s.solved_at
        FROM user_problem_status s JOIN problems p ON p.id = s.problem_id WHERE s.user_id = ${userId} AND p.deleted_at IS NULL`),
      db.all(sql`SELECT s.created_at, s.verdict, s.language, s.problem_id FROM submissions s
        WHERE s.user_id = ${userId} AND s.created_at >= ${Date.now() - 367 * 86_400_000} AND s.status = 'done' AND s.verdict IS NOT NULL AND s.verdict <> 'IE'`),
    ]);
    const solved = rows.filter((r) => r.status === "solved").map((r) => r.problem_id);
    await db.all(sql`SELECT t.slug, t.name, count(*) FROM problem_tags pt JOIN tags t ON t.id = pt.tag_id
      WHERE pt.problem_id IN (SELECT value FROM json_each(${JSON.stringify(solved)})) GROUP BY t.id`);
  };
  const cases = [
    { name: "first page with the viewer's marks", run: list({}), base: bare(sql``), baseName: "page, tags, counts" },
    { name: "the same for a viewer in no course (`bu2`)", run: list({}, { id: "bu2", siteRole: "user" }), base: bare(sql``), baseName: "page, tags, counts" },
    {
      // Nothing per viewer can be shared here: each call of a burst is another viewer (bu2…bu51, in no course).
      name: "the same, each of the 50 calls another viewer (`bu2`…`bu51`)",
      run: () => listBank(db, { id: `bu${2 + (nextViewer++ % CONCURRENCY)}`, siteRole: "user" }, bankQueryInput.parse({}), Date.now()),
      base: bare(sql``),
      baseName: "page, tags, counts",
    },
    {
      name: "tag filter (`graphs`)",
      run: list({ tag: "graphs" }),
      base: bare(sql`AND p.id IN (SELECT problem_id FROM problem_tags WHERE tag_id = (SELECT id FROM tags WHERE slug = 'graphs'))`),
      baseName: "the tag's page, tags, counts",
    },
    {
      name: "search of two words (`shortest path`)",
      run: list({ q: "shortest path" }),
      base: bare(sql`AND p.rowid IN (SELECT rowid FROM problems_fts WHERE problems_fts MATCH ${ftsExpression(words)})`),
      baseName: "the match's page, tags, counts",
    },
    {
      name: "the viewer's progress page (calendar, streaks, tags)",
      run: () => progressOf(db, viewer.id, { timeZone: "Europe/Berlin" }),
      base: () => bareProgress(viewer.id),
      baseName: "status rows, the year's submissions, solved tags",
    },
    {
      // Each call of a burst is another user's own page (bu2…bu51, about 20 submissions each): nothing is shared between them.
      name: "the same, each of the 50 calls another user (`bu2`…`bu51`)",
      run: () => progressOf(db, `bu${2 + (nextProgress++ % CONCURRENCY)}`, { timeZone: "Europe/Berlin" }),
      base: () => bareProgress(`bu${2 + (nextBare++ % CONCURRENCY)}`),
      baseName: "the same three reads, each of another user",
    },
  ];

  const results: string[] = [];
  const verdicts: { name: string; met: boolean }[] = [];
  for (const c of cases) {
    for (let i = 0; i < 20; i++) await c.run(); // warm-up
    for (let i = 0; i < 20; i++) await c.base();
    const single = { run: [] as number[], base: [] as number[] };
    for (let i = 0; i < 60; i++) {
      single.run.push(await timed(c.run));
      single.base.push(await timed(c.base));
    }
    const burst = { run: [] as number[], base: [] as number[] };
    for (let b = 0; b < BURSTS; b++) {
      burst.run.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, () => timed(c.run)))));
      burst.base.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, () => timed(c.base)))));
    }
    const p = (xs: number[], q: number) => percentile(xs, q);
    const ratio99 = p(burst.run, 99) / p(burst.base, 99);
    const met = p(burst.run, 99) <= 30 && ratio99 <= 2;
    verdicts.push({ name: c.name, met });
    results.push(
      `| ${c.name} | ${ms(median(single.run))} | ${ms(p(burst.run, 50))} (${ms(p(burst.run, 99))}) | ${c.baseName}: ${ms(median(single.base))}; ${ms(p(burst.base, 50))} (${ms(p(burst.base, 99))}) | ${(median(single.run) / median(single.base)).toFixed(1)}× single, ${ratio99.toFixed(1)}× at p99 |`,
    );
    console.log(results.at(-1));
  }

  const page50 = Buffer.byteLength(JSON.stringify(await list({})()));
  const page100 = Buffer.byteLength(JSON.stringify(await list({ limit: 100 })()));
  const searchPage = Buffer.byteLength(JSON.stringify(await list({ q: "shortest path" })()));

  // A verdict write: the judge's final UPDATE of the submission, alone vs followed by recordProblemStatus.
  const subs = await db.all<{ id: string; user_id: string; problem_id: string }>(sql`SELECT id, user_id, problem_id FROM submissions WHERE id LIKE 'bs%' ORDER BY id LIMIT 400`);
  const write = (id: string, verdict: string) => db.run(sql`UPDATE submissions SET status = 'done', verdict = ${verdict}, judged_at = ${Date.now()} WHERE id = ${id}`);
  const alone: number[] = [];
  const withStatus: number[] = [];
  const statusOnly: number[] = [];
  for (const [i, s] of subs.entries()) {
    const v = i % 2 ? "AC" : "WA";
    alone.push(await timed(() => write(s.id, v)));
    withStatus.push(
      await timed(async () => {
        await write(s.id, v);
        statusOnly.push(await timed(() => recordProblemStatus(db, { userId: s.user_id, problemId: s.problem_id })));
      }),
    );
  }
  const added = median(withStatus) - median(alone);
  const load = loadavg()[0]!.toFixed(2);
  const date = new Date().toISOString().slice(0, 10);
  const section = `## Problem bank (scripts/bench-problem-bank.ts)

Measured ${date} on this machine (${availableParallelism()} cores, load ${load} at the end), libSQL file, in one run.

### ${size.problems.toLocaleString("en")} problems with tags, ${size.submissions.toLocaleString("en")} judged submissions from ${size.users.toLocaleString("en")} users (fixture built in ${(buildMs / 1000).toFixed(1)} s)

| read (src/problems/bank/list.ts, viewer \`bu1\`: a student of 5 courses, 2 contests list course problems) | one call, median | ${CONCURRENCY} concurrent: p50 (p99) | bare SQL read of the same rows (same run): one call; p50 (p99) | ratio |
| --- | --- | --- | --- | --- |
${results.join("\n")}

The bare read is the answer's rows as three plain statements over the public problems: the page (counters and the viewer's marks, same order and limit), the page's tags, the counts per difficulty. SQLite answers one statement at a time on a connection, so 50 concurrent bare reads queue: their p99 is about 50 × one read. The list is served from memory (docs/decisions/082-bank-in-memory.md): every live problem's card, the tags, the counters, each sort's order and what a tag or search admits are kept per revision. Each viewer's sight of course and contest problems (src/problems/bank/visible.ts: 7 small statements for \`bu1\`, 6 for a viewer in no course) is kept too, per viewer, until a write the rules read bumps \`revisions('sight')\` (migration 0044's triggers) or the clock reaches the next assignment opening, contest start or end (docs/decisions/083-bank-sight-in-memory.md). So a call of a viewer seen before reads two statements after it began: the revisions with the spoiler-free setting, and their marks on the page; concurrent calls of one viewer share those, but only reads begun after each call. The third row's 50 viewers each read their own two, 50 × 2 statements. The progress page keeps the user's rows (status rows, the year's submissions, solved tags) under their \`progress_versions\` row (migration 0045's triggers on every status row write) and the revisions, and reads one statement per call (a burst of one user shares it; the last row's 50 users read one each); its bare read is the three statements it made before.

| what | figure | goal |
| --- | --- | --- |
| list page as JSON, 50 problems (default) | ${(page50 / 1024).toFixed(1)} KiB | ≤ 50 KiB |
| list page as JSON, 100 problems (the maximum) | ${(page100 / 1024).toFixed(1)} KiB | |
| search page as JSON, 50 problems with their match text | ${(searchPage / 1024).toFixed(1)} KiB | |
| a verdict write (the submission's UPDATE) alone, median | ${ms(median(alone))} | |
| the same followed by recordProblemStatus (status row + counters), median | ${ms(median(withStatus))} (added: ${ms(added)}; recordProblemStatus alone ${ms(median(statusOnly))}, p99 ${ms(percentile(statusOnly, 99))}) | added ≤ 1 ms |

Goals: ${verdicts.map((v) => `${v.name}: ${v.met ? "met" : "not met"}`).join("; ")}; page size ${page50 <= 50 * 1024 ? "met" : "not met"}; verdict write ${added <= 1 ? "met" : "not met"}.
${args["note"] ? `\n${args["note"]}\n` : ""}`;
  console.log(section);
  if (!args["no-write"]) writeSection(join(root, "docs", "benchmarks.md"), "## Problem bank", section);
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
