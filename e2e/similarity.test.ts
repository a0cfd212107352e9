/**
 * The similarity journey in a real browser against the real server: an
 * instructor opens an assignment's similarity page, runs a report with the
 * starter code they handed out, sees the histogram with the suggested
 * threshold and the disguised copy on top, opens the pair side by side with
 * its shared fragments highlighted, marks it reviewed, and exports the pairs
 * as CSV. The students' judged submissions are written to the server's
 * database (the judge is not what this journey tests; its own tests are).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import type { Browser } from "playwright-core";
import { newId } from "../db/ids.ts";
import * as F from "../tests/fixtures/similarity.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3320;
const SLOW = 120_000;
const TEACHER = { firstName: "Margaret", lastName: "Hamilton", email: "margaret@uni.example", password: "apollo-guidance" };
const STARTER = "import sys\n\ndef read_ints():\n    return list(map(int, sys.stdin.read().split()))\n\n";
const STUDENTS: [string, string][] = [
  ["Ada", F.PY_MERGE],
  ["Ben", F.PY_FENWICK],
  ["Dan", F.PY_BRUTE],
  ["Eve", F.PY_BOTTOM_UP],
  ["Cleo", F.PY_MERGE_DISGUISED],
];

let server: TestServer;
let browser: Browser;
let teacher: WatchedPage;
let assignmentId = "";

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false" });
  browser = await launchBrowser();
  teacher = await openPage(browser, server.url);

  expect((await api("/api/auth/register", { method: "POST", body: TEACHER })).status).toBe(200);
  const db = createClient({ url: server.databaseUrl });
  await db.execute({ sql: "UPDATE users SET can_create_courses = 1 WHERE email_normalized = ?", args: [TEACHER.email] });
  const token = (await api("/api/auth/login", { method: "POST", body: { email: TEACHER.email, password: TEACHER.password } })).body.token;
  const course = await api("/api/courses", { method: "POST", token, body: { title: "Algorithms", code: "ALG101", term: "Autumn 2026" } });
  expect(course.status).toBe(201);
  const teacherId = (await db.execute({ sql: "SELECT id FROM users WHERE email_normalized = ?", args: [TEACHER.email] })).rows[0]!.id as string;
  const problemId = newId();
  assignmentId = newId();
  const opens = Date.now() - 7 * 86_400_000;
  await db.execute({
    sql: "INSERT INTO problems (id, title, description, input_format, output_format, constraints, sample_input, sample_output, difficulty, user_id, course_id) VALUES (?, 'Inversions', 'Count the inversions.', 'n, then n integers', 'One integer', 'n <= 200000', '3\n3 2 1\n', '3\n', 'medium', ?, ?)",
    args: [problemId, teacherId, course.body.id],
  });
  await db.execute({ sql: "INSERT INTO assignments (id, course_id, title, opens_at, feedback) VALUES (?, ?, 'Week 3: sorting', ?, 'tests')", args: [assignmentId, course.body.id, opens] });
  await db.execute({ sql: "INSERT INTO assignment_problems (assignment_id, problem_id, points, ordinal) VALUES (?, ?, 100, 0)", args: [assignmentId, problemId] });
  for (const [i, [name, code]] of STUDENTS.entries()) {
    const userId = newId();
    await db.execute({ sql: "INSERT INTO users (id, first_name, last_name, email, email_normalized) VALUES (?, ?, 'Student', ?, ?)", args: [userId, name, `${name}@uni.example`, `${name.toLowerCase()}@uni.example`] });
    await db.execute({ sql: "INSERT INTO course_members (course_id, user_id, role) VALUES (?, ?, 'student')", args: [course.body.id, userId] });
    await db.execute({
      sql: "INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, is_passed, assignment_id, created_at) VALUES (?, ?, ?, 'py', ?, 'done', 'AC', 1, ?, ?)",
      args: [newId(), userId, problemId, STARTER + code, assignmentId, opens + i * 3_600_000],
    });
  }
  db.close();

  const p = teacher.page;
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(TEACHER.email);
  await p.getByLabel("Password").fill(TEACHER.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL("**/problems");
}, SLOW);

afterEach(() => expectCleanPages([teacher], teacher));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("similarity report", () => {
  test(
    "run from the assignment: histogram and threshold, the copy on top, side by side, marked reviewed, exported",
    async () => {
      const p = teacher.page;
      await p.goto(`/assignments/${assignmentId}`);
      await p.getByRole("link", { name: "Similarity" }).click();
      await p.waitForURL(`**/assignments/${assignmentId}/similarity`);
      await p.getByLabel("Starter code language").selectOption("py");
      await p.getByLabel("Starter code", { exact: true }).fill(STARTER);
      await p.getByRole("button", { name: "Run report" }).click();
      await p.waitForURL("**/similarity/*");
      const reportUrl = p.url();

      await p.getByRole("img", { name: "Pairs by similarity" }).waitFor({ timeout: 30_000 });
      expect(await p.getByTestId("threshold").textContent()).toMatch(/^\d+%$/);
      expect(await p.getByText(/Suggested: \d+%/).count()).toBe(1);
      const rows = p.getByTestId("pair-row");
      await rows.first().waitFor();
      const top = await rows.first().textContent();
      expect(top).toContain("Ada Student");
      expect(top).toContain("Cleo Student");
      expect(await p.getByTestId("cluster").first().textContent()).toBe("Ada Student · Cleo Student");

      // Names hidden for an anonymised review, then shown again.
      await p.getByLabel("Hide names").check();
      expect(await rows.first().textContent()).toContain("Student 1");
      expect(await rows.first().textContent()).not.toContain("Ada");
      await p.getByLabel("Hide names").uncheck();

      await rows.first().getByRole("link").click();
      await p.waitForURL("**/pairs/*");
      await p.getByTestId("pane-left").waitFor();
      expect(await p.getByTestId("name-left").textContent()).toBe("Ada Student");
      expect(await p.getByTestId("name-right").textContent()).toBe("Cleo Student");
      const highlighted = await p.getByTestId("pane-left").locator(".fragment").count();
      expect(highlighted).toBeGreaterThan(10);
      // The starter code's own lines are not highlighted on either side.
      for (const side of ["left", "right"]) {
        expect(await p.getByTestId(`pane-${side}`).locator('[data-row="2"].fragment').count()).toBe(0);
      }
      await p.getByRole("radio", { name: "reviewed" }).check();
      await p.getByLabel("Note").fill("Same merge sort, renamed.");
      await p.getByRole("button", { name: "Save mark" }).click();
      await p.getByText("Marked reviewed.").waitFor();

      await p.goto(reportUrl);
      await p.getByTestId("pair-row").first().getByText("reviewed").waitFor();
      const href = await p.getByRole("link", { name: "Export CSV" }).getAttribute("href");
      const csv = await p.request.get(href!);
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).trim().split("\n");
      expect(lines.length).toBe(11);
      expect(lines[1]).toContain("Ada Student");
      expect(lines[1]).toContain("Cleo Student");
      expect(lines[1]).toContain("reviewed");
    },
    SLOW,
  );
});
