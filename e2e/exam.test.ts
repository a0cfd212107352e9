/**
 * Exams in a real browser against the real server (issue 37 §1–2, decision 075): a timed assignment with a
 * proctor's password, an address range (the loopback lab) and lock-down. The student sees the rules, is
 * refused Start with a wrong password (the message names the rule), starts with the right one and sees the
 * clock on the assignment page and on the solving page; a practice problem during the window is refused
 * naming lock-down; the staff's access view lists who started, from which address, and the refusal.
 * Every screen is axe-clean (WCAG 2.1 AA).
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { axeViolations } from "./axe.ts";
import { problemBody } from "../tests/api.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3322;
const SLOW = 120_000;
const TEACHER = { firstName: "Grace", lastName: "Hopper", email: "grace@uni.example", password: "teaching-password" };
const STUDENT = { firstName: "Alan", lastName: "Turing", email: "alan@uni.example", password: "student-password" };

let server: TestServer;
let browser: Browser;
let teacher: WatchedPage;
let student: WatchedPage;
let assignmentId = "";
let problemId = "";
let practiceId = "";

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

function problem(title: string) {
  return problemBody({ title });
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
  const course = await api("/api/courses", { title: "Programming 1", code: "CS101", term: "Fall" }, teacherToken);
  await api("/api/courses/join", { code: course.inviteCode }, studentToken);
  problemId = (await api("/api/problems", { ...problem("Add one"), courseId: course.id }, teacherToken))._id;
  practiceId = (await api("/api/problems", { ...problem("Practice"), courseId: course.id }, teacherToken))._id;
  const now = Date.now();
  const a = await api(
    `/api/courses/${course.id}/assignments`,
    {
      title: "Midterm",
      opensAt: new Date(now - 60_000).toISOString(),
      dueAt: new Date(now + 3 * 3_600_000).toISOString(),
      problems: [{ problemId, points: 100 }],
      timeLimitMinutes: 90,
      proctorPassword: "lab-42",
      // The lab is this machine: the browser reaches the server over loopback.
      accessCidrs: ["127.0.0.0/8", "::1/128"],
      lockDown: true,
    },
    teacherToken,
  );
  assignmentId = a.id;
  browser = await launchBrowser();
  teacher = await openPage(browser, server.url);
  student = await openPage(browser, server.url);
}, SLOW);

afterEach(() => expectCleanPages([teacher, student], teacher));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("the student sees the rules; a wrong proctor's password is refused naming the rule; Start opens the window and the clock runs", async () => {
  const p = student.page;
  await signIn(p, STUDENT);
  await p.goto(`/assignments/${assignmentId}`);
  await p.getByRole("heading", { name: "Exam" }).waitFor();
  await p.getByText("You have 90 minutes from pressing Start.").waitFor();
  await p.getByText("During the exam only its problems are available.").waitFor();
  expect(await axeViolations(p)).toEqual([]);
  await p.getByLabel("Proctor's password").fill("lab-41");
  await p.getByRole("button", { name: "Start" }).click();
  const alert = p.getByTestId("exam-error");
  await alert.waitFor();
  expect(await alert.textContent()).toContain("proctor's password");
  expect(await axeViolations(p)).toEqual([]);
  await p.getByLabel("Proctor's password").fill("lab-42");
  await p.getByRole("button", { name: "Start" }).click();
  const timer = p.getByRole("timer");
  await timer.waitFor();
  const first = await timer.textContent();
  expect(first).toMatch(/^1:(29|30):\d\d$/);
  await p.waitForTimeout(1500);
  expect(await timer.textContent()).not.toBe(first);
  // The problem shows now, and the solving page carries the clock too.
  await p.getByRole("link", { name: "Add one" }).click();
  await p.waitForURL(`**/solve/${problemId}?assignment=${assignmentId}`);
  await p.getByTestId("assignment-banner").getByRole("timer").waitFor();
  expect(await axeViolations(p)).toEqual([]);
}, SLOW);

test("during the window a practice problem is refused, naming lock-down", async () => {
  const p = student.page;
  const answer = await p.evaluate(async (id) => {
    const res = await fetch(`/api/problems/${id}`);
    return { status: res.status, body: (await res.json()) as { code: string; message: string } };
  }, practiceId);
  expect(answer.status).toBe(403);
  expect(answer.body.code).toBe("EXAM_LOCKED_DOWN");
  expect(answer.body.message).toContain("lock-down");
  // In the interface too: the list of one's courses (outside the exam) says which rule refused it.
  await p.goto("/courses");
  await p.getByText('During your exam "Midterm" only its problems are available (lock-down).').waitFor();
  expect(await axeViolations(p)).toEqual([]);
}, SLOW);

test("staff see who started, from which address, and who was refused by which rule", async () => {
  const p = teacher.page;
  await signIn(p, TEACHER);
  await p.goto(`/assignments/${assignmentId}`);
  await p.getByRole("heading", { name: "Exam access" }).waitFor();
  const starts = p.getByTestId("exam-starts");
  await starts.getByRole("cell", { name: "Alan Turing" }).waitFor();
  expect(await starts.textContent()).toMatch(/127\.0\.0\.1|::1/);
  const log = p.getByTestId("exam-log");
  await log.getByRole("cell", { name: "Refused: wrong proctor's password" }).waitFor();
  await log.getByRole("cell", { name: "Refused: outside the exam (lock-down)" }).first().waitFor();
  expect(await axeViolations(p)).toEqual([]);
}, SLOW);
