/**
 * Operations benchmark → the "Operations" section of docs/benchmarks.md.
 *
 * 1. Backup of a database with 100,000 submissions: time and size of
 *    `createBackup` (VACUUM INTO + secrets + manifest), against copying the
 *    database file (a plain file copy, which would not be consistent: the
 *    baseline for what the snapshot costs).
 * 2. Run latency while backups run: POST /api/compiler (Python, real
 *    sandbox, in-process app) p50/p99 idle, then with backups running back
 *    to back in the same process: the ratio.
 * 3. GET /metrics scrape time, against GET /api/health (one trivial query)
 *    in the same run.
 *
 * Usage: bun scripts/bench-ops.ts [--write]
 */
import { chmodSync, copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { newId } from "../db/ids.ts";
import { submissions, users } from "../db/schema.ts";
import { seedDatabase } from "../db/seed/index.ts";
import { createSandbox } from "../isolate/index.ts";
import { createApp } from "../src/app.ts";
import { createSession } from "../src/auth/session.ts";
import { loadConfig } from "../src/config.ts";
import { buildServices } from "../src/context.ts";
import { JudgeService } from "../src/judge/service.ts";
import { createLogger } from "../src/log.ts";
import { backupInChild, createBackup } from "../src/ops/backup.ts";
import { sandboxOptions } from "../src/sandbox.ts";
import { ms, percentile, writeSection } from "./lib/bench-doc.ts";

const root = join(import.meta.dir, "..");
const write = process.argv.includes("--write");
const dir = mkdtempSync(join(tmpdir(), "oj-bench-ops-"));
chmodSync(dir, 0o755);
const lines: string[] = [];
try {
  const env = {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(dir, "data", "app.db")}`,
    DATA_DIR: join(dir, "data"),
    SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
    SANDBOX: "auto",
    SANDBOX_ROOT: join(dir, "boxes"),
    ISOLATE_BOX_ID_START: "3930",
    ISOLATE_BOX_ID_COUNT: "8",
    RUN_RATE_PER_MINUTE: "100000",
  };
  const config = loadConfig(env);
  const { db, client } = await openDatabase(config.DATABASE_URL);
  await migrateDatabase(db);
  await seedDatabase(db);
  const userId = newId();
  await db.insert(users).values({ id: userId, firstName: "B", lastName: "O", email: "b@ops", emailNormalized: "b@ops" });
  const [problem] = await client.execute("SELECT id FROM problems LIMIT 1").then((r) => r.rows);
  const N = Number(process.env.BENCH_OPS_SUBMISSIONS ?? 100_000);
  const code = "a, b = map(int, input().split())\nprint(a + b)\n# ".padEnd(240, "x");
  for (let i = 0; i < N; i += 2000) {
    await db.insert(submissions).values(
      Array.from({ length: Math.min(2000, N - i) }, (_, k) => ({ userId, problemId: String(problem!.id), language: "py" as const, code: `${code}${i + k}`, status: "done" as const, verdict: "AC" as const, output: "3\n", expectedOutput: "3\n", testsPassed: 6, testsTotal: 6 })),
    );
  }
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  const dbBytes = statSync(join(dir, "data", "app.db")).size;

  console.error(`bench-ops: ${N} submissions written`);
  // 1. Backup vs a file copy.
  const backups: number[] = [];
  const copies: number[] = [];
  let backupBytes = 0;
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    copyFileSync(join(dir, "data", "app.db"), join(dir, `copy-${i}.db`));
    copies.push(performance.now() - t);
    t = performance.now();
    await createBackup(config, join(dir, `backup-${i}`), "bench");
    backups.push(performance.now() - t);
    backupBytes = statSync(join(dir, `backup-${i}`, "app.db")).size;
    rmSync(join(dir, `backup-${i}`), { recursive: true, force: true });
    rmSync(join(dir, `copy-${i}.db`), { force: true });
  }

  console.error("bench-ops: backups timed");
  // 2. Run latency idle and during backups.
  const sandbox = await createSandbox(sandboxOptions(config), () => {});
  if (!sandbox.backend) throw new Error(`no sandbox: ${sandbox.reason}`);
  const log = createLogger("silent");
  const judge = await JudgeService.create({ config, db, log, sandbox });
  const services = buildServices({ config, db, log, sessionKey: new TextEncoder().encode(config.SESSION_SECRET!), sandbox, judge });
  const app = createApp(services);
  const token = (await createSession(services, userId)).token;
  let seq = 0;
  const runOnce = async () => {
    const t = performance.now();
    const r = await app.request("/api/compiler", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ language: "py", code: `print(${++seq})`, input: "" }),
    });
    if (r.status !== 200) throw new Error(`run: ${r.status} ${await r.text()}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 5; i++) await runOnce();
  const idle: number[] = [];
  for (let i = 0; i < 60; i++) idle.push(await runOnce());
  console.error("bench-ops: idle runs timed");
  let backingUp = true;
  let during: number[] = [];
  let backupsDuring = 0;
  const loop = (async () => {
    while (backingUp) {
      // As the server takes them: in a child process (src/ops/backup.ts, backupInChild).
      await backupInChild(join(dir, `during-${backupsDuring}`), { DATABASE_URL: config.DATABASE_URL, DATA_DIR: config.DATA_DIR });
      rmSync(join(dir, `during-${backupsDuring++}`), { recursive: true, force: true });
    }
  })();
  for (let i = 0; i < 60; i++) during.push(await runOnce());
  backingUp = false;
  await loop;

  console.error(`bench-ops: runs during ${backupsDuring} backups timed`);
  // 3. /metrics against /api/health.
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
  const timeGet = async (path: string) => {
    const t = performance.now();
    await (await fetch(`http://127.0.0.1:${server.port}${path}`)).arrayBuffer();
    return performance.now() - t;
  };
  for (let i = 0; i < 10; i++) await Promise.all([timeGet("/metrics"), timeGet("/api/health")]);
  const scrapes: number[] = [];
  const health: number[] = [];
  for (let i = 0; i < 100; i++) {
    scrapes.push(await timeGet("/metrics"));
    health.push(await timeGet("/api/health"));
  }
  const metricsBytes = (await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text()).length;
  server.stop(true);
  await judge.stop();
  await sandbox.backend.close();
  client.close();

  const med = (x: number[]) => percentile(x, 50);
  lines.push(
    `### Backup: ${N.toLocaleString("en")} submissions (database ${(dbBytes / 1024 / 1024).toFixed(1)} MiB)`,
    "",
    "| what | median of 5 | baseline (same run) | ratio |",
    "| --- | --- | --- | --- |",
    `| \`createBackup\` (VACUUM INTO, secrets, manifest with SHA-256) | ${ms(med(backups))}, ${(backupBytes / 1024 / 1024).toFixed(1)} MiB | plain file copy of the database ${ms(med(copies))} (not consistent) | ${(med(backups) / med(copies)).toFixed(1)}× |`,
    "",
    `### Python Run while backups run (${sandbox.name}, POST /api/compiler in-process, 60 runs each)`,
    "",
    "| | p50 | p99 |",
    "| --- | --- | --- |",
    `| idle (baseline) | ${ms(percentile(idle, 50))} | ${ms(percentile(idle, 99))} |`,
    `| during ${backupsDuring} back-to-back backups | ${ms(percentile(during, 50))} | ${ms(percentile(during, 99))} |`,
    `| ratio | ${(percentile(during, 50) / percentile(idle, 50)).toFixed(2)}× | ${(percentile(during, 99) / percentile(idle, 99)).toFixed(2)}× |`,
    "",
    "### GET /metrics",
    "",
    `Scrape: median ${ms(med(scrapes))}, p99 ${ms(percentile(scrapes, 99))} for ${(metricsBytes / 1024).toFixed(0)} KiB of exposition (one database query for the queue gauges); GET /api/health in the same run: median ${ms(med(health))} (${(med(scrapes) / med(health)).toFixed(1)}×).`,
    "",
  );
  console.log(lines.join("\n"));
  if (write) {
    const load = (await Bun.file("/proc/loadavg").text()).split(" ")[0];
    writeSection(
      join(root, "docs", "benchmarks.md"),
      "## Operations",
      ["## Operations (scripts/bench-ops.ts)", "", `Measured ${new Date().toISOString().slice(0, 10)} on this machine (2 cores, load ${load} at the end), in one run.`, "", ...lines].join("\n") + "\n",
    );
    console.log("bench-ops: wrote docs/benchmarks.md");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
