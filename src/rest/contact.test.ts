/** The contact form over REST: stored, validated, rate-limited. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { contactMessages } from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";

let t: TestServices;
const logged: string[] = [];
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  // A trusted proxy (the loopback peer below, TRUSTED_PROXIES' default) lets each test pick its client address with X-Forwarded-For;
  // the per-address limit is set to 5 per 10 minutes (the default is 30) so the limit's test stays short.
  t = await createTestServices({ env: { TRUST_PROXY: "1", RATE_LIMIT_CONTACT_PER_ADDRESS: "5/10m" }, log: { debug() {}, info: (m: string) => logged.push(m), warn() {}, error() {} } });
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

const msg = { name: "Alan Turing", email: "alan@example.com", message: "Hello there" };

test("stores the message and answers 201; a signed-in sender is recorded", async () => {
  const res = await request(app, "POST", "/api/contact", { body: msg, headers: { "x-forwarded-for": "10.0.0.1" }, peer: "127.0.0.1" });
  expect(res.status).toBe(201);
  expect(res.body.message).toBe("Your message has been sent successfully!");
  const user = await signUp(app);
  await request(app, "POST", "/api/contact", { body: msg, token: user.token, headers: { "x-forwarded-for": "10.0.0.1" }, peer: "127.0.0.1" });
  const rows = await t.services.db.select().from(contactMessages);
  expect(rows.map((r) => [r.name, r.email, r.message, r.userId])).toEqual([
    ["Alan Turing", "alan@example.com", "Hello there", null],
    ["Alan Turing", "alan@example.com", "Hello there", user.user.id],
  ]);
  // The operator is told where each message is; the sender's address and text are not logged.
  expect(logged).toContain(`contact: message ${rows[0]!.id} stored in contact_messages`);
  expect(logged.join("\n")).not.toContain("alan@example.com");
  expect(logged.join("\n")).not.toContain("Hello there");
});

test("each field is required and checked, with a 400 naming it", async () => {
  for (const [body, field] of [
    [{ ...msg, name: "" }, "name"],
    [{ ...msg, email: "nope" }, "email"],
    [{ ...msg, message: "   " }, "message"],
    [{ ...msg, message: "x".repeat(5001) }, "message"],
    [{ name: "a", email: "a@example.com" }, "message"],
  ] as const) {
    const res = await request(app, "POST", "/api/contact", { body, headers: { "x-forwarded-for": "10.0.0.2" }, peer: "127.0.0.1" });
    expect([field, res.status, res.body.field]).toEqual([field, 400, field]);
  }
});

test("the sixth message from one address within 10 minutes (RATE_LIMIT_CONTACT_PER_ADDRESS=5/10m) is a 429 with Retry-After", async () => {
  const headers = { "x-forwarded-for": "10.0.0.3" };
  const peer = "127.0.0.1";
  for (let i = 0; i < 5; i++) expect((await request(app, "POST", "/api/contact", { body: msg, headers, peer })).status).toBe(201);
  const res = await request(app, "POST", "/api/contact", { body: msg, headers, peer });
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  // Another address is not affected.
  expect((await request(app, "POST", "/api/contact", { body: msg, headers: { "x-forwarded-for": "10.0.0.4" }, peer: "127.0.0.1" })).status).toBe(201);
});
