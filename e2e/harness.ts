/**
 * End-to-end harness: builds the client when client/dist is stale, starts the
 * real server (src/server.ts) on a fresh database in a temp directory, and
 * launches Debian's Chromium through playwright-core (never a downloaded
 * browser). Browser console errors and uncaught page errors are collected per
 * page so tests can assert there were none.
 */
import { expect } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { unmountUnder } from "../tests/mounts.ts";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const ROOT = resolve(import.meta.dir, "..");
const CLIENT = join(ROOT, "client");
const DIST_INDEX = join(CLIENT, "dist", "index.html");

/** Chromium flags: no sandbox (we run as root), no GPU, nothing that reaches the network. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function newestMtimeMs(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "dist" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

/** Builds client/dist unless it is newer than every client source file. */
export function ensureClientBuilt(): void {
  let fresh = false;
  try {
    fresh = statSync(DIST_INDEX).mtimeMs > newestMtimeMs(CLIENT);
  } catch {
    fresh = false;
  }
  if (fresh) return;
  // bun test sets NODE_ENV=test, which would make Vite bundle React's development build.
  const build = Bun.spawnSync(["bun", "run", "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (build.exitCode !== 0) {
    throw new Error(`client build failed:\n${build.stdout.toString()}\n${build.stderr.toString()}`);
  }
}

export interface TestServer {
  url: string;
  /** libSQL URL of the server's database, for checking what was stored. */
  databaseUrl: string;
  /** What the server printed so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Per-user rate limits for the browser tests, per minute. One test user
 * submits about a dozen solutions within a minute, which the production
 * defaults (src/config.ts) would refuse; the limits themselves are tested by
 * the server's own tests.
 */
const E2E_RATE_LIMITS = { RUN_RATE_PER_MINUTE: "300", SUBMIT_RATE_PER_MINUTE: "120", AI_RATE_PER_MINUTE: "60" };

/**
 * Box ids of a test server: never the default range (ISOLATE_BOX_ID_START=0,
 * ISOLATE_BOX_ID_COUNT=100, what `bun run start` uses), so the suite runs
 * beside a running product instead of being refused its boxes; and below
 * 5534 (bwrap runs box N as uid 60000 + N, and 65534 up is the overflow uid).
 */
export const TEST_BOX_ID_MIN = 1000;
const TEST_BOX_ID_END = 5534;
/** Box ids per e2e server (its pool is at most this many, whatever the machine's CPU count). */
const E2E_BOX_ID_COUNT = 8;

/**
 * The e2e server on `port`'s own box range: 4400 + (port % 100) × 8, so each
 * port (3310-3399 here) has eight ids of its own, disjoint from the other
 * suites' (3400-4299) and from the default range.
 */
export function e2eBoxIdStart(port: number): number {
  return 4400 + (port % 100) * E2E_BOX_ID_COUNT;
}

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

/**
 * Starts src/server.ts on `port` with a fresh data directory and database,
 * the offline AI reviewer (unless `env` says otherwise), the built client and
 * a sandbox of its own (e2eBoxIdStart(port), a SANDBOX_ROOT in its temporary
 * folder); resolves once /api/health answers.
 * @param env extra environment for the server, e.g. `{ AI_PROVIDER: "openai", AI_BASE_URL: ... }`
 * @throws when `env` names a box range or SANDBOX_ROOT a default server would use (assertTestSandbox),
 *   or when the server exits or is not healthy within 30 s (with its log).
 */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "oj-e2e-"));
  const sandbox = {
    ISOLATE_BOX_ID_START: String(e2eBoxIdStart(port)),
    ISOLATE_BOX_ID_COUNT: String(E2E_BOX_ID_COUNT),
    SANDBOX_ROOT: join(dir, "boxes"),
    ...Object.fromEntries(Object.entries(env).filter(([k]) => ["ISOLATE_BOX_ID_START", "ISOLATE_BOX_ID_COUNT", "SANDBOX_ROOT"].includes(k))),
  };
  try {
    assertTestSandbox(sandbox);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // The sandbox runs programs under unprivileged uids that must reach the box root.
  chmodSync(dir, 0o755);
  // DATA_DIR is owner-only (0700); the boxes live beside it, not inside.
  const databaseUrl = `file:${join(dir, "data", "app.db")}`;
  const proc = Bun.spawn(["bun", "src/server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? dir,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: join(dir, "data"),
      DATABASE_URL: databaseUrl,
      CLIENT_DIST: join(CLIENT, "dist"),
      AI_PROVIDER: "offline",
      LOG_LEVEL: "warn",
      ...E2E_RATE_LIMITS,
      ...env,
      ...sandbox,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  // If the test process ends without stop() (a crash, Ctrl+C), the server must not outlive it.
  const killOnExit = () => proc.kill("SIGKILL");
  process.once("exit", killOnExit);
  let log = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      log += decoder.decode(value, { stream: true });
    }
  };
  void collect(proc.stdout);
  void collect(proc.stderr);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill();
      throw new Error(`server not healthy after 30 s:\n${log}`);
    }
    await Bun.sleep(200);
  }
  return {
    url,
    databaseUrl,
    log: () => log,
    async stop() {
      process.off("exit", killOnExit);
      proc.kill("SIGTERM");
      // Its own stop is bounded by SHUTDOWN_TIMEOUT_SECONDS (8 by default); this waits past that.
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
      if (!exited) {
        proc.kill("SIGKILL");
        await proc.exited;
      }
      unmountUnder(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Debian Chromium (playwright-core gives each launch a fresh temporary profile). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** Console warnings (the app logs failures it recovers from, e.g. a broken progress stream). */
  warnings: string[];
  /** Requests to anywhere but the app's own origin (there must be none: no CDN, works offline). */
  foreignRequests: string[];
}

/**
 * The check after every browser test: no console errors or uncaught exceptions
 * on any watched page, no request off the app's origin (no CDN), and no
 * warning on `main`, the signed-in page whose live streams must work without
 * a fallback. Clears what it checked.
 */
export function expectCleanPages(watched: WatchedPage[], main: WatchedPage): void {
  for (const w of watched) {
    expect(w.errors.splice(0)).toEqual([]);
    expect(w.foreignRequests.splice(0)).toEqual([]);
  }
  expect(main.warnings.splice(0)).toEqual([]);
}

/**
 * Opens a page in a new context (own storage, like a separate person) and
 * records console errors. Chromium's own "Failed to load resource: ... 4xx"
 * lines for expected refusals (a wrong password's 401) are not app errors and
 * are left out.
 */
export async function openPage(browser: Browser, baseURL: string, viewport = { width: 1366, height: 900 }): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "warning") warnings.push(msg.text());
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    errors.push(text);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  const origin = new URL(baseURL).origin;
  const foreignRequests: string[] = [];
  context.on("request", (req) => {
    const url = req.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return;
    if (new URL(url).origin !== origin) foreignRequests.push(url);
  });
  return { page, context, errors, warnings, foreignRequests };
}

/**
 * Replaces the Monaco editor's whole text with `code` as a user would: focus,
 * select all, paste (typing would get Monaco's auto-indent and auto-closed
 * brackets), then waits until the app has stored exactly that code.
 */
export async function setEditorCode(page: Page, code: string): Promise<void> {
  const editor = page.locator(".monaco-editor").first();
  await editor.waitFor({ state: "visible", timeout: 30_000 });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate((text) => navigator.clipboard.writeText(text), code);
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("ControlOrMeta+V");
  await page.waitForFunction(
    (expected) => Object.keys(localStorage).some((k) => k.startsWith("code:") && localStorage.getItem(k) === expected),
    code,
  );
}
