/**
 * In-memory fixed-window rate limiter, keyed by any string (an email, an
 * address, a user id). Per process by design: see
 * docs/decisions/022-login-throttling.md for why that is enough here.
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
