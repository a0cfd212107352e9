/**
 * Review N2: importing the largest package an upload may carry does not stall
 * the server, and deleting the problem frees its tests. The real server
 * process (`bun src/server.ts`, default ceilings) imports a zip that unpacks
 * to just under the upload's limit (576 MiB: 512 MiB of hidden tests, the
 * most one problem may store, and a 64 MiB file the importer leaves aside)
 * while `GET /api/health` is sent every 10 ms, each on its own schedule (a
 * stalled server delays every request sent meanwhile, not one): the 99th
 * percentile answers within a second. Before the import moved to a worker, a
 * 240 MiB package kept health waiting 9.5 s: that stall is what this test
 * catches. How fast health answers is a figure it prints, not a bound: on a
 * quiet machine p99 is about 25 ms, on CI's busy one 137 ms was seen (a timed
 * bound of 100 ms failed CI there; speed is for benchmarks, not tests).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createClient, type Client } from "@libsql/client";
import { bigZip, textOfSize } from "../packages/big-zip.ts";
import { signUp } from "../api.ts";
import { startServerProcess, type ServerProcess } from "../server-process.ts";

const PORT = 3600;
const BASE = `http://127.0.0.1:${PORT}`;
const MIB = 1024 * 1024;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  // Box ids 5300-5303 are this file's (no judging happens here: JUDGE_IN_PROCESS=false).
  server = await startServerProcess({
    name: "h4-load",
    port: PORT,
    boxIdStart: 5300,
    boxIdCount: 4,
    env: { SANDBOX: "isolate", JUDGE_IN_PROCESS: "false", SESSION_SECRET: "import-load-test-secret-0123456789abcdef01" },
  });
  token = (await signUp(server.api)).token;
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await server?.cleanup();
});

/** 8 hidden tests of 32 MiB in and 32 MiB out (512 MiB less 16 KiB), a sample, and a 64 MiB file no problem keeps. */
function largestPackage(): Uint8Array {
  const half = textOfSize(32 * MIB - 1024);
  const enc = (s: string) => new TextEncoder().encode(s);
  return bigZip([
    { name: "problem.yaml", content: enc("problem_format_version: 2025-09\nname: Largest\nlimits:\n  time_limit: 1\n  memory: 256\n") },
    { name: "statement/problem.en.md", content: enc("# Largest\n\nEcho the input.\n\n## Input\n\nLines.\n\n## Output\n\nThe same lines.\n") },
    { name: "data/sample/1.in", content: enc("1\n") },
    { name: "data/sample/1.ans", content: enc("1\n") },
    ...Array.from({ length: 8 }, (_, i) => [
      { name: `data/secret/${i}.in`, content: half },
      { name: `data/secret/${i}.ans`, content: half },
    ]).flat(),
    { name: "attachments/filler.bin", content: textOfSize(64 * MIB - 64 * 1024) },
  ]);
}

/**
 * Sends GET /api/health every `everyMs` until `stop` settles, each request on
 * its own schedule (not after the previous answer).
 * @returns each request's latency, ms, from when it was due to its answer.
 */
async function pollHealthUntil(stop: Promise<unknown>, everyMs: number): Promise<number[]> {
  const latencies: Promise<number>[] = [];
  let done = false;
  void stop.finally(() => (done = true));
  const start = performance.now();
  for (let i = 0; !done; i++) {
    const due = start + i * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    latencies.push(
      fetch(`${BASE}/api/health`).then(async (r) => {
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`health answered ${r.status}`);
        return performance.now() - due;
      }),
    );
  }
  return Promise.all(latencies);
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

test("the largest upload imports while /api/health keeps answering (p99 < 1 s: no stall); deleting the problem frees its 512 MiB of tests", async () => {
  const zip = largestPackage();
  expect(zip.length).toBeLessThan(4 * MIB);
  // The same poll on the idle server, for the report's comparison.
  const idle = await pollHealthUntil(Bun.sleep(2000), 10);

  const imported = fetch(`${BASE}/api/problems/import`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" }, body: new Blob([Buffer.from(zip)]) }).then(async (r) => ({
    status: r.status,
    text: await r.text(),
  }));
  const during = await pollHealthUntil(imported, 10);
  const answer = await imported;
  expect(answer.status, answer.text.slice(0, 500)).toBe(201);
  const p50 = percentile(during, 50);
  const p99 = percentile(during, 99);
  console.log(
    `health during the import: ${during.length} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms; idle: p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${percentile(idle, 99).toFixed(1)} ms`,
  );
  const peak = /VmHWM:\s+(\d+) kB/.exec(await Bun.file(`/proc/${server.proc.pid}/status`).text())?.[1];
  console.log(`server peak resident memory: ${peak ? Math.round(Number(peak) / 1024) : "?"} MiB`);
  // The package is 576 MiB unpacked; the server holds it about twice over at most (3.8 GiB before the worker freed
  // the unpacked files and the tests were inserted one statement each).
  expect(Number(peak) / 1024).toBeLessThan(2560);
  expect(during.length).toBeGreaterThan(100);
  expect(p99).toBeLessThan(1000);

  // The answer names the problem; its 512 MiB of tests stay in the database.
  expect(answer.text.length).toBeLessThan(64 * 1024);
  const { problem } = JSON.parse(answer.text) as { problem: { _id: string; hiddenTestCount: number; hiddenTestCases?: unknown } };
  expect(problem.hiddenTestCount).toBe(8);
  expect(problem.hiddenTestCases).toBeUndefined();

  const db: Client = createClient({ url: server.databaseUrl });
  try {
    const stored = async () =>
      Number((await db.execute({ sql: "select coalesce(sum(octet_length(input) + octet_length(expected_output)), 0) as n from test_cases where problem_id = ?", args: [problem._id] })).rows[0]!.n);
    expect(await stored()).toBe(16 * (32 * MIB - 1024));
    const del = await fetch(`${BASE}/api/problems/${problem._id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(del.status).toBe(200);
    expect(await stored()).toBe(0);
    // The row stays (submissions name it), marked deleted.
    const row = (await db.execute({ sql: "select deleted_at from problems where id = ?", args: [problem._id] })).rows[0];
    expect(row?.deleted_at).not.toBeNull();
  } finally {
    db.close();
  }
  expect(server.proc.exitCode).toBeNull();
}, 600_000);
