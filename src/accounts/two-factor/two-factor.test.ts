/**
 * Two-factor sign-in and sessions over REST, on a real libSQL file (issue 36, point 3): set-up with
 * a code from the key, the sign-in ticket, codes never accepted twice, recovery codes spent once,
 * tickets that run out, turning it off, the staff setting, and the list of sessions.
 */
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { eq } from "drizzle-orm";
import { decodeBase32IgnorePadding, encodeHexLowerCase } from "@oslojs/encoding";
import { users, courseMembers, courses } from "../../../db/schema.ts";
import { createApp } from "../../app.ts";
import { RateLimiter } from "../../lib/rate-limit.ts";
import { request, signUp } from "../../../tests/api.ts";
import { createTestServices, type TestServices } from "../../../tests/services.ts";
import { totpCodeAt, totpStep } from "./totp.ts";
import { TWO_FACTOR_GUESSES_PER_ACCOUNT } from "./setup.ts";
import { describeUserAgent } from "../../auth/sessions-list.ts";

let clockMs = Date.parse("2026-11-27T10:00:00Z");
let t: TestServices;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestServices({ now: () => clockMs, clock: () => clockMs });
  t.services.limiters.registerByIp = new RateLimiter({ limit: 1000, windowMs: 3_600_000, now: () => clockMs });
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

/** The key's hex from the set-up answer's hand-typed form (as an app reads it). */
function keyOf(manualKey: string): string {
  return encodeHexLowerCase(decodeBase32IgnorePadding(manualKey.replace(/\s/g, "")));
}
const codeNow = (key: string, offsetSteps = 0) => totpCodeAt(key, totpStep(clockMs) + offsetSteps);

/** A new account with two-factor sign-in on: its key, recovery codes, password and email. */
async function withTwoFactor() {
  const account = await signUp(app);
  const setup = await request(app, "POST", "/api/auth/two-factor/setup", { token: account.token });
  expect(setup.status).toBe(200);
  expect(setup.body.keyUri).toStartWith("otpauth://totp/CodeArena:");
  expect(setup.body.qrCodeDataUrl).toStartWith("data:image/svg+xml;base64,");
  const key = keyOf(setup.body.manualKey);
  const confirmed = await request(app, "POST", "/api/auth/two-factor/confirm", { token: account.token, body: { code: codeNow(key) } });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.recoveryCodes).toHaveLength(10);
  clockMs += 30_000; // the set-up's code is spent: the next sign-in needs the next step's
  return { ...account, key, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

async function ticketFor(email: string, password: string): Promise<string> {
  const res = await request(app, "POST", "/api/auth/login", { body: { email, password } });
  expect(res.status).toBe(200);
  expect(res.body.twoFactorRequired).toBe(true);
  expect(res.body.token).toBeUndefined();
  expect(res.headers.getSetCookie().some((c) => c.startsWith("oj_session="))).toBe(false);
  return res.body.ticket;
}

describe("two-factor sign-in", () => {
  test("set-up needs a right code from the new key; a wrong one leaves it off", async () => {
    const account = await signUp(app);
    expect((await request(app, "GET", "/api/auth/two-factor", { token: account.token })).body).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    expect((await request(app, "POST", "/api/auth/two-factor/confirm", { token: account.token, body: { code: "123456" } })).status).toBe(409);
    const setup = await request(app, "POST", "/api/auth/two-factor/setup", { token: account.token });
    const wrong = await request(app, "POST", "/api/auth/two-factor/confirm", { token: account.token, body: { code: codeNow(keyOf(setup.body.manualKey), 5) } });
    expect([wrong.status, wrong.body.field]).toEqual([400, "code"]);
    const bad = await request(app, "POST", "/api/auth/two-factor/confirm", { token: account.token, body: { code: "<script>" } });
    expect([bad.status, bad.body.field]).toEqual([400, "code"]);
    expect((await request(app, "GET", "/api/auth/two-factor", { token: account.token })).body.enabled).toBe(false);
  });

  test("sign-in answers a ticket, then the code gives the session; the same code never works twice", async () => {
    const a = await withTwoFactor();
    expect((await request(app, "GET", "/api/auth/two-factor", { token: a.token })).body).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });
    const ticket = await ticketFor(a.email, a.password);
    const code = codeNow(a.key);
    const done = await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket, code } });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(a.user.id);
    expect((await request(app, "GET", "/api/auth/me", { token: done.body.token })).status).toBe(200);
    // Used ticket: gone. A new ticket with the same code (same 30 s step): refused.
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket, code } })).status).toBe(401);
    const again = await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: await ticketFor(a.email, a.password), code } });
    expect([again.status, again.body.field]).toEqual([400, "code"]);
    // The previous step's code is older than the last accepted one: refused too; the next step's works.
    const ticket2 = await ticketFor(a.email, a.password);
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: ticket2, code: codeNow(a.key, -1) } })).status).toBe(400);
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: ticket2, code: codeNow(a.key, 1) } })).status).toBe(200);
  });

  test("a recovery code signs in once; a ticket dies after five wrong codes or five minutes", async () => {
    const a = await withTwoFactor();
    const [first] = a.recoveryCodes;
    const typed = first!.toUpperCase().replace(/-/g, " ");
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: await ticketFor(a.email, a.password), code: typed } })).status).toBe(200);
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: await ticketFor(a.email, a.password), code: first } })).status).toBe(400);
    expect((await request(app, "GET", "/api/auth/two-factor", { token: a.token })).body.recoveryCodesLeft).toBe(9);

    const ticket = await ticketFor(a.email, a.password);
    for (let i = 0; i < 5; i++) expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket, code: "000000" } })).status).toBe(400);
    const dead = await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket, code: codeNow(a.key, 1) } });
    expect([dead.status, dead.body.field]).toEqual([401, "ticket"]);

    const late = await ticketFor(a.email, a.password);
    clockMs += 5 * 60_000 + 1;
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: late, code: codeNow(a.key) } })).status).toBe(401);
    const malformed = await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: "x", code: "123456" } });
    expect([malformed.status, malformed.body.field]).toEqual([400, "ticket"]);
  });

  test("wrong codes are limited per account over every ticket: fresh tickets do not buy more guesses", async () => {
    const a = await withTwoFactor();
    let wrong = 0;
    while (wrong < TWO_FACTOR_GUESSES_PER_ACCOUNT.limit) {
      const ticket = await ticketFor(a.email, a.password);
      for (let i = 0; i < 4 && wrong < TWO_FACTOR_GUESSES_PER_ACCOUNT.limit; i++, wrong++) {
        expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket, code: "000000" } })).status).toBe(400);
      }
    }
    // The next try, on a new ticket and even with the right code, waits.
    const limited = await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: await ticketFor(a.email, a.password), code: codeNow(a.key) } });
    expect([limited.status, limited.body.code]).toEqual([429, "TOO_MANY_LOGIN_ATTEMPTS"]);
    clockMs += TWO_FACTOR_GUESSES_PER_ACCOUNT.windowMs + 1;
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: await ticketFor(a.email, a.password), code: codeNow(a.key) } })).status).toBe(200);
  });

  test("turning it off asks for the password; new recovery codes void the old", async () => {
    const a = await withTwoFactor();
    const renewed = await request(app, "POST", "/api/auth/two-factor/recovery-codes", { token: a.token, body: { code: codeNow(a.key) } });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).not.toContain(a.recoveryCodes[0]);
    expect((await request(app, "POST", "/api/auth/login/two-factor", { body: { ticket: await ticketFor(a.email, a.password), code: a.recoveryCodes[1] } })).status).toBe(400);
    const wrong = await request(app, "POST", "/api/auth/two-factor/disable", { token: a.token, body: { password: "not it at all" } });
    expect([wrong.status, wrong.body.field, wrong.body.code]).toEqual([400, "password", "PASSWORD_WRONG"]);
    expect((await request(app, "POST", "/api/auth/two-factor/disable", { token: a.token, body: { password: a.password } })).status).toBe(200);
    const plain = await request(app, "POST", "/api/auth/login", { body: { email: a.email, password: a.password } });
    expect(typeof plain.body.token).toBe("string");
  });

  test("REQUIRE_TWO_FACTOR_FOR_STAFF: an instructor's session may only set it up, then everything again; it cannot be turned off", async () => {
    const strict = await createTestServices({ env: { REQUIRE_TWO_FACTOR_FOR_STAFF: "true" }, now: () => clockMs, clock: () => clockMs });
    try {
      const strictApp = createApp(strict.services);
      const teacher = await signUp(strictApp);
      const student = await signUp(strictApp);
      const code = `C-${crypto.randomUUID().slice(0, 6)}`;
      const [course] = await strict.services.db.insert(courses).values({ title: "C", code, codeNormalized: code.toLowerCase(), term: "", createdBy: teacher.user.id }).returning();
      await strict.services.db.insert(courseMembers).values({ courseId: course!.id, userId: teacher.user.id, role: "instructor" });
      const signIn = await request(strictApp, "POST", "/api/auth/login", { body: { email: teacher.email, password: teacher.password } });
      expect(signIn.body.mustSetUpTwoFactor).toBe(true);
      const token = signIn.body.token as string;
      const blocked = await request(strictApp, "GET", "/api/problems", { token });
      expect([blocked.status, blocked.body.error ?? blocked.body.message]).toEqual([403, "Your account must use two-factor sign-in: turn it on first"]);
      expect((await request(strictApp, "GET", "/api/auth/me", { token })).status).toBe(200);
      expect((await request(strictApp, "GET", "/api/auth/two-factor", { token })).body.required).toBe(true);
      const setup = await request(strictApp, "POST", "/api/auth/two-factor/setup", { token });
      const key = keyOf(setup.body.manualKey);
      expect((await request(strictApp, "POST", "/api/auth/two-factor/confirm", { token, body: { code: codeNow(key) } })).status).toBe(200);
      expect((await request(strictApp, "GET", "/api/problems", { token })).status).toBe(200);
      const off = await request(strictApp, "POST", "/api/auth/two-factor/disable", { token, body: { password: teacher.password } });
      expect([off.status, off.body.code]).toEqual([403, "TWO_FACTOR_REQUIRED"]);
      // A student is not asked.
      const studentIn = await request(strictApp, "POST", "/api/auth/login", { body: { email: student.email, password: student.password } });
      expect(studentIn.body.mustSetUpTwoFactor).toBeUndefined();
      expect((await request(strictApp, "GET", "/api/problems", { token: studentIn.body.token })).status).toBe(200);
    } finally {
      await strict.cleanup();
    }
  });
});

describe("sessions", () => {
  test("lists where the account is signed in, with the browser read from its User-Agent; signs out one or all others", async () => {
    const a = await signUp(app);
    const before = (await request(app, "GET", "/api/auth/sessions", { token: a.token })).body.sessions.length;
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";
    const other = await request(app, "POST", "/api/auth/login", { body: { email: a.email, password: a.password }, headers: { "user-agent": firefox } });
    const third = await request(app, "POST", "/api/auth/login", { body: { email: a.email, password: a.password } });
    const list = await request(app, "GET", "/api/auth/sessions", { token: third.body.token });
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(before + 2);
    expect(list.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const ff = list.body.sessions.find((s: { userAgent: string | null }) => s.userAgent === firefox);
    expect(ff.device).toBe("Firefox 132 · Linux");
    // Another account cannot end it; an unknown id is 404; a malformed one 400 naming id.
    const stranger = await signUp(app);
    expect((await request(app, "DELETE", `/api/auth/sessions/${ff.id}`, { token: stranger.token })).status).toBe(404);
    expect((await request(app, "DELETE", "/api/auth/sessions/nope", { token: a.token })).body.field).toBe("id");
    expect((await request(app, "DELETE", `/api/auth/sessions/${ff.id}`, { token: third.body.token })).status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token: other.body.token })).status).toBe(401);
    const ended = await request(app, "DELETE", "/api/auth/sessions", { token: third.body.token });
    expect(ended.body.ended).toBe(before);
    expect((await request(app, "GET", "/api/auth/me", { token: a.token })).status).toBe(401);
    expect((await request(app, "GET", "/api/auth/me", { token: third.body.token })).status).toBe(200);
  });

  test("last seen moves at most every five minutes", async () => {
    // Sessions read the system clock (src/auth/session.ts), so this test moves it.
    const start = Date.now();
    try {
      const a = await signUp(app);
      const seen = async () => (await request(app, "GET", "/api/auth/sessions", { token: a.token })).body.sessions.find((s: { current: boolean }) => s.current).lastSeenAt;
      const first = await seen();
      setSystemTime(new Date(start + 60_000));
      expect(await seen()).toBe(first);
      setSystemTime(new Date(start + 6 * 60_000));
      expect(Date.parse(await seen())).toBeGreaterThanOrEqual(start + 6 * 60_000);
    } finally {
      setSystemTime();
    }
  });

  test("the device name reads common browsers and says nothing for none", () => {
    expect(describeUserAgent(null)).toBeNull();
    expect(describeUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")).toContain("Safari 17");
    expect(describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")).toBe("Chrome 131 · Windows 10");
  });
});

test("no password is ever stored in the TOTP columns", async () => {
  const a = await withTwoFactor();
  const [row] = await t.services.db.select({ totpKey: users.totpKey, pending: users.totpPendingKey }).from(users).where(eq(users.id, a.user.id));
  expect(row?.totpKey).toMatch(/^[0-9a-f]{40}$/);
  expect(row?.pending).toBeNull();
});
