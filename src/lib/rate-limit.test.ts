import { expect, test } from "bun:test";
import { RateLimiter } from "./rate-limit.ts";

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
