/**
 * Configuration: the only module that reads the process environment.
 *
 * `loadConfig(env)` validates every key once with zod and returns a frozen,
 * typed `Config`; everything else receives that object. Empty strings count as
 * unset. A bad value throws `ConfigError` whose message names the variable, so
 * the process can stop with a clear line instead of a stack trace.
 * Every key is listed, with a comment, in `.env.example`.
 */
import { availableParallelism } from "node:os";
import { resolve, sep } from "node:path";
import { z } from "zod";
import { parseProxyList, type ProxyList } from "./lib/proxies.ts";
import { parseDurationMs, parseRate, type Rate } from "./lib/rate-limit.ts";
import { loadSsoConfig, SsoConfigIssue, type SsoConfig } from "./sso/config.ts";
import { isLanguageId, LANGUAGE_IDS } from "../isolate/languages/index.ts";
import { CEILING_DEFAULTS, CEILING_MAX, ceilingsFromSettings, type ProblemCeilings } from "./problems/ceilings.ts";
import { USER_STORAGE_DEFAULT_MIB, USER_STORAGE_MAX_MIB_BOUND, type StorageCeiling } from "./problems/quota-setting.ts";
import { CCS_RELEASES } from "./contests/ccs/release.ts";
import { IMPORT_MEMORY_DEFAULT_MIB, IMPORT_MEMORY_MIN_MIB } from "./packages/import-memory.ts";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

/** A ceiling setting (src/problems/ceilings.ts): a whole number from `min` to the hard bound, in `unit`. */
const ceiling = (key: keyof ProblemCeilings, min = 16, unit = "MiB") =>
  z.coerce
    .number({ error: `expected a number of ${unit}` })
    .int({ error: `expected a whole number of ${unit}` })
    .min(min, { error: `must be at least ${min} (${unit})` })
    .max(CEILING_MAX[key], { error: `must be at most ${CEILING_MAX[key]} (${unit})` })
    .default(CEILING_DEFAULTS[key]);

/** A rate-limit setting: `<count>/<window>` such as `600/1h` (`parseRate`), `fallback` when unset. */
const rate = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): Rate => {
      try {
        return parseRate(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    });

/** A duration setting: a whole number and a unit s, m, h or d such as `15m` (`parseDurationMs`), read as ms. */
const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): number => {
      try {
        return parseDurationMs(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    });

const csv = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url({ message: "each entry must be an origin such as https://judge.example.edu" })));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  /** Listen address: 0.0.0.0, or 127.0.0.1 when TRUST_PROXY is set (the proxy is then the only way in). */
  HOST: z.string().optional(),
  /** libSQL URL: `file:` for the embedded database, `libsql://`/`http(s)://` for a server. */
  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:|https?:|wss?:)/, "must start with file:, libsql:, http(s): or ws(s):")
    .default("file:./data/app.db"),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  /** Directory for generated secrets, compile cache and other state. */
  DATA_DIR: z.string().default("./data"),
  /** HMAC key for session JWTs; at least 32 characters. Generated into DATA_DIR when unset. */
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Session lifetime in days (sliding: renewed when less than half remains). */
  SESSION_TTL_DAYS: positiveInt.default(30),
  CORS_ORIGINS: csv.default([]),
  /** Serve the built client from this directory (SPA fallback to index.html). */
  CLIENT_DIST: z.string().default("./client/dist"),
  /**
   * Behind a reverse proxy: X-Forwarded-For, -Proto and -Host count, but only from a peer in TRUSTED_PROXIES
   * (default loopback), never from any other peer; HOST then defaults to loopback.
   */
  TRUST_PROXY: bool.default(false),
  /**
   * Site admins and course owners and instructors must sign in with a second factor (TOTP) when they
   * sign in with a password; until they turn it on, their session may only set it up (src/accounts/two-factor/policy.ts).
   */
  REQUIRE_TWO_FACTOR_FOR_STAFF: bool.default(false),
  /**
   * Accounts whose e-mail address is not verified may not submit (403 naming this setting; runs stay allowed;
   * site admins are exempt). Off by default: accounts made before verification existed are unverified (decision 071).
   */
  REQUIRE_VERIFIED_EMAIL_TO_SUBMIT: bool.default(false),
  /** The reverse proxies' addresses (CIDRs): whose X-Forwarded-* (TRUST_PROXY) and sign-in header (TRUSTED_HEADER) count. */
  TRUSTED_PROXIES: z.string().optional(),

  SANDBOX: z.enum(["auto", "isolate", "bwrap", "unsafe-local"]).default("auto"),
  /** Boxes in the pool = judging concurrency. Default: number of CPUs. */
  SANDBOX_POOL_SIZE: positiveInt.default(availableParallelism()),
  /** First isolate box id this server may use; two servers on one host need disjoint ranges. */
  ISOLATE_BOX_ID_START: z.coerce.number().int().min(0).default(0),
  /** At least 2: a problem's own validator runs in a second box beside the submission's. */
  ISOLATE_BOX_ID_COUNT: z.coerce.number().int().min(2, "must be at least 2 (a validator runs in a box of its own)").default(100),
  /** Path of the isolate binary (looked up on PATH when unset). */
  ISOLATE_BIN: z.string().default("isolate"),
  /** Where the bwrap backend creates its box directories. */
  SANDBOX_ROOT: z.string().default("/tmp/oj-boxes"),
  /**
   * SIGTERM/SIGINT: how long a clean stop (jobs back to the queue, connections closed, boxes unmounted, locks
   * released) may take before the process unmounts, releases and exits anyway (src/ops/shutdown.ts), seconds.
   * 8: inside Docker's 10 s before its SIGKILL (systemd waits 90 s).
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).int({ error: "expected a whole number of seconds" }).min(1, { error: "must be at least 1 (seconds)" }).max(600, { error: "must be at most 600 (seconds)" }).default(8),

  /**
   * The languages this server offers (comma-separated registry ids, e.g. `cpp,c,java,py,pypy`; the install
   * script installs the same set). Unset: every language whose compiler or runtime is installed here (or,
   * judging only on judge hosts, every language). Offered = named and, when judging here, installed.
   */
  LANGUAGES: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      const ids = v.split(",").map((s) => s.trim());
      const unknown = ids.filter((id) => !isLanguageId(id));
      if (unknown.length || !ids.length) ctx.addIssue({ code: "custom", message: `unknown language ${unknown.join(", ") || "(none)"}: the ids are ${LANGUAGE_IDS.join(", ")}` });
    }),

  /** Ceilings of one problem (src/problems/ceilings.ts), MiB: its highest memory limit, one test, all its tests, a package read from disk. */
  PROBLEM_MEMORY_MAX_MIB: ceiling("memoryLimitKib"),
  PROBLEM_TEST_MAX_MIB: ceiling("testCaseBytes"),
  PROBLEM_TESTS_MAX_MIB: ceiling("testsTotalBytes"),
  PACKAGE_MAX_MIB: ceiling("packageBytes"),
  /** Hidden tests of one problem at most. */
  PROBLEM_TEST_COUNT_MAX: ceiling("testCount", 1, "tests"),
  /** All of one user's live problems together (hidden tests, statements, images; course problems count for their owner), MiB; admins are exempt (src/problems/quota.ts). */
  USER_STORAGE_MAX_MIB: z.coerce
    .number({ error: "expected a number of MiB" })
    .int({ error: "expected a whole number of MiB" })
    .min(16, { error: "must be at least 16 (MiB)" })
    .max(USER_STORAGE_MAX_MIB_BOUND, { error: `must be at most ${USER_STORAGE_MAX_MIB_BOUND} (MiB)` })
    .default(USER_STORAGE_DEFAULT_MIB),
  /** Memory of the process that imports one package, MiB: a memory control group caps it (an rlimit without cgroups); past it the import fails with a 413 naming this setting (src/packages/import-memory.ts). */
  IMPORT_MEMORY_MAX_MIB: z.coerce
    .number({ error: "expected a number of MiB" })
    .int({ error: "expected a whole number of MiB" })
    .min(IMPORT_MEMORY_MIN_MIB, { error: `must be at least ${IMPORT_MEMORY_MIN_MIB} (MiB)` })
    .max(1048576, { error: "must be at most 1048576 (MiB)" })
    .default(IMPORT_MEMORY_DEFAULT_MIB),
  /** Public problems of ordinary users: hidden tests × passes × time limit, seconds (src/problems/work.ts). */
  PUBLIC_PROBLEM_WORK_MAX_SECONDS: ceiling("publicWorkMs", 10, "s"),

  /** Compile cache size bound in MiB. */
  COMPILE_CACHE_MIB: positiveInt.default(512),
  /** Runs (/api/compiler) per user per minute, and at most this many in flight per user. */
  RUN_RATE_PER_MINUTE: positiveInt.default(30),
  RUNS_IN_FLIGHT_PER_USER: positiveInt.default(2),
  SUBMIT_RATE_PER_MINUTE: positiveInt.default(12),
  /** Judge worker lease length in seconds: a job not renewed within it is taken over. */
  JUDGE_LEASE_SECONDS: positiveInt.default(60),
  /** Run the judge queue consumer inside the web process. */
  JUDGE_IN_PROCESS: bool.default(true),

  /**
   * Rate limits, `<count>/<window>` (src/lib/rate-limit.ts `parseRate`); per-address defaults sized for a
   * 300-seat lab behind one address (docs/decisions/049-rate-limits-as-settings.md).
   */
  RATE_LIMIT_SIGNUP_PER_ADDRESS: rate("600/1h"),
  RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS: rate("1000/15m"),
  RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS: rate("1000/10m"),
  RATE_LIMIT_CONTACT_PER_ADDRESS: rate("30/10m"),
  RATE_LIMIT_PROBLEM_WRITES_PER_USER: rate("60/1h"),
  RATE_LIMIT_VERIFIES_PER_USER: rate("6/1h"),
  RATE_LIMIT_CODE_GUESSES_PER_USER: rate("10/10m"),
  RATE_LIMIT_CLARIFICATIONS_PER_USER: rate("30/1h"),
  /** Failed password sign-ins per account, from any address: free ones, then a delay doubling from FIRST to MAX. */
  SIGNIN_BACKOFF_AFTER_FAILURES: z.coerce
    .number({ error: "expected a number of failures" })
    .int({ error: "expected a whole number of failures" })
    .min(1, { error: "must be from 1 to 1000 (failures)" })
    .max(1000, { error: "must be from 1 to 1000 (failures)" })
    .default(5),
  SIGNIN_BACKOFF_FIRST: duration("1m"),
  SIGNIN_BACKOFF_MAX: duration("15m"),
  SIGNIN_BACKOFF_FORGET_AFTER: duration("24h"),
  /**
   * Submissions of one user judged at once, on all judges together (src/submissions/queue.ts):
   * one user's backlog never holds more slots than this (review N1).
   */
  JUDGE_JOBS_PER_USER: positiveInt.default(1),
  /**
   * The most wall-clock time one submission's tests may take, seconds (src/judge/budget.ts):
   * its budget is derived from its limits and tests, and never above this.
   */
  JUDGE_SUBMISSION_BUDGET_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).int({ error: "expected a whole number of seconds" }).min(5, { error: "must be at least 5 (seconds)" }).max(86_400, { error: "must be at most 86400 (seconds)" }).default(600),
  /** The ICPC Contest API release served at /api/ccs/ (src/contests/ccs/release.ts): what the site's clients (resolver, CDS) are configured for. */
  CCS_API_VERSION: z.enum(CCS_RELEASES, { error: `expected one of ${CCS_RELEASES.join(", ")} (a ccs-specs release)` }).default(CCS_RELEASES[0]),

  AI_PROVIDER: z.enum(["auto", "gemini", "openai", "offline"]).default("auto"),
  GEMINI_API_KEY: z.string().optional(),
  /** Override of the Gemini API base URL (tests point it at a local server). */
  GEMINI_BASE_URL: z.url().optional(),
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  AI_TIMEOUT_MS: positiveInt.default(30_000),
  AI_RATE_PER_MINUTE: positiveInt.default(6),
  AI_DAILY_QUOTA: positiveInt.default(100),

  /** Scheduled backups: a folder for them (unset: none), every N hours, keeping the newest BACKUP_KEEP. */
  BACKUP_DIR: z.string().optional(),
  BACKUP_EVERY_HOURS: z.coerce.number({ error: "expected a number of hours" }).positive({ error: "must be more than 0" }).default(24),
  BACKUP_KEEP: positiveInt.default(7),

  /**
   * Outgoing mail (src/mail, decision 059): `SMTP_URL` (`smtp://user:pass@host:587` upgrades with STARTTLS,
   * `smtps://host:465` is TLS from the start), or SMTP_HOST with SMTP_PORT [587], SMTP_USER, SMTP_PASS. Unset:
   * no mail is sent (an admin makes reset links instead). MAIL_FROM is the sender address.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "expected smtp://user:pass@host:port or smtps://..." }).optional(),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: port.optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  /** A PEM file of the certificate authority to trust for the SMTP server's certificate (a campus CA, a self-signed server); else the system's. */
  SMTP_TLS_CA_FILE: z.string().optional(),
  MAIL_FROM: z.string().default("Online Judge <judge@localhost>"),
  /** Delivery attempts of one message before it is marked failed (retries back off: 30 s doubling to 6 h). */
  MAIL_MAX_ATTEMPTS: z.coerce.number({ error: "expected a number of attempts" }).int().min(1, { error: "must be from 1 to 100" }).max(100, { error: "must be from 1 to 100" }).default(8),
  /** How long a sender's claim on a message lasts, seconds: a killed sender's messages are taken up again after it. */
  MAIL_LEASE_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).int().min(1, { error: "must be from 1 to 3600" }).max(3600, { error: "must be from 1 to 3600" }).default(60),
  /** Messages handed to the mail server, at most `<count>/<window>`. */
  MAIL_SEND_RATE: rate("600/1m"),
  /**
   * How often the server looks for the notices the clock brings (an assignment opened, due within 24 hours, a
   * contest starting within the hour; src/notifications/scan.ts), seconds. Each is sent once whatever the interval.
   */
  NOTIFY_SCAN_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).int().min(5, { error: "must be from 5 to 3600" }).max(3600, { error: "must be from 5 to 3600" }).default(60),
  /** "Forgot password" requests per client address and per email (either way: 429, whether the account exists or not). */
  RATE_LIMIT_PASSWORD_RESETS_PER_ADDRESS: rate("300/1h"),
  RATE_LIMIT_PASSWORD_RESETS_PER_EMAIL: rate("5/1h"),
  /** E-mail links one account may ask for (a verification link sent again, an address change): 429 past it. */
  RATE_LIMIT_EMAIL_LINKS_PER_USER: rate("5/1h"),
  /** Announcements per course, whoever of its staff posts them (each one notifies, and may mail, every member): 429 past it. */
  RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE: rate("10/1h"),

  /** GET /metrics: a bearer token that opens it to other hosts (loopback may always scrape). */
  METRICS_TOKEN: z.string().min(16, { error: "at least 16 characters" }).optional(),

  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),

  /**
   * The languages answers are written in (src/i18n, decision 068): `all` (each request's Accept-Language; a
   * user's own export in their account's language) or `en` (English whatever the request asks: one locale).
   */
  ANSWER_LOCALES: z.enum(["all", "en"], { error: "expected all or en" }).default("all"),
});

/**
 * The validated settings; `sso` holds the ways in besides a password (src/sso/config.ts); `proxies` the parsed
 * TRUSTED_PROXIES (loopback when unset).
 */
export type Config = Readonly<Omit<z.infer<typeof schema>, "HOST"> & { HOST: string; sso: SsoConfig; proxies: ProxyList; ceilings: ProblemCeilings & StorageCeiling }>;

/**
 * A bad configuration value. Thrown by `loadConfig`, and by start-up code that
 * checks combinations of keys (e.g. src/ai/service.ts: AI_PROVIDER=gemini
 * without GEMINI_API_KEY). The message starts with the variable's name.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const CONFIG_HEADLINE = "Invalid configuration:";

/**
 * Runs a start-up step; a `ConfigError` from it ends the process with exit
 * code 1 and one clean message naming the variable (no stack trace), e.g.
 * `Invalid configuration:\n  GEMINI_API_KEY: required when AI_PROVIDER=gemini`.
 * Any other error propagates unchanged.
 * @param exit how to end the process (tests pass their own).
 * @example const config = await exitOnConfigError(() => loadConfig(process.env));
 */
export async function exitOnConfigError<T>(
  step: () => T | Promise<T>,
  exit: (code: number) => never = (code) => process.exit(code),
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message.startsWith(CONFIG_HEADLINE) ? err.message : `${CONFIG_HEADLINE}\n  ${err.message}`);
    return exit(1);
  }
}

/**
 * Parses and validates the environment.
 * @param env  usually `process.env`; empty strings are treated as unset.
 * @returns    the frozen config.
 * @throws ConfigError naming every bad variable, e.g. `PORT: expected number`.
 * @example loadConfig({ PORT: "8080" }).PORT // 8080
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== "" && key in schema.shape) cleaned[key] = value.trim();
  }
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`${CONFIG_HEADLINE}\n  ${lines.join("\n  ")}`);
  }
  let sso: SsoConfig;
  try {
    sso = loadSsoConfig(env);
  } catch (err) {
    if (err instanceof SsoConfigIssue) throw new ConfigError(`${CONFIG_HEADLINE}\n  ${err.message}`);
    throw err;
  }
  let proxies: ProxyList;
  try {
    proxies = parseProxyList(parsed.data.TRUSTED_PROXIES ?? "127.0.0.1/32,::1/128", "TRUSTED_PROXIES");
  } catch (err) {
    throw new ConfigError(`${CONFIG_HEADLINE}\n  ${(err as Error).message}`);
  }
  // Links in mail name this site: from PUBLIC_URL only, never a request's Host header (which the asker writes).
  if ((parsed.data.SMTP_URL || parsed.data.SMTP_HOST) && !sso.publicUrl) {
    throw new ConfigError(`${CONFIG_HEADLINE}\n  PUBLIC_URL: required when SMTP_URL or SMTP_HOST is set (links in mail are made from it, e.g. https://judge.example.edu)`);
  }
  // Verification links go out by mail: without it no account could ever submit.
  if (parsed.data.REQUIRE_VERIFIED_EMAIL_TO_SUBMIT && !(parsed.data.SMTP_URL || parsed.data.SMTP_HOST)) {
    throw new ConfigError(`${CONFIG_HEADLINE}\n  REQUIRE_VERIFIED_EMAIL_TO_SUBMIT: needs mail (SMTP_URL or SMTP_HOST, and PUBLIC_URL): verification links are sent by e-mail`);
  }
  const HOST = parsed.data.HOST ?? (parsed.data.TRUST_PROXY ? "127.0.0.1" : "0.0.0.0");
  // DATA_DIR is owner-only (src/lib/private-files.ts): the box users could not reach boxes inside it.
  const data = resolve(parsed.data.DATA_DIR);
  const boxes = resolve(parsed.data.SANDBOX_ROOT);
  if (boxes === data || boxes.startsWith(data + sep)) {
    throw new ConfigError(`${CONFIG_HEADLINE}\n  SANDBOX_ROOT: ${boxes} is inside DATA_DIR ${data}, which only the server's user may enter; put the boxes elsewhere (default /tmp/oj-boxes)`);
  }
  const d = parsed.data;
  const ceilings = ceilingsFromSettings({ memoryLimitKib: d.PROBLEM_MEMORY_MAX_MIB, testCaseBytes: d.PROBLEM_TEST_MAX_MIB, testsTotalBytes: d.PROBLEM_TESTS_MAX_MIB, packageBytes: d.PACKAGE_MAX_MIB, testCount: d.PROBLEM_TEST_COUNT_MAX, publicWorkMs: d.PUBLIC_PROBLEM_WORK_MAX_SECONDS });
  return Object.freeze({ ...d, HOST, sso, proxies, ceilings: Object.freeze({ ...ceilings, userStorageBytes: d.USER_STORAGE_MAX_MIB * 1024 * 1024 }) });
}
