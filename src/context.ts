/**
 * The services every procedure can reach, built once at start (src/server.ts,
 * via `buildServices`) and passed down; and the per-request context that tRPC
 * and the REST adapter both build from a Hono request (`createContext`).
 */
import { registerBankHooks } from "./problems/bank/status.ts";
import { TWO_FACTOR_GUESSES_PER_ACCOUNT } from "./accounts/two-factor/setup.ts";
import { EXPORTS_PER_HOUR } from "./account-data/export.ts";
import { requestLocale } from "./i18n/messages.ts";
import type { AnyLocaleTag } from "./i18n/locales.ts";
import type { Context as HonoContext } from "hono";
import type { Config } from "./config.ts";
import type { Database } from "../db/index.ts";
import type { SandboxSelection } from "../isolate/index.ts";
import type { Logger } from "./log.ts";
import type { JudgeService } from "./judge/service.ts";
import { createAiService, type AiService } from "./ai/service.ts";
import { registerCourseHooks } from "./courses/invites.ts";
import { contestRuntimeFor, type ContestRuntime } from "./contests/runtime.ts";
import { FailureBackoff, RateLimiter } from "./lib/rate-limit.ts";
import { createOpsState, type OpsState } from "./ops/state.ts";
import { readSessionToken, validateSessionToken } from "./auth/session.ts";
import type { SessionUser } from "./accounts/user.ts";
import { isLoopback, isTrustedProxy } from "./lib/proxies.ts";

/** The sandbox chosen at start by `createSandbox` (isolate/index.ts); `backend` is null when none is usable. */
export type { SandboxSelection } from "../isolate/index.ts";

/**
 * Per-process rate limiters of the account, contact and problem-writing routes, each from its setting
 * (src/config.ts; defaults in brackets). Numbers and reasons: docs/decisions/022-login-throttling.md and
 * docs/decisions/049-rate-limits-as-settings.md.
 */
export interface Limiters {
  /**
   * Failed password sign-ins per account (normalised email, or directory and username), from any address:
   * growing delays after SIGNIN_BACKOFF_AFTER_FAILURES [5], from SIGNIN_BACKOFF_FIRST [1 minute] doubling to
   * SIGNIN_BACKOFF_MAX [15 minutes].
   */
  loginByEmail: FailureBackoff;
  /** Failed sign-ins per client address: RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS [1000/15m] (a lab shares one address). */
  loginByIp: RateLimiter;
  /** Accounts created per client address: RATE_LIMIT_SIGNUP_PER_ADDRESS [600/1h: a 300-seat lab twice over]. */
  registerByIp: RateLimiter;
  /** Contact messages per client address: RATE_LIMIT_CONTACT_PER_ADDRESS [30/10m]. */
  contactByIp: RateLimiter;
  /** Problem creations and updates per user: RATE_LIMIT_PROBLEM_WRITES_PER_USER [60/1h] (each may carry up to 64 MiB of tests). */
  problemWritesByUser: RateLimiter;
  /**
   * Sign-ins started at an identity provider or an LMS per client address: RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS
   * [1000/10m] (each stores a flow row for 10 minutes; a 300-seat lab starting together, some twice, stays inside).
   */
  signInStartsByIp: RateLimiter;
  /** Verifies of a package's example submissions started per user: RATE_LIMIT_VERIFIES_PER_USER [6/1h] (each judges every example on every test). */
  verifiesByUser: RateLimiter;
  /**
   * Tries of a course's invite code per user, and of a contest's codes per user and contest (src/contests/registration.ts):
   * RATE_LIMIT_CODE_GUESSES_PER_USER [10/10m] (codes are 8 characters or more: guessing them takes far more).
   */
  joinsByUser: RateLimiter;
  /** Contest questions per participant: RATE_LIMIT_CLARIFICATIONS_PER_USER [30/1h] (each is a row the jury must read). */
  clarificationsByUser: RateLimiter;
  /** "Forgot password" requests per client address: RATE_LIMIT_PASSWORD_RESETS_PER_ADDRESS [300/1h]. */
  passwordResetsByIp: RateLimiter;
  /** "Forgot password" requests per email as typed (normalised), account or not: RATE_LIMIT_PASSWORD_RESETS_PER_EMAIL [5/1h]. */
  passwordResetsByEmail: RateLimiter;
  /**
   * Wrong second-factor codes per account, over every sign-in ticket and the account page:
   * TWO_FACTOR_GUESSES_PER_ACCOUNT (10 per 10 minutes; src/accounts/two-factor/setup.ts). A ticket's own five tries
   * alone would let anyone with the password fetch ticket after ticket.
   */
  secondFactorByAccount: RateLimiter;
  /** E-mail links asked for per user (verification sent again, address changes): RATE_LIMIT_EMAIL_LINKS_PER_USER [5/1h]. */
  emailLinksByUser: RateLimiter;
  /** Announcements per course (each reaches every member): RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE [10/1h]. */
  announcementsByCourse: RateLimiter;
  /** Data exports per user: EXPORTS_PER_HOUR (5/1h; each reads every submission of the account, src/account-data/export.ts). */
  exportsByUser: RateLimiter;
}

/** The settings `createLimiters` reads. */
export type LimiterSettings = Pick<
  Config,
  | "RATE_LIMIT_SIGNUP_PER_ADDRESS"
  | "RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS"
  | "RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS"
  | "RATE_LIMIT_CONTACT_PER_ADDRESS"
  | "RATE_LIMIT_PROBLEM_WRITES_PER_USER"
  | "RATE_LIMIT_VERIFIES_PER_USER"
  | "RATE_LIMIT_CODE_GUESSES_PER_USER"
  | "RATE_LIMIT_CLARIFICATIONS_PER_USER"
  | "RATE_LIMIT_PASSWORD_RESETS_PER_ADDRESS"
  | "RATE_LIMIT_PASSWORD_RESETS_PER_EMAIL"
  | "RATE_LIMIT_EMAIL_LINKS_PER_USER"
  | "RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE"
  | "SIGNIN_BACKOFF_AFTER_FAILURES"
  | "SIGNIN_BACKOFF_FIRST"
  | "SIGNIN_BACKOFF_MAX"
  | "SIGNIN_BACKOFF_FORGET_AFTER"
>;

/** Long-lived services, built once at start; a new capability that needs one adds a field here (and a line in `buildServices`' callers). */
export interface Services {
  config: Config;
  db: Database;
  log: Logger;
  /** HMAC-SHA256 key for session JWTs: SESSION_SECRET, or the one generated into DATA_DIR. */
  sessionKey: Uint8Array;
  sandbox: SandboxSelection;
  limiters: Limiters;
  /** The clock deadlines are decided by, ms since the epoch (tests set it; default `Date.now`). */
  now: () => number;
  /** What the operator's views read: start time, last backup, recent internal errors. */
  ops: OpsState;
  /**
   * Run, submit and the judge queue (src/judge/service.ts), created at start by
   * `JudgeService.create`. Absent only in tests that do not judge; the judge
   * procedures then answer SANDBOX_UNAVAILABLE.
   */
  judge?: JudgeService;
  /**
   * AI code review (src/ai/service.ts): the server's (made at start), or, where
   * none was given, built once from config, db, log and sandbox on first use
   * (`buildServices`). Assignable (tests put in their own).
   */
  ai: AiService;
  /**
   * The mail sender running in this process (src/mail/sender.ts), when SMTP is configured: `kick()` after
   * queuing sends at once instead of at the next poll. Absent: queued mail waits for a sender's poll.
   */
  mail?: { kick(): void };
  /** Contests' live state: the change bus and the scoreboards (src/contests/runtime.ts), one per database. */
  contests: ContestRuntime;
}

/** Builds the limiters from their settings (usually the Config); `now` lets tests drive the clock. */
export function createLimiters(settings: LimiterSettings, now?: () => number): Limiters {
  const s = settings;
  return {
    loginByEmail: new FailureBackoff({
      freeFailures: s.SIGNIN_BACKOFF_AFTER_FAILURES,
      firstDelayMs: s.SIGNIN_BACKOFF_FIRST,
      maxDelayMs: s.SIGNIN_BACKOFF_MAX,
      forgetAfterMs: s.SIGNIN_BACKOFF_FORGET_AFTER,
      now,
    }),
    loginByIp: new RateLimiter({ ...s.RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS, now }),
    registerByIp: new RateLimiter({ ...s.RATE_LIMIT_SIGNUP_PER_ADDRESS, now }),
    contactByIp: new RateLimiter({ ...s.RATE_LIMIT_CONTACT_PER_ADDRESS, now }),
    problemWritesByUser: new RateLimiter({ ...s.RATE_LIMIT_PROBLEM_WRITES_PER_USER, now }),
    signInStartsByIp: new RateLimiter({ ...s.RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS, now }),
    verifiesByUser: new RateLimiter({ ...s.RATE_LIMIT_VERIFIES_PER_USER, now }),
    joinsByUser: new RateLimiter({ ...s.RATE_LIMIT_CODE_GUESSES_PER_USER, now }),
    clarificationsByUser: new RateLimiter({ ...s.RATE_LIMIT_CLARIFICATIONS_PER_USER, now }),
    passwordResetsByIp: new RateLimiter({ ...s.RATE_LIMIT_PASSWORD_RESETS_PER_ADDRESS, now }),
    passwordResetsByEmail: new RateLimiter({ ...s.RATE_LIMIT_PASSWORD_RESETS_PER_EMAIL, now }),
    secondFactorByAccount: new RateLimiter({ ...TWO_FACTOR_GUESSES_PER_ACCOUNT, now }),
    emailLinksByUser: new RateLimiter({ ...s.RATE_LIMIT_EMAIL_LINKS_PER_USER, now }),
    announcementsByCourse: new RateLimiter({ ...s.RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE, now }),
    exportsByUser: new RateLimiter({ limit: EXPORTS_PER_HOUR, windowMs: 3_600_000, now }),
  };
}

/**
 * Assembles Services from the parts opened at start; fills in fresh limiters
 * and the system clock unless given.
 */
export function buildServices(
  parts: Omit<Services, "limiters" | "now" | "ops" | "ai" | "contests"> & { limiters?: Limiters; now?: () => number; ops?: OpsState; ai?: AiService },
): Services {
  // Courses take up roster invitations when an account is made (accounts know nothing of courses).
  registerCourseHooks();
  // The problem bank's marks and counters follow every verdict (src/problems/bank/status.ts).
  registerBankHooks();
  const { ai, ...rest } = parts;
  const services = {
    ...rest,
    limiters: parts.limiters ?? createLimiters(parts.config),
    now: parts.now ?? Date.now,
    ops: parts.ops ?? createOpsState(),
    contests: contestRuntimeFor(parts.db),
  } as Services;
  // The AI service, built once on first use unless given (configuring a model checks its settings then).
  let built: AiService | undefined = ai;
  // Not enumerable: spreading the services (each request's context) must not build it; contexts read it through.
  Object.defineProperty(services, "ai", {
    enumerable: false,
    get: () => (built ??= createAiService({ config: services.config, db: services.db, log: services.log, sandbox: services.sandbox.backend })),
    set: (value: AiService) => void (built = value),
  });
  return services;
}

export type { SessionUser } from "./accounts/user.ts";

export interface Context extends Services {
  /** Null when the request carries no valid session. */
  user: SessionUser | null;
  /** Hashed id of the current session (for logout), null when signed out. */
  sessionId: string | null;
  /** The session may only set up two-factor sign-in (REQUIRE_TWO_FACTOR_FOR_STAFF; src/trpc/init.ts enforces it). */
  mustSetUpTwoFactor?: boolean;
  /** The request's User-Agent (for the session a sign-in makes); null when absent. */
  userAgent?: string | null;
  /** The token that authenticated this request (the renewed one when renewed); null when signed out. */
  sessionToken: string | null;
  /** Client address (X-Forwarded-For only from a trusted proxy: see `clientIp`); "unknown" when not known. */
  ip: string;
  /** The request reached us over HTTPS (directly, or per X-Forwarded-Proto with TRUST_PROXY): cookies get `Secure`. */
  https: boolean;
  /** This site's origin as browsers see it (PUBLIC_URL, else the request's host; see `publicOrigin`). */
  origin: string;
  /** Headers to add to the response (Set-Cookie on login/logout/renewal). */
  resHeaders: Headers;
  /** The absolute URL as the browser asked for it (`origin` + path + query): what Safe Exam Browser hashes (src/courses/exam). */
  requestUrl?: string;
  /** The `X-SafeExamBrowser-ConfigKeyHash` header, null when absent. */
  sebConfigKeyHash?: string | null;
  /**
   * The language the request reads in (its Accept-Language; src/i18n/messages.ts; always `en` with
   * ANSWER_LOCALES=en): error, validation and success messages follow it.
   */
  locale: AnyLocaleTag;
}

/** What Bun.serve passes as Hono's `env`: only requestIP is used. */
interface BunServerEnv {
  requestIP?: (req: Request) => { address: string } | null;
}

/**
 * The socket's peer address from Bun.serve, whatever the headers say (what a
 * trusted proxy's header is checked against); null when not known.
 */
export function peerAddress(c: HonoContext): string | null {
  const env = c.env as BunServerEnv | undefined;
  try {
    return env?.requestIP?.(c.req.raw)?.address ?? null;
  } catch {
    return null;
  }
}

/** Whether the socket's peer is one of TRUSTED_PROXIES and TRUST_PROXY is set: only then do X-Forwarded-* count. */
export function fromTrustedProxy(c: HonoContext, config: Pick<Config, "TRUST_PROXY" | "proxies">): boolean {
  return config.TRUST_PROXY && isTrustedProxy(config.proxies.list, peerAddress(c));
}

/**
 * The client address. Without TRUST_PROXY, or from a peer that is not one of
 * TRUSTED_PROXIES, the socket's peer, whatever the headers say. From a trusted
 * proxy, X-Forwarded-For read from the right: the first address that is not
 * itself a trusted proxy (entries left of it are the client's to write).
 */
export function clientIp(c: HonoContext, config: Pick<Config, "TRUST_PROXY" | "proxies">): string {
  const peer = peerAddress(c) ?? "unknown";
  if (!fromTrustedProxy(c, config)) return peer;
  const hops = (c.req.header("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrustedProxy(config.proxies.list, hops[i]!)) return hops[i]!;
  return hops[0] ?? peer;
}

/** Headers a proxy adds to say it forwarded the request. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip", "via"];

/**
 * Whether the request comes from this machine itself: its client address is
 * loopback and, when the proxy headers do not count (no TRUST_PROXY, or a peer
 * outside TRUSTED_PROXIES), it carries no sign of having been forwarded. A
 * proxy on the same host thus never makes its clients "loopback".
 */
export function fromThisMachine(c: HonoContext, config: Pick<Config, "TRUST_PROXY" | "proxies">): boolean {
  if (!isLoopback(clientIp(c, config))) return false;
  if (fromTrustedProxy(c, config)) return true;
  return !FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined);
}

/**
 * This site's origin as browsers and outside systems (identity providers,
 * LMS platforms) see it: PUBLIC_URL when set, else the request's scheme and
 * Host (the proxy's X-Forwarded-Host and -Proto from a trusted proxy).
 */
export function publicOrigin(c: HonoContext, config: Config): string {
  if (config.sso.publicUrl) return config.sso.publicUrl.origin;
  const url = new URL(c.req.url);
  const host = (fromTrustedProxy(c, config) && c.req.header("x-forwarded-host")) || c.req.header("host") || url.host;
  return `${isHttps(c, config) ? "https" : "http"}://${host}`;
}

/** Whether the request came over HTTPS (X-Forwarded-Proto counts only from a trusted proxy). */
export function isHttps(c: HonoContext, config: Pick<Config, "TRUST_PROXY" | "proxies">): boolean {
  if (c.req.url.startsWith("https:")) return true;
  return fromTrustedProxy(c, config) && c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/**
 * Builds the per-request context: authenticates the `Authorization: Bearer`
 * token, or (when no Authorization header is present) the session cookie, and
 * renews a session past half its life (Set-Cookie plus `X-Session-Token` on
 * `resHeaders`).
 * @param resHeaders headers merged into the response (the tRPC fetch adapter passes its own).
 */
export async function createContext(
  services: Services,
  c: HonoContext,
  resHeaders: Headers = new Headers(),
): Promise<Context> {
  const ip = clientIp(c, services.config);
  const https = isHttps(c, services.config);
  const token = readSessionToken(c.req.header("authorization"), c.req.header("cookie"));
  let user: SessionUser | null = null;
  let sessionId: string | null = null;
  let sessionToken: string | null = null;
  let mustSetUpTwoFactor = false;
  if (token) {
    const session = await validateSessionToken(services, token, { ip });
    if (session) {
      user = session.user;
      sessionId = session.sessionId;
      mustSetUpTwoFactor = session.mustSetUpTwoFactor;
      sessionToken = session.renewed?.token ?? token;
      if (session.renewed) {
        resHeaders.append("Set-Cookie", session.renewed.cookie(https));
        resHeaders.set("X-Session-Token", session.renewed.token);
      }
    }
  }
  return {
    ...services,
    user,
    sessionId,
    sessionToken,
    mustSetUpTwoFactor,
    userAgent: c.req.header("user-agent") ?? null,
    ip,
    https,
    locale: services.config.ANSWER_LOCALES === "en" ? "en" : requestLocale(c.req.header("accept-language")),
    get ai() {
      return services.ai;
    },
    // Worked out only by the few procedures that name this site's URLs (LTI).
    get origin() {
      return publicOrigin(c, services.config);
    },
    get requestUrl() {
      const url = new URL(c.req.url);
      return `${publicOrigin(c, services.config)}${url.pathname}${url.search}`;
    },
    sebConfigKeyHash: c.req.header("x-safeexambrowser-configkeyhash") ?? null,
    resHeaders,
  };
}
