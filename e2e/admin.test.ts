/**
 * The operator's status page in the browser: an account made admin with
 * `bun run admin -- grant`, the queue shown live (submissions arriving while
 * no judge runs appear without a reload), the sandbox's self-test, and a
 * plain user refused.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";
import { axeViolations } from "./axe.ts";

const PORT = 3315;
let server: TestServer;
let browser: Browser;
let admin: WatchedPage;
const ADMIN = { firstName: "Op", lastName: "Erator", email: "op@uni.example", password: "keep-it-running" };

async function api(path: string, body?: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: body ? "POST" : "GET",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  ensureClientBuilt();
  // No judge in this process: submissions stay queued, so the page has something to show.
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  browser = await launchBrowser();
  admin = await openPage(browser, server.url);
}, 120_000);
afterEach(() => expectCleanPages([admin], admin));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("an admin watches the queue grow live on the status page; a plain user is refused", async () => {
  await api("/api/auth/register", ADMIN);
  const plain = await api("/api/auth/login", { email: ADMIN.email, password: ADMIN.password });
  expect((await api("/api/admin/status", undefined, plain.body.token)).status).toBe(403);
  const grant = Bun.spawnSync(["bun", "scripts/admin.ts", "grant", ADMIN.email], { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl } });
  expect(grant.stdout.toString()).toContain("is now a site admin");
  const p = admin.page;
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(ADMIN.email);
  await p.getByLabel("Password").fill(ADMIN.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL("**/problems");
  await p.goto("/courses");
  await p.getByRole("link", { name: "Status and accounts (admin)" }).click();
  await p.getByTestId("queued").waitFor();
  expect(await p.getByTestId("queued").textContent()).toBe("0");
  expect(await p.getByTestId("self-test").textContent()).toBe("self-test passed");
  const { token } = (await api("/api/auth/login", { email: ADMIN.email, password: ADMIN.password })).body;
  const problems = (await api("/api/problems", undefined, token)).body as { _id: string }[];
  for (const code of ["print(1)", "print(2)"]) {
    expect((await api("/api/submissions?wait=false", { problemId: problems[0]!._id, code, language: "py" }, token)).status).toBe(202);
  }
  await p.waitForFunction(() => document.querySelector('[data-testid="queued"]')?.textContent === "2", undefined, { timeout: 10_000 });
  await p.getByRole("row", { name: new RegExp(ADMIN.email) }).waitFor();
}, 120_000);

test("an admin registers an LMS platform on the admin page, with the tool's URLs to give the LMS", async () => {
  const p = admin.page;
  await p.goto("/admin");
  const urls = p.getByTestId("tool-urls");
  await urls.waitFor();
  expect(await urls.textContent()).toContain(`${server.url}/api/lti/jwks`);
  const form = p.getByRole("form", { name: "Register a platform" });
  await form.getByLabel("Name", { exact: true }).fill("Moodle at Example");
  await form.getByLabel("Issuer (platform ID)").fill("https://moodle.example.edu");
  await form.getByLabel("Client ID").fill("abc123");
  await form.getByLabel("Deployment IDs (comma-separated)").fill("1, 2");
  await form.getByLabel("Authentication request URL").fill("https://moodle.example.edu/mod/lti/auth.php");
  await form.getByLabel("Access token URL").fill("http://moodle.example.edu/mod/lti/token.php");
  await form.getByLabel("Public keyset URL").fill("https://moodle.example.edu/mod/lti/certs.php");
  await form.getByRole("button", { name: "Register platform" }).click();
  // Plain http to another machine is refused, naming the field.
  await p.getByRole("alert").filter({ hasText: "tokenUrl" }).waitFor();
  await form.getByLabel("Access token URL").fill("https://moodle.example.edu/mod/lti/token.php");
  await form.getByRole("button", { name: "Register platform" }).click();
  await p.getByText("Platform registered.").waitFor();
  const row = p.getByRole("row", { name: /Moodle at Example/ });
  await row.waitFor();
  expect(await row.textContent()).toContain("1, 2");
}, 60_000);

test("an admin finds an account among many by part of its address or name; the rest come a page at a time", async () => {
  for (let i = 0; i < 55; i++) {
    await api("/api/auth/register", { firstName: i === 7 ? "Katherine" : "Student", lastName: `Number ${i}`, email: `s${String(i).padStart(2, "0")}@uni.example`, password: "student-password" });
  }
  const p = admin.page;
  await p.goto("/admin");
  const count = p.getByTestId("accounts-count");
  await count.getByText("Showing 50 of 56 accounts.").waitFor();
  await p.getByRole("button", { name: "Show more accounts" }).click();
  await count.getByText("Showing 56 of 56 accounts.").waitFor();
  expect(await p.getByRole("button", { name: "Show more accounts" }).count()).toBe(0);
  await p.getByLabel("Search accounts").fill("kather");
  await count.getByText("One account matches.").waitFor();
  await p.getByRole("row", { name: /s07@uni\.example/ }).waitFor();
  await p.getByLabel("Search accounts").fill("nobody-here");
  await count.getByText("No account matches.").waitFor();
  expect(await axeViolations(p)).toEqual([]);
}, 120_000);

