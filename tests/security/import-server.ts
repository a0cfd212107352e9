/**
 * Test helper for the package-import load tests: a real server process
 * (`bun src/server.ts`) on a fresh data folder, the largest package an upload
 * may carry, health polling on a fixed schedule, and the server's import child.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { bigZip, textOfSize } from "../packages/big-zip.ts";

const ROOT = join(import.meta.dir, "..", "..");
export const MIB = 1024 * 1024;

export interface ImportServer {
  base: string;
  dbFile: string;
  dir: string;
  proc: Subprocess;
  log: () => string;
  /** Starts the server again on the same data (after a kill). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a server on `port` with the isolate backend on boxes [boxStart, boxStart + 4) (never used: no judging in process).
 * @param env settings added to the defaults (e.g. IMPORT_MEMORY_MAX_MIB).
 */
export async function startImportServer(port: number, boxStart: number, env: Record<string, string> = {}): Promise<ImportServer> {
  const dir = mkdtempSync(join(tmpdir(), "oj-import-srv-"));
  const dbFile = join(dir, "data", "app.db");
  const base = `http://127.0.0.1:${port}`;
  let log = "";
  const spawn = () => {
    const proc = Bun.spawn(["bun", "src/server.ts"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? dir,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: join(dir, "data"),
        DATABASE_URL: `file:${dbFile}`,
        CLIENT_DIST: join(dir, "no-client"),
        SANDBOX: "isolate",
        SANDBOX_ROOT: join(dir, "boxes"),
        ISOLATE_BOX_ID_START: String(boxStart),
        ISOLATE_BOX_ID_COUNT: "4",
        JUDGE_IN_PROCESS: "false",
        LOG_LEVEL: "info",
        SESSION_SECRET: "import-load-test-secret-0123456789abcdef01",
        ...env,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
      void (async () => {
        const decoder = new TextDecoder();
        const reader = stream.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          log += decoder.decode(value, { stream: true });
        }
      })();
    }
    return proc;
  };
  const server: ImportServer = {
    base,
    dbFile,
    dir,
    proc: spawn(),
    log: () => log,
    async restart() {
      server.proc = spawn();
      await waitHealthy(server);
    },
    async stop() {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await waitHealthy(server);
  return server;
}

async function waitHealthy(server: ImportServer): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${server.base}/api/health`)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline || server.proc.exitCode !== null) throw new Error(`server did not start: ${server.log()}`);
    await Bun.sleep(200);
  }
}

/** Signs up and in a new account. @returns its bearer token. */
export async function account(base: string, email: string): Promise<string> {
  const body = { firstName: "L", lastName: "D", email, password: "hunter2hunter2" };
  const post = (path: string, b: unknown) => fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) });
  const reg = await post("/api/auth/register", body);
  if (reg.status >= 300) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  return ((await (await post("/api/auth/login", { email, password: body.password })).json()) as { token: string }).token;
}

/** 8 hidden tests of 32 MiB in and 32 MiB out (512 MiB less 16 KiB), a sample, and a 64 MiB file no problem keeps. */
export function largestPackage(title = "Largest"): Uint8Array {
  const half = textOfSize(32 * MIB - 1024);
  const enc = (s: string) => new TextEncoder().encode(s);
  return bigZip([
    { name: "problem.yaml", content: enc(`problem_format_version: 2025-09\nname: ${title}\nlimits:\n  time_limit: 1\n  memory: 256\n`) },
    { name: "statement/problem.en.md", content: enc(`# ${title}\n\nEcho the input.\n\n## Input\n\nLines.\n\n## Output\n\nThe same lines.\n`) },
    { name: "data/sample/1.in", content: enc("1\n") },
    { name: "data/sample/1.ans", content: enc("1\n") },
    ...Array.from({ length: 8 }, (_, i) => [
      { name: `data/secret/${i}.in`, content: half },
      { name: `data/secret/${i}.ans`, content: half },
    ]).flat(),
    { name: "attachments/filler.bin", content: textOfSize(64 * MIB - 64 * 1024) },
  ]);
}

/** POSTs a zip to the import door. @returns its status and text. */
export function importZip(base: string, token: string, zip: Uint8Array): Promise<{ status: number; text: string }> {
  return fetch(`${base}/api/problems/import`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" }, body: new Blob([Buffer.from(zip)]) }).then(async (r) => ({
    status: r.status,
    text: await r.text(),
  }));
}

/**
 * Sends GET /api/health every `everyMs` until `stop` settles, each request on its own schedule.
 * @returns each request's latency, ms, from when it was due to its answer.
 */
export async function pollHealthUntil(base: string, stop: Promise<unknown>, everyMs: number): Promise<number[]> {
  const latencies: Promise<number>[] = [];
  let done = false;
  void stop.finally(() => (done = true));
  const start = performance.now();
  for (let i = 0; !done; i++) {
    const due = start + i * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    latencies.push(
      fetch(`${base}/api/health`).then(async (r) => {
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`health answered ${r.status}`);
        return performance.now() - due;
      }),
    );
  }
  return Promise.all(latencies);
}

export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Child processes of `pid` (the import child among them while an import runs). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** Peak resident memory of `pid`, MiB (VmHWM), or 0 when it is gone. */
export function peakMib(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** The server's import child (`… import-worker …`), or null when none runs. */
export function importChild(serverPid: number): number | null {
  for (const c of childPids(serverPid)) {
    try {
      if (readFileSync(`/proc/${c}/cmdline`, "utf8").includes("import-worker")) return c;
    } catch {
      // gone
    }
  }
  return null;
}
