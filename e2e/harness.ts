/**
 * End-to-end harness: builds the client when client/dist is stale, starts the
 * real server (src/server.ts) on a fresh database in a temp directory, and
 * launches Debian's Chromium through playwright-core (never a downloaded
 * browser). Browser console errors and uncaught page errors are collected per
 * page so tests can assert there were none.
 */
import { expect } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { startServerProcess } from "../tests/server-process.ts";
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

/** Box ids per e2e server (its pool is at most this many, whatever the machine's CPU count). */
const E2E_BOX_ID_COUNT = 8;

export { assertTestSandbox, TEST_BOX_ID_MIN } from "../tests/server-process.ts";

/**
 * The e2e server on `port`'s own box range: 4400 + (port % 100) × 8, so each
 * port (3310-3399 here) has eight ids of its own, disjoint from the other
 * suites' (3400-4299) and from the default range.
 */
export function e2eBoxIdStart(port: number): number {
  return 4400 + (port % 100) * E2E_BOX_ID_COUNT;
}

/**
 * Starts src/server.ts on `port` with a fresh data directory and database,
 * the offline AI reviewer (unless `env` says otherwise), the built client and
 * a sandbox of its own (e2eBoxIdStart(port), a SANDBOX_ROOT in its temporary
 * folder); resolves once /api/health answers (tests/server-process.ts).
 * @param env extra environment for the server, e.g. `{ AI_PROVIDER: "openai", AI_BASE_URL: ... }`
 * @throws when `env` names a box range or SANDBOX_ROOT a default server would use (assertTestSandbox),
 *   or when the server exits or is not healthy within 60 s (with its log).
 */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<TestServer> {
  const { ISOLATE_BOX_ID_START, ISOLATE_BOX_ID_COUNT, ...rest } = env;
  const server = await startServerProcess({
    name: "e2e",
    port,
    boxIdStart: Number(ISOLATE_BOX_ID_START ?? e2eBoxIdStart(port)),
    boxIdCount: Number(ISOLATE_BOX_ID_COUNT ?? E2E_BOX_ID_COUNT),
    env: { CLIENT_DIST: join(CLIENT, "dist"), AI_PROVIDER: "offline", ...E2E_RATE_LIMITS, ...rest },
    healthyWithinMs: 60_000,
  });
  return {
    url: server.url,
    databaseUrl: server.databaseUrl,
    log: server.log,
    async stop() {
      // Its own stop is bounded by SHUTDOWN_TIMEOUT_SECONDS (8 by default); this waits past that.
      await server.stop("SIGTERM", { timeoutMs: 15_000 });
      await server.cleanup();
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
