/**
 * Who is stuck, in a real browser (issue 37 §7): the instructor reaches the
 * analytics from the assignment page by keyboard; a student with three wrong
 * answers (judged by the real sandbox) in the last hour is listed as stuck;
 * the per-problem figures and each chart's table read right; axe (WCAG 2.1 AA)
 * finds nothing in the light and the dark theme; and the screen, open all
 * along, follows new verdicts without a reload (another student solves the
 * problem, then the stuck student does and leaves the list). A student is refused.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { api, PY_AC, PY_WA, signUp, type Person } from "./a11y-seed.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, launchBrowser, startServer, type TestServer } from "./harness.ts";

const PORT = 3335;
let server: TestServer;
let browser: Browser;
let staff: Person;
let stuck: Person;
let solver: Person;
let problemId: string;
let assignmentId: string;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

async function pageFor(token: string, dark = false): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 }, colorScheme: dark ? "dark" : "light", reducedMotion: "reduce" });
  contexts.push(context);
  // The live stream is an EventSource, authenticated by the session cookie (it cannot send headers).
  await context.addCookies([{ name: "oj_session", value: token, url: server.url }]);
  await context.addInitScript(
    ([t, d]) => {
      localStorage.setItem("token", t);
      localStorage.setItem("darkMode", JSON.stringify(d));
    },
    [token, dark] as const,
  );
  const page = await context.newPage();
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) errors.push(msg.text());
  });
  return page;
}

async function expectAxeClean(page: Page, where: string): Promise<void> {
  expect(formatFindings(where, await axeViolations(page))).toEqual([]);
}

/** Submits to the assignment and waits for the verdict (the answer comes once judged). */
async function submit(p: Person, code: string): Promise<void> {
  await api(server, `/api/assignments/${assignmentId}/submissions`, { method: "POST", token: p.token, body: { problemId, code, language: "py" }, expect: 201 });
}

const figure = (page: Page, testId: string) => page.getByTestId("analytics-problem").first().getByTestId(testId);

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  staff = await signUp(server, { firstName: "Ines", lastName: "Instructor", email: "ines@lab.example", password: "staff-password-1" });
  const db = createClient({ url: server.databaseUrl });
  await db.execute({ sql: "UPDATE users SET can_create_courses = 1 WHERE email_normalized = ?", args: [staff.email] });
  db.close();
  stuck = await signUp(server, { firstName: "Sam", lastName: "Stuck", email: "sam@lab.example", password: "student-password-1" });
  solver = await signUp(server, { firstName: "Sol", lastName: "Solver", email: "sol@lab.example", password: "student-password-2" });
  const problem = await api(server, "/api/problems", {
    method: "POST",
    token: staff.token,
    expect: 201,
    body: {
      title: "Sum of Two Numbers",
      description: "Print the sum of a and b.",
      inputFormat: "Two integers.",
      outputFormat: "Their sum.",
      constraints: "small",
      sampleInput: "1 2\n",
      sampleOutput: "3\n",
      difficulty: "easy",
      hiddenTestCases: [{ input: "2 3\n", expectedOutput: "5\n" }],
    },
  });
  problemId = (problem.body._id ?? problem.body.id) as string;
  const course = await api(server, "/api/courses", { method: "POST", token: staff.token, expect: 201, body: { title: "Lab", code: "LAB1" } });
  for (const s of [stuck, solver]) await api(server, "/api/courses/join", { method: "POST", token: s.token, body: { code: course.body.inviteCode }, expect: 200 });
  const assignment = await api(server, `/api/courses/${course.body.id}/assignments`, {
    method: "POST",
    token: staff.token,
    body: { title: "Lab session", opensAt: Date.now() - 3_600_000, dueAt: Date.now() + 86_400_000, problems: [{ problemId, points: 100 }] },
  });
  assignmentId = assignment.body.id as string;
  for (let i = 0; i < 3; i++) await submit(stuck, PY_WA);
  browser = await launchBrowser();
}, 180_000);
afterEach(() => expect(errors.splice(0)).toEqual([]));
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

let watching: Page;

test("the instructor reaches Who is stuck from the assignment page and reads the stuck student and the figures", async () => {
  const page = await pageFor(staff.token);
  await page.goto(`/assignments/${assignmentId}`);
  const link = page.getByRole("link", { name: "Who is stuck" });
  await link.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`${server.url}/assignments/${assignmentId}/analytics`);
  await page.getByRole("heading", { name: "Who is stuck: Lab session", level: 1 }).waitFor();
  await page.getByRole("status").filter({ hasText: "Live" }).waitFor();
  expect(await page.getByTestId("stuck-count").textContent()).toBe("1 student is stuck");
  const row = page.getByTestId("stuck-row");
  expect(await row.count()).toBe(1);
  expect(await row.textContent()).toContain("sam@lab.example");
  expect((await row.getByRole("cell").allTextContents()).slice(0, 3).map((s) => s.trim())).toEqual(["Sum of Two Numbers", "3", "WA (Wrong Answer)"]);
  expect(await figure(page, "not-started").textContent()).toBe("1");
  expect(await figure(page, "attempting").textContent()).toBe("1");
  expect(await figure(page, "solved").textContent()).toBe("0");
  // The chart is drawn (recharts' SVG, hidden from assistive technology) and read as its table.
  expect(await page.getByTestId("verdict-chart").locator("svg").count()).toBeGreaterThan(0);
  expect(await page.getByTestId("verdict-chart").locator("[aria-hidden='true'] svg").count()).toBeGreaterThan(0);
  const verdicts = page.getByRole("table", { name: "Verdicts" });
  expect((await verdicts.getByRole("row").nth(1).allTextContents()).map((s) => s.trim())).toEqual(["WA (Wrong Answer)3"]);
  await expectAxeClean(page, "/assignments/:id/analytics light");
  watching = page;
});

test("axe finds nothing in the dark theme", async () => {
  const page = await pageFor(staff.token, true);
  await page.goto(`/assignments/${assignmentId}/analytics`);
  await page.getByRole("heading", { name: "Who is stuck: Lab session", level: 1 }).waitFor();
  await page.getByTestId("stuck-row").first().waitFor();
  await expectAxeClean(page, "/assignments/:id/analytics dark");
});

test("the open screen follows new verdicts without a reload", async () => {
  const page = watching;
  await page.getByRole("status").filter({ hasText: "Live" }).waitFor();
  await submit(solver, PY_AC);
  await page.waitForFunction(() => document.querySelector("[data-testid='solved']")?.textContent === "1", null, { timeout: 20_000 });
  expect(await figure(page, "not-started").textContent()).toBe("0");
  await submit(stuck, PY_AC);
  await page.waitForFunction(() => document.querySelector("[data-testid='stuck-count']")?.textContent === "Nobody is stuck", null, { timeout: 20_000 });
  expect(await figure(page, "solved").textContent()).toBe("2");
  expect(await page.getByTestId("stuck-row").count()).toBe(0);
  await expectAxeClean(page, "/assignments/:id/analytics after the verdicts");
});

test("a student is refused the screen", async () => {
  const page = await pageFor(stuck.token);
  await page.goto(`/assignments/${assignmentId}/analytics`);
  await page.getByRole("heading", { name: "Not allowed" }).waitFor();
  expect(await page.getByTestId("stuck-row").count()).toBe(0);
});
