/**
 * Who-is-stuck analytics benchmark → the "Analytics" section of docs/benchmarks.md.
 *
 * A real libSQL file with one assignment of 2,000 students × 5 problems × 20
 * judged submissions each (200,000 rows; each failed one keeps its first
 * failing hidden test, as the judge does). Measures computing the analytics
 * (src/courses/analytics: the permission check and every aggregate, stuck list
 * included) against a bare read of the same rows (the columns the analytics
 * use, brought into JavaScript), medians of 15 runs each, interleaved.
 *
 * Target: ≤ 100 ms per answer.
 *
 * Usage: bun scripts/bench-analytics.ts [--write]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { newId } from "../db/ids.ts";
import { assignmentProblems, assignments, courseMembers, courses, problems, submissionFailures, submissions, users } from "../db/schema.ts";
import { readAnalytics, refreshAnalyticsAfterJudged } from "../src/courses/analytics/analytics.ts";
import { ms, percentile, timeIt, writeSection } from "./lib/bench-doc.ts";

const root = join(import.meta.dir, "..");
const write = process.argv.includes("--write");
const median = (xs: number[]) => percentile(xs, 50);
const STUDENTS = 2000;
const PROBLEMS = 5;
const PER_CELL = 20;
const RUNS = 15;

const dir = process.env.BENCH_KEEP_DIR ?? mkdtempSync(join(tmpdir(), "oj-bench-analytics-"));
const loadBefore = loadavg();
try {
  const { db, client } = await openDatabase(`file:${join(dir, "bench.db")}`);
  await migrateDatabase(db);
  const owner = newId();
  await db.insert(users).values({ id: owner, firstName: "O", lastName: "W", email: "o@bench", emailNormalized: "o@bench" });
  const courseId = newId();
  await db.insert(courses).values({ id: courseId, title: "Bench", code: "B1", codeNormalized: "B1", createdBy: owner });
  await db.insert(courseMembers).values({ courseId, userId: owner, role: "owner" });
  const problemIds: string[] = [];
  for (let j = 0; j < PROBLEMS; j++) {
    const id = newId();
    problemIds.push(id);
    await db.insert(problems).values({ id, title: `P${j}`, description: "d", inputFormat: "i", outputFormat: "o", constraints: "c", sampleInput: "1\n", sampleOutput: "2\n", difficulty: "easy", userId: owner, courseId });
  }
  const now = Date.UTC(2026, 10, 27, 15);
  const assignmentId = newId();
  await db.insert(assignments).values({ id: assignmentId, courseId, title: "Lab", opensAt: new Date(now - 3 * 3_600_000), dueAt: new Date(now + 3_600_000), feedback: "tests" });
  await db.insert(assignmentProblems).values(problemIds.map((problemId, ordinal) => ({ assignmentId, problemId, ordinal, points: 10 })));
  const students = Array.from({ length: STUDENTS }, (_, i) => ({ id: newId(), firstName: `S${i}`, lastName: "B", email: `s${i}@bench`, emailNormalized: `s${i}@bench` }));
  for (let i = 0; i < students.length; i += 500) await db.insert(users).values(students.slice(i, i + 500));
  for (let i = 0; i < students.length; i += 500) await db.insert(courseMembers).values(students.slice(i, i + 500).map((s) => ({ courseId, userId: s.id, role: "student" as const })));
  let seed = 11;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const verdicts = ["WA", "WA", "WA", "TLE", "RE", "CE", "AC"] as const;
  const subs = [];
  const fails = [];
  for (const s of students) {
    for (const problemId of problemIds) {
      for (let k = 0; k < PER_CELL; k++) {
        const id = newId();
        const verdict = verdicts[Math.floor(rand() * verdicts.length)]!;
        subs.push({ id, userId: s.id, problemId, assignmentId, language: "py" as const, code: "x", status: "done" as const, verdict, hiddenTotal: 8, createdAt: new Date(now - 3 * 3_600_000 + rand() * 3 * 3_600_000) });
        if (verdict !== "AC" && verdict !== "CE") fails.push({ submissionId: id, testIndex: 1 + Math.floor(rand() * rand() * 8), input: "", expectedOutput: "", actualOutput: "", stderr: "" });
      }
    }
  }
  const built = performance.now();
  for (let i = 0; i < subs.length; i += 500) await db.insert(submissions).values(subs.slice(i, i + 500));
  for (let i = 0; i < fails.length; i += 1000) await db.insert(submissionFailures).values(fails.slice(i, i + 1000));
  await client.execute("ANALYZE");
  const buildMs = performance.now() - built;
  const staff = { id: owner, siteRole: "user" as const };
  const options = { window: "hour" as const, minFailed: 3 };
  const analytics: number[] = [];
  const bare: number[] = [];
  let stuck = 0;
  let bytes = 0;
  const firstRead = await timeIt(() => readAnalytics(db, staff, assignmentId, options, now)); // builds the summary rows once
  for (let i = 0; i < RUNS; i++) {
    const a = await timeIt(() => readAnalytics(db, staff, assignmentId, options, now));
    analytics.push(a.ms);
    stuck = a.value.stuck.students.length;
    bytes = JSON.stringify(a.value).length;
    const b = await timeIt(() =>
      db.all(sql`SELECT problem_id, user_id, created_at, verdict, status, id FROM submissions WHERE assignment_id = ${assignmentId}`),
    );
    bare.push(b.ms);
  }
  // What each verdict now pays on top of the gradebook's recompute: its author's summary row for the problem.
  const refresh: number[] = [];
  for (let i = 0; i < 50; i++) {
    const s = students[(i * 37) % STUDENTS]!;
    refresh.push((await timeIt(() => refreshAnalyticsAfterJudged(db, { assignmentId, userId: s.id, problemId: problemIds[i % PROBLEMS]! }))).ms);
  }
  const a = median(analytics);
  const b = median(bare);
  const loadAfter = loadavg();
  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(", ");
  const section = [
    "## Analytics: who is stuck (scripts/bench-analytics.ts)",
    "",
    `A real libSQL file: one assignment of ${STUDENTS.toLocaleString("en")} students × ${PROBLEMS} problems × ${PER_CELL} judged submissions each (${subs.length.toLocaleString("en")} rows, ${fails.length.toLocaleString("en")} kept first failures; built in ${(buildMs / 1000).toFixed(1)} s). The analytics (permission check, per-problem states, attempts before AC, verdict mix, medians, failed tests, the last hour's stuck list: ${stuck} students) against a bare read of the same rows into JavaScript (the six columns the analytics use); medians of ${RUNS} interleaved runs.`,
    "",
    "| what | median | p90 | goal | |",
    "| --- | ---: | ---: | ---: | --- |",
    `| analytics of the assignment (${(bytes / 1024).toFixed(1)} KiB of JSON) | ${ms(a)} | ${ms(percentile(analytics, 90))} | ≤ 100 ms | ${a <= 100 ? "met" : "not met"} |`,
    `| bare read of the same ${subs.length.toLocaleString("en")} rows (baseline) | ${ms(b)} | ${ms(percentile(bare, 90))} | | |`,
    `| ratio analytics / bare read | **${(a / b).toFixed(2)}×** | | | |`,
    `| per verdict: rewriting its author's summary row for the problem (20 submissions) | ${ms(median(refresh))} | ${ms(percentile(refresh, 90))} | | |`,
    `| first read of an assignment without summary rows (builds them from the 200,000 submissions, once) | ${ms(firstRead.ms)} | | | |`,
    "",
    "What the figures say: a verdict rewrites its author's one summary row per problem (`assignment_analytics_cells`, `assignment_analytics_tests`, migration 0042), so a read aggregates 10,000 summary rows (one per student and problem) in SQL, reads each problem's median time to solve at its rank along an index, and counts the stuck window's failures only for the cells that may qualify, from the covering index on submissions; the bare read must hand all 200,000 submission rows to JavaScript (decision 078). The first read of an assignment judged before migration 0042 builds its summary rows once (timed below the table when measured).",
    "",
    `Load average at start ${fmtLoad(loadBefore)}, at the end ${fmtLoad(loadAfter)}; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Bun ${Bun.version}. Reproduce: \`bun scripts/bench-analytics.ts --write\`.`,
    "",
  ].join("\n");
  console.log(section);
  if (write) writeSection(join(root, "docs", "benchmarks.md"), "## Analytics: who is stuck", section);
  client.close();
} finally {
  if (!process.env.BENCH_KEEP_DIR) rmSync(dir, { recursive: true, force: true });
}
