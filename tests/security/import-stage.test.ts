/**
 * Review N2, what decision 048 left: the largest import no longer holds the
 * database's write lock for its whole write (it is staged: src/problems/staged.ts),
 * and its process has a memory cap (IMPORT_MEMORY_MAX_MIB, src/packages/import-memory.ts).
 * Real server processes (`bun src/server.ts`), real libSQL files:
 * - another user's writes during the largest import each finish well under
 *   busy_timeout (5 s): before, they waited for the whole 512 MiB insert;
 * - an import process killed mid-write leaves no problem, not even a staged
 *   row; one whose server was killed is removed at the server's next start;
 * - an import past IMPORT_MEMORY_MAX_MIB answers 413 naming the setting,
 *   stores nothing, and the server keeps serving (a small import still works).
 * Prints the numbers decision 048's addendum quotes.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createClient, type Client } from "@libsql/client";
import { account, importChild, importZip, largestPackage, MIB, peakMib, percentile, pollHealthUntil, startImportServer, type ImportServer } from "./import-server.ts";
import { modernPackage, zipOf } from "../packages/fixtures.ts";

let server: ImportServer;
let db: Client;
let owner: string;
let other: string;

beforeAll(async () => {
  // Boxes 1200-1203 (never used: no judging in process). Problem writes are raised so the writer below is never rate-limited.
  server = await startImportServer(3601, 1200, { RATE_LIMIT_PROBLEM_WRITES_PER_USER: "10000/1h" });
  db = createClient({ url: `file:${server.dbFile}` });
  owner = await account(server.base, "owner@example.com");
  other = await account(server.base, "other@example.com");
}, 90_000);

afterAll(async () => {
  db?.close();
  await server?.stop();
});

const count = async (q: string, args: (string | number)[] = []) => Number((await db.execute({ sql: q, args })).rows[0]!.n);
const problemBody = (title: string) => ({
  title,
  description: "Print the number plus one.",
  inputFormat: "n",
  outputFormat: "n + 1",
  constraints: "0 <= n <= 9",
  sampleInput: "1\n",
  sampleOutput: "2\n",
  difficulty: "easy",
  timeLimitMs: 1000,
  memoryLimitKib: 262144,
  hiddenTestCases: [{ input: "2\n", expectedOutput: "3\n" }],
});

/** While `until` runs, another user creates a problem every `everyMs`. @returns each write's status and latency, ms. */
async function writeUntil(until: Promise<unknown>, everyMs: number): Promise<{ status: number; ms: number }[]> {
  const writes: Promise<{ status: number; ms: number }>[] = [];
  let done = false;
  void until.finally(() => (done = true));
  for (let i = 0; !done; i++) {
    const t0 = performance.now();
    writes.push(
      fetch(`${server.base}/api/problems`, { method: "POST", headers: { authorization: `Bearer ${other}`, "content-type": "application/json" }, body: JSON.stringify(problemBody(`Other ${i}`)) }).then(async (r) => {
        await r.arrayBuffer();
        return { status: r.status, ms: performance.now() - t0 };
      }),
    );
    await Bun.sleep(everyMs);
  }
  return Promise.all(writes);
}

/*
 * Health during these writes: a write of the server that finds the import inside one test's insert waits for it in
 * SQLite's busy handler, which sleeps on the server's thread (the libSQL client is synchronous), so health answers
 * within about one test's insert (~0.5 s for 64 MiB here), not within 100 ms; without other writes (import-load.test.ts)
 * it stays under 100 ms. Before the import was staged, the wait was the whole package's insert (~5 s, or SQLITE_BUSY).
 * The bound is half of that, not a speed goal (speed is the benchmark's, scripts/bench-packages.ts): CI's three lanes on
 * two cores once took the health p99 to 1.6 s with the import staged.
 */
test("another user's writes during the largest import each finish within 2.5 s (busy_timeout is 5 s); health p99 < 2.5 s", async () => {
  const zip = largestPackage();
  let childPeak = 0;
  let childSeen = false;
  const imported = importZip(server.base, owner, zip);
  const watch = (async () => {
    while (!(await Promise.race([imported.then(() => true), Bun.sleep(50).then(() => false)]))) {
      const c = importChild(server.proc.pid);
      if (c) {
        childSeen = true;
        childPeak = Math.max(childPeak, peakMib(c));
      }
    }
  })();
  const [health, writes] = await Promise.all([pollHealthUntil(server.base, imported, 10), writeUntil(imported, 200)]);
  await watch;
  const answer = await imported;
  expect(answer.status, answer.text.slice(0, 500)).toBe(201);
  const ms = writes.map((w) => w.ms);
  console.log(
    `during the largest import: health ${health.length} requests p50 ${percentile(health, 50).toFixed(1)} ms p99 ${percentile(health, 99).toFixed(1)} ms max ${Math.max(...health).toFixed(1)} ms; ` +
      `${writes.length} problem writes by another user p50 ${percentile(ms, 50).toFixed(0)} ms p99 ${percentile(ms, 99).toFixed(0)} ms max ${Math.max(...ms).toFixed(0)} ms; ` +
      `server peak ${peakMib(server.proc.pid)} MiB, import child peak ${childPeak} MiB (seen: ${childSeen})`,
  );
  expect(writes.every((w) => w.status === 201)).toBe(true);
  expect(writes.length).toBeGreaterThan(10);
  expect(Math.max(...ms)).toBeLessThan(2500);
  expect(percentile(health, 99)).toBeLessThan(2500);
  const { problem } = JSON.parse(answer.text) as { problem: { _id: string; hiddenTestCount: number } };
  expect(problem.hiddenTestCount).toBe(8);
  expect(await count("select count(*) as n from problems where staged_at is not null")).toBe(0);
  expect(await count("select coalesce(sum(octet_length(input) + octet_length(expected_output)), 0) as n from test_cases where problem_id = ?", [problem._id])).toBe(16 * (32 * MIB - 1024));
}, 600_000);

/** Waits until the import has staged its row and written at least one test. */
async function untilStagedTests(): Promise<string> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const row = (await db.execute("select p.id as id, (select count(*) from test_cases t where t.problem_id = p.id) as n from problems p where p.staged_at is not null")).rows[0];
    if (row && Number(row.n) >= 1) return String(row.id);
    if (Date.now() > deadline) throw new Error("the import never staged a test");
    await Bun.sleep(20);
  }
}

test("an import process killed mid-write leaves no problem, staged or visible; the server keeps serving", async () => {
  const imported = importZip(server.base, owner, largestPackage("Killed Mid Write"));
  const stagedId = await untilStagedTests();
  // Held where it is (between or inside its writes) while we look.
  const child = importChild(server.proc.pid);
  expect(child).not.toBeNull();
  process.kill(child!, "SIGSTOP");
  // While staged it is nowhere: not in the owner's list, not by id.
  const list = await (await fetch(`${server.base}/api/problems`, { headers: { authorization: `Bearer ${owner}` } })).text();
  expect(list).not.toContain("Killed Mid Write");
  expect((await fetch(`${server.base}/api/problems/${stagedId}`, { headers: { authorization: `Bearer ${owner}` } })).status).toBe(404);
  process.kill(child!, "SIGKILL");
  const answer = await imported;
  expect(answer.status).toBe(500);
  expect(await count("select count(*) as n from problems where id = ? or title = ?", [stagedId, "Killed Mid Write"])).toBe(0);
  expect(await count("select count(*) as n from test_cases where problem_id = ?", [stagedId])).toBe(0);
  expect((await fetch(`${server.base}/api/health`)).ok).toBe(true);
  expect(server.proc.exitCode).toBeNull();
}, 300_000);

test("an import whose server was killed is removed at the server's next start", async () => {
  void importZip(server.base, owner, largestPackage("Server Killed")).catch(() => {});
  const stagedId = await untilStagedTests();
  // The child is held (it cannot see its server go): the next start must end it and remove its row.
  const child = importChild(server.proc.pid);
  expect(child).not.toBeNull();
  process.kill(child!, "SIGSTOP");
  server.proc.kill("SIGKILL");
  await server.proc.exited;
  await server.restart();
  expect(server.log()).toContain("import: removed 1 problem(s) a stopped import left unfinished");
  // The next start ended the orphaned child (its control group's tasks are killed): nothing is published later.
  const ended = async () => !/State:\s+[^Z]/.test(await Bun.file(`/proc/${child}/status`).text().catch(() => ""));
  const gone = Date.now() + 10_000;
  while (!(await ended()) && Date.now() < gone) await Bun.sleep(100);
  expect(await ended()).toBe(true);
  expect(await count("select count(*) as n from problems where id = ? or title = ?", [stagedId, "Server Killed"])).toBe(0);
  expect(await count("select count(*) as n from test_cases where problem_id = ?", [stagedId])).toBe(0);
}, 300_000);

test("an import past IMPORT_MEMORY_MAX_MIB answers 413 naming the setting, stores nothing, and the server keeps serving", async () => {
  // Its own server: boxes 1204-1207, the least cap the setting allows.
  const small = await startImportServer(3602, 1204, { IMPORT_MEMORY_MAX_MIB: "512" });
  try {
    const token = await account(small.base, "mem@example.com");
    const answer = await importZip(small.base, token, largestPackage("Too Big For Memory"));
    console.log(`import past the cap: ${answer.status} ${answer.text.slice(0, 300)}`);
    expect(answer.status).toBe(413);
    const body = JSON.parse(answer.text) as { message: string; field: string };
    expect(body.field).toBe("package");
    expect(body.message).toContain("IMPORT_MEMORY_MAX_MIB");
    expect(body.message).toContain("512 MiB");
    const smallDb = createClient({ url: `file:${small.dbFile}` });
    try {
      expect(Number((await smallDb.execute("select count(*) as n from problems where title = 'Too Big For Memory' or staged_at is not null")).rows[0]!.n)).toBe(0);
      expect(Number((await smallDb.execute("select count(*) as n from test_cases t join problems p on p.id = t.problem_id where p.user_id = (select id from users where email = 'mem@example.com')")).rows[0]!.n)).toBe(0);
    } finally {
      smallDb.close();
    }
    // The server serves on, and a package within the cap imports.
    expect((await fetch(`${small.base}/api/health`)).ok).toBe(true);
    const ok = await importZip(small.base, token, zipOf(modernPackage()));
    expect(ok.status, ok.text.slice(0, 300)).toBe(201);
    expect(small.proc.exitCode).toBeNull();
  } finally {
    await small.stop();
  }
}, 300_000);
