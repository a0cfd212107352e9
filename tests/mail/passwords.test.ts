/**
 * Passwords through the real parts (decision 060): the REST doors on the real
 * app over a real libSQL file, mail through the outbox and nodemailer to a
 * real SMTP server (python3-aiosmtpd) this test starts, read back from it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { createUser } from "../../src/accounts/user.ts";
import { handleResetRequests } from "../../src/accounts/password-forgot.ts";
import { startMailSender, type MailSender } from "../../src/mail/sender.ts";
import { externalIdentities } from "../../db/schema.ts";
import { request, signUp } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { startSmtpSink, tokenIn, type SmtpSink } from "./smtp.ts";

let smtp: SmtpSink;
let t: TestServices;
let app: ReturnType<typeof createApp>;
let sender: MailSender;
/** The services' clock: tests move it to expire links. */
let clockOffsetMs = 0;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestServices({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: "https://judge.example.edu", MAIL_FROM: "Judge <judge@example.edu>" },
    clock: () => Date.now() + clockOffsetMs,
  });
  sender = startMailSender({ db: t.services.db, config: t.config, log: t.services.log }, {
    pollMs: 200,
    beforeRound: () => handleResetRequests({ db: t.services.db, config: t.config, now: t.services.now }),
  });
  t.services.mail = sender;
  app = createApp(t.services);
});

afterAll(async () => {
  await sender.stop();
  await smtp.stop();
  t.cleanup();
});

/** Messages to `to` received so far, but the verification link every password sign-up gets (tests/mail/email-address.test.ts). */
// Notices only: a password sign-up also mails its address's verification link (decision 071).
const mailTo = (to: string) => smtp.messagesTo(to, { notices: true });
const waitForMailTo = (to: string, n = 1) => smtp.waitForTo(to, n, { notices: true });

async function forgot(email: string) {
  return request(app, "POST", "/api/auth/password/forgot", { body: { email } });
}

describe("forgot password → mail → reset", () => {
  test("the link arrives at the SMTP server, sets the password once, and signs out every session", async () => {
    const u = await signUp(app);
    const res = await forgot(u.email);
    expect(res.status).toBe(202);
    expect(res.body.byMail).toBe(true);
    const [mail] = await waitForMailTo(u.email);
    expect(mail!.subject).toBe("Reset your password");
    expect(mail!.from).toContain("judge@example.edu");
    expect(mail!.messageId).toMatch(/^<[^@>]+@example\.edu>$/);
    expect(mail!.html).toContain("/reset-password?token=");
    expect(mail!.text).toContain("https://judge.example.edu/reset-password?token=");
    const token = tokenIn(mail!);

    const reset = await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "a brand new secret" } });
    expect(reset.status).toBe(200);
    // The old session is signed out; the old password no longer works; the new one does.
    expect((await request(app, "GET", "/api/auth/me", { token: u.token })).status).toBe(401);
    expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: u.password } })).status).toBe(401);
    expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: "a brand new secret" } })).status).toBe(200);
    // Single use.
    const again = await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "yet another secret" } });
    expect(again.status).toBe(400);
    expect(again.body.field).toBe("token");
    // And the owner is told the password changed.
    const [, notice] = await waitForMailTo(u.email, 2);
    expect(notice!.subject).toBe("Your password was changed");
  });

  test("the mail is in the account's chosen language, else in the asking request's (issue 34 §6)", async () => {
    const chose = await signUp(app);
    expect((await request(app, "PUT", "/api/auth/locale", { token: chose.token, body: { locale: "ja" } })).status).toBe(200);
    await request(app, "POST", "/api/auth/password/forgot", { body: { email: chose.email }, headers: { "accept-language": "de" } });
    const [ja] = await waitForMailTo(chose.email);
    const catalogue = async (l: string) => (await Bun.file(`${import.meta.dir}/../../src/i18n/mail/${l}.json`).json()) as Record<string, string>;
    expect(ja!.subject).toBe((await catalogue("ja"))["reset.subject"]!);
    expect(ja!.html).toContain('<html lang="ja" dir="ltr">');

    const asked = await signUp(app);
    await request(app, "POST", "/api/auth/password/forgot", { body: { email: asked.email }, headers: { "accept-language": "ar, en;q=0.5" } });
    const [ar] = await waitForMailTo(asked.email);
    expect(ar!.subject).toBe((await catalogue("ar"))["reset.subject"]!);
    expect(ar!.html).toContain('<html lang="ar" dir="rtl">');
    expect(ar!.text).toContain("https://judge.example.edu/reset-password?token=");
  });

  test("a link expires after an hour", async () => {
    const u = await signUp(app);
    await forgot(u.email);
    const token = tokenIn((await waitForMailTo(u.email))[0]!);
    clockOffsetMs = 3_600_000 + 1000;
    try {
      const res = await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "a brand new secret" } });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("token");
    } finally {
      clockOffsetMs = 0;
    }
    expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: u.password } })).status).toBe(200);
  });

  test("a link just inside the hour still works", async () => {
    const u = await signUp(app);
    await forgot(u.email);
    const token = tokenIn((await waitForMailTo(u.email))[0]!);
    clockOffsetMs = 3_600_000 - 60_000;
    try {
      expect((await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "a brand new secret" } })).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  test("a link is void after a password change", async () => {
    const u = await signUp(app);
    await forgot(u.email);
    const token = tokenIn((await waitForMailTo(u.email))[0]!);
    const change = await request(app, "POST", "/api/auth/password", { token: u.token, body: { currentPassword: u.password, newPassword: "changed in between" } });
    expect(change.status).toBe(200);
    const res = await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "a brand new secret" } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("token");
  });

  test("an account that signs in only through a campus provider gets the other mail", async () => {
    const email = `sso-${crypto.randomUUID().slice(0, 8)}@example.edu`;
    const user = await createUser(t.services.db, { firstName: "Sam", lastName: "Campus", email, passwordHash: null }, { emailVerified: true });
    await t.services.db.insert(externalIdentities).values({ userId: user.id, provider: "oidc:campus", issuer: "https://idp.example.edu", subject: "sam" });
    const res = await forgot(email);
    expect(res.status).toBe(202);
    const [mail] = await waitForMailTo(email);
    expect(mail!.subject).toBe("How to sign in");
    expect(mail!.text).toContain("campus sign-in (campus)");
    expect(mail!.text).not.toContain("reset-password?token=");
  });

  test("no enumeration: the same status and body for a known and an unknown address, similar timing, no mail for the unknown", async () => {
    const u = await signUp(app);
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const known = await forgot(u.email);
    const none = await forgot(unknown);
    expect(none.status).toBe(known.status);
    expect(none.body).toEqual(known.body);
    // Timing of the request itself: medians of alternating requests (other addresses so the per-email limit is
    // not reached), the background mail work of the one before settled first (it runs after the answer).
    const times: { known: number[]; unknown: number[] } = { known: [], unknown: [] };
    const others: Awaited<ReturnType<typeof signUp>>[] = [];
    for (let i = 0; i < 10; i++) others.push(await signUp(app));
    const timed = async (kind: "known" | "unknown", email: string) => {
      await sender.round();
      await Bun.sleep(20);
      const s = performance.now();
      await forgot(email);
      times[kind].push(performance.now() - s);
    };
    for (let i = 0; i < 10; i++) {
      const nobody = `nobody-${i}-${crypto.randomUUID().slice(0, 8)}@example.com`;
      // Alternating which goes first, so whatever the previous request's mail leaves running falls on both.
      if (i % 2 === 0) await timed("known", others[i]!.email), await timed("unknown", nobody);
      else await timed("unknown", nobody), await timed("known", others[i]!.email);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    console.log(`forgot: median ${median(times.known).toFixed(2)} ms with an account, ${median(times.unknown).toFixed(2)} ms without`);
    // The bound: 5 ms plus half the slower median (the shared test machine is loaded); a request doing more for an
    // account (an argon2 hash: 70 ms, an SMTP exchange, a token and a mail row) would exceed it.
    const [k, n] = [median(times.known), median(times.unknown)];
    expect(Math.abs(k - n)).toBeLessThan(5 + 0.5 * Math.max(k, n));
    await waitForMailTo(u.email);
    await waitForMailTo(others[9]!.email);
    await Bun.sleep(300);
    expect(mailTo(unknown)).toEqual([]);
  }, 60_000);

  test("too many requests for one address: 429 whether or not it has an account", async () => {
    const u = await signUp(app);
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (const email of [u.email, unknown]) {
      for (let i = 0; i < 5; i++) expect((await forgot(email)).status).toBe(202);
      const sixth = await forgot(email);
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get("retry-after")).toBeTruthy();
      expect(sixth.body.message).toContain("RATE_LIMIT_PASSWORD_RESETS_PER_EMAIL");
    }
  });
});

describe("change password", () => {
  test("asks the current one, signs out every other session, keeps this one", async () => {
    const u = await signUp(app);
    const other = await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: u.password } });
    const wrong = await request(app, "POST", "/api/auth/password", { token: u.token, body: { currentPassword: "not it at all", newPassword: "something new here" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe("currentPassword");
    const ok = await request(app, "POST", "/api/auth/password", { token: u.token, body: { currentPassword: u.password, newPassword: "something new here" } });
    expect(ok.status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token: u.token })).status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token: other.body.token })).status).toBe(401);
    expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: "something new here" } })).status).toBe(200);
  });

  test("needs a session", async () => {
    const res = await request(app, "POST", "/api/auth/password", { body: { currentPassword: "x", newPassword: "something new here" } });
    expect(res.status).toBe(401);
  });
});

describe("bad input names the field", () => {
  test.each([
    ["/api/auth/password/forgot", {}, "email"],
    ["/api/auth/password/forgot", { email: "not an address" }, "email"],
    ["/api/auth/password/reset", { password: "long enough pw" }, "token"],
    ["/api/auth/password/reset", { token: "short", password: "long enough pw" }, "token"],
    ["/api/auth/password/reset", { token: "a".repeat(43), password: "short" }, "password"],
  ] as const)("%s %j → 400 %s", async (path, body, field) => {
    const res = await request(app, "POST", path, { body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  test("change password: newPassword too short, currentPassword missing", async () => {
    const u = await signUp(app);
    const short = await request(app, "POST", "/api/auth/password", { token: u.token, body: { currentPassword: u.password, newPassword: "short" } });
    expect([short.status, short.body.field]).toEqual([400, "newPassword"]);
    const missing = await request(app, "POST", "/api/auth/password", { token: u.token, body: { newPassword: "long enough pw" } });
    expect([missing.status, missing.body.field]).toEqual([400, "currentPassword"]);
  });
});

describe("an administrator's one-time link", () => {
  test("only site admins make one; it works once", async () => {
    const admin = await signUp(app);
    const { setAccountByEmail } = await import("../../src/accounts/admin.ts");
    await setAccountByEmail(t.services.db, admin.email, { siteRole: "admin" });
    const u = await signUp(app);
    const refused = await request(app, "POST", `/api/admin/accounts/${u.user.id}/reset-link`, { token: u.token });
    expect(refused.status).toBe(403);
    const made = await request(app, "POST", `/api/admin/accounts/${u.user.id}/reset-link`, { token: admin.token });
    expect(made.status).toBe(200);
    expect(made.body.url).toStartWith("https://judge.example.edu/reset-password?token=");
    const token = new URL(made.body.url).searchParams.get("token")!;
    expect((await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "set by the link" } })).status).toBe(200);
    expect((await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "set by the link" } })).status).toBe(400);
    const outbox = await request(app, "GET", "/api/admin/mail", { token: admin.token });
    expect(outbox.status).toBe(200);
    expect(outbox.body.sent).toBeGreaterThan(0);
    const again = await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: "set by the link" } });
    expect((await request(app, "GET", "/api/admin/mail", { token: again.body.token })).status).toBe(403);
  });
});

test("`bun run admin -- reset-link EMAIL` prints a working one-time link; an unknown email exits 1", async () => {
  const u = await signUp(app);
  const env = { ...(process.env as Record<string, string>), NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: t.url, DATA_DIR: t.dir, PUBLIC_URL: "https://judge.example.edu" };
  const script = `${import.meta.dir}/../../scripts/admin.ts`;
  const ok = Bun.spawnSync(["bun", script, "reset-link", u.email.toUpperCase()], { env });
  expect(ok.exitCode).toBe(0);
  const url = /https:\/\/judge\.example\.edu\/reset-password\?token=\S+/.exec(ok.stdout.toString())?.[0];
  expect(url).toBeTruthy();
  const token = new URL(url!).searchParams.get("token")!;
  expect((await request(app, "POST", "/api/auth/password/reset", { body: { token, password: "from the command line" } })).status).toBe(200);
  expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: "from the command line" } })).status).toBe(200);
  const unknown = Bun.spawnSync(["bun", script, "reset-link", "nobody@example.com"], { env });
  expect(unknown.exitCode).toBe(1);
  expect(unknown.stderr.toString()).toContain("no account with the email nobody@example.com");
}, 30_000);

test("auth.passwordStatus tells a campus-made account it has no password; changing one is refused naming the field", async () => {
  const { createSession } = await import("../../src/auth/session.ts");
  const user = await createUser(t.services.db, { firstName: "Cam", lastName: "Pus", email: `cam-${crypto.randomUUID().slice(0, 8)}@example.edu`, passwordHash: null });
  const session = await createSession(t.services, user.id);
  const status = await request(app, "GET", "/trpc/auth.passwordStatus", { token: session.token });
  expect(status.body.result.data.hasPassword).toBe(false);
  const change = await request(app, "POST", "/api/auth/password", { token: session.token, body: { currentPassword: "anything", newPassword: "something new here" } });
  expect([change.status, change.body.field, change.body.code]).toEqual([400, "currentPassword", "NO_PASSWORD"]);
  const u = await signUp(app);
  expect((await request(app, "GET", "/trpc/auth.passwordStatus", { token: u.token })).body.result.data.hasPassword).toBe(true);
});
