import { expect, test } from "bun:test";
import { describeRate, FailureBackoff, parseDurationMs, parseRate, RateLimiter } from "./rate-limit.ts";

test("allows `limit` hits per window and key, then refuses with the seconds left", () => {
  let now = 1_000_000;
  const rl = new RateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
  expect([rl.hit("a").ok, rl.hit("a").ok, rl.hit("a").ok]).toEqual([true, true, true]);
  expect(rl.check("a")).toEqual({ ok: false, retryAfterSeconds: 60 });
  expect(rl.hit("b").ok).toBe(true);
  now += 30_500;
  expect(rl.hit("a")).toEqual({ ok: false, retryAfterSeconds: 30 });
  now += 29_500;
  expect(rl.hit("a")).toEqual({ ok: true, remaining: 2 });
});

test("reset forgets a key", () => {
  const rl = new RateLimiter({ limit: 1, windowMs: 60_000 });
  rl.hit("k");
  expect(rl.check("k").ok).toBe(false);
  rl.reset("k");
  expect(rl.check("k").ok).toBe(true);
});

test("memory stays bounded by maxKeys", () => {
  let now = 0;
  const rl = new RateLimiter({ limit: 1, windowMs: 1000, maxKeys: 10, now: () => now });
  for (let i = 0; i < 100; i++) rl.hit(`k${i}`);
  // The newest keys are still limited; the oldest were dropped.
  expect(rl.check("k99").ok).toBe(false);
  expect(rl.check("k0").ok).toBe(true);
  now += 1000;
  expect(rl.check("k99").ok).toBe(true);
});

test("refund takes back one hit of the current window, never below zero", () => {
  let now = 0;
  const rl = new RateLimiter({ limit: 2, windowMs: 1000, now: () => now });
  rl.hit("k");
  rl.hit("k");
  expect(rl.check("k").ok).toBe(false);
  rl.refund("k");
  expect(rl.check("k")).toEqual({ ok: true, remaining: 1 });
  rl.refund("k");
  rl.refund("k");
  expect(rl.check("k")).toEqual({ ok: true, remaining: 2 });
  rl.refund("unknown");
  expect(rl.check("unknown")).toEqual({ ok: true, remaining: 2 });
});

test("parseRate reads <count>/<window> with a unit; anything else is an error saying what was expected", () => {
  expect(parseRate("600/1h")).toEqual({ limit: 600, windowMs: 3_600_000 });
  expect(parseRate(" 5 / 10m ")).toEqual({ limit: 5, windowMs: 600_000 });
  expect(parseRate("30/90s")).toEqual({ limit: 30, windowMs: 90_000 });
  expect(parseRate("1000/1d")).toEqual({ limit: 1000, windowMs: 86_400_000 });
  expect(() => parseRate("600")).toThrow("expected <count>/<window>");
  expect(() => parseRate("600/1")).toThrow("unit s, m, h or d");
  expect(() => parseRate("600/1w")).toThrow("unit s, m, h or d");
  expect(() => parseRate("0/1h")).toThrow("from 1 to 1000000");
  expect(() => parseRate("2000000/1h")).toThrow("from 1 to 1000000");
  expect(() => parseRate("-5/1h")).toThrow("expected <count>/<window>");
  expect(() => parseRate("1.5/1h")).toThrow("expected <count>/<window>");
  expect(() => parseRate("5/31d")).toThrow("from 1s to 30d");
  expect(() => parseDurationMs("0s")).toThrow("from 1s to 30d");
  expect(parseDurationMs("15m")).toBe(900_000);
});

test("describeRate says a rate as people read it", () => {
  expect(describeRate({ limit: 30, windowMs: 3_600_000 }, "questions")).toBe("30 questions per hour");
  expect(describeRate({ limit: 5, windowMs: 600_000 })).toBe("5 per 10 minutes");
  expect(describeRate({ limit: 5, windowMs: 90_000 })).toBe("5 per 90 seconds");
});

const backoff = (now: () => number, maxKeys?: number) =>
  new FailureBackoff({ freeFailures: 3, firstDelayMs: 60_000, maxDelayMs: 600_000, forgetAfterMs: 86_400_000, maxKeys, now });

test("FailureBackoff: free failures answer at once, then each failure locks the key for a doubling delay up to the maximum", () => {
  let now = 1_000_000;
  const b = backoff(() => now);
  expect([b.attempt("a").ok, b.attempt("a").ok]).toEqual([true, true]);
  expect(b.check("a").ok).toBe(true);
  expect(b.attempt("a").ok).toBe(true); // the 3rd failure: from here on each one waits
  expect(b.attempt("a")).toEqual({ ok: false, retryAfterSeconds: 60 });
  // Hammering a locked key is refused without growing the lock.
  for (let i = 0; i < 100; i++) b.attempt("a");
  now += 30_000;
  expect(b.attempt("a")).toEqual({ ok: false, retryAfterSeconds: 30 });
  // Another key is not affected.
  expect(b.attempt("b").ok).toBe(true);
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    const gate = b.check("a");
    if (gate.ok) throw new Error("expected a lock");
    waits.push(gate.retryAfterSeconds);
    now += gate.retryAfterSeconds * 1000;
    expect(b.attempt("a").ok).toBe(true);
  }
  // 60 s left 30 s ago, then 120, 240, 480 and the 600 s maximum.
  expect(waits).toEqual([30, 120, 240, 480, 600, 600]);
  expect(b.delayAfterMs(1000)).toBe(600_000);
});

test("FailureBackoff: a success forgets the key, and so does a quiet day", () => {
  let now = 0;
  const b = backoff(() => now);
  for (let i = 0; i < 3; i++) b.attempt("a");
  expect(b.check("a").ok).toBe(false);
  b.succeed("a");
  expect(b.check("a")).toEqual({ ok: true, remaining: 3 });
  for (let i = 0; i < 2; i++) b.attempt("a");
  now += 86_400_000 - 1;
  expect(b.check("a")).toEqual({ ok: true, remaining: 1 });
  now += 1;
  expect(b.check("a")).toEqual({ ok: true, remaining: 3 });
});

test("FailureBackoff: memory stays bounded, and flooding it with new keys does not lift a running lock", () => {
  const now = 0;
  const b = backoff(() => now, 10);
  for (let i = 0; i < 3; i++) b.attempt("victim");
  expect(b.check("victim").ok).toBe(false);
  for (let i = 0; i < 100; i++) b.attempt(`flood${i}`);
  expect(b.check("victim").ok).toBe(false);
  // The newest keys are kept, the oldest unlocked ones dropped.
  expect(b.check("flood99")).toEqual({ ok: true, remaining: 2 });
  expect(b.check("flood0")).toEqual({ ok: true, remaining: 3 });
});
