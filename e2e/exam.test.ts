/**
 * Exams in a real browser against the real server (issue 37 §1–2, decision 075): a timed assignment with a
 * proctor's password, an address range (the loopback lab) and lock-down. The student sees the rules, is
 * refused Start with a wrong password (the message names the rule), starts with the right one and sees the
 * clock on the assignment page and on the solving page; a practice problem during the window is refused
 * naming lock-down; the staff's access view lists who started, from which address, and the refusal; a sign-in
 * from a second browser is refused naming one session until staff press Release.
 * A contest with a proctor's password, one session and lock-down (decision 081): a participant sees the rules,
 * is refused entry with a wrong password, enters with the right one and then sees the problems; the jury's
 * access view lists the entry and the refusal; the contest editor offers the rules without a time limit.
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
const STUDENT2 = { firstName: "Ada", lastName: "Lovelace", email: "ada@uni.example", password: "student-password" };

let server: TestServer;
let browser: Browser;
let teacher: WatchedPage;
let student: WatchedPage;
let assignmentId = "";
let problemId = "";
let practiceId = "";
let contestName = "";
let participant: WatchedPage;

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
  for (const u of [TEACHER, STUDENT, STUDENT2]) await api("/api/auth/register", u);
  const admin = Bun.spawnSync(["bun", "scripts/admin.ts", "allow-courses", TEACHER.email], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
  });
  expect(admin.exitCode).toBe(0);
  const teacherToken = (await api("/api/auth/login", { email: TEACHER.email, password: TEACHER.password })).token;
  const studentToken = (await api("/api/auth/login", { email: STUDENT.email, password: STUDENT.password })).token;
  const course = await api("/api/courses", { title: "Programming 1", code: "CS101", term: "Fall" }, teacherToken);
  await api("/api/courses/join", { code: course.inviteCode }, studentToken);
  await api("/api/courses/join", { code: course.inviteCode }, (await api("/api/auth/login", { email: STUDENT2.email, password: STUDENT2.password })).token);
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
      oneSession: true,
      lockDown: true,
    },
    teacherToken,
  );
  assignmentId = a.id;
  const contest = await api(
    "/api/contests",
    {
      title: "Hall contest",
      shortName: "hall",
      startsAt: new Date(now - 60_000).toISOString(),
      durationMinutes: 120,
      scoring: "icpc",
      courseId: course.id,
      problems: [{ problemId: practiceId, label: "A" }],
      proctorPassword: "hall-7",
      oneSession: true,
      lockDown: true,
    },
    teacherToken,
  );
  contestName = contest.shortName;
  browser = await launchBrowser();
  teacher = await openPage(browser, server.url);
  student = await openPage(browser, server.url);
  participant = await openPage(browser, server.url);
}, SLOW);

afterEach(() => expectCleanPages([teacher, student, participant], teacher));

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
  await p.getByText("Exam rule (lock-down): during your exam only its problems are available").waitFor();
  expect(await axeViolations(p)).toEqual([]);
}, SLOW);

test("staff see who started, from which address, and who was refused by which rule", async () => {
  const p = teacher.page;
  await signIn(p, TEACHER);
  await p.goto(`/assignments/${assignmentId}`);
  await p.getByRole("heading", { name: "Exam access" }).waitFor();
  const starts = p.getByTestId("exam-starts");
  await starts.getByRole("cell", { name: "Alan Turing", exact: true }).waitFor();
  expect(await starts.textContent()).toMatch(/127\.0\.0\.1|::1/);
  const log = p.getByTestId("exam-log");
  await log.getByRole("cell", { name: "Refused: wrong proctor's password" }).waitFor();
  await log.getByRole("cell", { name: "Refused: outside the exam (lock-down)" }).first().waitFor();
  expect(await axeViolations(p)).toEqual([]);
}, SLOW);

test("one session: a sign-in from a second browser is refused naming the rule until staff release the student", async () => {
  const second = await openPage(browser, server.url);
  try {
    const p = second.page;
    await p.goto("/signin");
    await p.getByLabel("Email Address").fill(STUDENT.email);
    await p.getByLabel("Password").fill(STUDENT.password);
    await p.getByRole("button", { name: "Sign In" }).click();
    await p.getByText("Exam rule (one session)").waitFor();
    expect(await axeViolations(p)).toEqual([]);
    const t = teacher.page;
    await t.goto(`/assignments/${assignmentId}`);
    await t.getByRole("button", { name: "Release Alan Turing's session" }).click();
    await t.getByTestId("exam-starts").getByRole("cell", { name: "Released", exact: true }).waitFor();
    await p.getByRole("button", { name: "Sign In" }).click();
    await p.waitForURL((url) => !url.pathname.startsWith("/signin"));
    // The second browser now holds the window: its exam page answers.
    await p.goto(`/assignments/${assignmentId}`);
    await p.getByRole("timer").waitFor();
    expect(second.errors).toEqual([]);
  } finally {
    await second.context.close();
  }
}, SLOW);

test("a contest participant sees the rules, is refused entry with a wrong password, enters with the right one and sees the problems", async () => {
  const p = participant.page;
  await signIn(p, STUDENT2);
  await p.goto(`/contests/${contestName}`);
  await p.getByRole("heading", { name: "Entering the contest" }).waitFor();
  await p.getByText("The proctor gives you a password to enter the contest.").waitFor();
  await p.getByText("From your entry to the end, only the contest's problems are available.").waitFor();
  await p.getByText("The problems appear once you enter the contest (above).").waitFor();
  expect(await p.getByRole("link", { name: "Practice" }).count()).toBe(0);
  expect(await axeViolations(p)).toEqual([]);
  await p.getByLabel("Proctor's password").fill("hall-8");
  await p.getByRole("button", { name: "Enter the contest" }).click();
  const alert = p.getByTestId("exam-error");
  await alert.waitFor();
  expect(await alert.textContent()).toContain("proctor's password");
  await p.getByLabel("Proctor's password").fill("hall-7");
  await p.getByRole("button", { name: "Enter the contest" }).click();
  await p.getByTestId("contest-entered").waitFor();
  await p.getByRole("link", { name: "Practice" }).waitFor();
  expect(await axeViolations(p)).toEqual([]);
  // Locked down now: the contest's solving page still has everything it asks for (statement, languages, history).
  await p.getByRole("link", { name: "Practice" }).click();
  await p.waitForURL(`**/solve/${practiceId}?contest=${contestName}`);
  await p.getByRole("heading", { name: "Practice" }).first().waitFor();
  await p.getByRole("button", { name: "Submit" }).waitFor();
  expect(await p.getByText("Exam rule").count()).toBe(0);
  expect(await axeViolations(p)).toEqual([]);
  // Outside the contest, the same browser is refused naming lock-down.
  await p.goto("/courses");
  await p.getByText("Exam rule (lock-down): during your exam only its problems are available").waitFor();
}, SLOW);

test("the jury sees who entered and who was refused; the contest editor offers the rules without a time limit", async () => {
  const p = teacher.page;
  await p.goto(`/contests/${contestName}`);
  await p.getByRole("heading", { name: "Exam access" }).waitFor();
  const entries = p.getByTestId("exam-starts");
  await entries.getByRole("cell", { name: "Ada Lovelace", exact: true }).waitFor();
  await entries.getByRole("button", { name: "Release Ada Lovelace's session" }).waitFor();
  await p.getByRole("heading", { name: "Who entered" }).waitFor();
  const log = p.getByTestId("exam-log");
  await log.getByRole("cell", { name: "Refused: wrong proctor's password" }).waitFor();
  await log.getByRole("cell", { name: "Entered", exact: true }).waitFor();
  expect(await axeViolations(p)).toEqual([]);
  await p.goto("/contests/new");
  await p.getByLabel("Proctor's password").waitFor();
  await p.getByLabel("Lock-down: from entry to the end, only this contest's problems").waitFor();
  expect(await p.getByLabel("Time limit").count()).toBe(0);
  expect(await axeViolations(p)).toEqual([]);
}, SLOW);
