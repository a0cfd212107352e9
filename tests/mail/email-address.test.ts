/**
 * E-mail addresses through the real parts (decision 071): the REST doors on the real app over a real libSQL file,
 * mail through the outbox and nodemailer to a real SMTP server (python3-aiosmtpd) this test starts, read back
 * from it: verification after sign-up and sent again, a change confirmed from the new address with a notice to
 * the old, the REQUIRE_VERIFIED_EMAIL_TO_SUBMIT setting, and bad input answered 4xx naming the field.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createApp } from "../../src/app.ts";
import { createUser } from "../../src/accounts/user.ts";
import { signInExternal } from "../../src/sso/identities.ts";
import { loadConfig } from "../../src/config.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { startMailSender, type MailSender } from "../../src/mail/sender.ts";
import { emailTokens, users } from "../../db/schema.ts";
import { problemBody, request, signUp } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "./smtp.ts";

let smtp: SmtpSink;
let t: TestServices;
let app: ReturnType<typeof createApp>;
let sender: MailSender;
/** The services' clock: tests move it to expire links. */
let clockOffsetMs = 0;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestServices({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: "https://judge.example.edu", MAIL_FROM: "Judge <judge@example.edu>", RATE_LIMIT_EMAIL_LINKS_PER_USER: "3/1h" },
    clock: () => Date.now() + clockOffsetMs,
  });
  sender = startMailSender({ db: t.services.db, config: t.config, log: t.services.log }, { pollMs: 200 });
  t.services.mail = sender;
  app = createApp(t.services);
});

afterAll(async () => {
  await sender.stop();
  await smtp.stop();
  t.cleanup();
});

const mailTo = (to: string) => smtp.messagesTo(to);
const waitForMailTo = (to: string, n = 1) => smtp.waitForTo(to, n);

/** The token of the `/verify-email` or `/confirm-email` link in a message's text part. */
function linkToken(mail: ReceivedMail, page: "verify-email" | "confirm-email"): string {
  const m = new RegExp(`https://judge\\.example\\.edu/${page}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text ?? "");
  if (!m) throw new Error(`no ${page} link in: ${mail.text}`);
  return m[1]!;
}

const me = async (token: string) => (await request(app, "GET", "/api/auth/me", { token })).body.user;

describe("verification", () => {
  test("a password sign-up mails a link; opening it verifies the address, once", async () => {
    const u = await signUp(app);
    expect((await me(u.token)).emailVerified).toBe(false);
    const [mail] = await waitForMailTo(u.email);
    expect(mail!.subject).toBe("Verify your e-mail address");
    expect(mail!.html).toContain("/verify-email?token=");
    const token = linkToken(mail!, "verify-email");
    // Only the hash is stored.
    const [row] = await t.services.db.select().from(emailTokens).where(eq(emailTokens.userId, u.user.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toBe(token);
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    // No session needed: the link may be opened on another device.
    const ok = await request(app, "POST", "/api/account/email/verify", { body: { token } });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ id: u.user.id, email: u.email, emailVerified: true });
    expect(ok.body.message).toContain("is verified");
    expect((await me(u.token)).emailVerified).toBe(true);
    expect((await request(app, "GET", "/api/account/email", { token: u.token })).body).toMatchObject({ email: u.email, verified: true, pendingEmail: null, hasPassword: true, byMail: true });

    const again = await request(app, "POST", "/api/account/email/verify", { body: { token } });
    expect([again.status, again.body.field, again.body.code]).toEqual([400, "token", "EMAIL_LINK_INVALID"]);
    // Verified: nothing to send again.
    expect((await request(app, "POST", "/api/account/email/verification", { token: u.token })).status).toBe(409);
  });

  test("send the link again: a second link arrives and works; past RATE_LIMIT_EMAIL_LINKS_PER_USER, 429 naming it", async () => {
    const u = await signUp(app);
    await waitForMailTo(u.email, 1);
    const res = await request(app, "POST", "/api/account/email/verification", { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.byMail).toBe(true);
    expect(res.body.message).toContain(u.email);
    const mails = await waitForMailTo(u.email, 2);
    const second = linkToken(mails[1]!, "verify-email");
    expect(second).not.toBe(linkToken(mails[0]!, "verify-email"));
    // Two more fit in the window (3/1h); the fourth is refused.
    expect((await request(app, "POST", "/api/account/email/verification", { token: u.token })).status).toBe(200);
    expect((await request(app, "POST", "/api/account/email/verification", { token: u.token })).status).toBe(200);
    const limited = await request(app, "POST", "/api/account/email/verification", { token: u.token });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toContain("RATE_LIMIT_EMAIL_LINKS_PER_USER");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await request(app, "POST", "/api/account/email/verify", { body: { token: second } })).status).toBe(200);
    expect((await request(app, "POST", "/api/account/email/verification")).status).toBe(401);
  });

  test("a link older than 24 hours is refused, naming token", async () => {
    const u = await signUp(app);
    const [mail] = await waitForMailTo(u.email);
    clockOffsetMs = 24 * 3_600_000 + 1000;
    try {
      const res = await request(app, "POST", "/api/account/email/verify", { body: { token: linkToken(mail!, "verify-email") } });
      expect([res.status, res.body.field]).toEqual([400, "token"]);
    } finally {
      clockOffsetMs = 0;
    }
    expect((await me(u.token)).emailVerified).toBe(false);
  });

  test("a token of the wrong shape or none: 400 naming token", async () => {
    for (const body of [{}, { token: "short" }, { token: 42 }]) {
      const res = await request(app, "POST", "/api/account/email/verify", { body });
      expect([res.status, res.body.field]).toEqual([400, "token"]);
    }
    const confirm = await request(app, "POST", "/api/account/email/confirm", { body: { token: "x".repeat(43) } });
    expect([confirm.status, confirm.body.field, confirm.body.code]).toEqual([400, "token", "EMAIL_LINK_INVALID"]);
  });

  test("an address a campus way in vouched for counts as verified; a password sign-up's does not", async () => {
    const db = t.services.db;
    const vouched = await createUser(db, { firstName: "Olga", lastName: "Idp", email: "olga@campus.example.edu", passwordHash: null }, { emailVerified: true });
    const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, vouched.id));
    expect(row!.at).toBeInstanceOf(Date);
    // An existing unverified account whose own address a directory then vouches for (a linked sign-in).
    const u = await signUp(app);
    const profile = { provider: "ldap:campus", issuer: "ldap://campus", subject: "uid=u1", email: u.email.toUpperCase(), emailVerified: true, firstName: null, lastName: null, claims: {} };
    const policy = { existingOnly: false, linkVerifiedEmail: false, adminWhen: null, courseCreatorWhen: null };
    await signInExternal(db, profile, policy, { linkToUserId: u.user.id });
    expect((await me(u.token)).emailVerified).toBe(true);
    // A provider that does not vouch (an untrusted LMS) verifies nothing.
    const other = await signUp(app);
    await signInExternal(db, { ...profile, provider: "lti:x", subject: "lms-7", email: other.email, emailVerified: false }, policy, { linkToUserId: other.user.id });
    expect((await me(other.token)).emailVerified).toBe(false);
  });
});

describe("changing the address", () => {
  test("a link to the new address and a notice to the old; the address changes only when the link is opened", async () => {
    const u = await signUp(app, { firstName: "Carla" });
    const newEmail = `carla.new-${crypto.randomUUID().slice(0, 8)}@example.org`;
    const res = await request(app, "POST", "/api/account/email", { token: u.token, body: { newEmail, password: u.password } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ byMail: true, pendingEmail: newEmail });
    expect(res.body.message).toContain(newEmail);

    const [confirmMail] = await waitForMailTo(newEmail);
    expect(confirmMail!.subject).toBe("Confirm your new e-mail address");
    expect(confirmMail!.text).toContain(newEmail);
    const notices = (await waitForMailTo(u.email, 2)).filter((m) => m.subject === "A change of your e-mail address was requested");
    expect(notices.length).toBe(1);
    expect(notices[0]!.text).toContain(newEmail);
    expect(notices[0]!.text).toContain("https://judge.example.edu/forgot-password");
    expect(notices[0]!.text).not.toContain("/confirm-email");

    // Not yet changed.
    expect((await me(u.token)).email).toBe(u.email);
    expect((await request(app, "GET", "/api/account/email", { token: u.token })).body.pendingEmail).toBe(newEmail);

    const token = linkToken(confirmMail!, "confirm-email");
    const ok = await request(app, "POST", "/api/account/email/confirm", { body: { token } });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ id: u.user.id, email: newEmail, emailVerified: true });
    expect(await me(u.token)).toMatchObject({ email: newEmail, emailVerified: true });
    // Sign-in follows the address.
    expect((await request(app, "POST", "/api/auth/login", { body: { email: newEmail, password: u.password } })).status).toBe(200);
    expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: u.password } })).status).toBe(401);
    // Once.
    const again = await request(app, "POST", "/api/account/email/confirm", { body: { token } });
    expect([again.status, again.body.field]).toEqual([400, "token"]);
    // The verification link sent to the old address before the change no longer verifies anything.
    const oldVerify = mailTo(u.email).find((m) => m.subject === "Verify your e-mail address")!;
    expect((await request(app, "POST", "/api/account/email/verify", { body: { token: linkToken(oldVerify, "verify-email") } })).status).toBe(400);
  });

  test("a second change voids the first one's link", async () => {
    const u = await signUp(app);
    const first = `first-${crypto.randomUUID().slice(0, 8)}@example.org`;
    const second = `second-${crypto.randomUUID().slice(0, 8)}@example.org`;
    expect((await request(app, "POST", "/api/account/email", { token: u.token, body: { newEmail: first, password: u.password } })).status).toBe(200);
    expect((await request(app, "POST", "/api/account/email", { token: u.token, body: { newEmail: second, password: u.password } })).status).toBe(200);
    const [firstMail] = await waitForMailTo(first);
    const res = await request(app, "POST", "/api/account/email/confirm", { body: { token: linkToken(firstMail!, "confirm-email") } });
    expect([res.status, res.body.field]).toEqual([400, "token"]);
    expect((await me(u.token)).email).toBe(u.email);
  });

  test("bad input: 400 naming password (missing or wrong: a failed sign-in), newEmail (malformed or unchanged); 409 naming newEmail when taken", async () => {
    const u = await signUp(app);
    const other = await signUp(app);
    const post = (body: unknown) => request(app, "POST", "/api/account/email", { token: u.token, body });
    const fresh = `fresh-${crypto.randomUUID().slice(0, 8)}@example.org`;

    const missing = await post({ newEmail: fresh });
    expect([missing.status, missing.body.field]).toEqual([400, "password"]);
    const malformed = await post({ newEmail: "not-an-address", password: u.password });
    expect([malformed.status, malformed.body.field]).toEqual([400, "newEmail"]);
    const none = await post({ password: u.password });
    expect([none.status, none.body.field]).toEqual([400, "newEmail"]);
    const same = await post({ newEmail: u.email.toUpperCase(), password: u.password });
    expect([same.status, same.body.field, same.body.code]).toEqual([400, "newEmail", "EMAIL_UNCHANGED"]);
    const taken = await post({ newEmail: other.email, password: u.password });
    expect([taken.status, taken.body.field, taken.body.code]).toEqual([409, "newEmail", "NEW_EMAIL_TAKEN"]);
    expect((await request(app, "POST", "/api/account/email", { body: { newEmail: fresh } })).status).toBe(401);

    // A wrong password counts as a failed sign-in of the account: after SIGNIN_BACKOFF_AFTER_FAILURES (5), 429.
    for (let i = 0; i < 5; i++) {
      const wrong = await post({ newEmail: fresh, password: `wrong-${i}-password` });
      expect([wrong.status, wrong.body.field, wrong.body.code]).toEqual([400, "password", "PASSWORD_WRONG"]);
    }
    const locked = await post({ newEmail: fresh, password: u.password });
    expect(locked.status).toBe(429);
    expect((await request(app, "POST", "/api/auth/login", { body: { email: u.email, password: u.password } })).status).toBe(429);
    expect(mailTo(fresh)).toEqual([]);
  });

  test("an account without a password (a campus sign-in) changes its address without one", async () => {
    const db = t.services.db;
    const campus = await createUser(db, { firstName: "Ida", lastName: "Sso", email: `ida-${crypto.randomUUID().slice(0, 8)}@campus.example.edu`, passwordHash: null }, { emailVerified: true });
    const { createSession } = await import("../../src/auth/session.ts");
    const session = await createSession(t.services, campus.id, {});
    const status = await request(app, "GET", "/api/account/email", { token: session.token });
    expect(status.body).toMatchObject({ verified: true, hasPassword: false });
    const newEmail = `ida.home-${crypto.randomUUID().slice(0, 8)}@example.org`;
    expect((await request(app, "POST", "/api/account/email", { token: session.token, body: { newEmail } })).status).toBe(200);
    await waitForMailTo(newEmail);
    await waitForMailTo(campus.email);
  });
});

describe("without mail", () => {
  test("nothing is stored or sent, and the answers say so (byMail: false)", async () => {
    const bare = await createTestServices();
    try {
      const bareApp = createApp(bare.services);
      const u = await signUp(bareApp);
      expect((await bare.services.db.select().from(emailTokens)).length).toBe(0);
      const resend = await request(bareApp, "POST", "/api/account/email/verification", { token: u.token });
      expect([resend.status, resend.body.byMail]).toEqual([200, false]);
      expect(resend.body.message).toContain("does not send mail");
      const change = await request(bareApp, "POST", "/api/account/email", { token: u.token, body: { newEmail: "elsewhere@example.org", password: u.password } });
      expect([change.status, change.body.byMail]).toEqual([200, false]);
      expect((await request(bareApp, "GET", "/api/account/email", { token: u.token })).body).toMatchObject({ email: u.email, verified: false, pendingEmail: null, byMail: false });
      expect((await bare.services.db.select().from(emailTokens)).length).toBe(0);
    } finally {
      bare.cleanup();
    }
  });

  test("REQUIRE_VERIFIED_EMAIL_TO_SUBMIT without mail is a configuration error naming it", () => {
    expect(() => loadConfig({ REQUIRE_VERIFIED_EMAIL_TO_SUBMIT: "true" })).toThrow(/REQUIRE_VERIFIED_EMAIL_TO_SUBMIT/);
  });
});

describe("REQUIRE_VERIFIED_EMAIL_TO_SUBMIT", () => {
  test("an unverified account's submissions are refused with 403 naming the setting; once verified they are queued", async () => {
    const s = await createTestServices({
      env: { SMTP_URL: smtp.url, PUBLIC_URL: "https://judge.example.edu", REQUIRE_VERIFIED_EMAIL_TO_SUBMIT: "true", JUDGE_IN_PROCESS: "false" },
    });
    try {
      s.services.judge = await JudgeService.create({ config: s.config, db: s.services.db, log: s.services.log, sandbox: s.services.sandbox, cacheDir: join(s.dir, "cache") });
      const sApp = createApp(s.services);
      const author = await signUp(sApp);
      const p = await request(sApp, "POST", "/api/problems", { token: author.token, body: problemBody() });
      expect(p.status).toBe(201);
      const student = await signUp(sApp);
      const submit = () => request(sApp, "POST", "/api/submissions?wait=false", { token: student.token, body: { problemId: p.body._id, language: "py", code: "print(int(input())+1)\n" } });
      const refused = await submit();
      expect(refused.status).toBe(403);
      expect([refused.body.code, refused.body.setting]).toEqual(["EMAIL_NOT_VERIFIED", "REQUIRE_VERIFIED_EMAIL_TO_SUBMIT"]);
      expect(refused.body.message).toContain("REQUIRE_VERIFIED_EMAIL_TO_SUBMIT");
      // The message in the reader's language keeps the setting's name.
      const german = await request(sApp, "POST", "/api/submissions?wait=false", { token: student.token, headers: { "accept-language": "de" }, body: { problemId: p.body._id, language: "py", code: "print(1)\n" } });
      expect(german.body.message).toContain("Bestätigen Sie Ihre E-Mail-Adresse");
      expect(german.body.message).toContain("REQUIRE_VERIFIED_EMAIL_TO_SUBMIT");

      await s.services.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, student.user.id));
      const queued = await submit();
      expect(queued.status).toBe(202);
    } finally {
      s.cleanup();
    }
  });
});
