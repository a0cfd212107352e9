/**
 * Test helper: real Services over a fresh migrated libSQL file (tests/db.ts),
 * a parsed config (NODE_ENV=test, LOG_LEVEL=silent unless overridden; the server's errors still print, to stdout, so a 500's cause is in the output), a fixed
 * session secret, and no sandbox unless one is passed in. Nothing is faked but
 * the sandbox choice; pass `sandbox` from `createSandbox(config)` to run code.
 *
 * @example
 * const t = await createTestServices();
 * const app = createApp(t.services);
 * afterAll(t.cleanup);
 */
import { rmSync } from "node:fs";
import { loadConfig, type Config } from "../src/config.ts";
import { buildServices, createLimiters, type SandboxSelection, type Services } from "../src/context.ts";
import { createLogger, type Logger } from "../src/log.ts";
import { createTestDb } from "./db.ts";

export const TEST_SESSION_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

export interface TestServices {
  services: Services;
  config: Config;
  /** The database's `file:` URL. */
  url: string;
  /** A temporary directory (DATA_DIR) removed by cleanup. */
  dir: string;
  cleanup(): void;
}

/**
 * The tests' logger: silent but for errors, which go to stdout (tests/preload.ts fails a test on
 * console.error, and some errors are expected: a provider that is down, a 503), so that when a
 * request unexpectedly answers 500 its cause is in the run's output.
 */
const testLog: Logger = {
  debug() {},
  info() {},
  warn() {},
  error: (message, data) => console.log(`server error (logged): ${message}`, data ?? ""),
};

/**
 * @param opts.env     extra environment entries for loadConfig (strings, as in process.env).
 * @param opts.now     clock for the rate limiters (ms since the epoch); their limits are the config's (`env`).
 * @param opts.clock   the services' clock for deadlines (ms since the epoch; default Date.now).
 * @param opts.sandbox the sandbox selection (default: none).
 * @param opts.log     a logger (default: silent).
 */
export async function createTestServices(
  opts: { env?: Record<string, string>; now?: () => number; clock?: () => number; sandbox?: SandboxSelection; log?: Logger } = {},
): Promise<TestServices> {
  const { db, url, dir, cleanup } = await createTestDb();
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SESSION_SECRET: TEST_SESSION_SECRET,
    DATABASE_URL: url,
    DATA_DIR: dir,
    CLIENT_DIST: `${dir}/client-dist`,
    // Never the default sandbox (/tmp/oj-boxes, box ids 0-99) of a server running on this machine, should a
    // test build one from this config; callers that judge pass their own (tests/judge/fixtures.ts judgeConfig).
    SANDBOX_ROOT: `${dir}-boxes`,
    ISOLATE_BOX_ID_START: "5200",
    ...opts.env,
  });
  const services = buildServices({
    config,
    db,
    log: opts.log ?? (config.LOG_LEVEL === "silent" ? testLog : createLogger(config.LOG_LEVEL)),
    sessionKey: new TextEncoder().encode(config.SESSION_SECRET!),
    sandbox: opts.sandbox ?? { backend: null, name: "none", reason: "no sandbox in this test" },
    limiters: createLimiters(config, opts.now),
    now: opts.clock,
  });
  return {
    services,
    config,
    url,
    dir,
    cleanup() {
      cleanup();
      rmSync(`${dir}-boxes`, { recursive: true, force: true });
    },
  };
}
