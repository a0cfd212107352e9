/** Accounts over REST: register, login (cookie + bearer), me, logout, throttling, token forgery. */
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { eq } from "drizzle-orm";
import { SignJWT, UnsecuredJWT } from "jose";
import { sessions, users } from "../../db/schema.ts";
import { seedDatabase, SYSTEM_USER } from "../../db/seed/index.ts";
import { createApp } from "../app.ts";
import { hashSessionId } from "../auth/session.ts";
import { RateLimiter } from "../lib/rate-limit.ts";
import { request, signUp } from "../../tests/api.ts";
import { createTestServices, TEST_SESSION_SECRET, type TestServices } from "../../tests/services.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let clockMs = Date.now();

beforeAll(async () => {
  t = await createTestServices({ now: () => clockMs });
  // This file registers some twenty accounts from one address; the per-address registration limit (20 an
  // hour) has its own test below with its own limiter, so the others must not run into it by accident.
  t.services.limiters.registerByIp = new RateLimiter({ limit: 1000, windowMs: 60 * 60_000, now: () => clockMs });
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

const register = (body: unknown) => request(app, "POST", "/api/auth/register", { body });
const login = (body: unknown, headers?: Record<string, string>) =>
  request(app, "POST", "/api/auth/login", { body, headers });
const validAccount = (email: string) => ({ firstName: "Grace", lastName: "Hopper", email, password: "hunter2hunter2" });

describe("POST /api/auth/register", () => {
  test("creates an account and answers 200 {message}; the password is stored as argon2id", async () => {
    const res = await register(validAccount("grace@example.com"));
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe("string");
    const [row] = await t.services.db.select().from(users).where(eq(users.emailNormalized, "grace@example.com"));
    expect(row?.passwordHash).toStartWith("$argon2id$");
  });

  test("signs the new account in as login does: token, user and an httpOnly session cookie, each accepted by /me", async () => {
    const res = await register(validAccount("signed-in@example.com"));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Registration successful! You are signed in.");
    expect(Object.keys(res.body.user).sort()).toEqual(["email", "firstName", "id", "lastName", "locale"]);
    expect(res.body.user.email).toBe("signed-in@example.com");
    const payload = JSON.parse(Buffer.from(res.body.token.split(".")[1], "base64url").toString());
    expect(payload.id).toBe(res.body.user.id);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("oj_session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    // One session, stored as its id's hash, like a sign-in's.
    const rows = await t.services.db.select().from(sessions).where(eq(sessions.userId, res.body.user.id));
    expect(rows.map((r) => r.id)).toEqual([hashSessionId(payload.sid)]);
    const byBearer = await request(app, "GET", "/api/auth/me", { headers: { Authorization: `Bearer ${res.body.token}` } });
    expect([byBearer.status, byBearer.body.user?.id]).toEqual([200, res.body.user.id]);
    const byCookie = await request(app, "GET", "/api/auth/me", { headers: { Cookie: cookie.split(";")[0]! } });
    expect([byCookie.status, byCookie.body.user?.id]).toEqual([200, res.body.user.id]);
  });

  test("a refused sign-up signs nobody in: no token, no cookie, no session", async () => {
    await register(validAccount("taken@example.com"));
    const before = (await t.services.db.select().from(sessions)).length;
    const res = await register(validAccount("taken@example.com"));
    expect(res.status).toBe(409);
    expect(res.body.token).toBeUndefined();
    expect(res.headers.getSetCookie().filter((c) => c.startsWith("oj_session="))).toEqual([]);
    expect((await t.services.db.select().from(sessions)).length).toBe(before);
  });

  test.each(["firstName", "lastName", "email", "password"])("a missing %s is a 400 naming it", async (field) => {
    const body: Record<string, unknown> = validAccount(`missing-${field}@example.com`);
    delete body[field];
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.code).toBe("BAD_INPUT");
    expect(res.body.message).toContain(field);
  });

  test("a blank first name, a malformed email and a 7-character password are 400s naming the field", async () => {
    const blank = await register({ ...validAccount("blank@example.com"), firstName: "   " });
    expect([blank.status, blank.body.field]).toEqual([400, "firstName"]);
    const email = await register({ ...validAccount("x"), email: "not-an-email" });
    expect([email.status, email.body.field]).toEqual([400, "email"]);
    const short = await register({ ...validAccount("short@example.com"), password: "1234567" });
    expect([short.status, short.body.field]).toEqual([400, "password"]);
    expect(short.body.message).toContain("at least 8 characters");
  });

  test("the same email in another case is a 409", async () => {
    await register(validAccount("dup@example.com"));
    const res = await register(validAccount("  DUP@Example.COM "));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("An account with this email already exists");
  });

  test("the 21st registration from one address within an hour is a 429 with Retry-After", async () => {
    const saved = t.services.limiters.registerByIp;
    t.services.limiters.registerByIp = new RateLimiter({ limit: 20, windowMs: 60 * 60_000, now: () => clockMs });
    try {
      for (let i = 0; i < 20; i++) expect((await register(validAccount(`farm${i}@example.com`))).status).toBe(200);
      const res = await register(validAccount("farm20@example.com"));
      expect(res.status).toBe(429);
      expect(res.body.code).toBe("RATE_LIMITED");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
      // No account was created by the refused attempt.
      expect(await t.services.db.select().from(users).where(eq(users.emailNormalized, "farm20@example.com"))).toEqual([]);
      // A taken email still answers 409, not 429: the duplicate check comes first.
      expect((await register(validAccount("farm0@example.com"))).status).toBe(409);
    } finally {
      t.services.limiters.registerByIp = saved;
    }
  });

  test("malformed JSON and a non-object body are 400s naming the body", async () => {
    const bad = await request(app, "POST", "/api/auth/register", { rawBody: "{nope" });
    expect([bad.status, bad.body.field]).toEqual([400, "body"]);
    const arr = await request(app, "POST", "/api/auth/register", { rawBody: "[1,2]" });
    expect([arr.status, arr.body.field]).toEqual([400, "body"]);
  });
});

describe("POST /api/auth/login", () => {
  test("answers token, message and user, and sets an httpOnly SameSite=Lax cookie (not Secure over http)", async () => {
    await register(validAccount("login@example.com"));
    const res = await login({ email: "Login@Example.com", password: "hunter2hunter2" });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Login successful!");
    expect(Object.keys(res.body.user).sort()).toEqual(["email", "firstName", "id", "lastName", "locale"]);
    expect(res.body.user.email).toBe("login@example.com");
    // The spec's client reads the user's id from the token's middle part.
    const payload = JSON.parse(Buffer.from(res.body.token.split(".")[1], "base64url").toString());
    expect(payload.id).toBe(res.body.user.id);
    expect(typeof payload.sid).toBe("string");
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("oj_session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toContain("Secure");
    // Only the hash of the session id is stored (beside the session the sign-up opened).
    const rows = await t.services.db.select().from(sessions).where(eq(sessions.userId, res.body.user.id));
    expect(rows.map((r) => r.id)).toContain(hashSessionId(payload.sid));
    expect(rows).toHaveLength(2);
  });

  test("the cookie is Secure over https, and behind a trusted proxy that says https", async () => {
    await register(validAccount("secure@example.com"));
    const creds = { email: "secure@example.com", password: "hunter2hunter2" };
    const direct = await app.request("https://judge.example/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(creds),
    });
    expect(direct.headers.getSetCookie()[0]).toContain("; Secure");

    const untrusted = await login(creds, { "x-forwarded-proto": "https" });
    expect(untrusted.headers.getSetCookie()[0]).not.toContain("Secure");

    const proxied = await createTestServices({ env: { TRUST_PROXY: "true" } });
    try {
      const proxiedApp = createApp(proxied.services);
      await request(proxiedApp, "POST", "/api/auth/register", { body: validAccount("p@example.com") });
      const res = await request(proxiedApp, "POST", "/api/auth/login", {
        body: { email: "p@example.com", password: "hunter2hunter2" },
        headers: { "x-forwarded-proto": "https" },
        peer: "127.0.0.1",
      });
      expect(res.headers.getSetCookie()[0]).toContain("; Secure");
    } finally {
      proxied.cleanup();
    }
  });

  test("a wrong password and an unknown email get the same 401", async () => {
    await register(validAccount("same@example.com"));
    const wrong = await login({ email: "same@example.com", password: "wrong-password" });
    const unknown = await login({ email: "nobody@example.com", password: "wrong-password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe("Invalid email or password");
  });

  test("missing fields are 400s naming them", async () => {
    const res = await login({ email: "a@b.co" });
    expect([res.status, res.body.field]).toEqual([400, "password"]);
    const res2 = await login({ password: "whatever" });
    expect([res2.status, res2.body.field]).toEqual([400, "email"]);
  });

  test("the system account cannot sign in", async () => {
    await seedDatabase(t.services.db);
    const res = await login({ email: SYSTEM_USER.email, password: "anything-at-all" });
    expect(res.status).toBe(401);
  });

  test("5 failures for one email answer 429 with Retry-After, even for the right password, until the window ends", async () => {
    await register(validAccount("throttle@example.com"));
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: "throttle@example.com", password: `wrong-${i}-xx` })).status).toBe(401);
    }
    const blocked = await login({ email: "THROTTLE@example.com", password: "hunter2hunter2" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    expect(blocked.body.code).toBe("TOO_MANY_LOGIN_ATTEMPTS");
    // Another account is not affected.
    await register(validAccount("other@example.com"));
    expect((await login({ email: "other@example.com", password: "hunter2hunter2" })).status).toBe(200);
    // After the window the right password works again.
    clockMs += 15 * 60_000 + 1000;
    expect((await login({ email: "throttle@example.com", password: "hunter2hunter2" })).status).toBe(200);
  });

  test("one batched tRPC request or many parallel requests get no more guesses than the limit", async () => {
    // The attempts of one batch run concurrently: counted only after the (awaited) password check,
    // all 30 passed the gate together and the right password, 30th, signed in.
    await register(validAccount("batch@example.com"));
    const n = 30;
    const inputs: Record<number, unknown> = {};
    for (let i = 0; i < n; i++) {
      inputs[i] = { email: "batch@example.com", password: i === n - 1 ? "hunter2hunter2" : `guess-${i}-xx` };
    }
    const res = await app.request(`/trpc/${Array(n).fill("auth.login").join(",")}?batch=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(inputs),
    });
    const kinds = ((await res.json()) as { error?: { data: { app: { kind: string } } } }[]).map((r) => r.error?.data.app.kind ?? "OK");
    expect(kinds.filter((k) => k === "INVALID_CREDENTIALS")).toHaveLength(5);
    expect(kinds.filter((k) => k === "TOO_MANY_LOGIN_ATTEMPTS")).toHaveLength(n - 5);
    expect(res.headers.getSetCookie()).toEqual([]);

    await register(validAccount("parallel@example.com"));
    const parallel = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login({ email: "parallel@example.com", password: `guess-${i}-xx` })),
    );
    expect(parallel.filter((r) => r.status === 401)).toHaveLength(5);
    expect(parallel.filter((r) => r.status === 429)).toHaveLength(7);
  });

  test("successful sign-ins do not use up the address's failure allowance", async () => {
    const saved = t.services.limiters.loginByIp;
    t.services.limiters.loginByIp = new RateLimiter({ limit: 2, windowMs: 60_000, now: () => clockMs });
    try {
      await register(validAccount("often@example.com"));
      for (let i = 0; i < 4; i++) expect((await login({ email: "often@example.com", password: "hunter2hunter2" })).status).toBe(200);
      expect((await login({ email: "often@example.com", password: "wrong-one-x" })).status).toBe(401);
      expect((await login({ email: "often@example.com", password: "hunter2hunter2" })).status).toBe(200);
    } finally {
      t.services.limiters.loginByIp = saved;
    }
  });

  test("past the free failures each further one doubles the wait (1, 2, 4, 8 minutes, then 15); a success clears it", async () => {
    await register(validAccount("backoff@example.com"));
    const guess = (i: number) => login({ email: "backoff@example.com", password: `guess-${i}-xx` });
    for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 5; i < 11; i++) {
      const refused = await guess(i);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      waits.push(wait);
      // One second short of the wait: still refused, and not counted.
      clockMs += (wait - 1) * 1000;
      expect((await guess(i)).status).toBe(429);
      clockMs += 1000;
      expect((await guess(i)).status).toBe(401);
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900]);
    // The right password after the wait: signed in, and the count starts over (5 free failures again).
    clockMs += 900_000;
    expect((await login({ email: "backoff@example.com", password: "hunter2hunter2" })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await guess(100 + i)).status).toBe(401);
    expect((await guess(105)).status).toBe(429);
  });

  test("guesses on one account spread over many addresses (behind a trusted proxy) are stopped all the same", async () => {
    const proxied = await createTestServices({ env: { TRUST_PROXY: "true" }, now: () => clockMs });
    try {
      const papp = createApp(proxied.services);
      await request(papp, "POST", "/api/auth/register", { body: validAccount("spread@example.com") });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await request(papp, "POST", "/api/auth/login", {
          body: { email: "spread@example.com", password: `guess-${i}-xx` },
          headers: { "x-forwarded-for": `203.0.113.${i + 1}` },
          peer: "127.0.0.1",
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(35).fill(429)]);
    } finally {
      proxied.cleanup();
    }
  });

  test("failures from one address across emails are throttled too", async () => {
    const saved = t.services.limiters.loginByIp;
    t.services.limiters.loginByIp = new RateLimiter({ limit: 3, windowMs: 60_000, now: () => clockMs });
    try {
      for (let i = 0; i < 3; i++) expect((await login({ email: `spray${i}@example.com`, password: "xxxxxxxx" })).status).toBe(401);
      const res = await login({ email: "spray9@example.com", password: "xxxxxxxx" });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("60");
    } finally {
      t.services.limiters.loginByIp = saved;
    }
  });
});

describe("sessions: me, logout and forged tokens", () => {
  test("me answers the user with the bearer token and with the cookie, 401 without either", async () => {
    const a = await signUp(app);
    const bearer = await request(app, "GET", "/api/auth/me", { token: a.token });
    expect(bearer.status).toBe(200);
    // With whether the address is verified (a password sign-up's is not yet: decision 071).
    expect(bearer.body.user).toEqual({ ...a.user, emailVerified: false });
    const cookie = await request(app, "GET", "/api/auth/me", { cookie: a.cookie });
    expect(cookie.status).toBe(200);
    expect(cookie.body.user.id).toBe(a.user.id);
    const none = await request(app, "GET", "/api/auth/me");
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("UNAUTHENTICATED");
  });

  test("an explicit Authorization header decides alone: a bad bearer is not rescued by a good cookie", async () => {
    const a = await signUp(app);
    const res = await request(app, "GET", "/api/auth/me", { cookie: a.cookie, headers: { authorization: "Bearer junk" } });
    expect(res.status).toBe(401);
  });

  test("with both a valid Bearer token and a valid cookie, the Bearer token decides", async () => {
    const a = await signUp(app);
    const b = await signUp(app);
    const both = await request(app, "GET", "/api/auth/me", { token: a.token, cookie: b.cookie });
    expect(both.status).toBe(200);
    expect(both.body.user.id).toBe(a.user.id);
    // A valid Bearer token is not spoiled by a junk cookie either.
    const junkCookie = await request(app, "GET", "/api/auth/me", { token: b.token, cookie: "oj_session=junk" });
    expect([junkCookie.status, junkCookie.body.user?.id]).toEqual([200, b.user.id]);
    // An Authorization header of another scheme is explicit too: no fallback to the cookie.
    const basic = await request(app, "GET", "/api/auth/me", { cookie: a.cookie, headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expect(basic.status).toBe(401);
    // Logging out through the Bearer token ends that session, not the cookie's.
    expect((await request(app, "POST", "/api/auth/logout", { token: a.token, cookie: b.cookie })).status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(401);
    expect((await request(app, "GET", "/api/auth/me", { cookie: b.cookie })).status).toBe(200);
  });

  test("forged tokens are refused: alg none, wrong secret, other algorithm, expired, tampered payload, other user's id", async () => {
    const a = await signUp(app);
    const b = await signUp(app);
    const claims = JSON.parse(Buffer.from(a.token.split(".")[1]!, "base64url").toString());
    const key = new TextEncoder().encode(TEST_SESSION_SECRET);
    const exp = Math.floor(Date.now() / 1000) + 3600;

    const none = new UnsecuredJWT({ id: a.user.id, sid: claims.sid }).setExpirationTime(exp).encode();
    const wrongSecret = await new SignJWT({ id: a.user.id, sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
    const hs512 = await new SignJWT({ id: a.user.id, sid: claims.sid })
      .setProtectedHeader({ alg: "HS512" })
      .setExpirationTime(exp)
      .sign(key);
    const expired = await new SignJWT({ id: a.user.id, sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    // B's id with A's session, correctly signed: the session row belongs to A.
    const crossed = await new SignJWT({ id: b.user.id, sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(exp)
      .sign(key);
    const [h, , s] = a.token.split(".");
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, id: b.user.id })).toString("base64url");
    const tampered = `${h}.${tamperedPayload}.${s}`;
    const unknownSid = await new SignJWT({ id: a.user.id, sid: "no-such-session" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(exp)
      .sign(key);

    for (const [name, token] of Object.entries({ none, wrongSecret, hs512, expired, crossed, tampered, unknownSid })) {
      const viaBearer = await request(app, "GET", "/api/auth/me", { token });
      expect([name, viaBearer.status]).toEqual([name, 401]);
      const viaCookie = await request(app, "GET", "/api/auth/me", { cookie: `oj_session=${token}` });
      expect([name, viaCookie.status]).toEqual([name, 401]);
    }
    // The genuine token still works.
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(200);
  });

  test("a token that verified before is refused once its own exp passes, though its session row lives on", async () => {
    const a = await signUp(app);
    const claims = JSON.parse(Buffer.from(a.token.split(".")[1]!, "base64url").toString());
    const key = new TextEncoder().encode(TEST_SESSION_SECRET);
    const hourMs = 3_600_000;
    const short = await new SignJWT({ id: a.user.id, sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor((Date.now() + hourMs) / 1000))
      .sign(key);
    // Verified (and remembered) while valid.
    expect((await request(app, "GET", "/api/auth/me", { token: short })).status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token: short })).status).toBe(200);
    setSystemTime(new Date(Date.now() + 2 * hourMs));
    try {
      expect((await request(app, "GET", "/api/auth/me", { token: short })).status).toBe(401);
      // The session itself (30 days) is still good with its own token.
      expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(200);
    } finally {
      setSystemTime();
    }
  });

  test("a token verified under one key is refused by a server with another key, even on the same database", async () => {
    const a = await signUp(app);
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(200);
    const otherKeyApp = createApp({
      ...t.services,
      sessionKey: new TextEncoder().encode("a-different-secret-a-different-secret-0123"),
    });
    expect((await request(otherKeyApp, "GET", "/api/auth/me", { token: a.token })).status).toBe(401);
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(200);
  });

  test("a signed token without exp is refused", async () => {
    const a = await signUp(app);
    const claims = JSON.parse(Buffer.from(a.token.split(".")[1]!, "base64url").toString());
    const noExp = await new SignJWT({ id: a.user.id, sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(TEST_SESSION_SECRET));
    expect((await request(app, "GET", "/api/auth/me", { token: noExp })).status).toBe(401);
  });

  test("logout deletes the session and clears the cookie; the old token is refused afterwards", async () => {
    const a = await signUp(app);
    const out = await request(app, "POST", "/api/auth/logout", { token: a.token });
    expect(out.status).toBe(200);
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith("oj_session="))!;
    expect(cleared).toContain("Max-Age=0");
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(401);
    expect((await request(app, "GET", "/api/auth/me", { cookie: a.cookie })).status).toBe(401);
    // Logging out again (already signed out) still answers 200.
    expect((await request(app, "POST", "/api/auth/logout")).status).toBe(200);
  });

  test("logout through the cookie alone works too", async () => {
    const a = await signUp(app);
    expect((await request(app, "POST", "/api/auth/logout", { cookie: a.cookie })).status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(401);
  });

  test("a session past half its life is renewed: new expiry, new cookie and X-Session-Token", async () => {
    const a = await signUp(app);
    const sid = JSON.parse(Buffer.from(a.token.split(".")[1]!, "base64url").toString()).sid;
    const soon = new Date(Date.now() + 2 * 86_400_000);
    await t.services.db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.id, hashSessionId(sid)));
    const res = await request(app, "GET", "/api/auth/me", { token: a.token });
    expect(res.status).toBe(200);
    const renewed = res.headers.get("x-session-token");
    expect(renewed).toBeTruthy();
    expect(res.headers.getSetCookie().find((c) => c.startsWith("oj_session="))).toContain(renewed!);
    const [row] = await t.services.db.select().from(sessions).where(eq(sessions.id, hashSessionId(sid)));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await request(app, "GET", "/api/auth/me", { token: renewed! })).status).toBe(200);
    // A fresh session is not renewed on every request.
    const again = await request(app, "GET", "/api/auth/me", { token: renewed! });
    expect(again.headers.get("x-session-token")).toBeNull();
  });

  test("an expired session row is refused and removed", async () => {
    const a = await signUp(app);
    const sid = JSON.parse(Buffer.from(a.token.split(".")[1]!, "base64url").toString()).sid;
    await t.services.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, hashSessionId(sid)));
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(401);
    expect(await t.services.db.select().from(sessions).where(eq(sessions.id, hashSessionId(sid)))).toEqual([]);
  });
});
