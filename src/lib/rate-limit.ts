/**
 * In-memory rate limits, keyed by any string (an email, an address, a user
 * id): a fixed-window counter (`RateLimiter`), and growing delays after
 * failures in a row (`FailureBackoff`, password sign-in per account); and the
 * `count/window` spelling operators set them with (`parseRate`). Per process
 * by design: see docs/decisions/022-login-throttling.md and
 * docs/decisions/049-rate-limits-as-settings.md.
 */

export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export interface RateLimiterOptions {
  /** Hits allowed per window and key. */
  limit: number;
  /** Window length, ms; it starts at the key's first hit. */
  windowMs: number;
  /** Keys kept at most; past it, expired windows are swept and then the oldest dropped (bounded memory). */
  maxKeys?: number;
  /** Clock, ms since the epoch (tests inject one). */
  now?: () => number;
}

interface Window {
  startMs: number;
  hits: number;
}

/**
 * @example
 * const perEmail = new RateLimiter({ limit: 5, windowMs: 15 * 60_000 });
 * // Count the attempt before awaiting anything, so concurrent attempts cannot all pass.
 * if (!perEmail.hit(email).ok) throw new AppError("TOO_MANY_LOGIN_ATTEMPTS");
 * if (await verified()) perEmail.reset(email);
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /** Whether one more hit is allowed now, without recording it. */
  check(key: string): RateDecision {
    const w = this.current(key);
    if (!w || w.hits < this.options.limit) return { ok: true, remaining: this.options.limit - (w?.hits ?? 0) };
    return { ok: false, retryAfterSeconds: this.retryAfter(w) };
  }

  /** Records one hit; returns the decision for this hit (a refused hit is not counted). */
  hit(key: string): RateDecision {
    const now = this.now();
    let w = this.current(key);
    if (!w) {
      if (this.windows.size >= this.maxKeys) this.sweep(now);
      w = { startMs: now, hits: 0 };
      this.windows.set(key, w);
    }
    if (w.hits >= this.options.limit) return { ok: false, retryAfterSeconds: this.retryAfter(w) };
    w.hits += 1;
    return { ok: true, remaining: this.options.limit - w.hits };
  }

  /**
   * Takes back one hit recorded by `hit` in the current window: for callers
   * that must count an attempt before its outcome is known (so that
   * concurrent attempts cannot all pass a `check`) and then learn it should
   * not count (e.g. a successful sign-in, when only failures are limited).
   */
  refund(key: string): void {
    const w = this.current(key);
    if (w && w.hits > 0) w.hits -= 1;
  }

  /** Forgets the key (e.g. after a successful sign-in). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && this.now() - w.startMs >= this.options.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private retryAfter(w: Window): number {
    return Math.max(1, Math.ceil((w.startMs + this.options.windowMs - this.now()) / 1000));
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.startMs >= this.options.windowMs) this.windows.delete(k);
    // Still full: drop the oldest entries (Map iterates in insertion order).
    for (const k of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}

/** A count per window, as a `RATE_LIMIT_*` setting spells it (`600/1h`). */
export interface Rate {
  limit: number;
  windowMs: number;
}

const DURATION_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Longest window or delay a setting may name: 30 days (beyond it a restart comes first anyway). */
export const DURATION_MAX_MS = 30 * DURATION_UNIT_MS.d;
/** Most hits per window a setting may allow (a bound on typos such as 1000000000/1h). */
export const RATE_LIMIT_MAX = 1_000_000;

/**
 * Reads a duration: a whole number and a unit, `s`, `m`, `h` or `d` (`90s`, `15m`, `1h`, `1d`), from 1 s to 30 days.
 * @returns milliseconds.
 * @throws Error whose message says what was expected (config.ts puts the variable's name before it).
 */
export function parseDurationMs(text: string): number {
  const m = /^(\d{1,9})\s*([smhd])$/.exec(text.trim());
  if (!m) throw new Error(`expected a whole number and a unit s, m, h or d (such as 15m or 1h), got "${text}"`);
  const ms = Number(m[1]) * DURATION_UNIT_MS[m[2] as keyof typeof DURATION_UNIT_MS];
  if (ms < 1000 || ms > DURATION_MAX_MS) throw new Error(`must be from 1s to 30d, got "${text}"`);
  return ms;
}

/**
 * Reads a rate: `<count>/<window>`, e.g. `600/1h` (600 per hour), `5/10m`; the count from 1 to 1,000,000, the
 * window a duration as `parseDurationMs` reads it.
 * @throws Error whose message says what was expected.
 */
export function parseRate(text: string): Rate {
  const m = /^(\d{1,9})\s*\/\s*(.+)$/.exec(text.trim());
  if (!m) throw new Error(`expected <count>/<window> such as 600/1h or 5/10m, got "${text}"`);
  const limit = Number(m[1]);
  if (limit < 1 || limit > RATE_LIMIT_MAX) throw new Error(`the count must be from 1 to ${RATE_LIMIT_MAX}, got "${text}"`);
  return { limit, windowMs: parseDurationMs(m[2]!) };
}

/** A duration as people read it: `15 minutes`, `1 hour`, `90 seconds`. */
export function describeDuration(ms: number): string {
  for (const [unit, size] of [["day", DURATION_UNIT_MS.d], ["hour", DURATION_UNIT_MS.h], ["minute", DURATION_UNIT_MS.m]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? "" : "s"}`;
  }
  const s = Math.ceil(ms / 1000);
  return `${s} second${s === 1 ? "" : "s"}`;
}

/** A rate as people read it, for refusals: `30 questions per hour`, `5 per 10 minutes`. */
export function describeRate(rate: Rate, what = ""): string {
  const window = describeDuration(rate.windowMs).replace(/^1 /, "");
  return `${rate.limit}${what && ` ${what}`} per ${window}`;
}

export interface FailureBackoffOptions {
  /** Failures in a row answered at once; each later one locks the key for a growing delay. */
  freeFailures: number;
  /** Delay after the first failure past `freeFailures`, ms; it doubles with each further failure. */
  firstDelayMs: number;
  /** The longest delay, ms (the doubling stops there). */
  maxDelayMs: number;
  /** Failures are forgotten this long after the last one, ms (once no delay is running). */
  forgetAfterMs: number;
  /** Keys kept at most (bounded memory); past it, forgotten keys are swept, then unlocked ones, then the oldest. */
  maxKeys?: number;
  /** Clock, ms since the epoch (tests inject one). */
  now?: () => number;
}

interface Failures {
  count: number;
  lastMs: number;
  lockedUntilMs: number;
}

/**
 * Growing delays after failures in a row, per key (a password sign-in's account, whatever address the tries
 * come from): `freeFailures` answer at once, then the key is locked for `firstDelayMs`, doubling with every
 * further failure up to `maxDelayMs`. While locked every attempt is refused, even one that would succeed, so
 * guessing gains nothing by being fast; a success forgets the key.
 *
 * With the defaults (5 free, 1 minute doubling to 15 minutes) one account takes at most
 * 5 + 4 (within the first 15 minutes of delays) + 4 an hour after that: about 100 guesses a day, however
 * many addresses they come from.
 *
 * @example
 * const perAccount = new FailureBackoff({ freeFailures: 5, firstDelayMs: 60_000, maxDelayMs: 900_000, forgetAfterMs: 86_400_000 });
 * // Count the attempt as a failure before awaiting anything, so concurrent attempts cannot all pass.
 * const gate = perAccount.attempt(email);
 * if (!gate.ok) throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", { retryAfterSeconds: gate.retryAfterSeconds });
 * if (await verified()) perAccount.succeed(email);
 */
export class FailureBackoff {
  private readonly keys = new Map<string, Failures>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(readonly options: FailureBackoffOptions) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /** The delay after the `count`-th failure in a row, ms (0 while failures are free). */
  delayAfterMs(count: number): number {
    const { freeFailures, firstDelayMs, maxDelayMs } = this.options;
    if (count < freeFailures) return 0;
    // 2^(count - freeFailures) overflows to Infinity long before it matters; min() bounds it.
    return Math.min(maxDelayMs, firstDelayMs * 2 ** (count - freeFailures));
  }

  /** Whether an attempt would be let through now, without recording one. */
  check(key: string): RateDecision {
    const f = this.current(key);
    const now = this.now();
    if (f && now < f.lockedUntilMs) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((f.lockedUntilMs - now) / 1000)) };
    return { ok: true, remaining: Math.max(0, this.options.freeFailures - (f?.count ?? 0)) };
  }

  /**
   * Records an attempt as a failure (taken back by `succeed`), unless the key is locked: then it is refused and
   * not counted (the lock does not grow by being hammered).
   */
  attempt(key: string): RateDecision {
    const gate = this.check(key);
    if (!gate.ok) return gate;
    const now = this.now();
    let f = this.current(key);
    if (!f) {
      if (this.keys.size >= this.maxKeys) this.sweep(now);
      f = { count: 0, lastMs: now, lockedUntilMs: 0 };
      this.keys.set(key, f);
    }
    f.count += 1;
    f.lastMs = now;
    f.lockedUntilMs = now + this.delayAfterMs(f.count);
    return { ok: true, remaining: Math.max(0, this.options.freeFailures - f.count) };
  }

  /** The attempt succeeded: the key's failures are forgotten. */
  succeed(key: string): void {
    this.keys.delete(key);
  }

  private forgotten(f: Failures, now: number): boolean {
    return now >= f.lockedUntilMs && now - f.lastMs >= this.options.forgetAfterMs;
  }

  private current(key: string): Failures | undefined {
    const f = this.keys.get(key);
    if (f && this.forgotten(f, this.now())) {
      this.keys.delete(key);
      return undefined;
    }
    return f;
  }

  private sweep(now: number): void {
    for (const [k, f] of this.keys) if (this.forgotten(f, now)) this.keys.delete(k);
    // Unlocked keys go before locked ones: flooding the map with new keys should not lift a running lock.
    for (const [k, f] of this.keys) {
      if (this.keys.size < this.maxKeys) return;
      if (now >= f.lockedUntilMs) this.keys.delete(k);
    }
    for (const k of this.keys.keys()) {
      if (this.keys.size < this.maxKeys) return;
      this.keys.delete(k);
    }
  }
}
