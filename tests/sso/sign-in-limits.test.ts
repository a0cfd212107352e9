/** Starting sign-ins at a provider or an LMS is limited per client address (each start stores a flow row). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { createTestServices, type TestServices } from "../services.ts";

let t: TestServices;
beforeAll(async () => {
  t = await createTestServices();
});
afterAll(() => t?.cleanup());

test("past 300 starts in 10 minutes from one address: 429 with Retry-After, on the same error page", async () => {
  const app = createApp(t.services);
  const start = () => app.request(`/api/lti/login?iss=${encodeURIComponent("https://lms.example.edu")}&login_hint=u&target_link_uri=x`);
  for (let i = 0; i < 300; i++) expect((await start()).status).toBe(400);
  const limited = await start();
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await limited.text()).toContain("Too many requests");
});
