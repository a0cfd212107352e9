/**
 * Contests benchmark → the "Contests" section of docs/benchmarks.md.
 *
 * One contest of 500 teams × 12 problems with 20,000 judged submissions
 * (5 hours, freeze in the last hour; the clock set in its last half hour,
 * during the freeze), on a libSQL file, through the real domain code and
 * the real HTTP app:
 * 1. Building a board (problems, teams, every submission read and scored,
 *    ranked) against reading the same submission rows bare (same run).
 * 2. One live update (a judged submission: its team's row recomputed in the
 *    cached boards, re-ranked, its judgement and runs appended to the change
 *    log, the listeners woken) against one primary-key read.
 * 3. 1,000 live scoreboard viewers (the page's SSE subscription, public
 *    view): after one judged submission, the time until each viewer has the
 *    new board, p50/p99, against 1,000 concurrent GET /api/health.
 * 4. The Contest API's event feed from the start (`stream=false`, the jury,
 *    about 140,000 events) against reading the same log rows bare.
 *
 * Targets: one live update ≤ 5 ms; 1,000 viewers updated ≤ 1 s at p99;
 * the event feed from the start ≤ 2 s. (The first run sent every viewer the
 * whole board, 1.1 MiB, at each change: 13.7 s at p99, the target missed
 * 14-fold; the stream now sends deltas, src/contests/board-delta.ts.)
 *
 * Usage: bun scripts/bench-contests.ts [--write]
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, isNotNull } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { newId } from "../db/ids.ts";
import { contestEvents, problems, submissions, testCases, users } from "../db/schema.ts";
import { seedDatabase } from "../db/seed/index.ts";
import { createApp } from "../src/app.ts";
import { createSession } from "../src/auth/session.ts";
import { loadConfig } from "../src/config.ts";
import { buildServices } from "../src/context.ts";
import { findContest } from "../src/contests/access.ts";
import { Boards } from "../src/contests/board.ts";
import { submissionObject, type CcsSubmissionRow } from "../src/contests/ccs/objects.ts";
import { createContest } from "../src/contests/contests.ts";
import { appendEvents, type ContestEvent } from "../src/contests/feed.ts";
import { register } from "../src/contests/registration.ts";
import { judgedEvents } from "../src/contests/runtime.ts";
import { createLogger } from "../src/log.ts";
import { RateLimiter } from "../src/lib/rate-limit.ts";
import type { SessionUser } from "../src/accounts/user.ts";
import { median, ms, percentile, timeIt, writeSection } from "./lib/bench-doc.ts";

const root = join(import.meta.dir, "..");
const write = process.argv.includes("--write");

const TEAMS = 500;
const PROBLEMS = 12;
const SUBMISSIONS = 20_000;
const VIEWERS = 1000;
const TESTS = 5;

const dir = mkdtempSync(join(tmpdir(), "oj-bench-contests-"));
chmodSync(dir, 0o755);
const lines: string[] = [];
try {
  const env = {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(dir, "bench.db")}`,
    DATA_DIR: join(dir, "data"),
    SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
  };
  const config = loadConfig(env);
  const { db, client } = await openDatabase(config.DATABASE_URL);
  await migrateDatabase(db);
  await seedDatabase(db);
  const startMs = Date.UTC(2026, 10, 20, 9);
  let nowMs = startMs - 3_600_000;
  const services = buildServices({
    config,
    db,
    log: createLogger("silent"),
    sessionKey: new TextEncoder().encode(config.SESSION_SECRET!),
    sandbox: { backend: null, name: "none", reason: "the benchmark judges nothing" },
    judge: null,
    now: () => nowMs,
  } as never);
  const deps = { db, contests: services.contests, now: () => nowMs, languages: () => ["cpp", "py", "java"] as const };

  // ---- Setup: the jury, 500 teams, 12 problems, 20,000 judged submissions and their change log ----
  const jury: SessionUser = { id: newId(), firstName: "J", lastName: "Ury", email: "jury@bench", siteRole: "admin", canCreateCourses: true };
  await db.insert(users).values({ id: jury.id, firstName: "J", lastName: "Ury", email: jury.email, emailNormalized: jury.email, siteRole: "admin" });
  const problemIds: string[] = [];
  for (let j = 0; j < PROBLEMS; j++) {
    const id = newId();
    problemIds.push(id);
    await db.insert(problems).values({ id, title: `Problem ${j + 1}`, description: "d", inputFormat: "i", outputFormat: "o", constraints: "c", sampleInput: "1\n", sampleOutput: "2\n", difficulty: "easy", userId: jury.id });
    await db.insert(testCases).values(Array.from({ length: TESTS }, (_, i) => ({ problemId: id, ordinal: i, input: `${i}\n`, expectedOutput: `${i + 1}\n` })));
  }
  const made = await createContest(deps, jury, {
    title: "Bench Regional",
    shortName: "bench26",
    startsAt: new Date(startMs),
    durationMinutes: 300,
    freezeMinutes: 60,
    scoring: "icpc",
    penaltyMinutes: 20,
    registration: "open",
    problems: problemIds.map((problemId, i) => ({ problemId, label: String.fromCharCode(65 + i) })),
  } as never);
  const people: SessionUser[] = Array.from({ length: TEAMS }, (_, i) => ({ id: newId(), firstName: `Team`, lastName: `${i}`, email: `t${i}@bench`, siteRole: "user", canCreateCourses: false }));
  for (let i = 0; i < TEAMS; i += 100) {
    await db.insert(users).values(people.slice(i, i + 100).map((p) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName, email: p.email, emailNormalized: p.email })));
  }
  const teamIds: string[] = [];
  for (const [i, p] of people.entries()) {
    const view = await register({ ...deps, codeLimiter: new RateLimiter({ limit: 10, windowMs: 600_000 }) }, p, { id: made.id, teamName: `Team ${i}`, organization: `University ${i % 40}` } as never);
    teamIds.push(view.team!.id);
  }
  nowMs = startMs + 4.5 * 3_600_000;
  const contest = (await findContest(db, made.id))!;
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const rows: (typeof submissions.$inferInsert & CcsSubmissionRow)[] = [];
  for (let k = 0; k < SUBMISSIONS; k++) {
    const createdAt = new Date(startMs + Math.floor(rand() * 4.4 * 3_600_000));
    const passed = rand() < 0.35 ? TESTS : Math.floor(rand() * TESTS);
    rows.push({
      id: newId(),
      userId: people[k % TEAMS]!.id,
      teamId: teamIds[k % TEAMS]!,
      contestId: contest.id,
      problemId: problemIds[Math.floor(rand() * PROBLEMS)]!,
      language: "cpp",
      code: "int main() {}",
      status: "done",
      verdict: passed === TESTS ? "AC" : rand() < 0.2 ? "TLE" : "WA",
      hiddenPassed: passed,
      hiddenTotal: TESTS,
      createdAt,
      claimedAt: new Date(createdAt.getTime() + 500),
      judgedAt: new Date(createdAt.getTime() + 2000),
      timeMs: 120,
    });
  }
  for (let i = 0; i < rows.length; i += 500) await db.insert(submissions).values(rows.slice(i, i + 500));
  let events: ContestEvent[] = [];
  for (const r of rows) {
    events.push({ type: "submissions", id: r.id, data: submissionObject({ ...r, status: "queued", verdict: null, claimedAt: null, judgedAt: null, timeMs: null, hiddenPassed: 0, hiddenTotal: 0 }, startMs), audience: "all", atMs: r.createdAt.getTime() });
    const runs = Array.from({ length: Math.min(TESTS, r.hiddenPassed + 1) }, (_, index) => ({ index: index + 1, verdict: index < r.hiddenPassed ? ("AC" as const) : r.verdict, timeMs: 100 }));
    events.push(...judgedEvents(contest, r, runs));
    if (events.length > 2000) {
      await appendEvents(db, null, contest.id, events);
      events = [];
    }
  }
  await appendEvents(db, null, contest.id, events);
  const logRows = (await client.execute({ sql: "SELECT count(*) AS n FROM contest_events WHERE contest_id = ?", args: [contest.id] })).rows[0]!.n as number;
  console.log(`bench-contests: ${TEAMS} teams, ${rows.length} submissions, ${logRows} events in the change log`);

  // ---- 1. Building a board ----
  const builds: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 10; i++) {
    builds.push((await timeIt(() => new Boards(db).board(contest, "jury", nowMs))).ms);
    bare.push(
      (await timeIt(() =>
        db
          .select({ teamId: submissions.teamId, problemId: submissions.problemId, createdAt: submissions.createdAt, status: submissions.status, verdict: submissions.verdict, hiddenPassed: submissions.hiddenPassed, hiddenTotal: submissions.hiddenTotal })
          .from(submissions)
          .where(and(eq(submissions.contestId, contest.id), isNotNull(submissions.teamId))),
      )).ms,
    );
  }
  const boardBytes = (await services.contests.boards.boardJson(contest, "public", nowMs)).json.length;
  await services.contests.boards.board(contest, "jury", nowMs);

  // ---- 2. One live update ----
  const updates: number[] = [];
  const pk: number[] = [];
  const judgeOne = async (k: number) => {
    const id = newId();
    const createdAt = new Date(nowMs - 60_000);
    await db.insert(submissions).values({ id, userId: people[k]!.id, teamId: teamIds[k]!, contestId: contest.id, problemId: problemIds[k % PROBLEMS]!, language: "cpp", code: "x", status: "done", verdict: "AC", hiddenPassed: TESTS, hiddenTotal: TESTS, createdAt, judgedAt: new Date(nowMs), timeMs: 90 });
    return { id, userId: people[k]!.id, problemId: problemIds[k % PROBLEMS]!, assignmentId: null, contestId: contest.id, teamId: teamIds[k]! };
  };
  for (let k = 0; k < 50; k++) {
    const s = await judgeOne(k);
    updates.push((await timeIt(() => services.contests.judged(s))).ms);
    pk.push((await timeIt(() => db.select().from(submissions).where(eq(submissions.id, s.id)))).ms);
  }

  // ---- 3. 1,000 live viewers over SSE ----
  const app = createApp(services);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, idleTimeout: 120 });
  const base = `http://127.0.0.1:${server.port}`;
  const health: number[] = [];
  await Promise.all(
    Array.from({ length: VIEWERS }, async () => {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      health.push(performance.now() - t);
    }),
  );
  const input = encodeURIComponent(JSON.stringify({ id: contest.id, version: -1 }));
  let target = -1;
  let triggeredAt = 0;
  const delays: number[] = [];
  let connected = 0;
  let allConnected!: () => void;
  const ready = new Promise<void>((r) => (allConnected = r));
  let allUpdated!: () => void;
  const updated = new Promise<void>((r) => (allUpdated = r));
  // Raw sockets, not fetch: fetch keeps at most 256 connections to one host, and these never end.
  const path = `/trpc/contests.scoreboardUpdates?input=${input}`;
  const sockets: { end(): void }[] = [];
  for (let v = 0; v < VIEWERS; v++) {
    let carry = "";
    let first = true;
    let awaitingEnd = false;
    let done = false;
    sockets.push(
      await Bun.connect({
        hostname: "127.0.0.1",
        port: server.port!,
        socket: {
          open(socket) {
            socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
          },
          data(_socket, chunk) {
            if (done) return;
            // A board is large and arrives in many chunks: a short carry matches a version split across
            // two; the new board counts as delivered at the blank line that ends its SSE message.
            const text = carry + chunk.toString();
            carry = text.slice(-32);
            let rest = text;
            if (!awaitingEnd) {
              const m = [...text.matchAll(/"version":(\d+)/g)].at(-1);
              if (!m) return;
              carry = "";
              if (first) {
                first = false;
                if (++connected === VIEWERS) allConnected();
                return;
              }
              if (target < 0 || Number(m[1]) < target) return;
              awaitingEnd = true;
              rest = text.slice(m.index);
            }
            if (rest.includes("\n\n")) {
              done = true;
              delays.push(performance.now() - triggeredAt);
              if (delays.length === VIEWERS) allUpdated();
            }
          },
        },
      }),
    );
  }
  await ready;
  const current = (await services.contests.boards.boardJson(contest, "public", nowMs)).version;
  target = current + 1;
  triggeredAt = performance.now();
  // A submission before the freeze, so that the public board changes too.
  const early = await judgeOne(60);
  await db.update(submissions).set({ createdAt: new Date(startMs + 3_600_000) }).where(eq(submissions.id, early.id));
  await services.contests.judged(early);
  await Promise.race([updated, Bun.sleep(30_000)]);
  const deltaBytes = JSON.stringify(await services.contests.boards.boardSince(contest, "public", nowMs, target - 1)).length;
  for (const socket of sockets) socket.end();
  server.stop(true);

  // ---- 4. The event feed from the start ----
  const juryToken = (await createSession(services, jury.id)).token;
  const server2 = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, idleTimeout: 120 });
  const feeds: number[] = [];
  const bareLog: number[] = [];
  let feedLines = 0;
  let feedBytes = 0;
  for (let i = 0; i < 5; i++) {
    const f = await timeIt(async () => (await fetch(`http://127.0.0.1:${server2.port}/api/ccs/contests/${contest.id}/event-feed?stream=false`, { headers: { authorization: `Bearer ${juryToken}` } })).text());
    feeds.push(f.ms);
    feedLines = f.value.split("\n").filter(Boolean).length;
    feedBytes = f.value.length;
    bareLog.push((await timeIt(() => db.select().from(contestEvents).where(eq(contestEvents.contestId, contest.id)))).ms);
  }
  server2.stop(true);
  client.close();

  lines.push(
    `### ${TEAMS} teams × ${PROBLEMS} problems, ${SUBMISSIONS.toLocaleString("en")} judged submissions, ${logRows.toLocaleString("en")} events in the change log`,
    "",
    "| what | median (p99) | baseline (same run) | ratio |",
    "| --- | --- | --- | --- |",
    `| build a board (problems, teams, every submission scored, ranked) | ${ms(median(builds))} | bare read of the submission rows ${ms(median(bare))} | ${(median(builds) / median(bare)).toFixed(1)}× |`,
    `| one live update (team row recomputed in the cached boards, judgement + runs logged, listeners woken) | ${ms(median(updates))} (${ms(percentile(updates, 99))}) | one primary-key read ${ms(median(pk))} | ${(median(updates) / median(pk)).toFixed(1)}× |`,
    `| ${VIEWERS} live viewers (SSE; the whole public board is ${(boardBytes / 1024).toFixed(0)} KiB, the change sent ${(deltaBytes / 1024).toFixed(0)} KiB) have the new board | ${ms(median(delays))} (${ms(percentile(delays, 99))}) | ${VIEWERS} concurrent GET /api/health ${ms(median(health))} (${ms(percentile(health, 99))}) | ${(percentile(delays, 99) / percentile(health, 99)).toFixed(1)}× at p99 |`,
    `| Contest API event feed from the start (jury, stream=false: ${feedLines.toLocaleString("en")} lines, ${(feedBytes / 1048576).toFixed(1)} MiB) | ${ms(median(feeds))} | bare read of the log rows ${ms(median(bareLog))} | ${(median(feeds) / median(bareLog)).toFixed(1)}× |`,
    "",
    `Viewers updated: ${delays.length} of ${VIEWERS}. Targets: live update ≤ 5 ms (${median(updates) <= 5 ? "met" : "MISSED"}), ${VIEWERS} viewers ≤ 1 s at p99 (${delays.length === VIEWERS && percentile(delays, 99) <= 1000 ? "met" : "MISSED"}), event feed from the start ≤ 2 s (${median(feeds) <= 2000 ? "met" : "MISSED"}). The viewers are read by the same process as the server (their parsing costs the same two cores).`,
    "",
  );
  console.log(lines.join("\n"));

  if (write) {
    const load = (await Bun.file("/proc/loadavg").text()).split(" ")[0];
    const section = ["## Contests (scripts/bench-contests.ts)", "", `Measured ${new Date().toISOString().slice(0, 10)} on this machine (2 cores, load ${load} at the end), libSQL file, in one run.`, "", ...lines].join("\n");
    writeSection(join(root, "docs", "benchmarks.md"), "## Contests", section + "\n");
    console.log("bench-contests: wrote docs/benchmarks.md");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
