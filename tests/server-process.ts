/**
 * The real server (or judge worker) as a child process, for tests that need
 * the process itself: its start-up, its environment, its signals. One place
 * for what every such test repeated: the environment a deployment gives
 * (a data folder and database of the test's own, no client unless asked), a
 * sandbox range a default server never uses (assertTestSandbox), waiting for
 * /api/health, the process's log in every failure message, and a stop that
 * waits for the exit (SIGKILL after a deadline) and unmounts and removes what
 * the process left in its folder.
 *
 * Box ids are host-wide: each test file takes a range of its own (see the
 * comment at each call), and the e2e servers take theirs from their port
 * (e2e/harness.ts). Files that run in the second shard (scripts/test.sh) must
 * not share a range or port with any other file.
 */
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Subprocess } from "bun";
import type { Hono } from "hono";
import { pchDir } from "../isolate/pch.ts";
import { unmountUnder } from "./mounts.ts";
import { SHARED_DATA_DIR } from "./judge/fixtures.ts";

export const ROOT = resolve(import.meta.dir, "..");

/**
 * Box ids of a test server: never the default range (ids 0-99, what
 * `bun run start` uses), so the suite runs
 * beside a running product instead of being refused its boxes; and below
 * 5534 (bwrap runs box N as uid 60000 + N, and 65534 up is the overflow uid).
 */
export const TEST_BOX_ID_MIN = 1000;
export const TEST_BOX_ID_END = 5534;

/**
 * Refuses a test server's box range or SANDBOX_ROOT that a default server
 * would use (or that bwrap cannot run), naming the setting.
 * @throws Error naming ISOLATE_BOX_ID_START or SANDBOX_ROOT.
 */
export function assertTestSandbox(env: { ISOLATE_BOX_ID_START: string; ISOLATE_BOX_ID_COUNT: string; SANDBOX_ROOT: string }): void {
  const start = Number(env.ISOLATE_BOX_ID_START);
  const count = Number(env.ISOLATE_BOX_ID_COUNT);
  if (!Number.isInteger(start) || start < TEST_BOX_ID_MIN || start + count > TEST_BOX_ID_END) {
    throw new Error(
      `ISOLATE_BOX_ID_START=${env.ISOLATE_BOX_ID_START} (count ${count}): a test server takes box ids from ${TEST_BOX_ID_MIN} to ${TEST_BOX_ID_END - 1}, ` +
        "never the default range 0-99 of a server running on the same machine",
    );
  }
  if (!resolve(env.SANDBOX_ROOT).startsWith(`${tmpdir()}/oj-`) || resolve(env.SANDBOX_ROOT) === "/tmp/oj-boxes") {
    throw new Error(`SANDBOX_ROOT=${env.SANDBOX_ROOT}: a test server's boxes live under its own temporary folder, never the default /tmp/oj-boxes`);
  }
}

export interface ServerProcessOptions {
  /** Names the temporary folder (`/tmp/oj-<name>-XXXXXX`) when `dir` is not given. */
  name: string;
  /** Port of a web server (HOST is 127.0.0.1); omitted for a worker. */
  port?: number;
  /** Runs the judge worker (`bun src/worker.ts`) instead of the web server. */
  worker?: boolean;
  /** The process's folder: DATA_DIR is `<dir>/data`, SANDBOX_ROOT `<dir>/boxes`. A fresh one (removed at stop) when omitted; a given one is left. */
  dir?: string;
  /** First box id and how many (checked by assertTestSandbox). */
  boxIdStart: number;
  boxIdCount: number;
  /**
   * More environment, or a replacement for a default (DATA_DIR, DATABASE_URL,
   * SANDBOX_ROOT, CLIENT_DIST, LOG_LEVEL, ...). Box settings come from
   * boxIdStart/boxIdCount only.
   */
  env?: Record<string, string>;
}

export interface ServerProcess {
  proc: Subprocess;
  /** `http://127.0.0.1:<port>` (empty for a worker). */
  url: string;
  port: number;
  /** The process's folder (its data and boxes live below it unless `env` moved them). */
  dir: string;
  /** The process over real HTTP, in the shape tests/api.ts's helpers take (they call `app.request(path, init)`). */
  api: Hono<any>;
  /** libSQL URL of the process's database. */
  databaseUrl: string;
  /** The environment it was started with. */
  env: Record<string, string>;
  /** Everything it printed so far, stdout and stderr (for a failing test's message). */
  log(): string;
  /** Everything it printed, once it has exited and its output is read to the end. */
  output(): Promise<string>;
  /**
   * Resolves once GET /api/health answers 200 (and `accept(body)` holds, when given).
   * @throws Error with the log when the process exits first or `timeoutMs` passes (default 60 s).
   */
  healthy(opts?: { timeoutMs?: number; accept?: (body: Record<string, unknown>) => boolean }): Promise<void>;
  /**
   * Sends `signal` (default SIGTERM) and waits for the exit; a process still
   * running after `timeoutMs` (default 30 s) is killed and, when `strict`, the
   * call throws with its log.
   * @returns the exit code (null when ended by a signal).
   */
  stop(signal?: "SIGTERM" | "SIGKILL" | "SIGINT", opts?: { timeoutMs?: number; strict?: boolean }): Promise<number | null>;
  /** Stops it (SIGKILL) if still running, unmounts what is mounted below its folder and removes the folder if this helper made it. */
  cleanup(): Promise<void>;
}

/**
 * Gives a fresh DATA_DIR the judge tests' precompiled header (SHARED_DATA_DIR,
 * built once by tests/prepare.ts or the first judge test) as hard links, so a
 * test server does not spend 5-10 s of CPU building its own at start. The
 * server still checks the stamp (flags, compiler) and rebuilds a stale one;
 * files there are only ever replaced by rename, never written in place, so
 * sharing inodes is safe. Nothing happens when there is none to share or the
 * folder has one already.
 */
export function sharePch(dataDir: string): void {
  const from = pchDir(SHARED_DATA_DIR);
  const to = pchDir(dataDir);
  if (!existsSync(join(from, "stamp.json")) || existsSync(join(to, "stamp.json"))) return;
  const copy = (src: string, dst: string) => {
    if (statSync(src).isDirectory()) {
      mkdirSync(dst, { recursive: true, mode: 0o755 });
      for (const name of readdirSync(src)) if (!name.includes(".tmp-")) copy(join(src, name), join(dst, name));
      return;
    }
    mkdirSync(dirname(dst), { recursive: true, mode: 0o755 });
    try {
      linkSync(src, dst);
    } catch {
      copyFileSync(src, dst);
    }
  };
  try {
    // The stamp last: a half-shared folder (interrupted) is not taken for a current one.
    for (const name of readdirSync(from)) if (name !== "stamp.json" && !name.includes(".tmp-")) copy(join(from, name), join(to, name));
    copy(join(from, "stamp.json"), join(to, "stamp.json"));
  } catch {
    // The shared one changed meanwhile (a rebuild): the server builds its own.
  }
}

const running = new Set<Subprocess>();
// A test process that ends without stopping its servers (a crash, Ctrl+C) must not leave them running.
process.once("exit", () => {
  for (const p of running) p.kill("SIGKILL");
});

/**
 * Starts `bun src/server.ts` (or `src/worker.ts`) with the environment of a test
 * deployment; does not wait for it (see startServerProcess).
 * @throws Error naming ISOLATE_BOX_ID_START or SANDBOX_ROOT when the range or root is a default server's.
 */
export function spawnServerProcess(opts: ServerProcessOptions): ServerProcess {
  const owned = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), `oj-${opts.name}-`));
  // The sandbox runs programs under unprivileged uids that must reach the box root below it.
  chmodSync(dir, 0o755);
  const dataDir = opts.env?.DATA_DIR ?? join(dir, "data");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: process.env.HOME ?? dir,
    NODE_ENV: "test",
    ...(opts.port === undefined ? {} : { PORT: String(opts.port), HOST: "127.0.0.1" }),
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${join(dataDir, "app.db")}`,
    CLIENT_DIST: join(dir, "no-client"),
    SANDBOX_ROOT: join(dir, "boxes"),
    LOG_LEVEL: "warn",
    ...opts.env,
    ISOLATE_BOX_ID_START: String(opts.boxIdStart),
    ISOLATE_BOX_ID_COUNT: String(opts.boxIdCount),
  };
  try {
    assertTestSandbox(env as { ISOLATE_BOX_ID_START: string; ISOLATE_BOX_ID_COUNT: string; SANDBOX_ROOT: string });
  } catch (err) {
    if (owned) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // DATA_DIR is owner-only (the server refuses a wider one); the boxes live beside it, not inside.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  sharePch(dataDir);
  const proc = Bun.spawn(["bun", opts.worker ? "src/worker.ts" : "src/server.ts"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  running.add(proc);
  void proc.exited.then(() => running.delete(proc));
  const chunks: string[] = [];
  const drained = Promise.all(
    [proc.stdout, proc.stderr].map(async (stream) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(decoder.decode(chunk, { stream: true }));
    }),
  ).catch(() => []);
  const log = () => chunks.join("");
  const url = opts.port === undefined ? "" : `http://127.0.0.1:${opts.port}`;
  const server: ServerProcess = {
    proc,
    url,
    port: opts.port ?? 0,
    dir,
    api: overHttp(url),
    databaseUrl: env.DATABASE_URL!,
    env,
    log,
    async output() {
      await proc.exited;
      await drained;
      return log();
    },
    async healthy({ timeoutMs = 60_000, accept } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (proc.exitCode !== null || proc.signalCode !== null) {
          throw new Error(`server exited (${proc.exitCode ?? proc.signalCode}) before it was healthy\n--- log ---\n${log()}`);
        }
        const res = await fetch(`${url}/api/health`).catch(() => null);
        if (res?.ok && (!accept || accept((await res.json()) as Record<string, unknown>))) return;
        if (Date.now() > deadline) throw new Error(`server not healthy after ${timeoutMs / 1000} s\n--- log ---\n${log()}`);
        await Bun.sleep(100);
      }
    },
    async stop(signal = "SIGTERM", { timeoutMs = 30_000, strict = false } = {}) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(timeoutMs).then(() => false)]);
      if (!exited) {
        proc.kill("SIGKILL");
        await proc.exited;
        if (strict) throw new Error(`the server did not exit within ${timeoutMs / 1000} s of ${signal}\n--- log ---\n${log()}`);
      }
      return proc.exitCode;
    },
    async cleanup() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      await proc.exited;
      unmountUnder(dir);
      if (owned) rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A server at `url` in the shape tests/api.ts's helpers take (they call `app.request(path, init)`). */
export function overHttp(url: string): Hono<any> {
  return { request: (path: string, init?: RequestInit) => fetch(`${url}${path}`, init) } as unknown as Hono<any>;
}

/**
 * spawnServerProcess, then waits until /api/health answers (60 s by default).
 * @throws Error with the log when it exits or is not healthy in time (the process is killed and its folder removed).
 */
export async function startServerProcess(opts: ServerProcessOptions & { healthyWithinMs?: number }): Promise<ServerProcess> {
  const server = spawnServerProcess(opts);
  try {
    await server.healthy({ timeoutMs: opts.healthyWithinMs });
  } catch (err) {
    await server.cleanup();
    throw err;
  }
  return server;
}

/**
 * Runs a process that is expected to refuse to start (a bad setting) and
 * collects what it said.
 * @returns its exit code and everything it printed.
 */
export async function refusedStart(opts: ServerProcessOptions): Promise<{ code: number; output: string }> {
  const server = spawnServerProcess(opts);
  const output = await server.output();
  const code = await server.proc.exited;
  await server.cleanup();
  return { code, output };
}
