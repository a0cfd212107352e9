// A judge process killed (SIGKILL) in the middle of judging loses nothing: a
// new worker — or a restarted web server — re-queues the abandoned job at
// start and judges it to a verdict; so does a web server killed while judging
// submissions sent through its REST door. Real processes (`bun src/worker.ts`,
// `bun src/server.ts`), the real sandbox and one shared libSQL file.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import type { Subprocess } from "bun";
import { submissions, submissionTests } from "../../db/schema.ts";
import { createTestDb } from "../db.ts";
import { problemBody, request, signUp } from "../api.ts";
import { eventually, insertProblem, insertUser, JUDGE_TEST_BOX_ID_START, preparePch, SHARED_DATA_DIR } from "./fixtures.ts";
import { overHttp, spawnServerProcess, type ServerProcess } from "../server-process.ts";

setDefaultTimeout(90_000);

/** Ports of this file's web servers: the first free one from here up (the judge's range is 3500-3599). */
const FIRST_SERVER_PORT = 3541;
const LAST_SERVER_PORT = 3569;

/**
 * The first port of [FIRST_SERVER_PORT, LAST_SERVER_PORT] nothing listens on
 * now (binding it briefly), skipping `taken`: another test run sharing the
 * machine may hold one.
 */
function freePort(taken: number[] = []): number {
  for (let port = FIRST_SERVER_PORT; port <= LAST_SERVER_PORT; port++) {
    if (taken.includes(port)) continue;
    try {
      Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response() }).stop(true);
      return port;
    } catch {
      // in use: try the next
    }
  }
  throw new Error(`no free port in ${FIRST_SERVER_PORT}-${LAST_SERVER_PORT}`);
}

/** Resolves once the spawned server answers /api/health (or fails with its log). */
function healthy(proc: Subprocess): Promise<void> {
  return servers.get(proc)!.healthy({ timeoutMs: 60_000 });
}

let t: Awaited<ReturnType<typeof createTestDb>>;
const servers = new Map<Subprocess, ServerProcess>();

beforeAll(async () => {
  t = await createTestDb();
  await preparePch();
});

afterAll(async () => {
  // Killed judges could not unmount their boxes: cleanup unmounts and removes each one's folder.
  for (const server of servers.values()) await server.cleanup();
  t.cleanup();
});

/**
 * Starts `bun src/server.ts` or the worker against the test database, with box ids
 * JUDGE_TEST_BOX_ID_START + `boxOffset` (4 each: offsets 20-51, ids 3520-3551, are this file's alone,
 * as it runs beside the main run) and a box root of its own.
 */
function spawnJudge(script: "worker" | "server", boxOffset: number, port?: number): Subprocess {
  const server = spawnServerProcess({
    name: "crash",
    worker: script === "worker",
    ...(port === undefined ? {} : { port }),
    boxIdStart: JUDGE_TEST_BOX_ID_START + boxOffset,
    boxIdCount: 4,
    env: {
      LOG_LEVEL: "info",
      DATABASE_URL: t.url,
      DATA_DIR: SHARED_DATA_DIR,
      SANDBOX: "bwrap",
      SANDBOX_POOL_SIZE: "2",
      // Long leases: recovery must come from seeing the holder dead, not from waiting.
      JUDGE_LEASE_SECONDS: "120",
      SESSION_SECRET: "crash-test-secret-0123456789abcdef0123456789",
    },
  });
  servers.set(server.proc, server);
  return server.proc;
}

function logOf(p: Subprocess): string {
  return servers.get(p)?.log() ?? "";
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
  const first = spawnJudge("worker", 20);
  const doneBeforeKill = await killMidJudging(id, first);
  expect(doneBeforeKill).toBeLessThan(9);

  const second = spawnJudge("worker", 24);
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
  const worker = spawnJudge("worker", 28);
  await killMidJudging(id, worker);

  const port = freePort();
  const server = spawnJudge("server", 32, port);
  const finished = await eventually(async () => {
    const r = await rowOf(id);
    return r.status === "done" ? r : null;
  }, 60_000).catch((err) => {
    throw new Error(`${err}\n--- server log ---\n${logOf(server)}`);
  });
  expect(finished.verdict).toBe("AC");
  expect(finished.attempts).toBe(2);
  expect((await testsOf(id)).length).toBe(9);
  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(health.status).toBe(200);
  server.kill("SIGTERM");
  await server.exited;
});

test("a worker stopped with SIGTERM mid-judging gives the job back at once, uncounted", async () => {
  const id = await setup(8);
  const worker = spawnJudge("worker", 36);
  await eventually(async () => (await rowOf(id)).status === "running" && (await testsOf(id)).length >= 1, 60_000, 20);
  worker.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
  const r = await rowOf(id);
  expect(r.status).toBe("queued");
  expect(r.leaseOwner).toBeNull();
  expect(r.attempts).toBe(0);

  const next = spawnJudge("worker", 40);
  const finished = await eventually(async () => {
    const row = await rowOf(id);
    return row.status === "done" ? row : null;
  }, 60_000);
  expect(finished.verdict).toBe("AC");
  expect(finished.attempts).toBe(1);
  next.kill("SIGTERM");
  await next.exited;
});

test("the web server killed while judging REST submissions: restarted, it judges every one of them", async () => {
  const port1 = freePort();
  const first = spawnJudge("server", 44, port1);
  await healthy(first);
  const api1 = overHttp(`http://127.0.0.1:${port1}`);
  const me = await signUp(api1);
  const created = await request(api1, "POST", "/api/problems", {
    token: me.token,
    body: problemBody({
      sampleInput: "1\n",
      sampleOutput: "2\n",
      hiddenTestCases: Array.from({ length: 8 }, (_, i) => ({ input: `${i + 10}\n`, expectedOutput: `${i + 11}\n` })),
    }),
  });
  expect([200, 201]).toContain(created.status);
  const problemId = created.body._id as string;
  // Three submissions, as the client sends them, against a pool of two boxes: two being judged, one queued.
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await request(api1, "POST", "/api/submissions?wait=false", {
      token: me.token,
      body: { problemId, code: `${SLOW_ADD_ONE}# ${i}\n`, language: "py", input: "1\n", output: "", expectedOutput: "2\n", isPassed: false },
    });
    expect(res.status).toBe(202);
    ids.push(res.body.id);
  }
  await eventually(async () => {
    for (const id of ids) if ((await rowOf(id)).status === "running" && (await testsOf(id)).length >= 2) return true;
    return false;
  }, 60_000, 20).catch((err) => {
    throw new Error(`${err}\n--- server log ---\n${logOf(first)}`);
  });
  first.kill("SIGKILL");
  await first.exited;
  const before = await Promise.all(ids.map(rowOf));
  expect(before.filter((r) => r.status === "done").length).toBeLessThan(3);
  expect(before.some((r) => r.status === "running" && r.leaseOwner?.includes(`:${first.pid}:`))).toBe(true);

  const port2 = freePort([port1]);
  const second = spawnJudge("server", 48, port2);
  await eventually(async () => (await Promise.all(ids.map(rowOf))).every((r) => r.status === "done"), 60_000).catch((err) => {
    throw new Error(`${err}\n--- restarted server log ---\n${logOf(second)}`);
  });
  for (const id of ids) {
    const r = await rowOf(id);
    expect(`${r.verdict} ${r.testsPassed}/${r.testsTotal}`).toBe("AC 9/9");
    expect((await testsOf(id)).map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  }
  expect(logOf(second)).toContain("recovered abandoned jobs");
  // The submitter sees all three in the history, served by the restarted server with the same session.
  await healthy(second);
  const history = await request(overHttp(`http://127.0.0.1:${port2}`), "GET", `/api/submissions/${problemId}`, { token: me.token });
  expect(history.status).toBe(200);
  expect(history.body.map((s: { _id: string }) => s._id).sort()).toEqual([...ids].sort());
  expect(history.body.every((s: { isPassed: boolean; verdict: string }) => s.isPassed && s.verdict === "AC")).toBe(true);
  second.kill("SIGTERM");
  await second.exited;
});
