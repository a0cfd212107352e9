/**
 * A restart leaves nothing behind. The real server process (`bun src/server.ts`,
 * the bwrap sandbox as root: a tmpfs per box and the read-only /pch bind mount
 * under SANDBOX_ROOT) is stopped by SIGTERM, as systemd and every process
 * manager stop it, and killed by SIGKILL, twenty times over one SANDBOX_ROOT:
 * a SIGTERM'd server unmounts what it mounted and releases its locks before
 * exiting 0, even with a browser's live stream open and a submission being
 * judged (which goes back to the queue and is judged at the next start), or
 * a client half-way through sending a request; a SIGKILL'd one cannot, and its
 * successor clears what it left at start, also when the operator changed
 * ISOLATE_BOX_ID_START in between (the old range's boxes are nobody's to
 * reuse). At the end the mount table is as it was.
 * Ports 3620-3639, box ids 5460-5467 (60000 + id must stay below 65534, the
 * overflow uid), roots under /tmp/oj-h6-* are this suite's.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Subprocess } from "bun";
import { submissions, submissionTests } from "../../db/schema.ts";
import { boxLockDir } from "../../src/sandbox.ts";
import { lockHolder } from "../../src/ops/lock.ts";
import { createTestDb } from "../db.ts";
import { problemBody, request, signUp } from "../api.ts";
import { eventually, preparePch } from "../judge/fixtures.ts";
import { mountPointsUnder, unmountUnder } from "../mounts.ts";
import { spawnServerProcess, type ServerProcess } from "../server-process.ts";

setDefaultTimeout(240_000);

const FIRST_PORT = 3620;
const LAST_PORT = 3639;
/** The two box ranges the restarts alternate between (4 ids each, pools of 2). */
const RANGES = [5460, 5464] as const;
const BOX_ID_START = RANGES[0];
const POOL = 2;

const work = mkdtempSync("/tmp/oj-h6-restart-");
// The box users must reach SANDBOX_ROOT below it.
chmodSync(work, 0o755);
const dataDir = join(work, "data");
const sandboxRoot = join(work, "boxes");
const procs: Subprocess[] = [];
const servers = new Map<Subprocess, ServerProcess>();
let t: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  t = await createTestDb();
  // The precompiled header, once: shared from the judge tests' build (spawnServerProcess) rather than built at every start.
  await preparePch();
});

afterAll(async () => {
  for (const p of procs) {
    if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    await p.exited;
  }
  unmountUnder(work);
  rmSync(work, { recursive: true, force: true });
  // The SIGKILL'd servers' box lock files name dead pids: stale, but this suite's to tidy.
  for (const start of RANGES) {
    for (let i = 0; i < POOL; i++) {
      const file = join(boxLockDir(), `online-judge-box-${start + i}.lock`);
      if (lockHolder(file) === null) rmSync(file, { force: true });
    }
  }
  t?.cleanup();
});

/** The first port of this suite's range nothing listens on (another run sharing the machine may hold one). */
function freePort(): number {
  for (let port = FIRST_PORT; port <= LAST_PORT; port++) {
    try {
      Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response() }).stop(true);
      return port;
    } catch {
      // taken: try the next
    }
  }
  throw new Error(`no free port in ${FIRST_PORT}-${LAST_PORT}`);
}

function spawnServer(port: number, boxIdStart: number = BOX_ID_START): Subprocess {
  const server = spawnServerProcess({
    name: "h6-restart",
    dir: work,
    port,
    boxIdStart,
    boxIdCount: 4,
    env: {
      LOG_LEVEL: "info",
      DATA_DIR: dataDir,
      DATABASE_URL: t.url,
      SANDBOX: "bwrap",
      SANDBOX_ROOT: sandboxRoot,
      SANDBOX_POOL_SIZE: String(POOL),
      AI_PROVIDER: "offline",
      // Long leases: a requeued job must come from the shutdown giving it back, not from its lease running out.
      JUDGE_LEASE_SECONDS: "300",
      SESSION_SECRET: "restart-test-secret-0123456789abcdef01234567",
    },
  });
  servers.set(server.proc, server);
  procs.push(server.proc);
  return server.proc;
}

const logOf = (p: Subprocess) => servers.get(p)?.log() ?? "";

async function healthy(proc: Subprocess): Promise<void> {
  await servers.get(proc)!.healthy({ timeoutMs: 90_000, accept: (body) => body.sandbox === "bwrap" });
}

/** Exit code after `signal`; a SIGTERM'd server that has not exited within 60 s (its own deadline is shorter) fails the test. */
function stopWith(proc: Subprocess, signal: "SIGTERM" | "SIGKILL"): Promise<number | null> {
  return servers.get(proc)!.stop(signal, { timeoutMs: 60_000, strict: true });
}

/**
 * This suite's locks some live process holds: the root's and one per box of
 * either range (a SIGKILL'd server's files stay, naming a dead pid: stale, taken over by the next).
 */
const heldLocks = () =>
  [join(sandboxRoot, ".judge.lock"), ...RANGES.flatMap((start) => Array.from({ length: POOL }, (_, i) => join(boxLockDir(), `online-judge-box-${start + i}.lock`)))].filter(
    (f) => lockHolder(f) !== null,
  );

/** Mount table lines naming this suite's paths or its boxes' tmpfs (`oj-box-<id>`), anywhere on the host. */
function ourMountLines(): string[] {
  const ids = Array.from({ length: 8 }, (_, i) => `oj-box-${BOX_ID_START + i}`);
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .filter((l) => l.includes(work) || ids.some((id) => l.split(" ").includes(id)));
}

/** A Python program that takes ~0.3 s per test, so judging is caught in the middle. */
const SLOW_ADD_ONE = "import time\nn = int(input())\ntime.sleep(0.3)\nprint(n + 1)\n";
const rowOf = async (id: string) => (await t.db.query.submissions.findFirst({ where: eq(submissions.id, id) }))!;
const testsOf = (id: string) => t.db.select().from(submissionTests).where(eq(submissionTests.submissionId, id)).orderBy(asc(submissionTests.index));

const mountTableBefore = () => ourMountLines();

test("SIGTERM while judging, with a live stream open: the job goes back to the queue, nothing stays mounted or locked, exit 0; the next start judges the job", async () => {
  expect(mountTableBefore()).toEqual([]);
  const port = freePort();
  const first = spawnServer(port);
  await healthy(first);
  // The pch bind mount and the self-check's box tmpfs are there while it runs: the test would see them stay.
  expect(mountPointsUnder(sandboxRoot)).toContain(join(sandboxRoot, "pch"));
  const api = servers.get(first)!.api;
  const me = await signUp(api);
  const created = await request(api, "POST", "/api/problems", {
    token: me.token,
    body: problemBody({
      sampleInput: "1\n",
      sampleOutput: "2\n",
      hiddenTestCases: Array.from({ length: 15 }, (_, i) => ({ input: `${i + 10}\n`, expectedOutput: `${i + 11}\n` })),
    }),
  });
  expect([200, 201]).toContain(created.status);
  const sent = await request(api, "POST", "/api/submissions?wait=false", {
    token: me.token,
    body: { problemId: created.body._id, code: SLOW_ADD_ONE, language: "py", input: "1\n", output: "", expectedOutput: "2\n", isPassed: false },
  });
  expect(sent.status).toBe(202);
  const id = sent.body.id as string;
  // A browser following the submission: an SSE response that never ends by itself.
  const stream = await fetch(`http://127.0.0.1:${port}/trpc/submissions.progress?input=${encodeURIComponent(JSON.stringify({ id }))}`, {
    headers: { authorization: `Bearer ${me.token}`, accept: "text/event-stream" },
  });
  expect(stream.headers.get("content-type")).toContain("text/event-stream");
  const reading = (async () => {
    for await (const _ of stream.body as unknown as AsyncIterable<Uint8Array>) {
      // drained until the server closes it
    }
  })().catch(() => {});
  await eventually(async () => (await rowOf(id)).status === "running" && (await testsOf(id)).length >= 2, 90_000, 20).catch((err) => {
    throw new Error(`${err}\n--- log ---\n${logOf(first)}`);
  });

  expect(await stopWith(first, "SIGTERM")).toBe(0);
  await reading;
  const row = await rowOf(id);
  expect({ status: row.status, leaseOwner: row.leaseOwner }).toEqual({ status: "queued", leaseOwner: null });
  expect(logOf(first)).toContain("stopped");
  expect(mountPointsUnder(work)).toEqual([]);
  // Released, not just stale: the files are gone.
  expect([join(sandboxRoot, ".judge.lock"), join(boxLockDir(), `online-judge-box-${BOX_ID_START}.lock`)].filter((f) => existsSync(f))).toEqual([]);

  const second = spawnServer(freePort());
  await eventually(async () => (await rowOf(id)).status === "done", 90_000).catch((err) => {
    throw new Error(`${err}\n--- restarted server log ---\n${logOf(second)}`);
  });
  const done = await rowOf(id);
  expect(`${done.verdict} ${done.testsPassed}/${done.testsTotal}`).toBe("AC 16/16");
  expect(await stopWith(second, "SIGTERM")).toBe(0);
  expect(ourMountLines()).toEqual([]);
});

/**
 * A client that sent a request's headers and part of its body, and no more
 * (a slow upload): the request is in flight for as long as the socket stays open.
 */
async function halfSentRequest(port: number) {
  const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
  socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`);
  return socket;
}

test("20 restarts over one SANDBOX_ROOT, alternately SIGTERM (a request in flight) and SIGKILL, the box range changed every other start: no mount piles up, and the mount table ends as it was", async () => {
  const before = mountTableBefore();
  expect(before).toEqual([]);
  for (let i = 0; i < 20; i++) {
    const signal = i % 2 === 0 ? "SIGTERM" : "SIGKILL";
    // 0, 0, 1, 1, 0, 0, ...: a SIGKILL'd server's successor uses the other range.
    const start = RANGES[Math.floor(i / 2) % 2]!;
    const port = freePort();
    const proc = spawnServer(port, start);
    await healthy(proc);
    // Every other SIGTERM round (each costs the server's HTTP drain, 3 s).
    const client = i % 4 === 0 ? await halfSentRequest(port) : null;
    // Whatever a killed predecessor left was cleared before this one mounted its own: each mount point once.
    const points = mountPointsUnder(sandboxRoot);
    expect(points).toContain(join(sandboxRoot, "pch"));
    expect(points.length).toBe(new Set(points).size);
    expect(points.length).toBeLessThanOrEqual(1 + POOL);
    const code = await stopWith(proc, signal);
    client?.end();
    if (signal === "SIGTERM") {
      expect({ round: i, code }).toEqual({ round: i, code: 0 });
      expect({ round: i, left: mountPointsUnder(work) }).toEqual({ round: i, left: [] });
      expect({ round: i, locks: heldLocks() }).toEqual({ round: i, locks: [] });
    } else {
      // A killed server leaves its mounts (what the next start must clear).
      expect(mountPointsUnder(sandboxRoot).length).toBeGreaterThan(0);
    }
  }
  // The last round was a SIGKILL: one more start clears it, and its SIGTERM leaves the table as it was.
  const port = freePort();
  const last = spawnServer(port);
  await healthy(last);
  expect(await stopWith(last, "SIGTERM")).toBe(0);
  expect(ourMountLines()).toEqual(before);
});
