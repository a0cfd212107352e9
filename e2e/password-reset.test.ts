/**
 * Password reset in the browser, mail included: "Forgot password?" on the
 * sign-in page, the message read from a real SMTP server this test starts
 * (python3-aiosmtpd, tests/mail/smtp-sink.py), its link opened, the token gone
 * from the address bar, a new password set, and a sign-in with it. Then the
 * account page's "Change password".
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startSmtpSink, type SmtpSink } from "../tests/mail/smtp.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3330;
const SMTP_PORT = 3331;
const ORIGIN = `http://127.0.0.1:${PORT}`;
let server: TestServer;
let smtp: SmtpSink;
let browser: Browser;
let watched: WatchedPage;
const email = "reset.me@example.com";

beforeAll(async () => {
  ensureClientBuilt();
  smtp = await startSmtpSink(SMTP_PORT);
  server = await startServer(PORT, { PUBLIC_URL: ORIGIN, SMTP_URL: smtp.url, MAIL_FROM: "Judge <judge@example.edu>", JUDGE_IN_PROCESS: "false" });
  const reg = await fetch(`${ORIGIN}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ firstName: "Rita", lastName: "Reset", email, password: "the old password" }),
  });
  expect(reg.status).toBe(200);
  browser = await launchBrowser();
  watched = await openPage(browser, ORIGIN);
}, 120_000);
afterEach(() => expectCleanPages([watched], watched));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

test("forgot → the mail arrives → its link sets a new password once → sign in with it", async () => {
  const p = watched.page;
  await p.goto("/signin");
  await p.getByRole("link", { name: "Forgot password?" }).click();
  await p.waitForURL(`${ORIGIN}/forgot-password`);
  await p.getByLabel("Email Address").fill(email);
  await p.getByRole("button", { name: "Send the link" }).click();
  await p.getByRole("status").filter({ hasText: "on its way" }).waitFor();

  // The sign-up's verification link came first (e2e/email.test.ts).
  const mail = (await smtp.waitFor(2, 30_000)).find((m) => m.subject === "Reset your password");
  expect(mail!.rcptTos).toEqual([email]);
  expect(mail!.subject).toBe("Reset your password");
  const link = /http:\/\/127\.0\.0\.1:3330\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(mail!.text ?? "")?.[0];
  expect(link).toBeTruthy();

  await p.goto(link!);
  await p.getByRole("heading", { name: "Choose a new password" }).waitFor();
  // The token left the address bar (and the history entry) once read.
  await p.waitForFunction(() => window.location.search === "");
  expect(p.url()).toBe(`${ORIGIN}/reset-password`);
  await p.getByLabel("New password", { exact: true }).fill("a fresh password");
  await p.getByLabel("New password again").fill("a fresh password");
  await p.getByRole("button", { name: "Set the password" }).click();
  await p.getByRole("status").filter({ hasText: "Password set" }).waitFor();

  // The same link a second time: refused, naming what to do.
  await p.goto(link!);
  await p.getByLabel("New password", { exact: true }).fill("another password");
  await p.getByLabel("New password again").fill("another password");
  await p.getByRole("button", { name: "Set the password" }).click();
  await p.getByRole("alert").filter({ hasText: "not valid" }).waitFor();

  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(email);
  await p.getByLabel("Password").fill("a fresh password");
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL(`${ORIGIN}/problems`);
}, 90_000);

test("the account page changes the password (the current one asked)", async () => {
  const p = watched.page;
  await p.goto("/account");
  await p.getByRole("heading", { name: "Change password" }).waitFor();
  await p.getByLabel("Current password").fill("wrong password");
  await p.getByLabel("New password", { exact: true }).fill("the newest password");
  await p.getByLabel("New password again").fill("the newest password");
  await p.getByRole("button", { name: "Change password" }).click();
  await p.getByRole("alert").filter({ hasText: "not your current password" }).waitFor();
  await p.getByLabel("Current password").fill("a fresh password");
  await p.getByRole("button", { name: "Change password" }).click();
  await p.getByRole("status").filter({ hasText: "Password changed" }).waitFor();
  const login = await fetch(`${ORIGIN}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "the newest password" }),
  });
  expect(login.status).toBe(200);
}, 60_000);
