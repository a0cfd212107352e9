/**
 * Grading by people in a real browser against the real server and judge
 * (issue 37 §4–5, decision 076): the teacher writes a rubric, reviews the
 * student's judged submission (an item picked, a line comment saved to the
 * comment bank) and releases it; the student reads the review with the comment
 * under its line and asks for a regrade; the teacher answers it from the
 * course's queue with new points; the student sees the new grade and the
 * answer. Everything is done with the keyboard where a person would type or
 * pick, and each screen is axe-clean in the light and the dark theme.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { axeViolations } from "./axe.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3326;
const SLOW = 180_000;
const TEACHER = { firstName: "Grace", lastName: "Hopper", email: "grace@uni.example", password: "teaching-password" };
const STUDENT = { firstName: "Alan", lastName: "Turing", email: "alan@uni.example", password: "student-password" };
const CODE = "a, b = map(int, input().split())\ntotal = a + b\nprint(total)\n";

let server: TestServer;
let browser: Browser;
let teacher: WatchedPage;
let student: WatchedPage;
let courseId = "";
let assignmentId = "";
let submissionId = "";

async function api(path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>;
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function signIn(p: Page, u: typeof TEACHER) {
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(u.email);
  await p.getByLabel("Password").fill(u.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL("**/problems");
}

/** axe finds nothing in the light theme, nor (after a reload with the dark theme stored) in the dark one; the light theme is restored. */
async function axeBothThemes(p: Page, ready: () => Promise<unknown>) {
  expect(await axeViolations(p)).toEqual([]);
  for (const dark of [true, false]) {
    await p.evaluate((d) => localStorage.setItem("darkMode", JSON.stringify(d)), dark);
    await p.reload();
    await ready();
    await p.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    if (dark) expect(await axeViolations(p)).toEqual([]);
  }
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  for (const u of [TEACHER, STUDENT]) await api("/api/auth/register", u);
  const admin = Bun.spawnSync(["bun", "scripts/admin.ts", "allow-courses", TEACHER.email], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
  });
  expect(admin.exitCode).toBe(0);
  const teacherToken = (await api("/api/auth/login", { email: TEACHER.email, password: TEACHER.password })).token;
  const studentToken = (await api("/api/auth/login", { email: STUDENT.email, password: STUDENT.password })).token;
  const course = await api("/api/courses", { title: "Programming 1", code: "PRG1", term: "Spring" }, teacherToken);
  courseId = course.id;
  await api("/api/courses/join", { code: course.inviteCode }, studentToken);
  const problem = await api(
    "/api/problems",
    {
      title: "Sum of Two",
      description: "Print the sum of **a** and **b**.",
      inputFormat: "Two integers.",
      outputFormat: "Their sum.",
      constraints: "-1000 <= a, b <= 1000",
      sampleInput: "1 2\n",
      sampleOutput: "3\n",
      difficulty: "easy",
      hiddenTestCases: [{ input: "2 3\n", expectedOutput: "5\n" }],
    },
    teacherToken,
  );
  const problemId = problem._id ?? problem.id;
  const assignment = await api(
    `/api/courses/${courseId}/assignments`,
    { title: "Lab 1", opensAt: Date.now() - 86_400_000, dueAt: Date.now() + 7 * 86_400_000, problems: [{ problemId, points: 100 }] },
    teacherToken,
  );
  assignmentId = assignment.id;
  // Judged by the real sandbox (the door answers once judging ends).
  const sub = await api(`/api/assignments/${assignmentId}/submissions`, { problemId, language: "py", code: CODE }, studentToken);
  expect(sub.verdict).toBe("AC");
  submissionId = sub._id ?? sub.id;
  browser = await launchBrowser();
  teacher = await openPage(browser, server.url);
  student = await openPage(browser, server.url);
}, SLOW);

afterEach(() => expectCleanPages([teacher, student], teacher));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("the teacher writes a rubric with the keyboard", async () => {
  const t = teacher.page;
  await signIn(t, TEACHER);
  await t.goto(`/assignments/${assignmentId}`);
  await t.getByRole("link", { name: "Rubrics" }).click();
  await t.getByRole("heading", { name: "Rubrics of Lab 1" }).waitFor();
  const add = t.getByRole("button", { name: "Add an item" });
  await add.focus();
  await t.keyboard.press("Enter");
  await t.getByLabel("Points of item 1").focus();
  await t.keyboard.type("-10");
  await t.keyboard.press("Tab");
  await t.keyboard.type("The variables are not named");
  await add.focus();
  await t.keyboard.press("Enter");
  await t.getByLabel("Points of item 2").fill("5");
  await t.getByLabel("Description of item 2").fill("A comment explains the input");
  await t.getByRole("button", { name: "Save rubric" }).focus();
  await t.keyboard.press("Enter");
  await t.getByText("Rubric saved.").waitFor();
  await axeBothThemes(t, () => t.getByLabel("Points of item 2").waitFor());
}, SLOW);

test("the teacher reviews: picks an item, comments on line 2 from the keyboard (saved to the comment bank), releases", async () => {
  const t = teacher.page;
  await t.goto(`/submissions/${submissionId}/review`);
  await t.getByRole("heading", { name: "Review of Sum of Two" }).waitFor();
  await t.getByText("Draft: the student does not see this review.").waitFor();
  await t.getByRole("checkbox", { name: "-10: The variables are not named" }).focus();
  await t.keyboard.press("Space");
  await t.getByRole("status").filter({ hasText: "90 of 100 points" }).waitFor();
  await t.getByRole("button", { name: "Comment on line 2" }).focus();
  await t.keyboard.press("Enter");
  const text = t.getByLabel("Comment", { exact: true });
  await text.waitFor();
  expect(await text.evaluate((el) => el === document.activeElement)).toBe(true);
  await t.keyboard.type("Name it after what it holds, e.g. `total` is good; `a` and `b` are not.");
  await t.getByLabel("Also save it to the course's comment bank").check();
  await t.getByRole("button", { name: "Add comment" }).click();
  await t.getByRole("note", { name: "Comment on line 2" }).waitFor();
  await axeBothThemes(t, () => t.getByRole("heading", { name: "Review of Sum of Two" }).waitFor());
  // The reload dropped the unsaved picks: make them again, then release.
  await t.getByRole("checkbox", { name: "-10: The variables are not named" }).check();
  await t.getByRole("button", { name: "Comment on line 2" }).click();
  // The comment bank now offers the comment.
  await t.getByLabel("From the comment bank").selectOption({ index: 1 });
  expect(await t.getByLabel("Comment", { exact: true }).inputValue()).toContain("Name it after what it holds");
  await t.getByRole("button", { name: "Add comment" }).click();
  await t.getByRole("button", { name: "Save and release" }).click();
  await t.getByText("Released to the student.").first().waitFor();
  await t.getByRole("button", { name: "Take back the release" }).waitFor();
}, SLOW);

test("the student reads the released review with the comment under its line and asks for a regrade", async () => {
  const s = student.page;
  await signIn(s, STUDENT);
  await s.goto(`/assignments/${assignmentId}`);
  await s.getByRole("link", { name: "Review of Sum of Two" }).click();
  await s.getByRole("heading", { name: "Your grade" }).waitFor();
  await s.getByText("90 of 100 points").waitFor();
  await s.getByText("-10: The variables are not named").waitFor();
  const note = s.getByRole("note", { name: "Comment on line 2" });
  await note.waitFor();
  // The comment's row comes right after line 2's row.
  const after = await s.evaluate(() => {
    const rows = [...document.querySelectorAll(".review-code tr")];
    const i = rows.findIndex((r) => r.querySelector("th")?.textContent === "2");
    return rows[i + 1]?.textContent ?? "";
  });
  expect(after).toContain("Name it after what it holds");
  await axeBothThemes(s, () => s.getByRole("heading", { name: "Your grade" }).waitFor());
  await s.getByLabel("Why should this be regraded?").focus();
  await s.keyboard.type("The statement names them a and b, so I kept those names.");
  await s.getByRole("button", { name: "Ask for a regrade" }).click();
  await s.getByText("Your request was sent to the course staff.").waitFor();
  await s.getByText("Waiting for an answer").waitFor();
  expect(await s.getByRole("button", { name: "Ask for a regrade" }).count()).toBe(0);
}, SLOW);

test("the teacher answers from the queue with new points; the student sees the grade and the answer", async () => {
  const t = teacher.page;
  await t.goto(`/courses/${courseId}`);
  await t.getByRole("link", { name: "Regrade requests" }).click();
  await t.getByRole("heading", { name: "Regrade requests" }).waitFor();
  const item = t.getByTestId("queue-item");
  await item.getByText("The statement names them a and b").waitFor();
  await axeBothThemes(t, () => t.getByTestId("queue-item").waitFor());
  await t.getByRole("radio", { name: "Accept" }).check();
  await t.getByLabel("Answer to the student").fill("Fair: the statement uses those names.");
  await t.getByLabel("New points for the problem").fill("95");
  await t.getByRole("button", { name: "Send answer" }).click();
  await t.getByText("Answered; the student is notified.").waitFor();
  await t.getByText("No regrade requests here.").waitFor();

  const s = student.page;
  await s.reload();
  await s.getByText("95 of 100 points").waitFor();
  await s.getByTestId("regrade-request").getByText("Accepted").waitFor();
  await s.getByRole("note", { name: "Staff's answer" }).getByText("Fair: the statement uses those names.").waitFor();
  await s.getByRole("link", { name: /Notifications, [1-9]\d* unread/ }).waitFor();
  await s.goto("/notifications");
  await s.getByText("Your regrade request on Sum of Two in Lab 1 was accepted").waitFor();
}, SLOW);
