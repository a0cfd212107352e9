/**
 * E-mail addresses in the browser, mail included (decision 071): sign up, open the verification link read from
 * a real SMTP server this test starts (python3-aiosmtpd, tests/mail/smtp-sink.py), see the address verified on
 * the account page; then change the address there by keyboard, read the link at the new address and the notice
 * at the old one, open the link, and see the new address, verified. axe checks the screens on the way.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../tests/mail/smtp.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3357;
const ORIGIN = `http://127.0.0.1:${PORT}`;
let server: TestServer;
let smtp: SmtpSink;
let browser: Browser;
let watched: WatchedPage;
const email = "vera.verify@example.com";
const newEmail = "vera.elsewhere@example.org";
const password = "a long enough password";

beforeAll(async () => {
  ensureClientBuilt();
  // The SMTP server takes a free port: these tests run in a network namespace of their own.
  smtp = await startSmtpSink();
  server = await startServer(PORT, { PUBLIC_URL: ORIGIN, SMTP_URL: smtp.url, MAIL_FROM: "Judge <judge@example.edu>", JUDGE_IN_PROCESS: "false" });
  browser = await launchBrowser();
  watched = await openPage(browser, ORIGIN);
}, 120_000);
afterEach(() => expectCleanPages([watched], watched));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

/** The first message to `to` whose subject is `subject`, waiting for it. */
async function mailFor(to: string, subject: string, timeoutMs = 30_000): Promise<ReceivedMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.messages().find((m) => m.rcptTos.includes(to) && m.subject === subject);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no "${subject}" to ${to} within ${timeoutMs} ms`);
    await Bun.sleep(100);
  }
}

function linkIn(mail: ReceivedMail, page: string): string {
  const link = new RegExp(`http://127\\.0\\.0\\.1:${PORT}/${page}\\?token=[A-Za-z0-9_-]{43}`).exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`no ${page} link in: ${mail.text}`);
  return link;
}

async function expectAxeClean(p: Page, where: string): Promise<void> {
  const found = await axeViolations(p);
  if (found.length) console.error(formatFindings(where, found).join("\n"));
  expect(found).toEqual([]);
}

test("sign up → the verification mail arrives → its link verifies the address, once", async () => {
  const p = watched.page;
  await p.goto("/signup");
  await p.getByLabel("First Name").fill("Vera");
  await p.getByLabel("Last Name").fill("Verify");
  await p.getByLabel("Email Address").fill(email);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Create Account" }).click();
  await p.waitForURL((u) => u.pathname !== "/signup");

  await p.goto("/account");
  const section = p.getByRole("region", { name: "E-mail address" });
  await section.getByText("Not verified", { exact: true }).waitFor();
  await section.getByRole("button", { name: "Send the link again" }).waitFor();
  await expectAxeClean(p, "/account (not verified)");

  const mail = await mailFor(email, "Verify your e-mail address");
  const link = linkIn(mail, "verify-email");
  await p.goto(link);
  await p.getByRole("heading", { name: "Verify your e-mail address" }).waitFor();
  await p.getByRole("status").filter({ hasText: "is verified" }).waitFor();
  // The token left the address bar once read.
  expect(p.url()).toBe(`${ORIGIN}/verify-email`);
  await expectAxeClean(p, "/verify-email (verified)");
  await p.getByRole("link", { name: "Go to your account" }).click();
  await p.waitForURL(`${ORIGIN}/account`);
  await section.getByText("Verified", { exact: true }).waitFor();
  expect(await section.getByRole("button", { name: "Send the link again" }).count()).toBe(0);

  // The same link again: refused, and the page says so.
  await p.goto(link);
  await p.getByRole("alert").filter({ hasText: "not valid" }).waitFor();
}, 90_000);

test("the account page changes the address by keyboard: a link to the new address confirms it, the old one gets a notice", async () => {
  const p = watched.page;
  await p.goto("/account");
  const section = p.getByRole("region", { name: "E-mail address" });
  await section.getByText("Verified", { exact: true }).waitFor();
  await section.getByLabel("New e-mail address").focus();
  await p.keyboard.type(newEmail);
  await p.keyboard.press("Tab");
  expect(await p.evaluate(() => document.activeElement?.id)).toBe("email-change-password");
  await p.keyboard.type("not my password");
  await p.keyboard.press("Enter");
  await section.getByRole("alert").filter({ hasText: "not your password" }).waitFor();

  await section.getByLabel("Your password").fill("");
  await section.getByLabel("Your password").focus();
  await p.keyboard.type(password);
  await p.keyboard.press("Enter");
  await section.getByRole("status").filter({ hasText: newEmail }).waitFor();
  await section.getByText(`open the link we sent to ${newEmail}`).waitFor();
  // Nothing changed yet.
  await section.getByText(email, { exact: true }).waitFor();
  await expectAxeClean(p, "/account (change pending)");

  const notice = await mailFor(email, "A change of your e-mail address was requested");
  expect(notice.text).toContain(newEmail);
  expect(notice.text).not.toContain("/confirm-email");
  const confirm = await mailFor(newEmail, "Confirm your new e-mail address");
  await p.goto(linkIn(confirm, "confirm-email"));
  await p.getByRole("heading", { name: "Confirm your new e-mail address" }).waitFor();
  await p.getByRole("status").filter({ hasText: `is now ${newEmail}` }).waitFor();
  await expectAxeClean(p, "/confirm-email (confirmed)");

  await p.goto("/account");
  await section.getByText(newEmail, { exact: true }).waitFor();
  await section.getByText("Verified", { exact: true }).waitFor();
  // Sign-in follows the new address.
  const login = await fetch(`${ORIGIN}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: newEmail, password }) });
  expect(login.status).toBe(200);
}, 90_000);
