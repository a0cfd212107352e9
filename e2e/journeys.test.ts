/**
 * The product's main journeys in a real browser (Debian Chromium through
 * playwright-core) against the real server on a fresh database: guards,
 * sign-up and sign-in, the problem list and authoring, ownership, solving in
 * C++, Java and Python with live judging, the history, the AI review (offline
 * provider), dark mode, the contact form and logout.
 *
 * Tests run in order and share one server, one browser and the first user's
 * page, like one person's session.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, setEditorCode, startServer, type TestServer, type WatchedPage } from "./harness.ts";
import { modernPackage, TINY_PNG, zipOf } from "../tests/packages/fixtures.ts";
import { filesFromZip } from "../src/packages/files.ts";
import { readPackage } from "../src/packages/format.ts";

const PORT = 3310;
const SLOW = 120_000;

const USER = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "analytical-engine" };
const OTHER = { firstName: "Alan", lastName: "Turing", email: "alan@example.com", password: "enigma-machine" };

const CPP_AC = `#include <bits/stdc++.h>
using namespace std;

int main() {
    long long a, b;
    cin >> a >> b;
    cout << a + b << "\\n";
    return 0;
}
`;
const CPP_CE = `#include <bits/stdc++.h>
int main() {
    int x = ;
}
`;
const PY_WA = `a, b = map(int, input().split())
print(a - b)
`;
const JAVA_AC = `import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        long a = in.nextLong(), b = in.nextLong();
        System.out.println(a + b);
    }
}
`;

let server: TestServer;
let browser: Browser;
let main: WatchedPage;
let page: Page;
/** Set E2E_SCREENSHOT_DIR to keep screenshots of the solving page and dark mode for a look. */
const shotDir = process.env.E2E_SCREENSHOT_DIR;
async function shot(p: Page, name: string, fullPage = false) {
  if (shotDir) await p.screenshot({ path: join(shotDir, name), fullPage });
}
const watched: WatchedPage[] = [];

async function open(viewport?: { width: number; height: number }): Promise<WatchedPage> {
  const w = await openPage(browser, server.url, viewport);
  watched.push(w);
  return w;
}

async function signIn(p: Page, user: { email: string; password: string }) {
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(user.email);
  await p.getByLabel("Password").fill(user.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL("**/problems");
}

function card(p: Page, title: string) {
  return p.getByTestId("problem-card").filter({ has: p.getByRole("heading", { name: title, exact: true }) });
}

/** Chooses a difficulty tab and waits for its page: the list keeps the previous page on screen (and aria-busy) until the new one arrives. */
async function chooseTab(page: Page, level: RegExp): Promise<void> {
  await page.getByRole("tab", { name: level }).click();
  await page.locator('#problems-panel[aria-busy="false"]').waitFor();
}

async function problemIdByTitle(title: string): Promise<string> {
  const db = createClient({ url: server.databaseUrl });
  try {
    const rs = await db.execute({ sql: "select id from problems where title = ? and deleted_at is null", args: [title] });
    return String(rs.rows[0]!.id);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  main = await open();
  page = main.page;
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// No console errors or uncaught exceptions on any page, and no request leaves the app's origin (no CDN).
// The signed-in user's page has the session cookie: live streams work, no fallback is needed.
afterEach(() => expectCleanPages(watched, main));

describe("public pages and guest guards", () => {
  test("landing, static pages, not-found, and guests sent to /signin", async () => {
    await page.goto("/");
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toContain("Solve Coding Challenges.");
    await page.getByText("Sharpen Your Skills.").waitFor();
    for (const text of ["Key Features", "Multiple Languages", "Live Code Execution", "Quick links", "Legal & support"]) {
      await page.getByText(text, { exact: true }).first().waitFor();
    }
    await page.getByRole("link", { name: "Get Started" }).click();
    await page.waitForURL("**/signup"); // a guest gets started by signing up

    // Guests are sent to sign in, keeping where they were going (decision 056); /problems is the default.
    await page.goto("/problems");
    await page.waitForURL("**/signin");
    for (const path of ["/solve/anything", "/my-submissions/anything"]) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === "/signin" && url.searchParams.get("next") === path);
    }

    await page.goto("/about");
    await page.getByRole("heading", { name: "About Us" }).waitFor();
    await page.getByText("AI-powered code review").waitFor();
    await page.goto("/privacy");
    for (const h of ["Information We Collect", "How We Use Information", "Data Security", "Cookies and Local Storage", "Changes to This Policy"]) {
      await page.getByRole("heading", { name: h }).waitFor();
    }
    await page.goto("/terms");
    for (const h of ["Use License", "User Conduct", "Disclaimer", "Limitations", "Governing Law"]) {
      await page.getByRole("heading", { name: h, exact: true }).waitFor();
    }
    await page.goto("/no/such/page");
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
  }, SLOW);

  test("phone width: the Menu button opens the site's sections, Sign in and Sign up; Escape closes it; the theme switch stays at hand", async () => {
    const phone = await open({ width: 360, height: 740 });
    const p = phone.page;
    await p.goto("/");
    const nav = p.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Sign up", exact: true }).isVisible()).toBe(false);
    const menu = nav.getByRole("button", { name: "Menu" });
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    for (const name of ["Problems", "Courses", "Contests", "Sign in", "Sign up"]) {
      await nav.getByRole("link", { name, exact: true }).waitFor();
    }
    await p.keyboard.press("Escape");
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await p.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Menu");
    expect(await nav.getByRole("link", { name: "Sign up", exact: true }).isVisible()).toBe(false);
    await nav.getByRole("button", { name: "Toggle dark mode" }).click();
    expect(await p.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    // Nothing overflows sideways at 360 px.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.context.close();
  }, SLOW);
});

describe("accounts", () => {
  test("sign up signs in and goes straight on to /problems (no wait, no retyping); duplicates are refused", async () => {
    await page.goto("/signup");
    await page.getByRole("heading", { name: "Join Our Community" }).waitFor();
    await page.getByText("Create your account to start coding.").waitFor();
    await page.getByText("Password should be at least 8 characters long.").waitFor();
    await page.getByLabel("First Name").fill(USER.firstName);
    await page.getByLabel("Last Name").fill(USER.lastName);
    await page.getByLabel("Email Address").fill(USER.email);
    await page.getByLabel("Password").fill(USER.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("**/problems", { timeout: 5000 });
    await page.getByRole("heading", { name: "Problems To Solve" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("token"))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // Signed out again (token and cookie) for the duplicate and the tests after this one.
    await page.evaluate(() => localStorage.removeItem("token"));
    await page.context().clearCookies();

    await page.goto("/signup");
    await page.getByLabel("First Name").fill(USER.firstName);
    await page.getByLabel("Last Name").fill(USER.lastName);
    await page.getByLabel("Email Address").fill(USER.email.toUpperCase());
    await page.getByLabel("Password").fill(USER.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByRole("alert").filter({ hasText: "already exists" }).waitFor();
  }, SLOW);

  test("sign in: wrong password refused, right one opens /problems; signed-in users kept off /signin and /signup", async () => {
    await page.goto("/signin");
    await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
    await page.getByLabel("Email Address").fill(USER.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid email or password" }).waitFor();

    await signIn(page, USER);
    await page.getByRole("heading", { name: "Problems To Solve" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("token"))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    for (const path of ["/signin", "/signup"]) {
      await page.goto(path);
      await page.waitForURL("**/problems");
    }
  }, SLOW);
});

describe("problems", () => {
  test("tabs with counts list the seeded problems; seeded ones belong to another user", async () => {
    await page.goto("/problems");
    await page.getByText("Explore coding challenges and test your skills.").waitFor();
    // Every difficulty first (the tabs filter the bank).
    expect(await page.getByRole("tab", { name: /^all/i }).getAttribute("aria-selected")).toBe("true");
    await card(page, "Sum of Two Numbers").waitFor();
    const sum = card(page, "Sum of Two Numbers");
    await sum.getByText("Created by another user").waitFor();
    expect(await sum.getByRole("button", { name: /Edit|Delete/ }).count()).toBe(0);
    expect(await sum.getByText("EASY", { exact: true }).count()).toBe(1);

    await chooseTab(page, /medium/i);
    // "All" listed Balanced Brackets too, and keeps showing until the medium page arrives: wait for the easy one to go.
    await card(page, "Sum of Two Numbers").waitFor({ state: "detached" });
    await card(page, "Balanced Brackets").waitFor();
    const mediumCount = Number(await page.getByRole("tab", { name: /medium/i }).locator(".tab-count").innerText());
    expect(await page.getByTestId("problem-card").count()).toBe(mediumCount);

    // The tab is in the URL: a reload keeps it, and the landing page's level links open their level.
    expect(new URL(page.url()).searchParams.get("difficulty")).toBe("medium");
    await page.reload();
    await card(page, "Balanced Brackets").waitFor();
    expect(await page.getByRole("tab", { name: /medium/i }).getAttribute("aria-selected")).toBe("true");
    await page.goto("/");
    await page.getByRole("link", { name: "Browse hard problems →" }).click();
    await page.waitForURL("**/problems?difficulty=hard");
    expect(await page.getByRole("tab", { name: /hard/i }).getAttribute("aria-selected")).toBe("true");
  }, SLOW);

  test("create a problem with hidden tests and limits, edit it, delete another", async () => {
    await page.goto("/problems");
    await page.getByRole("button", { name: "Create Problem" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Problem" });
    await dialog.waitFor();
    expect(await dialog.getByText(/^Test Case \d+$/).count()).toBe(1); // one empty test case to start
    await dialog.getByLabel("Problem Title").fill("Double It");
    await dialog.getByLabel("Problem Description").fill("Read an integer n and print 2n.");
    await dialog.getByLabel("Input Format").fill("One integer n.");
    await dialog.getByLabel("Output Format").fill("One integer: 2n.");
    await dialog.getByLabel("Constraints").fill("|n| <= 10^9");
    await dialog.getByLabel("Sample Input").fill("21\n");
    await dialog.getByLabel("Sample Output").fill("42\n");
    await dialog.getByLabel("Difficulty Level").selectOption("hard");
    await dialog.getByLabel("Time Limit (ms)").fill("1000");
    await dialog.getByLabel("Memory Limit (MiB)").fill("128");
    await dialog.getByLabel("Output Checker").selectOption("tokens");
    await dialog.locator("#pf-tc-0-input").fill("5\n");
    await dialog.locator("#pf-tc-0-output").fill("10\n");
    await dialog.getByRole("button", { name: "+ Add Test Case" }).click();
    await dialog.locator("#pf-tc-1-input").fill("-7\n");
    await dialog.locator("#pf-tc-1-output").fill("-14\n");
    await dialog.getByRole("button", { name: "+ Add Test Case" }).click();
    expect(await dialog.getByText(/^Test Case \d+$/).count()).toBe(3);
    await dialog.getByRole("button", { name: "Remove test case 3" }).click();
    expect(await dialog.getByText(/^Test Case \d+$/).count()).toBe(2);
    await dialog.getByRole("button", { name: "Create Problem" }).click();

    await page.getByText("Problem saved successfully!").waitFor();
    await page.getByText("Problem saved successfully!").waitFor({ state: "detached", timeout: 4000 }); // clears after 2 s
    await chooseTab(page, /hard/i);
    const mine = card(page, "Double It");
    await mine.waitFor();
    expect(await mine.getByText("Created by another user").count()).toBe(0);

    // The server stored the limits and both hidden tests.
    const id = await problemIdByTitle("Double It");
    const db = createClient({ url: server.databaseUrl });
    try {
      const p = await db.execute({ sql: "select time_limit_ms, memory_limit_kib, checker from problems where id = ?", args: [id] });
      expect(p.rows[0]).toMatchObject({ time_limit_ms: 1000, memory_limit_kib: 131072, checker: "tokens" });
      const t = await db.execute({ sql: "select count(*) as n from test_cases where problem_id = ?", args: [id] });
      expect(Number(t.rows[0]!.n)).toBe(2);
    } finally {
      db.close();
    }

    await mine.getByRole("button", { name: "Edit Double It" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Problem" });
    await edit.waitFor();
    expect(await edit.getByLabel("Problem Title").inputValue()).toBe("Double It");
    expect(await edit.getByLabel("Time Limit (ms)").inputValue()).toBe("1000");
    expect(await edit.getByLabel("Memory Limit (MiB)").inputValue()).toBe("128");
    expect(await edit.locator("#pf-tc-1-output").inputValue()).toBe("-14\n");
    await edit.getByLabel("Problem Title").fill("Double It Twice");
    await edit.getByRole("button", { name: "Update Problem" }).click();
    await page.getByText("Problem saved successfully!").waitFor();
    await card(page, "Double It Twice").waitFor();

    // Cancel resets the form to a blank create form.
    await page.getByRole("button", { name: "Create Problem" }).click();
    const again = page.getByRole("dialog", { name: "Create New Problem" });
    expect(await again.getByLabel("Problem Title").inputValue()).toBe("");
    await again.getByRole("button", { name: "Cancel" }).click();
    await again.waitFor({ state: "hidden" });

    // A second problem, then delete it.
    await page.getByRole("button", { name: "Create Problem" }).click();
    const second = page.getByRole("dialog", { name: "Create New Problem" });
    for (const [label, value] of [
      ["Problem Title", "Throwaway"],
      ["Problem Description", "To be deleted."],
      ["Input Format", "Nothing."],
      ["Output Format", "Nothing."],
      ["Constraints", "None."],
      ["Sample Input", "1"],
      ["Sample Output", "1"],
    ] as const) {
      await second.getByLabel(label).fill(value);
    }
    await second.getByRole("button", { name: "Create Problem" }).click();
    await chooseTab(page, /easy/i);
    const throwaway = card(page, "Throwaway");
    await throwaway.waitFor();
    await throwaway.getByRole("button", { name: "Delete Throwaway" }).click();
    await throwaway.getByRole("button", { name: "Confirm Delete" }).click();
    await page.getByText("Problem deleted successfully!").waitFor();
    await throwaway.waitFor({ state: "detached" });
    await page.getByText("Problem deleted successfully!").waitFor({ state: "detached", timeout: 5000 }); // clears after 3 s
  }, SLOW);

  test("a problem without input, checked by the Kattis default validator with its options in plain words", async () => {
    await page.goto("/problems");
    await page.getByRole("button", { name: "Create Problem" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Problem" });
    await dialog.waitFor();
    for (const [label, value] of [
      ["Problem Title", "Hello Thirds"],
      ["Problem Description", "Print YES and one third."],
      ["Input Format", "There is no input."],
      ["Output Format", "YES, then 1/3."],
      ["Constraints", "None."],
      ["Sample Output", "yes\n0.333333333\n"],
    ] as const) {
      await dialog.getByLabel(label).fill(value);
    }
    expect(await dialog.getByText("Validator options").count()).toBe(0);
    await dialog.getByLabel("Output Checker").selectOption("kattis");
    await dialog.getByLabel("Numbers may differ by (absolute)").fill("1e-6");
    await dialog.getByLabel("Numbers may differ by (relative)").fill("1e-6");
    await dialog.getByRole("button", { name: "Create Problem" }).click();
    await page.getByText("Problem saved successfully!").waitFor();

    const id = await problemIdByTitle("Hello Thirds");
    const db = createClient({ url: server.databaseUrl });
    try {
      const p = await db.execute({ sql: "select sample_input, checker, checker_flags from problems where id = ?", args: [id] });
      expect(p.rows[0]).toMatchObject({ sample_input: "", checker: "kattis", checker_flags: "float_tolerance 0.000001" });
    } finally {
      db.close();
    }
    await page.goto(`/solve/${id}`);
    await page.getByText("Output check: Tokens compared ignoring letter case; any spacing; numbers within 0.000001 (absolute or relative)").waitFor();
  }, SLOW);

  test("Import package: a Kattis package zip becomes a problem, and what it does not keep is said", async () => {
    await page.goto("/problems?difficulty=medium");
    const zip = Buffer.from(zipOf(modernPackage()));
    await page.getByLabel("Problem package (.zip)").setInputFiles({ name: "yes-or-thirds.zip", mimeType: "application/zip", buffer: zip });
    const status = page.getByRole("status").filter({ hasText: 'Imported "Yes Or Thirds"' });
    await status.waitFor();
    expect(await status.textContent()).toContain("5 tests, 1500 ms for every language");
    expect(await status.textContent()).toContain("Example submissions in the package: 2 AC, 1 WA.");
    await card(page, "Yes Or Thirds").waitFor();
    // Verify now: the package's example submissions judged in the background, row by row.
    await status.getByRole("button", { name: "Verify now (3 example submissions)" }).click();
    await status.getByText("All 3 example submissions as expected (time limit 1500 ms).").waitFor({ timeout: 60_000 });
    expect(await status.locator(".verify-rows li.ok").count()).toBe(3);
    // Its owner exports it again: the download is a package that reads back the same.
    const [download] = await Promise.all([page.waitForEvent("download"), card(page, "Yes Or Thirds").getByRole("link", { name: "Export Yes Or Thirds as a package" }).click()]);
    expect(download.suggestedFilename()).toBe("yes-or-thirds.zip");
    const exported = await readPackage(filesFromZip(new Uint8Array(await Bun.file((await download.path())!).arrayBuffer())));
    expect(exported.name).toBe("Yes Or Thirds");
    expect(exported.tests).toHaveLength(5);
    // Rejudge from the card: nothing judged yet, and it says so.
    await card(page, "Yes Or Thirds").getByRole("button", { name: "Rejudge all submissions of Yes Or Thirds" }).click();
    await page.getByRole("status").filter({ hasText: "Yes Or Thirds has no judged submissions to rejudge." }).waitFor();
    // A broken package: the file and the reason, and nothing created.
    const broken = modernPackage();
    delete broken["data/sample/1.ans"];
    await page.getByLabel("Problem package (.zip)").setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from(zipOf(broken)) });
    await page.getByRole("alert").filter({ hasText: "package: data/sample/1.in: has no answer file 1.ans" }).waitFor();
  }, SLOW);

  test("a custom output validator is uploaded with the form and judges", async () => {
    await page.goto("/problems");
    await page.getByRole("button", { name: "Create Problem" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Problem" });
    await dialog.waitFor();
    for (const [label, value] of [
      ["Problem Title", "Roughly Double"],
      ["Problem Description", "Print about 2n."],
      ["Input Format", "n"],
      ["Output Format", "about 2n"],
      ["Constraints", "small"],
      ["Sample Input", "5\n"],
      ["Sample Output", "10\n"],
    ] as const) {
      await dialog.getByLabel(label).fill(value);
    }
    await dialog.getByLabel("Output Checker").selectOption("custom");
    const validator = "import sys\nans = int(open(sys.argv[2]).read())\nt = int(sys.stdin.read().split()[0])\nsys.exit(42 if abs(t - ans) <= int(sys.argv[4]) else 43)\n";
    await dialog.getByLabel("Validator files").setInputFiles({ name: "validate.py", mimeType: "text/x-python", buffer: Buffer.from(validator) });
    await dialog.getByTestId("validator-files").filter({ hasText: "validate.py" }).waitFor();
    await dialog.getByLabel("Arguments (optional)").fill("1");
    await dialog.getByRole("button", { name: "Create Problem" }).click();
    await page.getByText("Problem saved successfully!").waitFor();
    const id = await problemIdByTitle("Roughly Double");
    const token = await page.evaluate(() => localStorage.getItem("token"));
    const res = await fetch(`${server.url}/api/submissions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ problemId: id, language: "py", code: "print(2 * int(input()) + 1)\n" }),
    });
    expect(((await res.json()) as { verdict: string }).verdict).toBe("AC");
  }, SLOW);

  test("statements render Markdown with KaTeX math, and nothing a statement holds can run script", async () => {
    const id = await problemIdByTitle("Yes Or Thirds");
    await page.goto(`/solve/${id}`);
    const statement = page.locator(".problem-panel");
    await statement.locator(".statement-md .katex").first().waitFor();
    expect(await statement.locator(".statement-md strong", { hasText: "yes" }).count()).toBe(1);
    expect(await statement.locator(".katex").count()).toBeGreaterThanOrEqual(3); // \frac{1}{n}, 1 \le n \le 10^9, 1/n, 10^{-6}
    expect(await statement.locator(".statement-md code", { hasText: "yes" }).count()).toBe(1);

    const token = await page.evaluate(() => localStorage.getItem("token"));
    // A package's statement image is served with the problem and shown.
    const withImage = modernPackage({ "statement/cat.png": TINY_PNG });
    withImage["problem.yaml"] = "problem_format_version: 2025-09\nname: Pictured\nlimits:\n  time_limit: 1\n";
    withImage["statement/problem.en.md"] = "![a cat](cat.png) Look.\n\n## Input\n\nn\n\n## Output\n\nyes\n";
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zipOf(withImage))]), "p.zip");
    const imported = await fetch(`${server.url}/api/problems/import`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    expect(imported.status).toBe(201);
    const pictured = ((await imported.json()) as { problem: { _id: string } }).problem._id;
    await page.goto(`/solve/${pictured}`);
    const img = page.locator(".problem-panel img[alt='a cat']");
    await img.waitFor();
    expect(await img.getAttribute("src")).toBe(`/api/problems/${pictured}/assets/cat.png`);
    await page.waitForFunction(() => (document.querySelector(".problem-panel img") as HTMLImageElement | null)?.naturalWidth === 1);

    // A hostile statement, written through the API.
    const created = await fetch(`${server.url}/api/problems`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        title: "Hostile Statement",
        description: '<img src=x onerror="window.__owned=1"> [click](javascript:window.__owned=2) $\\href{javascript:window.__owned=3}{x}$ <script>window.__owned=4</script> **still bold**',
        inputFormat: "i",
        outputFormat: "o",
        constraints: "c",
        sampleInput: "",
        sampleOutput: "1\n",
        difficulty: "easy",
      }),
    });
    expect(created.status).toBe(201);
    const hostile = (await created.json()) as { _id: string };
    await page.goto(`/solve/${hostile._id}`);
    await page.locator(".statement-md strong", { hasText: "still bold" }).waitFor();
    expect(await page.locator(".problem-panel img").count()).toBe(0);
    expect(await page.locator(".problem-panel script").count()).toBe(0);
    const hrefs = await page.locator(".problem-panel a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.filter((h) => h.toLowerCase().startsWith("javascript:"))).toEqual([]);
    await page.locator(".problem-panel").getByText("click").click().catch(() => {});
    expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
  }, SLOW);

  test("another user sees Created by another user and no Edit/Delete", async () => {
    const other = await open();
    const p = other.page;
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(OTHER),
    });
    expect(res.status).toBe(200);
    await signIn(p, OTHER);
    await chooseTab(p, /hard/i);
    const theirs = card(p, "Double It Twice");
    await theirs.getByText("Created by another user").waitFor();
    expect(await theirs.getByRole("button", { name: /Edit|Delete/ }).count()).toBe(0);
    await other.context.close();
  }, SLOW);
});

describe("solving", () => {
  let sumId = "";

  test("C++: Run shows custom and sample results; Submit shows progress, per-test rows and Accepted", async () => {
    sumId = await problemIdByTitle("Sum of Two Numbers");
    await page.goto("/problems");
    await card(page, "Sum of Two Numbers").getByRole("link", { name: "Solve" }).click();
    await page.waitForURL(`**/solve/${sumId}`);
    await page.getByRole("heading", { name: "Sum of Two Numbers" }).waitFor();
    for (const h of ["Description", "Input Format", "Output Format", "Constraints", "Sample Input", "Sample Output"]) {
      await page.getByRole("heading", { name: h, exact: true }).waitFor();
    }
    expect(await page.getByRole("main").getByLabel("Language").inputValue()).toBe("cpp");
    await page.getByText("Your output will appear here...").waitFor();
    await page.locator(".monaco-editor").waitFor({ timeout: 30_000 });
    await page.locator(".view-lines").getByText("// Your code here").waitFor();
    expect(await page.getByLabel("Custom Input (optional)").getAttribute("placeholder")).toBe("Enter custom input here...");

    await setEditorCode(page, CPP_AC);
    await page.getByLabel("Custom Input (optional)").fill("40 2");
    await page.getByRole("button", { name: "Run Code" }).click();
    await page.getByRole("button", { name: "Running..." }).waitFor();
    expect(await page.getByRole("button", { name: "Submit Code" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "AI Review" }).isDisabled()).toBe(true);
    const output = page.getByRole("region", { name: "Output", exact: true });
    await output.getByText("Sample test passed", { exact: true }).waitFor({ timeout: 60_000 });
    expect(await output.locator("pre").first().innerText()).toBe("42\n");
    await output.getByText(/^Time: \d+ ms$/).first().waitFor();
    await output.getByText(/^Memory: /).first().waitFor();

    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByRole("button", { name: "Submitting..." }).waitFor();
    await output.getByRole("progressbar", { name: "Judging progress" }).waitFor({ timeout: 30_000 });
    await output.getByText("Submission saved.").waitFor({ timeout: 90_000 });
    expect(await output.getByTestId("final-verdict").innerText()).toContain("Accepted");
    const rows = output.getByTestId("test-row");
    const total = await rows.count();
    expect(total).toBeGreaterThan(5); // the sample and every hidden test
    expect(await rows.filter({ hasText: "AC" }).count()).toBe(total);
    expect(await output.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
    await page.getByRole("button", { name: "Submit Code" }).waitFor();
    await shot(page, "solve-cpp-accepted.png", true);
  }, SLOW);

  test("a compile error shows the headline and the compiler's diagnostics", async () => {
    await setEditorCode(page, CPP_CE);
    await page.getByRole("button", { name: "Run Code" }).click();
    const output = page.getByRole("region", { name: "Output", exact: true });
    await output.getByText("Error: There is a syntax error in your program.", { exact: true }).waitFor({ timeout: 60_000 });
    expect(await output.locator("pre.diagnostics").innerText()).toMatch(/error/i);
  }, SLOW);

  test("Python wrong answer and Java accepted, judged live", async () => {
    const output = page.getByRole("region", { name: "Output", exact: true });
    await page.getByRole("main").getByLabel("Language").selectOption("py");
    await page.getByRole("button", { name: "Reset to Boilerplate" }).click();
    await page.locator(".view-lines").getByText("# Your code here").waitFor();
    await setEditorCode(page, PY_WA);
    await page.getByRole("button", { name: "Submit Code" }).click();
    await output.getByText("Submission saved.").waitFor({ timeout: 90_000 });
    expect(await output.getByTestId("final-verdict").innerText()).toContain("Wrong Answer");
    expect(await output.getByTestId("test-row").first().innerText()).toContain("Wrong Answer");

    await page.getByRole("main").getByLabel("Language").selectOption("java");
    await page.getByRole("button", { name: "Reset to Boilerplate" }).click();
    await page.locator(".view-lines").getByText("public class Main").waitFor();
    await setEditorCode(page, JAVA_AC);
    await page.getByRole("button", { name: "Submit Code" }).click();
    await output.getByText("Submission saved.").waitFor({ timeout: 90_000 });
    expect(await output.getByTestId("final-verdict").innerText()).toContain("Accepted");
  }, SLOW);

  test("unsaved code survives a reload, per language", async () => {
    await page.reload();
    await page.locator(".monaco-editor").waitFor({ timeout: 30_000 });
    // The page opens in C++ with the last C++ code kept.
    await page.locator(".view-lines").getByText("int x = ;").waitFor();
    await page.getByRole("main").getByLabel("Language").selectOption("java");
    await page.locator(".view-lines").getByText("long a = in.nextLong(), b = in.nextLong();").waitFor();
  }, SLOW);

  test("AI review: empty code is refused without a call; a review arrives and can be re-analyzed and closed", async () => {
    await setEditorCode(page, "   ");
    await page.getByRole("button", { name: "AI Review" }).click();
    const panel = page.getByRole("region", { name: "AI Code Review" });
    await panel.getByText("Please write some code before requesting AI review.").waitFor();
    await panel.getByRole("button", { name: "Close AI review" }).click();
    await panel.waitFor({ state: "detached" });

    await setEditorCode(page, JAVA_AC);
    await page.getByRole("button", { name: "AI Review" }).click();
    await panel.waitFor();
    await panel.getByText("Review completed successfully").waitFor({ timeout: 60_000 });
    expect((await panel.locator(".markdown").innerText()).toLowerCase()).toContain("offline");
    await panel.getByRole("button", { name: "Re-analyze" }).click();
    await panel.getByText("Review completed successfully").waitFor({ timeout: 60_000 });
    await shot(page, "solve-ai-review.png", true);
    await panel.getByRole("button", { name: "Close AI review" }).click();
    await panel.waitFor({ state: "detached" });
  }, SLOW);

  test("My Submissions: one compact row each, verdicts and languages by name, relative dates, one open at a time; empty state elsewhere", async () => {
    await page.goto(`/my-submissions/${sumId}`);
    await page.getByRole("heading", { name: "My Submissions" }).waitFor();
    await page.locator(".subtitle", { hasText: "Sum of Two Numbers" }).waitFor();
    const rows = page.getByTestId("submission-row");
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    expect(await page.getByTestId("history-summary").innerText()).toContain("3 submissions · 2 accepted");
    // Newest first: Java AC, Python WA, C++ AC; all practice.
    const seen: string[][] = [];
    for (let i = 0; i < 3; i++) {
      seen.push([await rows.nth(i).getByTestId("verdict").innerText(), await rows.nth(i).getByTestId("language").innerText(), await rows.nth(i).getByTestId("context").innerText()]);
    }
    expect(seen).toEqual([
      ["Accepted", "Java", "Practice"],
      ["Wrong Answer", "Python", "Practice"],
      ["Accepted", "C++", "Practice"],
    ]);
    // The date: relative, the absolute date and offset in the <time>'s title.
    const time = rows.nth(0).locator(".history-toggle time");
    expect(await time.innerText()).toMatch(/ ago$/);
    expect(await time.getAttribute("title")).toMatch(/\d{4} .*\(GMT[+-]\d{2}:\d{2}\)$/);
    expect(Number.isNaN(Date.parse((await time.getAttribute("datetime"))!))).toBe(false);
    // Closed until asked; one open at a time.
    const toggle = (i: number) => rows.nth(i).locator(".history-toggle");
    expect(await toggle(1).getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator(".code-block").count()).toBe(0);
    await toggle(1).click();
    expect(await toggle(1).getAttribute("aria-expanded")).toBe("true");
    await rows.nth(1).getByRole("heading", { name: "Your Output" }).waitFor();
    await rows.nth(1).getByRole("heading", { name: "Expected Output" }).waitFor();
    expect(await rows.nth(1).locator(".code-block").innerText()).toContain("print(a - b)");
    await toggle(0).click();
    expect(await toggle(1).getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator(".code-block").count()).toBe(1);

    const bracketsId = await problemIdByTitle("Balanced Brackets");
    await page.goto(`/my-submissions/${bracketsId}`);
    await page.getByText("No submissions yet").waitFor();
    await page.getByText("You haven't submitted any solutions for this problem.").waitFor();
    await page.getByRole("link", { name: "Go Back to Problem" }).click();
    await page.waitForURL(`**/solve/${bracketsId}`);
    await page.getByRole("heading", { name: "Balanced Brackets" }).waitFor();
  }, SLOW);
});

describe("the problem created above, solved by its author", () => {
  const DOUBLE = {
    cpp: {
      ac: "#include <iostream>\nint main() {\n    long long n;\n    std::cin >> n;\n    std::cout << 2 * n << std::endl;\n}\n",
      wa: "#include <iostream>\nint main() {\n    long long n;\n    std::cin >> n;\n    std::cout << n + 1 << std::endl;\n}\n",
    },
    java: {
      ac: "import java.util.*;\n\npublic class Main {\n    public static void main(String[] args) {\n        long n = new Scanner(System.in).nextLong();\n        System.out.println(2 * n);\n    }\n}\n",
      wa: "import java.util.*;\n\npublic class Main {\n    public static void main(String[] args) {\n        long n = new Scanner(System.in).nextLong();\n        System.out.println(3 * n);\n    }\n}\n",
    },
    py: {
      // Sleeps on every test so that the judging is slow enough to be watched test by test, also on a
      // loaded machine (CI's three lanes on two cores once stalled the page past a 0.4 s gap; 1 s, well
      // inside the 3 s limit, leaves each state on screen long enough to be seen).
      ac: "import sys, time\n\nn = int(sys.stdin.read())\ntime.sleep(1.0)\nprint(2 * n)\n",
      wa: "print(int(input()))\n",
    },
  } as const;
  const CPP_CE_DOUBLE = "int main() {\n    return undeclared;\n}\n";

  test("C++, Java and Python each accepted and wrong, a compile error, progress watched live, then the history", async () => {
    const id = await problemIdByTitle("Double It Twice");
    await page.goto("/problems");
    await chooseTab(page, /hard/i);
    await card(page, "Double It Twice").getByRole("link", { name: "Solve" }).click();
    await page.waitForURL(`**/solve/${id}`);
    await page.getByRole("heading", { name: "Double It Twice" }).waitFor();
    await page.getByText("Time limit: 1 s · Memory limit: 128 MiB").waitFor();
    await page.locator(".monaco-editor").waitFor({ timeout: 30_000 });
    // The limit shown is the one the selected language is judged against (src/judge/limits.ts).
    await page.getByRole("main").getByLabel("Language").selectOption("py");
    await page.getByText("Time limit: 3 s (1 s × 3 for Python) · Memory limit: 128 MiB").waitFor();
    await page.getByRole("main").getByLabel("Language").selectOption("cpp");
    const output = page.getByRole("region", { name: "Output", exact: true });

    async function submit(language: "cpp" | "java" | "py", code: string): Promise<string> {
      await page.getByRole("main").getByLabel("Language").selectOption(language);
      await setEditorCode(page, code);
      await page.getByRole("button", { name: "Submit Code" }).click();
      await page.getByRole("button", { name: "Submitting..." }).waitFor();
      await output.getByText("Submission saved.").waitFor({ timeout: 90_000 });
      return output.getByTestId("final-verdict").innerText();
    }

    for (const language of ["cpp", "java"] as const) {
      expect(await submit(language, DOUBLE[language].wa)).toContain("Wrong Answer");
      expect(await output.getByTestId("test-row").first().innerText()).toContain("Wrong Answer");
      expect(await submit(language, DOUBLE[language].ac)).toContain("Accepted");
      // The sample and both hidden tests, each with its verdict, time and memory.
      const rows = output.getByTestId("test-row");
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(2).innerText()).toMatch(/^Test 2\s+Accepted\s+\d+ ms\s+[\d.]+ (KiB|MiB)$/);
    }
    expect(await submit("py", DOUBLE.py.wa)).toContain("Wrong Answer");

    // Watch the progress of a slow submission: record every state the panel goes through.
    await page.evaluate(() => {
      const panel = document.querySelector('[role="region"][aria-label="Output"]')!;
      const seen: { head: string; value: string | null; rows: number }[] = [];
      (window as unknown as { __progress: typeof seen }).__progress = seen;
      new MutationObserver(() => {
        seen.push({
          head: panel.querySelector(".progress-head")?.textContent ?? "",
          value: panel.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow") ?? null,
          rows: panel.querySelectorAll('[data-testid="test-row"]').length,
        });
      }).observe(panel, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    expect(await submit("py", DOUBLE.py.ac)).toContain("Accepted");
    const seen = await page.evaluate(() => (window as unknown as { __progress: { head: string; value: string | null; rows: number }[] }).__progress);
    expect(seen.some((s) => /Running test [123] of 3/.test(s.head))).toBe(true);
    const values = new Set(seen.map((s) => Number(s.value)).filter((v) => v > 0 && v < 100));
    expect(values.size).toBeGreaterThan(0); // the bar stood part-way at least once
    const rowCounts = new Set(seen.map((s) => s.rows));
    expect(rowCounts.has(1) && rowCounts.has(2) && rowCounts.has(3)).toBe(true); // rows arrived one by one
    expect(await output.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");

    // A compile error through Submit: the spec's headline, the diagnostics, the verdict by name.
    expect(await submit("cpp", CPP_CE_DOUBLE)).toContain("Compilation Error");
    await output.getByText("Error: There is a syntax error in your program.", { exact: true }).waitFor();
    expect(await output.locator("pre.diagnostics").innerText()).toContain("undeclared");

    await page.getByRole("link", { name: "My Submissions" }).click();
    await page.waitForURL(`**/my-submissions/${id}`);
    await page.locator(".subtitle", { hasText: "Double It Twice" }).waitFor();
    const rows = page.getByTestId("submission-row");
    await rows.nth(6).waitFor();
    expect(await page.getByTestId("history-summary").innerText()).toContain("7 submissions · 3 accepted");
    // Newest first; a compile error by its name, never "Failed".
    const expected = [
      ["Compilation Error", "C++"],
      ["Accepted", "Python"],
      ["Wrong Answer", "Python"],
      ["Accepted", "Java"],
      ["Wrong Answer", "Java"],
      ["Accepted", "C++"],
      ["Wrong Answer", "C++"],
    ];
    for (const [i, [verdict, language]] of expected.entries()) {
      expect(await rows.nth(i).getByTestId("verdict").innerText()).toBe(verdict!);
      expect(await rows.nth(i).getByTestId("language").innerText()).toBe(language!);
    }
    expect(await page.getByText("Failed", { exact: true }).count()).toBe(0);
    const toggle = (i: number) => rows.nth(i).locator(".history-toggle");
    // The compile error: the compiler's output, no program output.
    await toggle(0).click();
    await rows.nth(0).getByRole("heading", { name: "Compiler Output" }).waitFor();
    expect(await rows.nth(0).getByText("No output", { exact: true }).count()).toBe(1);
    // Highlighted code.
    await toggle(3).click();
    expect(await rows.nth(3).locator(".code-block .token.keyword").count()).toBeGreaterThan(0);
    // The accepted Python one: its output and one count of the tests (never "judged" beside "passed").
    await toggle(1).click();
    expect(await rows.nth(1).locator(".io-grid pre").first().innerText()).toMatch(/^42\s*$/);
    expect(await rows.nth(1).getByTestId("tests-passed").innerText()).toBe("3 of 3 tests passed");
    expect(await rows.nth(1).innerText()).not.toContain("judged");
  }, SLOW);
});

describe("phone width", () => {
  test("the signed-in screens fit 360 px; with a token but no cookie, reviews still arrive", async () => {
    const token = await page.evaluate(() => localStorage.getItem("token"));
    const phone = await open({ width: 360, height: 740 });
    await phone.context.addInitScript((t) => localStorage.setItem("token", t), token!);
    const p = phone.page;
    const sumId = await problemIdByTitle("Sum of Two Numbers");
    for (const [path, ready] of [
      ["/problems", () => p.getByTestId("problem-card").first().waitFor()],
      [
        `/solve/${sumId}`,
        async () => {
          await p.locator(".monaco-editor").waitFor({ timeout: 30_000 });
          // EventSource cannot send the bearer token and this context has no cookie:
          // the streamed review is refused and the client asks for the whole text instead.
          await p.getByRole("button", { name: "AI Review" }).click();
          await p.getByText("Review completed successfully").waitFor({ timeout: 60_000 });
        },
      ],
      [`/my-submissions/${sumId}`, () => p.getByTestId("submission-row").first().waitFor()],
    ] as const) {
      await p.goto(path);
      await ready();
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await phone.context.close();
  }, SLOW);
});

describe("preferences, contact, logout", () => {
  test("dark mode persists across a reload, applied before first paint", async () => {
    await page.goto("/problems");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    await page.getByRole("button", { name: "Toggle dark mode" }).click();
    expect(await page.evaluate(() => localStorage.getItem("darkMode"))).toBe("true");
    await page.reload({ waitUntil: "commit" });
    await page.waitForFunction(() => document.body !== null);
    // Checked as soon as the body exists, before React has rendered anything.
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.getByRole("heading", { name: "Problems To Solve" }).waitFor();
    await shot(page, "problems-dark.png");
    await page.getByRole("button", { name: "Toggle dark mode" }).click();
    expect(await page.evaluate(() => localStorage.getItem("darkMode"))).toBe("false");
  }, SLOW);

  test("the contact form stores the message and shows the success text", async () => {
    await page.goto("/contact");
    await page.getByLabel("Full Name").fill("Ada Lovelace");
    await page.getByLabel("Email Address").fill("ada.contact@example.com");
    await page.getByLabel("Message").fill("The judge is wonderful. One question about Java limits.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Your message has been sent successfully!").waitFor();
    expect(await page.getByLabel("Full Name").inputValue()).toBe("");
    expect(await page.getByLabel("Message").inputValue()).toBe("");
    const db = createClient({ url: server.databaseUrl });
    try {
      const rs = await db.execute({ sql: "select name, message from contact_messages where email = ?", args: ["ada.contact@example.com"] });
      expect(rs.rows.length).toBe(1);
      expect(rs.rows[0]).toMatchObject({ name: "Ada Lovelace", message: "The judge is wonderful. One question about Java limits." });
    } finally {
      db.close();
    }
  }, SLOW);

  test("logout goes to /, forgets the token, revokes the session, and guards apply again", async () => {
    await page.goto("/problems");
    const token = await page.evaluate(() => localStorage.getItem("token"));
    expect(token).not.toBeNull();
    await page.getByRole("button", { name: /^Account menu/ }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/$/);
    await page.waitForFunction(() => localStorage.getItem("token") === null);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    await page.goto("/problems");
    await page.waitForURL("**/signin");

    // A stale token is dropped at start-up: the session check fails and the user is a guest.
    await page.evaluate((t) => localStorage.setItem("token", t), token!);
    await page.goto("/problems");
    await page.waitForURL("**/signin");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  }, SLOW);
});
