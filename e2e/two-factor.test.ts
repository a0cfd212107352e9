/**
 * Two-factor sign-in and sessions in the browser, by keyboard (issue 36, point 3): turn it on from
 * the account page (the key read as a person would type it into an app, the code computed from it),
 * the ten recovery codes shown once, then a password sign-in that asks for the code and takes a
 * recovery code, and "Where you're signed in" signing out the other browser. axe on the account page
 * with two-factor sign-in on, in both themes.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { decodeBase32IgnorePadding, encodeHexLowerCase } from "@oslojs/encoding";
import { totpCodeAt, totpStep } from "../src/accounts/two-factor/totp.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3347;
let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let other: WatchedPage;
const email = "two.factor@example.com";
const password = "a long enough password";

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  const reg = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ firstName: "Tove", lastName: "Factor", email, password }),
  });
  expect(reg.status).toBe(200);
  browser = await launchBrowser();
  watched = await openPage(browser, server.url);
  other = await openPage(browser, server.url);
}, 120_000);
afterEach(() => expectCleanPages([watched, other], watched));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signs in with the password by keyboard only: fills, then Enter. */
async function signInWithPassword(p: Page): Promise<void> {
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(email);
  await p.getByLabel("Password").fill(password);
  await p.keyboard.press("Enter");
}

test("turn on by keyboard; sign-in asks for the code and takes a recovery code once; the other browser is signed out from here", async () => {
  const p = watched.page;
  await signInWithPassword(other.page);
  await other.page.waitForURL("**/problems");
  await signInWithPassword(p);
  await p.waitForURL("**/problems");

  await p.goto("/account");
  const start = p.getByRole("button", { name: "Turn on two-factor sign-in" });
  await start.focus();
  await p.keyboard.press("Enter");
  const keyText = await p.getByTestId("two-factor-key").textContent();
  const key = encodeHexLowerCase(decodeBase32IgnorePadding(keyText!.replace(/\s/g, "")));
  expect(await p.getByRole("img", { name: "QR code holding the key for your authenticator app" }).isVisible()).toBe(true);
  await p.getByLabel("Code from your app").fill(totpCodeAt(key, totpStep(Date.now())));
  await p.keyboard.press("Enter");
  const codes = p.getByTestId("recovery-codes").getByRole("listitem");
  await codes.first().waitFor();
  expect(await codes.count()).toBe(10);
  const recovery = (await codes.first().textContent())!;
  expect(recovery).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
  await p.getByRole("button", { name: "I have saved them" }).press("Enter");
  await p.getByRole("status").filter({ hasText: "Two-factor sign-in is on." }).first().waitFor();

  const onViolations = [
    ...formatFindings("account, two-factor on, light", await axeViolations(p)),
  ];
  await p.emulateMedia({ colorScheme: "dark" });
  await p.evaluate(() => localStorage.setItem("darkMode", "true"));
  await p.reload();
  await p.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
  onViolations.push(...formatFindings("account, two-factor on, dark", await axeViolations(p)));
  expect(onViolations).toEqual([]);

  // Sign out everywhere else: the other browser's next request is refused.
  await p.getByRole("heading", { name: "Where you're signed in" }).waitFor();
  const sessions = p.getByTestId("sessions").getByRole("listitem");
  expect(await sessions.count()).toBeGreaterThanOrEqual(2);
  await p.getByRole("button", { name: "Sign out everywhere else" }).press("Enter");
  await p.getByRole("status").filter({ hasText: /Signed out \d+ other session/ }).waitFor();
  const otherToken = await other.page.evaluate(() => localStorage.getItem("token"));
  expect((await fetch(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${otherToken}` } })).status).toBe(401);

  // A password sign-in now asks for the code; a recovery code works once.
  await other.page.evaluate(() => localStorage.removeItem("token"));
  await signInWithPassword(other.page);
  await other.page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
  await other.page.getByRole("button", { name: "Use a recovery code instead" }).press("Enter");
  await other.page.getByLabel("Recovery code").fill(recovery);
  await other.page.keyboard.press("Enter");
  await other.page.waitForURL("**/problems");

  await other.page.evaluate(() => localStorage.removeItem("token"));
  await signInWithPassword(other.page);
  await other.page.getByRole("button", { name: "Use a recovery code instead" }).press("Enter");
  await other.page.getByLabel("Recovery code").fill(recovery);
  await other.page.keyboard.press("Enter");
  await other.page.getByRole("alert").filter({ hasText: "not right, or it was already used" }).waitFor();
}, 120_000);
