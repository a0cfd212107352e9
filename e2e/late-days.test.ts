/**
 * Late days in a real browser (issue 37 §6): the course gives three late days;
 * a student whose homework was due 22 hours ago spends two on it from the
 * assignment page, keyboard only, after a confirmation dialog (the kit's
 * alertdialog) that says the new due time and that one day will remain; the
 * page then shows one left and the moved due time, and an accepted submission
 * made now scores in full (the penalty applies only past the days spent). The
 * instructor sees the two days in the gradebook and refunds them. axe (WCAG
 * 2.1 AA) on the page with the dialog open.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { api, PY_AC, signUp, type Person } from "./a11y-seed.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, launchBrowser, startServer, type TestServer } from "./harness.ts";

const PORT = 3332;
const DAY = 86_400_000;
let server: TestServer;
let browser: Browser;
let student: Person;
let staff: Person;
let assignmentId: string;
let problemId: string;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

async function pageFor(token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  contexts.push(context);
  await context.addInitScript((t) => localStorage.setItem("token", t), token);
  const page = await context.newPage();
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) errors.push(msg.text());
  });
  return page;
}

/** Presses Tab until the focused element's accessible text (aria-label, its label, or its text) matches, at most `max` times. */
async function tabTo(page: Page, accessibleText: RegExp, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return "";
      const byFor = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
      return el.getAttribute("aria-label") ?? byFor ?? el.textContent ?? "";
    });
    if (accessibleText.test(label.trim())) return;
  }
  throw new Error(`Tab never reached ${accessibleText}`);
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  staff = await signUp(server, { firstName: "Ines", lastName: "Instructor", email: "ines@uni.example", password: "staff-password-1" });
  const db = createClient({ url: server.databaseUrl });
  await db.execute({ sql: "UPDATE users SET can_create_courses = 1 WHERE email_normalized = ?", args: [staff.email] });
  db.close();
  student = await signUp(server, { firstName: "Stella", lastName: "Student", email: "stella@uni.example", password: "student-password-1" });
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
  const course = await api(server, "/api/courses", { method: "POST", token: staff.token, expect: 201, body: { title: "Algorithms", code: "ALG101" } });
  await api(server, `/api/courses/${course.body.id}`, { method: "PATCH", token: staff.token, body: { lateDays: 3 }, expect: 200 });
  await api(server, "/api/courses/join", { method: "POST", token: student.token, body: { code: course.body.inviteCode }, expect: 200 });
  // Due 22 hours ago (rounded to the minute), a late window of three days at 50 % per started day.
  const due = Math.floor((Date.now() - 22 * 3_600_000) / 60_000) * 60_000;
  const assignment = await api(server, `/api/courses/${course.body.id}/assignments`, {
    method: "POST",
    token: staff.token,
    expect: 201,
    body: { title: "Homework 2", opensAt: due - 7 * DAY, dueAt: due, closesAt: due + 3 * DAY, latePenaltyPercent: 50, latePenaltyUnit: "day", problems: [{ problemId, points: 100 }] },
  });
  assignmentId = assignment.body.id as string;
  browser = await launchBrowser();
}, 180_000);
afterEach(() => expect(errors.splice(0)).toEqual([]));
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

test("a student spends two late days on a homework after a confirmation saying how many remain", async () => {
  const page = await pageFor(student.token);
  await page.goto(`/assignments/${assignmentId}`);
  const section = page.getByTestId("late-days");
  await section.getByText("3 late days of 3 remain in this course.").waitFor();
  await tabTo(page, /^Days to spend$/);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("2");
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Spend late days?" });
  await dialog.waitFor();
  expect(await dialog.textContent()).toMatch(/Spend 2 late days on “Homework 2”\? Your due time moves to .+, and 1 late day will remain\. Only staff can give days back\./);
  expect(formatFindings("late-days dialog", await axeViolations(page))).toEqual([]);
  // Focus starts on the confirmation; Escape would cancel, Enter spends.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Spend 2 days");
  await page.keyboard.press("Enter");
  await section.getByText("Spent. 1 late day remains.").waitFor();
  await section.getByText("1 late day of 3 remain in this course.").waitFor();
  await section.getByText("You spent 2 late days on this assignment: your due time moved with them.").waitFor();
  const body = (await api(server, `/api/assignments/${assignmentId}`, { token: student.token, expect: 200 })).body;
  expect(body.lateDays).toEqual({ allowed: 3, remaining: 1, spentHere: 2 });
  expect(Date.parse(body.window.dueAt)).toBe(Date.parse(body.dueAt) + 2 * DAY);
  expect(body.state).toBe("open");
  // Submitted now, 22 hours after the class's due time, it scores in full: the penalty applies only past the days spent.
  await api(server, `/api/assignments/${assignmentId}/submissions`, { method: "POST", token: student.token, body: { problemId, code: PY_AC, language: "py" }, expect: 201 });
  const after = (await api(server, `/api/assignments/${assignmentId}`, { token: student.token, expect: 200 })).body;
  expect(after.myScore.problems[problemId]).toMatchObject({ score: 100, late: false });
  // Asking for more than remain is refused by the server too, naming the field.
  const over = await api(server, `/api/assignments/${assignmentId}/late-days`, { method: "POST", token: student.token, body: { days: 2 } });
  expect([over.status, over.body.field]).toEqual([409, "days"]);
}, 60_000);

test("the instructor sees the two days in the gradebook and refunds them", async () => {
  const page = await pageFor(staff.token);
  await page.goto(`/assignments/${assignmentId}/gradebook`);
  await page.getByRole("columnheader", { name: "Late days" }).waitFor();
  const cell = page.getByTestId("late-days-cell");
  expect(await cell.textContent()).toMatch(/^2/);
  await tabTo(page, /^Refund the 2 late days Stella Student spent$/);
  await page.keyboard.press("Enter");
  await page.getByText("Late days refunded.").waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="late-days-cell"]')?.textContent?.startsWith("0"));
  const body = (await api(server, `/api/assignments/${assignmentId}`, { token: student.token, expect: 200 })).body;
  expect(body.lateDays).toEqual({ allowed: 3, remaining: 3, spentHere: 0 });
  // Back to the class's due time: the same accepted submission is now a started day late (50 %).
  expect(body.myScore.problems[problemId]).toMatchObject({ score: 50, late: true });
}, 60_000);
