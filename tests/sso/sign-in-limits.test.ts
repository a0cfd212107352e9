/**
 * Starting sign-ins at a provider or an LMS is limited per client address (each start stores a flow row):
 * RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS, by default 1000 per 10 minutes, so a 300-seat lab behind one
 * address starting together (some twice) passes, and a configured limit is what the server enforces.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { createTestServices, type TestServices } from "../services.ts";

let defaults: TestServices;
let configured: TestServices;
beforeAll(async () => {
  defaults = await createTestServices();
  configured = await createTestServices({ env: { RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS: "5/10m" } });
});
afterAll(() => {
  defaults?.cleanup();
  configured?.cleanup();
});

const startFrom = (app: ReturnType<typeof createApp>) => () =>
  app.request(`/api/lti/login?iss=${encodeURIComponent("https://lms.example.edu")}&login_hint=u&target_link_uri=x`);

test("default settings: a 300-seat lab starts twice from one address (600 starts); past 1000 in 10 minutes: 429 with Retry-After, on the same error page", async () => {
  const start = startFrom(createApp(defaults.services));
  // The unknown platform answers 400 after the start was counted.
  for (let i = 0; i < 1000; i++) expect((await start()).status).toBe(400);
  const limited = await start();
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(600);
  expect(await limited.text()).toContain("Too many requests");
});

test("RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS=5/10m: the sixth start from one address is a 429", async () => {
  const start = startFrom(createApp(configured.services));
  for (let i = 0; i < 5; i++) expect((await start()).status).toBe(400);
  const limited = await start();
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(600);
  // The page names the setting, for the teacher to tell the operator.
  expect(await limited.text()).toContain("5 per 10 minutes, the server&#39;s RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS");
});
