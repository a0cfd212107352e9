/**
 * The course journey in a real browser against the real server: an
 * instructor (allowed to create courses with `bun run admin`) creates a
 * course, imports a roster, copies a problem in and creates an assignment
 * due in under a minute; a student joins by the invite link and submits
 * before the due time and after it; the instructor watches the gradebook
 * change live (no reload) with the late mark and the penalty, and exports the
 * grades as CSV. A rostered student finds the course on signing up.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import dayjs from "dayjs";
import type { Browser, Page } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, setEditorCode, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3314;
const SLOW = 180_000;
const TEACHER = { firstName: "Grace", lastName: "Hopper", email: "grace@uni.example", password: "cobol-compiler" };
const STUDENT = { firstName: "Alan", lastName: "Kay", email: "alan@uni.example", password: "smalltalk-80" };
const ROSTERED = { firstName: "Barbara", lastName: "Liskov", email: "barbara@uni.example", password: "substitution" };
const PY_WA = "a, b = map(int, input().split())\nprint(a - b)\n";
const PY_AC = "a, b = map(int, input().split())\nprint(a + b)\n";

let server: TestServer;
let browser: Browser;
let teacher: WatchedPage;
let student: WatchedPage;
const watched: WatchedPage[] = [];
let courseUrl = "";
let assignmentUrl = "";
let dueAt = 0;

async function signUpAndIn(p: Page, u: typeof TEACHER) {
  await p.goto("/signup");
  await p.getByLabel("First Name").fill(u.firstName);
  await p.getByLabel("Last Name").fill(u.lastName);
  await p.getByLabel("Email Address").fill(u.email);
  await p.getByLabel("Password").fill(u.password);
  await p.getByRole("button", { name: "Create Account" }).click();
  // Sign-up signs in and goes on to /problems (decision 056).
  await p.waitForURL("**/problems", { timeout: 10_000 });
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  teacher = await openPage(browser, server.url);
  student = await openPage(browser, server.url);
  watched.push(teacher, student);
}, SLOW);

afterEach(() => expectCleanPages(watched, teacher));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a course, from creation to grades", () => {
  test("the operator lets the instructor create courses; the instructor creates one", async () => {
    await signUpAndIn(teacher.page, TEACHER);
    const admin = Bun.spawnSync(["bun", "scripts/admin.ts", "allow-courses", TEACHER.email], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
    });
    expect(admin.stdout.toString()).toContain(`admin: ${TEACHER.email} is now a plain user and may create courses`);
    const p = teacher.page;
    await p.getByRole("link", { name: "My Courses" }).click();
    await p.waitForURL("**/courses");
    await p.getByLabel("Course title").fill("Data Structures");
    await p.getByLabel("Course code").fill("CS201-2026");
    await p.getByLabel("Term").fill("Fall 2026");
    await p.getByRole("button", { name: "Create Course" }).click();
    await p.getByRole("heading", { name: "Data Structures" }).waitFor();
    courseUrl = new URL(p.url()).pathname;
    await p.getByText("CS201-2026 · Fall 2026 · you are the owner").waitFor();
  }, SLOW);

  test("the instructor imports a roster and copies a public problem into the course", async () => {
    const p = teacher.page;
    await p.getByRole("link", { name: "Settings" }).click();
    await p.getByLabel("CSV roster (email, name, role)").fill(`email,name,role\n${ROSTERED.email},Barbara Liskov,student\n`);
    await p.getByRole("button", { name: "Import roster" }).click();
    await p.getByText("Roster updated: 0 added, 0 changed, 1 invited").waitFor();
    expect(await p.getByRole("row", { name: /barbara@uni\.example/ }).textContent()).toContain("student (invited)");
    await p.goto(courseUrl);
    // Another author's public problem (the seeded one) is not offered for copying: its hidden tests stay with its author.
    await p.getByTestId("public-problems-hint").waitFor();
    expect(await p.getByLabel("Public problem to copy").count()).toBe(0);
    // The instructor's own public problem is theirs to copy, hidden tests and all.
    const own = await p.evaluate(async () => {
      const res = await fetch("/api/problems", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("token")}` },
        body: JSON.stringify({
          title: "Sum of Two Numbers",
          description: "Add two integers.",
          inputFormat: "Two integers a and b.",
          outputFormat: "Their sum.",
          constraints: "|a|, |b| <= 10^9",
          sampleInput: "1 2\n",
          sampleOutput: "3\n",
          difficulty: "easy",
          hiddenTestCases: [{ input: "5 7\n", expectedOutput: "12\n" }],
        }),
      });
      return res.status;
    });
    expect(own).toBe(201);
    await p.reload();
    await p.getByLabel("Public problem to copy").selectOption({ label: "Sum of Two Numbers (easy)" });
    await p.getByRole("button", { name: "Copy into course" }).click();
    await p.getByText("Problem copied into the course.").waitFor();
    await p.getByRole("link", { name: "Sum of Two Numbers" }).waitFor();
  }, SLOW);

  test("the instructor creates an assignment due in 40 seconds with a late window and a 50% per hour penalty", async () => {
    const p = teacher.page;
    await p.getByRole("link", { name: "New Assignment" }).click();
    await p.getByLabel("Title", { exact: true }).fill("Warm-up");
    dueAt = Date.now() + 40_000;
    await p.getByLabel("Opens").fill(dayjs().subtract(1, "minute").format("YYYY-MM-DDTHH:mm:ss"));
    await p.getByLabel("Due (empty: practice)").fill(dayjs(dueAt).format("YYYY-MM-DDTHH:mm:ss"));
    await p.getByLabel("Late submissions until (optional)").fill(dayjs(dueAt).add(1, "hour").format("YYYY-MM-DDTHH:mm:ss"));
    await p.getByLabel("Late penalty (%)").fill("50");
    await p.getByLabel("per started").selectOption("hour");
    await p.getByRole("option", { name: /^Sum of Two Numbers\s*course/ }).click();
    await p.getByRole("button", { name: "Create Assignment" }).click();
    await p.getByRole("heading", { name: "Warm-up" }).waitFor();
    assignmentUrl = new URL(p.url()).pathname;
    expect(await p.getByTestId("due").textContent()).toContain("due in");
  }, SLOW);

  test("a student joins by the invite link and submits a wrong answer before the due time; the gradebook shows it live", async () => {
    const code = await (async () => {
      await teacher.page.goto(`${courseUrl}/settings`);
      return (await teacher.page.getByTestId("invite-code").textContent())!.trim();
    })();
    await teacher.page.goto(`${assignmentUrl}/gradebook`);
    await teacher.page.getByText("Live", { exact: true }).waitFor();
    const s = student.page;
    await signUpAndIn(s, STUDENT);
    await s.goto(`/join/${code}`);
    await s.getByRole("heading", { name: "Data Structures" }).waitFor();
    await s.getByRole("link", { name: "Warm-up" }).click();
    await s.getByRole("link", { name: "Sum of Two Numbers" }).click();
    await s.getByTestId("assignment-banner").waitFor();
    expect(await s.getByTestId("assignment-banner").textContent()).toContain("Warm-up");
    await s.getByRole("main").getByLabel("Language").selectOption("py");
    await setEditorCode(s, PY_WA);
    await s.getByRole("button", { name: "Submit Code" }).click();
    await s.getByTestId("final-verdict").waitFor({ timeout: 30_000 });
    expect(await s.getByTestId("final-verdict").textContent()).toContain("Wrong Answer");
    // The instructor's gradebook, open all along, shows the attempt without a reload.
    const row = teacher.page.getByTestId("gradebook-row").filter({ hasText: STUDENT.email });
    await row.getByText("WA · 1").waitFor({ timeout: 15_000 });
  }, SLOW);

  test("after the due time the student's accepted solution counts late at half the points, live in the gradebook", async () => {
    const wait = dueAt + 1500 - Date.now();
    if (wait > 0) await Bun.sleep(wait);
    const s = student.page;
    await setEditorCode(s, PY_AC);
    await s.getByRole("button", { name: "Submit Code" }).click();
    await s.getByTestId("final-verdict").filter({ hasText: "Accepted" }).waitFor({ timeout: 30_000 });
    const row = teacher.page.getByTestId("gradebook-row").filter({ hasText: STUDENT.email });
    await row.getByText("late").waitFor({ timeout: 15_000 });
    expect(await row.getByTestId("total").textContent()).toBe("50");
  }, SLOW);

  test("the instructor exports the grades as CSV", async () => {
    const href = await teacher.page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    const res = await teacher.page.request.get(href!);
    expect(res.status()).toBe(200);
    const csv = await res.text();
    const line = csv.split("\n").find((l) => l.includes(STUDENT.email))!;
    expect(line).toContain("Alan Kay,50,late,50");
  }, SLOW);

  test("every course screen fits a 360 px phone, in light and dark", async () => {
    const p = teacher.page;
    await p.setViewportSize({ width: 360, height: 740 });
    for (const dark of [false, true]) {
      await p.evaluate((d) => localStorage.setItem("darkMode", JSON.stringify(d)), dark);
      for (const path of ["/courses", courseUrl, `${courseUrl}/settings`, assignmentUrl, `${assignmentUrl}/gradebook`, `${assignmentUrl}/edit`]) {
        await p.goto(path);
        await p.locator("main h1").first().waitFor();
        await p.waitForLoadState("networkidle");
        expect({ path, dark, width: await p.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, dark, width: 360 });
        expect(await p.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(dark);
      }
    }
    await p.evaluate(() => localStorage.setItem("darkMode", "false"));
    await p.setViewportSize({ width: 1366, height: 900 });
  }, SLOW);

  test("the rostered student finds the course when they sign up", async () => {
    const rostered = await openPage(browser, server.url);
    watched.push(rostered);
    await signUpAndIn(rostered.page, ROSTERED);
    await rostered.page.getByRole("link", { name: "My Courses" }).click();
    await rostered.page.getByTestId("course-card").filter({ hasText: "Data Structures" }).waitFor();
    expect(await rostered.page.getByTestId("course-card").first().textContent()).toContain("STUDENT");
  }, SLOW);
});
