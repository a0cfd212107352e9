/** The app shell: health, unknown routes, the built client with SPA fallback, CORS, CSRF, tRPC, error handling. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp, MAX_TRPC_BATCH_SIZE } from "./app.ts";
import type { Logger } from "./log.ts";
import { request, signUp } from "../tests/api.ts";
import { createTestServices, type TestServices } from "../tests/services.ts";
import pkg from "../package.json" with { type: "json" };

let t: TestServices;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestServices({ env: { CORS_ORIGINS: "https://client.example, http://localhost:5173" } });
  const dist = t.config.CLIENT_DIST;
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>judge</title><div id=root></div>");
  writeFileSync(join(dist, "assets", "app-1234.js"), "console.log('app')");
  writeFileSync(join(t.dir, "secret.txt"), "do not serve");
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

describe("GET /api/health", () => {
  test("answers status, version, db, the sandbox name and its mode (none here: no description)", async () => {
    const res = await request(app, "GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: pkg.version, db: "ok", sandbox: "none", sandboxMode: null });
  });
});

describe("routing", () => {
  test("an unknown /api route is a JSON 404, never the client page", async () => {
    const res = await request(app, "GET", "/api/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
    const post = await request(app, "POST", "/api/nothing-here", { body: {} });
    expect(post.status).toBe(404);
  });

  test("an unknown tRPC procedure is tRPC's 404, never the client page", async () => {
    const res = await request(app, "GET", "/trpc/nothing.here");
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain("NOT_FOUND");
  });

  test("the built client is served, with SPA fallback to index.html for client routes", async () => {
    for (const path of ["/", "/problems", "/solve/abc123", "/my-submissions/x"]) {
      const res = await app.request(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(await res.text()).toContain("<div id=root>");
      expect(res.headers.get("cache-control")).toBe("no-cache");
    }
    const asset = await app.request("/assets/app-1234.js");
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe("console.log('app')");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await app.request("/assets/missing-999.js")).status).toBe(404);
  });

  test("an address the client has no page for answers 404 with the client page (which says so)", async () => {
    for (const path of ["/no-such-page", "/problems/extra/segments", "/courses/x/nothing"]) {
      const res = await app.request(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).toContain("<div id=root>");
    }
    for (const path of ["/accessibility", "/courses/abc/settings", "/problems/"]) expect([path, (await app.request(path)).status]).toEqual([path, 200]);
  });

  test("paths cannot escape the client directory", async () => {
    for (const path of ["/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt"]) {
      const res = await app.request(path);
      expect(await res.text()).not.toContain("do not serve");
    }
  });
});

describe("CORS and CSRF", () => {
  test("a configured origin gets credentials-enabled CORS; others get no CORS headers", async () => {
    const pre = await app.request("/api/auth/login", {
      method: "OPTIONS",
      headers: { origin: "https://client.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://client.example");
    expect(pre.headers.get("access-control-allow-credentials")).toBe("true");
    const trpc = await app.request("/trpc/problems.byId", { headers: { origin: "http://localhost:5173" } });
    expect(trpc.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const evil = await app.request("/api/health", { headers: { origin: "https://evil.example" } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("form-style cross-site writes are refused with 403; JSON and same-host ones pass", async () => {
    const body = JSON.stringify({ name: "A", email: "a@example.com", message: "hi" });
    const forged = await app.request("http://judge.local/api/contact", {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://evil.example", host: "judge.local" },
      body,
    });
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe("FORBIDDEN_ORIGIN");
    const crossSite = await app.request("http://judge.local/api/auth/logout", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const sameHost = await app.request("http://judge.local/api/contact", {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://judge.local", host: "judge.local" },
      body,
    });
    expect(sameHost.status).toBe(201);
    const allowed = await app.request("http://judge.local/api/contact", {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://client.example" },
      body,
    });
    expect(allowed.status).toBe(201);
  });
});

describe("CSRF on tRPC GETs (subscriptions are cookie-authenticated GETs)", () => {
  test("a cross-site GET of a tRPC procedure is refused before it runs; same-origin, allowed-origin and non-browser GETs pass", async () => {
    const { cookie } = await signUp(app);
    // ai.stream spends the victim's AI quota (and, offline, compiles and runs the given code): a
    // top-level navigation from another site carries the SameSite=Lax cookie and no Origin.
    const input = encodeURIComponent(JSON.stringify({ code: "print(1)", language: "py" }));
    const navigated = await app.request(`http://judge.local/trpc/ai.stream?input=${input}`, {
      headers: { cookie, host: "judge.local", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(navigated.status).toBe(403);
    expect((await navigated.json()).code).toBe("FORBIDDEN_ORIGIN");
    const sibling = await app.request("http://judge.local/trpc/auth.me", { headers: { cookie, "sec-fetch-site": "same-site" } });
    expect(sibling.status).toBe(403);
    const foreign = await app.request("http://judge.local/trpc/auth.me", { headers: { cookie, origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);

    const same = await app.request("http://judge.local/trpc/auth.me", { headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(same.status).toBe(200);
    const allowed = await app.request("http://judge.local/trpc/auth.me", {
      headers: { cookie, origin: "https://client.example", "sec-fetch-site": "cross-site" },
    });
    expect(allowed.status).toBe(200);
    const typed = await app.request("http://judge.local/trpc/auth.me", { headers: { cookie, "sec-fetch-site": "none" } });
    expect(typed.status).toBe(200);
    expect((await request(app, "GET", "/trpc/auth.me", { cookie })).status).toBe(200);
    // The REST door's GETs only read and stay open to links from anywhere.
    expect((await app.request("http://judge.local/api/health", { headers: { "sec-fetch-site": "cross-site" } })).status).not.toBe(403);
  });
});

describe("tRPC over /trpc", () => {
  test("login through tRPC sets the session cookie, and the cookie authenticates tRPC calls", async () => {
    await request(app, "POST", "/api/auth/register", {
      body: { firstName: "T", lastName: "R", email: "trpc@example.com", password: "password-123" },
    });
    const res = await request(app, "POST", "/trpc/auth.login", { body: { email: "trpc@example.com", password: "password-123" } });
    expect(res.status).toBe(200);
    expect(res.body.result.data.message).toBe("Login successful!");
    const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
    const me = await request(app, "GET", "/trpc/auth.me", { cookie });
    expect(me.body.result.data.user.email).toBe("trpc@example.com");
  });

  test("a batch of more than MAX_TRPC_BATCH_SIZE calls is refused whole with 400", async () => {
    const batch = (n: number) => app.request(`/trpc/${Array(n).fill("auth.me").join(",")}?batch=1&input=${encodeURIComponent("{}")}`);
    const ok = await batch(MAX_TRPC_BATCH_SIZE);
    expect(ok.status).not.toBe(400);
    expect((await ok.json()) as unknown[]).toHaveLength(MAX_TRPC_BATCH_SIZE);
    const tooMany = await batch(MAX_TRPC_BATCH_SIZE + 1);
    expect(tooMany.status).toBe(400);
  });

  test("errors carry the catalogue entry: 400 naming the field, 401, 429 with Retry-After", async () => {
    const bad = await request(app, "POST", "/trpc/contact.send", { body: { name: "x", email: "bad", message: "m" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.app).toEqual({ kind: "BAD_INPUT", field: "email" });
    const unauth = await request(app, "GET", "/trpc/problems.list");
    expect(unauth.status).toBe(401);
    expect(unauth.body.error.data.app.kind).toBe("UNAUTHENTICATED");
    for (let i = 0; i < 5; i++) {
      await request(app, "POST", "/trpc/auth.login", { body: { email: "throttled@example.com", password: "wrong-pass" } });
    }
    const limited = await request(app, "POST", "/trpc/auth.login", { body: { email: "throttled@example.com", password: "wrong-pass" } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("body limit", () => {
  test("a body past 144 MiB is a 413 naming the body, before any parsing", async () => {
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 146; i++) controller.enqueue(new Uint8Array(1024 * 1024));
        controller.close();
      },
    });
    const res = await app.request("/api/problems", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "body" });
  });

  test("only problem writes may be that large: any other body past 16 MiB is a 413 before parsing, signed in or not", async () => {
    const { token } = await signUp(app);
    const body = () =>
      new ReadableStream({
        start(controller) {
          for (let i = 0; i < 17; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(0x20));
          controller.close();
        },
      });
    const send = (path: string, method = "POST") =>
      app.request(path, {
        method,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: body(),
        duplex: "half",
      } as RequestInit);
    for (const path of ["/api/auth/login", "/api/contact", "/api/compiler", "/trpc/auth.login", "/trpc/judge.run,problems.list?batch=1"]) {
      const res = await send(path);
      expect([path, res.status]).toEqual([path, 413]);
      expect(await res.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "body", message: "body: request larger than 16 MiB" });
    }
    // Problem writes keep the large limit: these bodies reach the procedure (blank JSON: a 400 naming a field, not a 413).
    for (const [path, method] of [
      ["/api/problems", "POST"],
      ["/api/problems/some-id", "PUT"],
      ["/trpc/problems.create", "POST"],
      ["/trpc/auth.me,problems.update?batch=1", "POST"],
    ] as const) {
      const res = await send(path, method);
      expect([path, res.status]).not.toEqual([path, 413]);
    }
  });
});

describe("unexpected failures", () => {
  test("a broken database gives a logged 500 without details on REST, and health reports it with 503", async () => {
    const logged: string[] = [];
    const capture: Logger = { debug() {}, info() {}, warn() {}, error: (m, d) => void logged.push(`${m} ${JSON.stringify(d)}`) };
    const broken = await createTestServices({ log: capture });
    const brokenApp = createApp(broken.services);
    const user = await signUp(brokenApp);
    broken.cleanup(); // closes the database under the running app
    const res = await request(brokenApp, "GET", "/api/problems", { token: user.token });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "Internal server error", message: "Internal server error", code: "INTERNAL" });
    expect(logged.length).toBeGreaterThan(0);
    const health = await request(brokenApp, "GET", "/api/health");
    expect(health.status).toBe(503);
    expect(health.body.db).toBe("error");
  });
});
