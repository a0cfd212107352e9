/**
 * Deleting one's account in the browser, by keyboard (issue 36, point 4; decision 072): sign up,
 * submit a solution, open "Delete account…" on the account page (the dialog keeps focus inside,
 * Escape closes it and focus returns to the button; axe finds nothing in it), confirm with the
 * password, land on the landing page signed out with the server's message, and find that the
 * account can no longer sign in and its old token is refused.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, setEditorCode, startServer, type TestServer, type WatchedPage } from "./harness.ts";
import { problemBody } from "../tests/fixtures/problem.ts";

const PORT = 3362;
let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let problemId = "";
const me = { firstName: "Erin", lastName: "Eraser", email: "erin.eraser@example.com", password: "a long enough password" };

async function api(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  // Another account writes the problem (it stays: it is theirs).
  const author = { firstName: "Ann", lastName: "Author", email: "ann.author@example.com", password: "another long password" };
  expect((await api("/api/auth/register", { method: "POST", body: author })).status).toBe(200);
  const login = await api("/api/auth/login", { method: "POST", body: { email: author.email, password: author.password } });
  const problem = await api("/api/problems", { method: "POST", token: login.body.token, body: problemBody({ title: "Plus One" }) });
  expect(problem.status).toBe(201);
  problemId = problem.body._id;
  browser = await launchBrowser();
  watched = await openPage(browser, server.url);
}, 120_000);
afterEach(() => expectCleanPages([watched], watched));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Presses Tab until the focused element matches `selector` (at most `max` presses). */
async function tabTo(selector: string, max = 12): Promise<void> {
  const p = watched.page;
  for (let i = 0; i < max; i++) {
    if (await p.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await p.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

test("sign up, submit, delete the account through the dialog by keyboard, land signed out, cannot sign in again", async () => {
  const p = watched.page;
  await p.goto("/signup");
  await p.getByLabel("First Name").fill(me.firstName);
  await p.getByLabel("Last Name").fill(me.lastName);
  await p.getByLabel("Email Address").fill(me.email);
  await p.getByLabel("Password").fill(me.password);
  await p.keyboard.press("Enter");
  await p.waitForURL("**/problems", { timeout: 15_000 });
  const token = (await p.evaluate(() => localStorage.getItem("token")))!;
  expect(token).toBeTruthy();

  // Submit something (no judge runs here: it stays queued, which is enough to be erased).
  await p.goto(`/solve/${problemId}`);
  await p.getByRole("main").getByLabel("Language").selectOption("py");
  await setEditorCode(p, "print(int(input()) + 1)  # Erin's solution\n");
  await p.getByRole("button", { name: "Submit Code" }).click();
  const submitted = async () => ((await api(`/api/submissions/${problemId}`, { token })).body as unknown[]).length;
  for (let i = 0; i < 75 && (await submitted()) === 0; i++) await Bun.sleep(200);
  expect(await submitted()).toBe(1);

  // The account page's section, and its dialog: focus kept inside, Escape closes, focus returns.
  await p.goto("/account");
  await p.getByRole("heading", { name: "Delete account", exact: true }).waitFor();
  const opener = p.getByRole("button", { name: "Delete account…" });
  await opener.focus();
  await p.keyboard.press("Enter");
  const dialog = p.getByRole("alertdialog", { name: "Delete your account?" });
  await dialog.waitFor();
  expect(await p.evaluate(() => Boolean(document.activeElement?.closest("[role=alertdialog]")))).toBe(true);
  for (let i = 0; i < 6; i++) {
    await p.keyboard.press("Tab");
    expect(await p.evaluate(() => Boolean(document.activeElement?.closest("[role=alertdialog]")))).toBe(true);
  }
  expect(formatFindings("account, delete dialog", await axeViolations(p))).toEqual([]);
  await p.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  expect(await p.evaluate(() => document.activeElement?.textContent ?? "")).toBe("Delete account…");

  // A wrong password is refused in the dialog, naming the field.
  await p.keyboard.press("Enter");
  await dialog.waitFor();
  await tabTo("#erase-password");
  await p.keyboard.type("not my password");
  await p.keyboard.press("Enter");
  await dialog.getByText("This is not your password").waitFor();
  expect(await p.getByLabel("Your password").getAttribute("aria-invalid")).toBe("true");

  // The right one erases the account.
  await p.getByLabel("Your password").fill("");
  await p.keyboard.type(me.password);
  await p.keyboard.press("Enter");
  await p.waitForURL((u) => u.pathname === "/", { timeout: 15_000 });
  const notice = p.getByTestId("account-erased");
  await notice.waitFor();
  expect(await notice.textContent()).toBe("Your account has been deleted.");
  expect(await p.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? "")).toBe("account-erased");
  expect(await p.evaluate(() => localStorage.getItem("token"))).toBeNull();
  await p.getByRole("banner").getByRole("link", { name: /sign in/i }).first().waitFor();

  // The old session is refused, and the account cannot sign in again.
  expect((await api("/api/auth/me", { token })).status).toBe(401);
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(me.email);
  await p.getByLabel("Password").fill(me.password);
  await p.keyboard.press("Enter");
  await p.getByRole("alert").filter({ hasText: "Invalid email or password" }).waitFor();
  expect(p.url()).toContain("/signin");
  expect((await api("/api/auth/login", { method: "POST", body: { email: me.email, password: me.password } })).status).toBe(401);
}, 180_000);
