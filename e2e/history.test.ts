/**
 * Readable history and dates (decision 057) in a real browser against the
 * real server: My Submissions as a compact list (five rows fit a 900 px
 * screen; one opens at a time; verdicts and languages by name; where each was
 * made), its filters, light, dark and phone widths; the contest's own table
 * with language names; and a similarity report whose only pair and threshold
 * read the same percent, which must count as at the threshold. Submissions
 * are written to the server's database (the judge is not what this tests).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createClient, type Client } from "@libsql/client";
import type { Browser, Page } from "playwright-core";
import { newId } from "../db/ids.ts";
import * as F from "../tests/fixtures/similarity.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3380;
const SLOW = 120_000;
const TEACHER = { firstName: "Grace", lastName: "Hopper", email: "grace@uni.example", password: "compile-it-all" };
const STUDENT = { firstName: "Alan", lastName: "Turing", email: "alan@uni.example", password: "halting-problem" };

let server: TestServer;
let browser: Browser;
let main: WatchedPage;
let db: Client;
let studentToken = "";
let teacherToken = "";
let contestId = "";
let assignmentId = "";
let simAssignmentId = "";

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function account(u: typeof STUDENT): Promise<{ token: string; id: string }> {
  expect((await api("/api/auth/register", { method: "POST", body: u })).status).toBe(200);
  const token = (await api("/api/auth/login", { method: "POST", body: { email: u.email, password: u.password } })).body.token as string;
  const id = (await db.execute({ sql: "SELECT id FROM users WHERE email_normalized = ?", args: [u.email] })).rows[0]!.id as string;
  return { token, id };
}

const problemBody = (title: string) => ({
  title,
  description: `Solve ${title}.`,
  inputFormat: "An integer n.",
  outputFormat: "n + 1.",
  constraints: "0 <= n <= 1000",
  sampleInput: "1\n",
  sampleOutput: "2\n",
  difficulty: "easy",
  hiddenTestCases: [{ input: "41\n", expectedOutput: "42\n" }],
});

/** Signs `page` in as `token`'s user (the token in localStorage, as after signing in) in `theme`. */
async function signedIn(page: Page, token: string, theme: "light" | "dark") {
  await page.context().addInitScript(
    ([t, dark]) => {
      localStorage.setItem("token", t as string);
      localStorage.setItem("darkMode", JSON.stringify(dark));
    },
    [token, theme === "dark"],
  );
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  browser = await launchBrowser();
  main = await openPage(browser, server.url, { width: 1280, height: 900 });
  db = createClient({ url: server.databaseUrl });

  const teacher = await account(TEACHER);
  teacherToken = teacher.token;
  await db.execute({ sql: "UPDATE users SET can_create_courses = 1 WHERE id = ?", args: [teacher.id] });
  const student = await account(STUDENT);
  studentToken = student.token;

  const plus = (await api("/api/problems", { method: "POST", token: teacherToken, body: problemBody("Plus One") })).body._id as string;
  const twice = (await api("/api/problems", { method: "POST", token: teacherToken, body: problemBody("Twice") })).body._id as string;
  const course = await api("/api/courses", { method: "POST", token: teacherToken, body: { title: "Algorithms", code: "ALG101", term: "Autumn 2026" } });
  expect(course.status).toBe(201);
  expect((await api("/api/courses/join", { method: "POST", token: studentToken, body: { code: course.body.inviteCode } })).status).toBe(200);
  assignmentId = newId();
  const opens = Date.now() - 7 * 86_400_000;
  await db.execute({ sql: "INSERT INTO assignments (id, course_id, title, opens_at, feedback) VALUES (?, ?, 'Week 1', ?, 'tests')", args: [assignmentId, course.body.id, opens] });
  await db.execute({ sql: "INSERT INTO assignment_problems (assignment_id, problem_id, points, ordinal) VALUES (?, ?, 100, 0)", args: [assignmentId, twice] });

  const contest = await api("/api/contests", {
    method: "POST",
    token: teacherToken,
    body: { title: "Spring Cup", shortName: "spring26", startsAt: new Date(Date.now() - 30 * 60_000).toISOString(), durationMinutes: 600, scoring: "icpc", registration: "open", problems: [{ problemId: plus, label: "A" }] },
  });
  expect(contest.status).toBe(201);
  contestId = contest.body.id;
  expect((await api(`/api/contests/${contestId}/register`, { method: "POST", token: studentToken, body: {} })).status).toBe(201);
  const teamId = (await db.execute({ sql: "SELECT team_id FROM contest_team_members WHERE contest_id = ? AND user_id = ?", args: [contestId, student.id] })).rows[0]!.team_id as string;

  // Oldest first: [problem, language, verdict, context, code, compile output].
  const rows: [string, string, string, "practice" | "assignment" | "contest", string, string | null][] = [
    [plus, "cpp", "WA", "practice", "#include <iostream>\nint main() { int n; std::cin >> n; std::cout << n; }\n", null],
    [twice, "java", "AC", "assignment", "public class Main { public static void main(String[] a) { System.out.println(2); } }\n", null],
    [plus, "cpp", "AC", "contest", "#include <iostream>\nint main() { int n; std::cin >> n; std::cout << n + 1; }\n", null],
    [twice, "py", "WA", "assignment", "print(1)\n", null],
    [plus, "py", "TLE", "contest", "while True: pass\n", null],
    [plus, "cpp", "CE", "practice", "int main( {\n", "main.cpp:1:11: error: expected ')' before '{' token"],
  ];
  for (const [i, [problemId, language, verdict, where, code, compileOutput]] of rows.entries()) {
    const id = newId();
    await db.execute({
      sql: "INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, is_passed, assignment_id, contest_id, team_id, compile_output, output, expected_output, tests_passed, tests_total, created_at) VALUES (?, ?, ?, ?, ?, 'done', ?, ?, ?, ?, ?, ?, ?, '2\n', ?, 2, ?)",
      args: [
        id,
        student.id,
        problemId,
        language,
        code,
        verdict,
        verdict === "AC" ? 1 : 0,
        where === "assignment" ? assignmentId : null,
        where === "contest" ? contestId : null,
        where === "contest" ? teamId : null,
        compileOutput,
        verdict === "CE" ? "" : verdict === "AC" ? "2\n" : "1\n",
        verdict === "AC" ? 2 : 0,
        Date.now() - (rows.length - i) * 5 * 60_000,
      ],
    });
    if (verdict !== "CE") {
      await db.execute({ sql: "INSERT INTO submission_tests (submission_id, \"index\", is_sample, verdict, time_ms, memory_kib) VALUES (?, 0, 1, ?, 12, 3000)", args: [id, verdict] });
    }
  }

  // A similarity report with one copied pair: two students' programs for one assignment problem.
  simAssignmentId = newId();
  await db.execute({ sql: "INSERT INTO assignments (id, course_id, title, opens_at, feedback) VALUES (?, ?, 'Week 2', ?, 'tests')", args: [simAssignmentId, course.body.id, opens] });
  await db.execute({ sql: "INSERT INTO assignment_problems (assignment_id, problem_id, points, ordinal) VALUES (?, ?, 100, 0)", args: [simAssignmentId, plus] });
  for (const [i, [name, code]] of [["Ada", F.PY_MERGE], ["Cleo", F.PY_MERGE_DISGUISED]].entries()) {
    const userId = newId();
    await db.execute({ sql: "INSERT INTO users (id, first_name, last_name, email, email_normalized) VALUES (?, ?, 'Student', ?, ?)", args: [userId, name!, `${name}@uni.example`, `${name!.toLowerCase()}@uni.example`] });
    await db.execute({ sql: "INSERT INTO course_members (course_id, user_id, role) VALUES (?, ?, 'student')", args: [course.body.id, userId] });
    await db.execute({
      sql: "INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, is_passed, assignment_id, created_at) VALUES (?, ?, ?, 'py', ?, 'done', 'AC', 1, ?, ?)",
      args: [newId(), userId, plus, code!, simAssignmentId, opens + i * 3_600_000],
    });
  }
  await signedIn(main.page, studentToken, "light");
}, SLOW);

afterEach(() => expectCleanPages([main], main));

afterAll(async () => {
  db?.close();
  await browser?.close();
  await server?.stop();
});

const rowsOf = (p: Page) => p.getByTestId("submission-row");

describe("My Submissions", () => {
  test("a compact list: five rows fit 900 px, verdicts, languages and places by name, one open at a time", async () => {
    const p = main.page;
    await p.goto("/my-submissions");
    const rows = rowsOf(p);
    await rows.nth(5).waitFor();
    expect(await rows.count()).toBe(6);
    // Five submissions fit one 900 px screen without scrolling.
    const fifth = (await rows.nth(4).boundingBox())!;
    expect(fifth.y + fifth.height).toBeLessThanOrEqual(900);
    const read = async (i: number) => Promise.all(["problem", "verdict", "language", "context"].map((k) => rows.nth(i).locator(k === "problem" ? ".history-problem" : `[data-testid="${k}"]`).innerText()));
    const seen: string[][] = [];
    for (let i = 0; i < 6; i++) seen.push(await read(i));
    expect(seen).toEqual([
      ["Plus One", "Compilation Error", "C++", "Practice"],
      ["Plus One", "Time Limit Exceeded", "Python", "Contest: Spring Cup"],
      ["Twice", "Wrong Answer", "Python", "Assignment: Week 1"],
      ["Plus One", "Accepted", "C++", "Contest: Spring Cup"],
      ["Twice", "Accepted", "Java", "Assignment: Week 1"],
      ["Plus One", "Wrong Answer", "C++", "Practice"],
    ]);
    expect(await p.getByText("Failed", { exact: true }).count()).toBe(0);
    // Relative dates, the absolute one in the title.
    expect(await rows.nth(0).locator("time").innerText()).toMatch(/^\d+ minutes ago$/);
    expect(await rows.nth(0).locator("time").getAttribute("title")).toMatch(/\(GMT[+-]\d{2}:\d{2}\)$/);

    // A disclosure button per row; opening one closes the other.
    const toggle = (i: number) => rows.nth(i).locator(".history-toggle");
    expect(await toggle(0).getAttribute("aria-expanded")).toBe("false");
    await toggle(0).click();
    expect(await toggle(0).getAttribute("aria-expanded")).toBe("true");
    await rows.nth(0).getByRole("heading", { name: "Compiler Output" }).waitFor();
    expect(await rows.nth(0).locator("pre.diagnostics").innerText()).toContain("expected ')'");
    await toggle(3).click();
    expect(await toggle(0).getAttribute("aria-expanded")).toBe("false");
    expect(await toggle(3).getAttribute("aria-expanded")).toBe("true");
    await rows.nth(3).getByRole("table", { name: "Per-test results" }).waitFor();
    expect(await rows.nth(3).getByTestId("tests-passed").innerText()).toBe("2 of 2 tests passed");
    expect(await rows.nth(3).locator(".code-block").innerText()).toContain("n + 1");
    expect(await rows.nth(3).getByRole("link", { name: "Spring Cup" }).getAttribute("href")).toBe(`/contests/${contestId}`);
    expect(await p.locator(".history-details:not([hidden])").count()).toBe(1);
    // The button's controlled region is the open row's details.
    const controls = await toggle(3).getAttribute("aria-controls");
    expect(await p.locator(`#${controls}`).isVisible()).toBe(true);
    await toggle(3).click();
    expect(await p.locator(".history-details:not([hidden])").count()).toBe(0);
  }, SLOW);

  test("filters by verdict and by place", async () => {
    const p = main.page;
    await p.goto("/my-submissions");
    const rows = rowsOf(p);
    await rows.nth(5).waitFor();
    await p.getByLabel("Verdict").selectOption({ label: "Compilation Error" });
    expect(await rows.count()).toBe(1);
    await p.getByLabel("Verdict").selectOption({ label: "Accepted" });
    expect(await rows.count()).toBe(2);
    await p.getByLabel("Made in").selectOption({ label: "Contest: Spring Cup" });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getByTestId("context").innerText()).toBe("Contest: Spring Cup");
    await p.getByLabel("Verdict").selectOption({ label: "Wrong Answer" });
    await p.getByText("No submission matches these filters.").waitFor();
    await p.getByLabel("Verdict").selectOption({ label: "All verdicts" });
    await p.getByLabel("Made in").selectOption({ label: "All assignments" });
    expect(await rows.count()).toBe(2);
    await p.getByLabel("Made in").selectOption({ label: "Practice" });
    expect(await rows.count()).toBe(2);
    expect(await p.getByRole("status").filter({ hasText: "2 of 6 submissions shown" }).count()).toBe(1);
  }, SLOW);

  test("one problem's history links to all; light, dark and phone widths fit", async () => {
    for (const theme of ["light", "dark"] as const) {
      for (const width of [1280, 390, 360]) {
        const w = await openPage(browser, server.url, { width, height: 800 });
        await signedIn(w.page, studentToken, theme);
        await w.page.goto("/my-submissions");
        await rowsOf(w.page).nth(5).waitFor();
        await rowsOf(w.page).nth(0).locator(".history-toggle").click();
        await rowsOf(w.page).nth(0).locator(".code-block").waitFor();
        if (process.env.HISTORY_SHOTS) await w.page.screenshot({ path: `${process.env.HISTORY_SHOTS}/history-${theme}-${width}.png`, fullPage: true });
        expect(await w.page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
        const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${theme} ${width}px`).toBeLessThanOrEqual(0);
        // Every row's parts stay inside the row.
        const outside = await w.page.evaluate(() =>
          [...document.querySelectorAll(".history-toggle > *")].filter((el) => {
            const r = el.getBoundingClientRect();
            const row = el.parentElement!.getBoundingClientRect();
            return r.left < row.left - 1 || r.right > row.right + 1;
          }).length,
        );
        expect(outside, `${theme} ${width}px`).toBe(0);
        expectCleanPages([w], w);
        await w.context.close();
      }
    }
    const p = main.page;
    const plus = (await db.execute("SELECT id FROM problems WHERE title = 'Plus One'")).rows[0]!.id as string;
    await p.goto(`/my-submissions/${plus}`);
    await rowsOf(p).nth(3).waitFor();
    expect(await rowsOf(p).count()).toBe(4);
    await p.getByRole("link", { name: "All my submissions" }).click();
    await p.waitForURL("**/my-submissions");
    await rowsOf(p).nth(5).waitFor();
  }, SLOW);
});

describe("the viewer's locale and zone", () => {
  test("a German browser in Berlin reads German dates in its own zone", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 }, locale: "de-DE", timezoneId: "Europe/Berlin" });
    await context.addInitScript((t) => localStorage.setItem("token", t), studentToken);
    const p = await context.newPage();
    const errors: string[] = [];
    p.on("pageerror", (err) => errors.push(err.message));
    await p.goto("/my-submissions");
    const time = p.getByTestId("submission-row").first().locator(".history-toggle time");
    await time.waitFor();
    expect(await time.innerText()).toMatch(/^vor \d+ Minuten$/);
    // The title: the locale's date and time, with Berlin's offset.
    expect(await time.getAttribute("title")).toMatch(/^\d{1,2}\. \S+ \d{4} \d{2}:\d{2} \(GMT\+0[12]:00\)$/);
    expect(errors).toEqual([]);
    await context.close();
  }, SLOW);
});

describe("contest table", () => {
  test("the team's submissions show language names, never ids", async () => {
    const p = main.page;
    await p.goto(`/contests/${contestId}`);
    const rows = p.getByTestId("contest-submission");
    await rows.nth(1).waitFor();
    const text = await rows.allInnerTexts();
    expect(text.some((t) => t.includes("C++"))).toBe(true);
    expect(text.some((t) => t.includes("Python"))).toBe(true);
    expect(text.some((t) => /\b(cpp|py)\b/.test(t))).toBe(false);
  }, SLOW);
});

describe("similarity report", () => {
  test("a pair and a threshold that read the same percent: the pair is at the threshold, everywhere; the axis runs 0 % to 100 %", async () => {
    const asked = await api(`/api/assignments/${simAssignmentId}/similarity`, { method: "POST", token: teacherToken, body: {} });
    expect(asked.status).toBe(202);
    const reportId = asked.body.reportId as string;
    let report: any = null;
    for (let i = 0; i < 300; i++) {
      report = (await api(`/api/similarity/${reportId}`, { token: teacherToken })).body;
      if (report.status === "done" || report.status === "failed") break;
      await Bun.sleep(200);
    }
    expect(report.status).toBe("done");
    const s = report.result.pairs[0].similarity as number;
    const shown = Math.round(s * 100);
    // The suggested threshold just above the pair, within the same shown percent (the 0.8182 against 0.8185 of the issue).
    const threshold = (shown + 0.4999) / 100;
    expect(threshold).toBeGreaterThan(s);
    await db.execute({ sql: "UPDATE similarity_reports SET result = json_set(result, '$.threshold', ?) WHERE id = ?", args: [threshold, reportId] });

    const teacher = await openPage(browser, server.url, { width: 1280, height: 900 });
    await signedIn(teacher.page, teacherToken, "light");
    const p = teacher.page;
    await p.goto(`/similarity/${reportId}`);
    await p.getByRole("img", { name: /Pairs by similarity/ }).waitFor({ timeout: 30_000 });
    expect(await p.getByTestId("threshold").innerText()).toBe(`${shown}%`);
    expect(await p.getByText(`Suggested: ${shown}%.`).count()).toBe(1);
    const row = p.getByTestId("pair-row").first();
    expect(await row.locator("td").first().innerText()).toBe(`${shown}%`);
    expect(await row.getAttribute("class")).toContain("above-threshold");
    expect(await p.getByTestId("cluster").count()).toBe(1);
    expect(await p.getByText("No pair at or above the threshold.").count()).toBe(0);
    expect(await p.getByTestId("above-count").innerText()).toContain(`1 pair at or above ${shown}%`);
    // One percent higher, the pair is below, in the text, the clusters and the table alike.
    await p.getByLabel("Threshold").fill(String((shown + 1) / 100));
    expect(await p.getByTestId("threshold").innerText()).toBe(`${shown + 1}%`);
    await p.getByText("No pair at or above the threshold.").waitFor();
    expect((await row.getAttribute("class")) ?? "").not.toContain("above-threshold");
    expect(await p.getByTestId("above-count").innerText()).toContain(`0 pairs at or above ${shown + 1}%`);

    // The axis: 0 % at the left edge to 100 % at the right, five labelled ticks in order.
    const svg = (await p.getByTestId("histogram").boundingBox())!;
    const ticks = p.getByTestId("tick");
    expect(await ticks.allTextContents()).toEqual(["0%", "25%", "50%", "75%", "100%"]);
    const boxes = await Promise.all([0, 1, 2, 3, 4].map(async (i) => (await ticks.nth(i).boundingBox())!));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x);
    expect(boxes[0]!.x - svg.x).toBeLessThan(svg.width * 0.05);
    expect(svg.x + svg.width - (boxes[4]!.x + boxes[4]!.width)).toBeLessThan(svg.width * 0.05);
    // The slider spans the same width as the axis.
    const slider = (await p.getByLabel("Threshold").boundingBox())!;
    expect(Math.abs(slider.x - svg.x)).toBeLessThan(svg.width * 0.05);
    expect(Math.abs(slider.x + slider.width - (svg.x + svg.width))).toBeLessThan(svg.width * 0.05);
    if (process.env.HISTORY_SHOTS) await p.screenshot({ path: `${process.env.HISTORY_SHOTS}/similarity.png`, fullPage: true });
    expectCleanPages([teacher], teacher);
    await teacher.context.close();
  }, SLOW);
});
