// A judge process killed (SIGKILL) in the middle of judging loses nothing: a
// new worker — or a restarted web server — re-queues the abandoned job at
// start and judges it to a verdict. Real processes (`bun src/worker.ts`,
// `bun src/server.ts`), the real sandbox and one shared libSQL file.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Subprocess } from "bun";
import { submissions, submissionTests } from "../../db/schema.ts";
import { createTestDb } from "../db.ts";
import { eventually, insertProblem, insertUser, JUDGE_TEST_BOX_ID_START, preparePch, SHARED_DATA_DIR } from "./fixtures.ts";

setDefaultTimeout(90_000);

const ROOT = join(import.meta.dir, "..", "..");
/** Port of the restarted web server (the judge's range is 3500-3599). */
const SERVER_PORT = 3541;

let t: Awaited<ReturnType<typeof createTestDb>>;
const procs: Subprocess[] = [];
const logs = new Map<Subprocess, string[]>();

beforeAll(async () => {
  t = await createTestDb();
  await preparePch();
});

afterAll(async () => {
  for (const p of procs) {
    if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    await p.exited;
  }
  t.cleanup();
});

/** Starts `bun <script>` against the test database with its own box-id range. */
function spawnJudge(script: "src/worker.ts" | "src/server.ts", boxOffset: number, env: Record<string, string> = {}): Subprocess {
  const proc = Bun.spawn(["bun", script], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      DATABASE_URL: t.url,
      DATA_DIR: SHARED_DATA_DIR,
      SANDBOX: "bwrap",
      SANDBOX_ROOT: mkdtempSync(join(tmpdir(), "oj-crash-boxes-")),
      ISOLATE_BOX_ID_START: String(JUDGE_TEST_BOX_ID_START + boxOffset),
      ISOLATE_BOX_ID_COUNT: "10",
      SANDBOX_POOL_SIZE: "2",
      // Long leases: recovery must come from seeing the holder dead, not from waiting.
      JUDGE_LEASE_SECONDS: "120",
      SESSION_SECRET: "crash-test-secret-0123456789abcdef0123456789",
      CLIENT_DIST: join(t.dir, "no-client"),
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  logs.set(proc, lines);
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) lines.push(decoder.decode(chunk));
    })();
  }
  procs.push(proc);
  return proc;
}

function logOf(p: Subprocess): string {
  return (logs.get(p) ?? []).join("");
}

/** A Python program that takes ~0.3 s per test, so judging is caught in the middle. */
const SLOW_ADD_ONE = "import time\nn = int(input())\ntime.sleep(0.3)\nprint(n + 1)\n";

async function setup(tests: number) {
  const userId = await insertUser(t.db, "crash");
  const problemId = await insertProblem(t.db, userId, {
    sampleInput: "1\n",
    sampleOutput: "2\n",
    tests: Array.from({ length: tests }, (_, i) => ({ input: `${i + 10}\n`, output: `${i + 11}\n` })),
  });
  const [row] = await t.db
    .insert(submissions)
    .values({ userId, problemId, language: "py", code: `${SLOW_ADD_ONE}# ${crypto.randomUUID()}\n` })
    .returning({ id: submissions.id });
  return row!.id;
}

const rowOf = async (id: string) => (await t.db.query.submissions.findFirst({ where: eq(submissions.id, id) }))!;
const testsOf = (id: string) =>
  t.db.select().from(submissionTests).where(eq(submissionTests.submissionId, id)).orderBy(asc(submissionTests.index));

async function killMidJudging(id: string, proc: Subprocess): Promise<number> {
  await eventually(async () => {
    const r = await rowOf(id);
    const done = (await testsOf(id)).length;
    return r.status === "running" && done >= 2;
  }, 60_000, 20).catch((err) => {
    throw new Error(`${err}\n--- worker log ---\n${logOf(proc)}`);
  });
  proc.kill("SIGKILL");
  await proc.exited;
  const r = await rowOf(id);
  expect(r.status).toBe("running");
  expect(r.leaseOwner).toContain(`:${proc.pid}:`);
  return (await testsOf(id)).length;
}

test("a worker killed mid-judging: a new worker re-queues the job at start and finishes it", async () => {
  const id = await setup(8);
  const first = spawnJudge("src/worker.ts", 20);
  const doneBeforeKill = await killMidJudging(id, first);
  expect(doneBeforeKill).toBeLessThan(9);

  const second = spawnJudge("src/worker.ts", 30);
  const finished = await eventually(async () => {
    const r = await rowOf(id);
    return r.status === "done" ? r : null;
  }, 60_000).catch((err) => {
    throw new Error(`${err}\n--- second worker log ---\n${logOf(second)}`);
  });
  expect(finished.verdict).toBe("AC");
  expect(finished.isPassed).toBe(true);
  expect(finished.attempts).toBe(2);
  expect(finished.leaseOwner).toBeNull();
  expect(finished.testsPassed).toBe(9);
  const tests = await testsOf(id);
  expect(tests.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  expect(tests.every((x) => x.verdict === "AC")).toBe(true);
  expect(logOf(second)).toContain("recovered abandoned jobs");

  second.kill("SIGTERM");
  expect(await second.exited).toBe(0);
});

test("a worker killed mid-judging: the restarted web server judges the job to a verdict", async () => {
  const id = await setup(8);
  const worker = spawnJudge("src/worker.ts", 40);
  await killMidJudging(id, worker);

  const server = spawnJudge("src/server.ts", 50, { PORT: String(SERVER_PORT), HOST: "127.0.0.1" });
  const finished = await eventually(async () => {
    const r = await rowOf(id);
    return r.status === "done" ? r : null;
  }, 60_000).catch((err) => {
    throw new Error(`${err}\n--- server log ---\n${logOf(server)}`);
  });
  expect(finished.verdict).toBe("AC");
  expect(finished.attempts).toBe(2);
  expect((await testsOf(id)).length).toBe(9);
  const health = await fetch(`http://127.0.0.1:${SERVER_PORT}/api/health`);
  expect(health.status).toBe(200);
  server.kill("SIGTERM");
  await server.exited;
});

test("a worker stopped with SIGTERM mid-judging gives the job back at once, uncounted", async () => {
  const id = await setup(8);
  const worker = spawnJudge("src/worker.ts", 60);
  await eventually(async () => (await rowOf(id)).status === "running" && (await testsOf(id)).length >= 1, 60_000, 20);
  worker.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
  const r = await rowOf(id);
  expect(r.status).toBe("queued");
  expect(r.leaseOwner).toBeNull();
  expect(r.attempts).toBe(0);

  const next = spawnJudge("src/worker.ts", 70);
  const finished = await eventually(async () => {
    const row = await rowOf(id);
    return row.status === "done" ? row : null;
  }, 60_000);
  expect(finished.verdict).toBe("AC");
  expect(finished.attempts).toBe(1);
  next.kill("SIGTERM");
  await next.exited;
});
