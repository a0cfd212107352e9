/**
 * Courses benchmark → the "Courses" section of docs/benchmarks.md.
 *
 * 1. Gradebook size: 300 students × 10 problems with 20 judged submissions
 *    each (60,000 rows). Measures building the gradebook (readGradebook: the
 *    three queries and the shapes) against reading the same score rows bare
 *    (the baseline, same run), the bytes sent (JSON, and gzipped), a full
 *    recompute, and one live update (a judged submission: its cell
 *    recomputed, and the stream's one query) against one primary-key read.
 * 2. Deadline surge: 200 students submit one Python solution each to one
 *    assignment at once, judged by the real sandbox in-process (the machine's
 *    SANDBOX_POOL_SIZE boxes), while a TA's gradebook and a student's problem
 *    list are read over HTTP in a loop. Measures submissions judged per minute
 *    and the reads' p50/p99 during the surge against the same reads idle.
 *
 * Targets: gradebook under 150 ms to build, a live update under 5 ms of
 * server time, no read slower than 200 ms at p99 during the surge.
 *
 * Usage: bun scripts/bench-courses.ts [--write]
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { newId } from "../db/ids.ts";
import { assignmentProblems, assignments, assignmentScores, courseMembers, courses, problems, submissions, testCases, users } from "../db/schema.ts";
import { seedDatabase } from "../db/seed/index.ts";
import { createSandbox } from "../isolate/index.ts";
import { createApp } from "../src/app.ts";
import { createSession } from "../src/auth/session.ts";
import { loadConfig } from "../src/config.ts";
import { buildServices } from "../src/context.ts";
import { readGradebook } from "../src/courses/gradebook.ts";
import { recomputeAssignment, recomputeStudent, scoreRowsSince } from "../src/courses/scores.ts";
import { JudgeService } from "../src/judge/service.ts";
import { createLogger } from "../src/log.ts";
import { sandboxOptions } from "../src/sandbox.ts";
import { ms, percentile, timeIt, writeSection } from "./lib/bench-doc.ts";

const root = join(import.meta.dir, "..");
const write = process.argv.includes("--write");
const median = (xs: number[]) => percentile(xs, 50);

const dir = mkdtempSync(join(tmpdir(), "oj-bench-courses-"));
chmodSync(dir, 0o755);
const lines: string[] = [];
try {
  const { db, client } = await openDatabase(`file:${join(dir, "bench.db")}`);
  await migrateDatabase(db);
  await seedDatabase(db);

  // ---- 1. Gradebook size ----
  const STUDENTS = 300;
  const PROBLEMS = 10;
  /** Judged submissions per student and problem. */
  const PER_CELL = 20;
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
  const due = Date.UTC(2026, 9, 10, 12);
  const assignmentId = newId();
  await db.insert(assignments).values({ id: assignmentId, courseId, title: "A", opensAt: new Date(due - 7 * 86_400_000), dueAt: new Date(due), closesAt: new Date(due + 86_400_000), latePenaltyPercent: 20, latePenaltyUnit: "day", scoring: "partial", feedback: "tests" });
  await db.insert(assignmentProblems).values(problemIds.map((problemId, ordinal) => ({ assignmentId, problemId, ordinal, points: 10 })));
  const students = Array.from({ length: STUDENTS }, (_, i) => ({ id: newId(), firstName: `S${i}`, lastName: "B", email: `s${i}@bench`, emailNormalized: `s${i}@bench` }));
  for (let i = 0; i < students.length; i += 100) await db.insert(users).values(students.slice(i, i + 100));
  await db.insert(courseMembers).values(students.map((s) => ({ courseId, userId: s.id, role: "student" as const })));
  const rows = [];
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const s of students) {
    for (const problemId of problemIds) {
      for (let k = 0; k < PER_CELL; k++) {
        const passed = Math.floor(rand() * 6);
        rows.push({ userId: s.id, problemId, assignmentId, language: "py" as const, code: "x", status: "done" as const, verdict: passed === 5 ? ("AC" as const) : ("WA" as const), hiddenPassed: passed, hiddenTotal: 5, createdAt: new Date(due - 3_600_000 + rand() * 7_200_000) });
      }
    }
  }
  // 300 students × 10 problems × 20 submissions.
  for (let i = 0; i < rows.length; i += 1000) await db.insert(submissions).values(rows.slice(i, i + 1000));
  const full = await timeIt(() => recomputeAssignment(db, assignmentId));
  const staff = { id: owner, siteRole: "user" as const };
  const builds: number[] = [];
  const bare: number[] = [];
  let bytes = 0;
  let gz = 0;
  for (let i = 0; i < 25; i++) {
    const b = await timeIt(() => readGradebook(db, staff, assignmentId, due));
    builds.push(b.ms);
    const json = JSON.stringify(b.value);
    bytes = json.length;
    gz = gzipSync(json).length;
    bare.push((await timeIt(() => scoreRowsSince(db, assignmentId, -1))).ms);
  }
  const updates: number[] = [];
  const pk: number[] = [];
  for (let i = 0; i < 50; i++) {
    const s = students[i]!;
    const problemId = problemIds[i % PROBLEMS]!;
    await db.insert(submissions).values({ userId: s.id, problemId, assignmentId, language: "py", code: "y", status: "done", verdict: "AC", hiddenPassed: 5, hiddenTotal: 5, createdAt: new Date(due - 60_000) });
    const [v] = await db.select({ v: assignments.scoresVersion }).from(assignments).where(eq(assignments.id, assignmentId));
    updates.push((await timeIt(async () => {
      await recomputeStudent(db, assignmentId, s.id, problemId);
      await scoreRowsSince(db, assignmentId, v!.v);
    })).ms);
    pk.push((await timeIt(() => db.select().from(assignmentScores).where(and(eq(assignmentScores.assignmentId, assignmentId), eq(assignmentScores.userId, s.id), eq(assignmentScores.problemId, problemId))))).ms);
  }
  lines.push(
    `### Gradebook: ${STUDENTS} students × ${PROBLEMS} problems, ${PER_CELL} judged submissions per student and problem (${rows.length.toLocaleString("en")} rows)`,
    "",
    "| what | median | baseline (same run) | ratio |",
    "| --- | --- | --- | --- |",
    `| build the gradebook (readGradebook: students, problems, ${STUDENTS * PROBLEMS} cells) | ${ms(median(builds))} | bare read of the score rows ${ms(median(bare))} | ${(median(builds) / median(bare)).toFixed(1)}× |`,
    `| one live update (a judged submission's cell recomputed + the stream's query) | ${ms(median(updates))} | one primary-key read ${ms(median(pk))} | ${(median(updates) / median(pk)).toFixed(1)}× |`,
    `| full recompute (dates or penalty changed) | ${ms(full.ms)} | | |`,
    "",
    `Bytes for the gradebook: ${(bytes / 1024).toFixed(0)} KiB of JSON, sent as ${(gz / 1024).toFixed(0)} KiB gzipped (the server compresses this one answer). Targets: build < 150 ms (${median(builds) < 150 ? "met" : "MISSED"}), live update < 5 ms (${median(updates) < 5 ? "met" : "MISSED"}).`,
    "",
  );
  console.log(lines.join("\n"));
  client.close();

  // ---- 2. Deadline surge ----
  const env = {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(dir, "surge.db")}`,
    DATA_DIR: join(dir, "data"),
    SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
    SANDBOX: "auto",
    SANDBOX_ROOT: join(dir, "boxes"),
    ISOLATE_BOX_ID_START: "3900",
    ISOLATE_BOX_ID_COUNT: "20",
    SUBMIT_RATE_PER_MINUTE: "100",
  };
  const config = loadConfig(env);
  const opened = await openDatabase(config.DATABASE_URL);
  const sdb = opened.db;
  await migrateDatabase(sdb);
  await seedDatabase(sdb);
  const sandbox = await createSandbox(sandboxOptions(config), () => {});
  if (!sandbox.backend) throw new Error(`no sandbox: ${sandbox.reason}`);
  const log = createLogger("silent");
  const judge = await JudgeService.create({ config, db: sdb, log, sandbox, pollMs: 50 });
  const services = buildServices({ config, db: sdb, log, sessionKey: new TextEncoder().encode(config.SESSION_SECRET!), sandbox, judge });
  const app = createApp(services);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, idleTimeout: 60 });
  const base = `http://127.0.0.1:${server.port}`;
  const tid = newId();
  await sdb.insert(users).values({ id: tid, firstName: "T", lastName: "A", email: "ta@bench", emailNormalized: "ta@bench" });
  const cid = newId();
  await sdb.insert(courses).values({ id: cid, title: "Surge", code: "S1", codeNormalized: "S1", createdBy: tid });
  await sdb.insert(courseMembers).values({ courseId: cid, userId: tid, role: "ta" });
  const pid = newId();
  await sdb.insert(problems).values({ id: pid, title: "Add", description: "d", inputFormat: "i", outputFormat: "o", constraints: "c", sampleInput: "1 2\n", sampleOutput: "3\n", difficulty: "easy", userId: tid, courseId: cid });
  await sdb.insert(testCases).values(Array.from({ length: 5 }, (_, i) => ({ problemId: pid, ordinal: i, input: `${i} ${i * 3}\n`, expectedOutput: `${i * 4}\n` })));
  const aid = newId();
  const now = Date.now();
  await sdb.insert(assignments).values({ id: aid, courseId: cid, title: "Deadline", opensAt: new Date(now - 3_600_000), dueAt: new Date(now + 3_600_000), feedback: "tests" });
  await sdb.insert(assignmentProblems).values({ assignmentId: aid, problemId: pid, ordinal: 0, points: 100 });
  const SURGE = 200;
  const surgeStudents = Array.from({ length: SURGE }, (_, i) => ({ id: newId(), firstName: `U${i}`, lastName: "S", email: `u${i}@surge`, emailNormalized: `u${i}@surge` }));
  for (let i = 0; i < SURGE; i += 100) await sdb.insert(users).values(surgeStudents.slice(i, i + 100));
  await sdb.insert(courseMembers).values(surgeStudents.map((s) => ({ courseId: cid, userId: s.id, role: "student" as const })));
  const tokens = await Promise.all(surgeStudents.map(async (s) => (await createSession(services, s.id)).token));
  const taToken = (await createSession(services, tid)).token;
  await judge.start();
  // Warm the compile cache and the interpreter's file cache.
  await fetch(`${base}/api/compiler`, { method: "POST", headers: { authorization: `Bearer ${taToken}`, "content-type": "application/json" }, body: JSON.stringify({ language: "py", code: "print(1)", input: "" }) });

  const readLoop = async (until: () => boolean, out: { grades: number[]; list: number[] }) => {
    while (!until()) {
      let t = performance.now();
      await (await fetch(`${base}/api/assignments/${aid}/grades`, { headers: { authorization: `Bearer ${taToken}` } })).arrayBuffer();
      out.grades.push(performance.now() - t);
      t = performance.now();
      await (await fetch(`${base}/api/problems`, { headers: { authorization: `Bearer ${tokens[0]}` } })).arrayBuffer();
      out.list.push(performance.now() - t);
      await Bun.sleep(25);
    }
  };
  const idle = { grades: [] as number[], list: [] as number[] };
  const idleEnd = performance.now() + 5000;
  await readLoop(() => performance.now() > idleEnd, idle);

  const surge = { grades: [] as number[], list: [] as number[] };
  const started = performance.now();
  const code = "a, b = map(int, input().split())\nprint(a + b)\n";
  const ids = await Promise.all(
    tokens.map(async (token) => {
      const r = await fetch(`${base}/api/assignments/${aid}/submissions?wait=false`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ problemId: pid, code, language: "py" }) });
      return ((await r.json()) as { id: string }).id;
    }),
  );
  let remaining = ids.length;
  const poll = (async () => {
    while (remaining > 0) {
      const rows = await opened.client.execute({ sql: "SELECT count(*) AS n FROM submissions WHERE assignment_id = ? AND status != 'done'", args: [aid] });
      remaining = Number(rows.rows[0]!.n);
      await Bun.sleep(200);
    }
  })();
  await Promise.all([poll, readLoop(() => remaining === 0, surge)]);
  const elapsedMin = (performance.now() - started) / 60_000;
  const verdicts = await opened.client.execute({ sql: "SELECT verdict, count(*) AS n FROM submissions WHERE assignment_id = ? GROUP BY verdict", args: [aid] });
  const surgeLines = [
    `### Deadline surge: ${SURGE} students submit at once (Python, sample + 5 hidden tests; ${config.SANDBOX_POOL_SIZE} boxes, ${sandbox.name})`,
    "",
    `Judged ${SURGE} submissions in ${(elapsedMin * 60).toFixed(1)} s: **${(SURGE / elapsedMin).toFixed(0)} per minute** (verdicts: ${verdicts.rows.map((r) => `${r.verdict} ${r.n}`).join(", ")}).`,
    "",
    "| read (over HTTP, while judging) | idle p50 / p99 (baseline) | surge p50 / p99 | p99 ratio |",
    "| --- | --- | --- | --- |",
    `| TA's gradebook (GET /api/assignments/:id/grades) | ${ms(percentile(idle.grades, 50))} / ${ms(percentile(idle.grades, 99))} | ${ms(percentile(surge.grades, 50))} / ${ms(percentile(surge.grades, 99))} | ${(percentile(surge.grades, 99) / percentile(idle.grades, 99)).toFixed(1)}× |`,
    `| student's problem list (GET /api/problems) | ${ms(percentile(idle.list, 50))} / ${ms(percentile(idle.list, 99))} | ${ms(percentile(surge.list, 50))} / ${ms(percentile(surge.list, 99))} | ${(percentile(surge.list, 99) / percentile(idle.list, 99)).toFixed(1)}× |`,
    "",
    `Target: no read slower than 200 ms at p99 during the surge: ${Math.max(percentile(surge.grades, 99), percentile(surge.list, 99)) < 200 ? "met" : "MISSED"} (${surge.grades.length + surge.list.length} reads).`,
    "",
  ];
  console.log(surgeLines.join("\n"));
  lines.push(...surgeLines);
  await judge.stop();
  server.stop(true);
  await sandbox.backend.close();
  opened.client.close();

  if (write) {
    const load = (await Bun.file("/proc/loadavg").text()).split(" ")[0];
    const section = [
      "## Courses (scripts/bench-courses.ts)",
      "",
      `Measured ${new Date().toISOString().slice(0, 10)} on this machine (2 cores, load ${load} at the end), libSQL file, in one run.`,
      "",
      ...lines,
    ].join("\n");
    writeSection(join(root, "docs", "benchmarks.md"), "## Courses", section + "\n");
    console.log("bench-courses: wrote docs/benchmarks.md");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
