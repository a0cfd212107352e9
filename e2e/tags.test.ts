/**
 * Topic tags in the browser: an admin curates the vocabulary on the admin
 * page (adds a tag, gives it a synonym), and an author picks tags for a new
 * problem with the keyboard in the problem form's tag picker (the filter
 * finds a tag by its synonym); the server stores them. Both screens pass axe
 * (WCAG 2.1 AA).
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";
import { axeViolations, formatFindings } from "./axe.ts";

const PORT = 3325;
let server: TestServer;
let browser: Browser;
let page: WatchedPage;
const ADMIN = { firstName: "Tag", lastName: "Keeper", email: "tags@uni.example", password: "curate-the-words" };

async function api(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  browser = await launchBrowser();
  page = await openPage(browser, server.url);
  await api("POST", "/api/auth/register", ADMIN);
  const grant = Bun.spawnSync(["bun", "scripts/admin.ts", "grant", ADMIN.email], { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl } });
  expect(grant.stdout.toString()).toContain("is now a site admin");
  const p = page.page;
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(ADMIN.email);
  await p.getByLabel("Password").fill(ADMIN.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL("**/problems");
}, 120_000);
afterEach(() => expectCleanPages([page], page));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("an admin adds a tag and a synonym on the admin page", async () => {
  const p = page.page;
  await p.goto("/admin");
  const section = p.getByRole("region", { name: "Topic tags" });
  await section.getByRole("row", { name: /Dynamic programming/ }).waitFor();
  const create = section.getByRole("form", { name: "Add a tag" });
  await create.getByLabel("Name", { exact: true }).fill("Sweep line");
  await create.getByLabel("Slug").fill("sweep-line");
  await create.getByRole("button", { name: "Add tag" }).click();
  await section.getByText("Added the tag Sweep line.").waitFor();
  await section.getByRole("row", { name: /Sweep line/ }).waitFor();

  await section.getByLabel("Tag to change").selectOption("sweep-line");
  await section.getByLabel("New synonym").fill("Plane Sweep");
  await section.getByRole("button", { name: "Add synonym" }).click();
  await section.getByText("plane sweep now means Sweep line.").waitFor();
  await section.getByRole("list", { name: "Synonyms of Sweep line" }).getByText("plane sweep").waitFor();
  // A word that already means a tag: the server's 409, shown as the section's error.
  await section.getByLabel("New synonym").fill("dp");
  await section.getByRole("button", { name: "Add synonym" }).click();
  await section.getByRole("alert").getByText(/already means the tag dynamic-programming/).waitFor();

  const findings = await axeViolations(p);
  expect(formatFindings("/admin", findings)).toEqual([]);
}, 60_000);

test("an author chooses tags in the problem form with the keyboard; the filter finds a tag by its synonym", async () => {
  const p = page.page;
  await p.goto("/problems");
  await p.getByRole("button", { name: "Create Problem" }).click();
  const dialog = p.getByRole("dialog", { name: "Create New Problem" });
  await dialog.waitFor();
  await dialog.getByLabel("Problem Title").fill("Tagged By Keyboard");
  await dialog.getByLabel("Problem Description").fill("Print the input.");
  await dialog.getByLabel("Input Format").fill("A line.");
  await dialog.getByLabel("Output Format").fill("The line.");
  await dialog.getByLabel("Constraints").fill("Short.");
  await dialog.getByLabel("Sample Input").fill("x\n");
  await dialog.getByLabel("Sample Output").fill("x\n");

  const picker = dialog.getByRole("group", { name: "Topic tags" });
  await picker.getByRole("checkbox", { name: "Greedy" }).waitFor();
  const filter = picker.getByLabel("Filter tags");
  await filter.fill("dp");
  await picker.getByText(/1 of \d+ tags shown, 0 chosen\./).waitFor();
  // Tab from the filter reaches the one matching box; Space ticks it.
  await filter.focus();
  await p.keyboard.press("Tab");
  expect(await p.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("checkbox");
  await p.keyboard.press("Space");
  expect(await picker.getByRole("checkbox", { name: "Dynamic programming" }).isChecked()).toBe(true);
  await filter.fill("plane");
  await picker.getByRole("checkbox", { name: "Sweep line" }).check();
  await filter.fill("");
  const chosen = picker.getByRole("list", { name: "Chosen tags" });
  expect(await chosen.getByRole("listitem").allTextContents()).toEqual(["Dynamic programming×", "Sweep line×"]);
  // A chip's button removes its tag, and the box follows.
  await chosen.getByRole("button", { name: "Remove Sweep line" }).click();
  expect(await picker.getByRole("checkbox", { name: "Sweep line" }).isChecked()).toBe(false);
  await picker.getByRole("checkbox", { name: "Graphs", exact: true }).check();

  const findings = await axeViolations(p);
  expect(formatFindings("problem form", findings)).toEqual([]);

  await dialog.getByRole("button", { name: "Create Problem" }).click();
  await p.getByText("Problem saved successfully!").waitFor();
  const { token } = (await api("POST", "/api/auth/login", { email: ADMIN.email, password: ADMIN.password })).body;
  const mine = ((await api("GET", "/api/problems", undefined, token)).body as { title: string; tags: { slug: string }[] }[]).find((x) => x.title === "Tagged By Keyboard");
  expect(mine?.tags.map((x) => x.slug)).toEqual(["dynamic-programming", "graphs"]);
}, 60_000);
