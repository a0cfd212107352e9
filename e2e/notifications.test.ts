/**
 * Notifications in a real browser against the real server (decision 073):
 * course staff posts an announcement on the course page; a student's bell
 * says how many notices are unread (its accessible name), the list shows the
 * announcement, and marking it read clears the bell; the switches on the
 * account page work from the keyboard. Each screen is axe-clean.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { axeViolations } from "./axe.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3366;
const SLOW = 120_000;
const TEACHER = { firstName: "Ida", lastName: "Rhodes", email: "ida@uni.example", password: "teaching-password" };
const STUDENT = { firstName: "Kay", lastName: "Antonelli", email: "kay@uni.example", password: "student-password" };

let server: TestServer;
let browser: Browser;
let teacher: WatchedPage;
let student: WatchedPage;
let courseId = "";

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

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  for (const u of [TEACHER, STUDENT]) await api("/api/auth/register", u);
  const admin = Bun.spawnSync(["bun", "scripts/admin.ts", "allow-courses", TEACHER.email], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
  });
  expect(admin.exitCode).toBe(0);
  const teacherToken = (await api("/api/auth/login", { email: TEACHER.email, password: TEACHER.password })).token;
  const studentToken = (await api("/api/auth/login", { email: STUDENT.email, password: STUDENT.password })).token;
  const course = await api("/api/courses", { title: "Compilers", code: "CS440", term: "Fall" }, teacherToken);
  courseId = course.id;
  await api("/api/courses/join", { code: course.inviteCode }, studentToken);
  browser = await launchBrowser();
  teacher = await openPage(browser, server.url);
  student = await openPage(browser, server.url);
}, SLOW);

afterEach(() => expectCleanPages([teacher, student], teacher));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("staff posts an announcement on the course page; the student sees the bell's count, opens the list and marks it read", async () => {
  const t = teacher.page;
  await signIn(t, TEACHER);
  await t.goto(`/courses/${courseId}`);
  await t.getByRole("heading", { name: "New announcement" }).waitFor();
  await t.getByLabel("Title", { exact: true }).fill("Lab moved to room 204");
  await t.getByLabel("Message").fill("Bring your **laptop**.");
  await t.getByRole("button", { name: "Post announcement" }).click();
  await t.getByRole("status").filter({ hasText: "Announcement posted." }).waitFor();
  await t.getByRole("heading", { name: "Lab moved to room 204" }).waitFor();
  await t.locator("strong", { hasText: "laptop" }).waitFor();
  expect(await axeViolations(t)).toEqual([]);

  const s = student.page;
  await signIn(s, STUDENT);
  const bell = s.getByRole("link", { name: "Notifications, 1 unread" });
  await bell.waitFor();
  // The course page shows the announcement to the student, without the form.
  await s.goto(`/courses/${courseId}`);
  await s.getByRole("heading", { name: "Lab moved to room 204" }).waitFor();
  expect(await s.getByRole("button", { name: "Post announcement" }).count()).toBe(0);

  // Keyboard: focus the bell and open it with Enter.
  await bell.focus();
  await s.keyboard.press("Enter");
  await s.waitForURL("**/notifications");
  await s.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
  const item = s.getByRole("link", { name: "Announcement in Compilers: Lab moved to room 204" });
  await item.waitFor();
  expect(await axeViolations(s)).toEqual([]);
  await s.getByRole("button", { name: "Mark read: Announcement in Compilers: Lab moved to room 204" }).click();
  await s.getByRole("link", { name: "Notifications, none unread" }).waitFor();
  await s.getByRole("status").filter({ hasText: "Marked read." }).waitFor();
  expect(await s.getByRole("button", { name: "Mark all read" }).isDisabled()).toBe(true);
}, SLOW);

test("the account page's switches: a table of kinds, changed from the keyboard and kept", async () => {
  const s = student.page;
  await s.goto("/account");
  await s.getByRole("heading", { name: "Notifications", level: 2 }).waitFor();
  const opened = s.getByRole("checkbox", { name: "An assignment opens: in the app" });
  expect(await opened.isChecked()).toBe(true);
  await opened.focus();
  await s.keyboard.press("Space");
  await s.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  expect(await opened.isChecked()).toBe(false);
  expect(await axeViolations(s)).toEqual([]);
  await s.reload();
  await s.getByRole("checkbox", { name: "An assignment opens: in the app" }).waitFor();
  expect(await s.getByRole("checkbox", { name: "An assignment opens: in the app" }).isChecked()).toBe(false);
}, SLOW);
