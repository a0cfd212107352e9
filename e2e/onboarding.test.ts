/**
 * Onboarding that keeps where you were going (issue 33 item 2, decision 056), in a real
 * browser against the real server: a guarded deep link opened signed out (an invite, a
 * problem with its query, a course contest) survives sign-in and sign-up; sign-up signs the
 * student in and joins the course without retyping anything; a hostile `next` ends on
 * /problems on this origin; "Get Started" leads a guest to sign-up; the texts name the
 * languages the server offers (this server is started with LANGUAGES=c,go,rust, so a text
 * hard-coding "C++, Java or Python" fails); contest pages say what the visitor can do now.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import type { Browser, Page } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3360;
const SLOW = 120_000;
const TEACHER = { firstName: "Grace", lastName: "Hopper", email: "grace@uni.example", password: "cobol-compiler" };
const RETURNING = { firstName: "Alan", lastName: "Kay", email: "alan@uni.example", password: "smalltalk-80" };
const NEWCOMER = { firstName: "Radia", lastName: "Perlman", email: "radia@uni.example", password: "spanning-tree" };
const REGISTRATION_CODE = "open-sesame-26";

let server: TestServer;
let browser: Browser;
const watched: WatchedPage[] = [];
let inviteCode = "";
let courseId = "";
let problemId = "";

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** A fresh signed-out browser context. */
async function guest(): Promise<Page> {
  const w = await openPage(browser, server.url);
  watched.push(w);
  return w.page;
}

async function fillSignIn(p: Page, u: { email: string; password: string }) {
  await p.getByLabel("Email Address").fill(u.email);
  await p.getByLabel("Password").fill(u.password);
  await p.getByRole("button", { name: "Sign In" }).click();
}

const path = (p: Page) => {
  const u = new URL(p.url());
  return `${u.pathname}${u.search}`;
};

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { JUDGE_IN_PROCESS: "false", LANGUAGES: "c,go,rust" });
  browser = await launchBrowser();

  const teacher = await api("/api/auth/register", { method: "POST", body: TEACHER });
  expect(teacher.status).toBe(200);
  const db = createClient({ url: server.databaseUrl });
  await db.execute({ sql: "UPDATE users SET can_create_courses = 1 WHERE email_normalized = ?", args: [TEACHER.email] });
  db.close();
  // Signed in again so the session reads the new right.
  const token = (await api("/api/auth/login", { method: "POST", body: { email: TEACHER.email, password: TEACHER.password } })).body.token as string;
  expect((await api("/api/auth/register", { method: "POST", body: RETURNING })).status).toBe(200);

  const course = await api("/api/courses", { method: "POST", token, body: { title: "Networks", code: "NET300", term: "Spring 2027" } });
  expect(course.status).toBe(201);
  courseId = course.body.id;
  inviteCode = course.body.inviteCode;
  expect(inviteCode).toBeTruthy();

  const problem = await api("/api/problems", {
    method: "POST",
    token,
    body: {
      title: "Sum of Two Numbers",
      description: "Add two integers.",
      inputFormat: "Two integers a and b.",
      outputFormat: "Their sum.",
      constraints: "|a|, |b| <= 10^9",
      sampleInput: "1 2\n",
      sampleOutput: "3\n",
      difficulty: "easy",
      hiddenTestCases: [{ input: "5 7\n", expectedOutput: "12\n" }],
    },
  });
  expect(problem.status).toBe(201);
  problemId = problem.body._id;

  const contest = (body: Record<string, unknown>) =>
    api("/api/contests", { method: "POST", token, body: { scoring: "icpc", durationMinutes: 120, problems: [{ problemId, label: "A" }], ...body } });
  expect((await contest({ title: "Spring Open", shortName: "spring-open", startsAt: Date.now() - 60_000 })).status).toBe(201);
  expect(
    (await contest({ title: "Invitational", shortName: "invitational", startsAt: Date.now() + 3 * 86_400_000, registration: "code", registrationCode: REGISTRATION_CODE }))
      .status,
  ).toBe(201);
  expect((await contest({ title: "Networks Midterm", shortName: "net-midterm", startsAt: Date.now() - 60_000, courseId })).status).toBe(201);
}, SLOW);

afterEach(() => {
  if (watched.length) expectCleanPages(watched, watched[0]!);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("guests", () => {
  test("Get Started leads to sign-up; the landing page, footer and About name the server's languages", async () => {
    const { languages } = (await api("/api/languages")).body as { languages: { name: string }[] };
    expect(languages.map((l) => l.name)).toEqual(["C", "Go", "Rust"]);
    const p = await guest();
    await p.goto("/");
    await p.getByText("Solve every problem in C, Go or Rust.").waitFor();
    await p.locator("footer").getByText("Practise algorithms in C, Go and Rust,").waitFor();
    const body = await p.locator("body").innerText();
    for (const absent of ["Java", "Python", "C++"]) expect(body).not.toContain(absent);
    await p.getByRole("link", { name: "Get Started" }).click();
    await p.waitForURL((u) => u.pathname === "/signup");
    await p.getByRole("heading", { name: "Join Our Community" }).waitFor();
    await p.goto("/about");
    await p.getByText("Several languages: C, Go and Rust, with a boilerplate to start from.").waitFor();
  }, SLOW);
});

describe("the way back after signing in or up", () => {
  test("an invite link opened signed out: sign-in keeps it and the student joins the course", async () => {
    const p = await guest();
    await p.goto(`/join/${inviteCode}`);
    await p.waitForURL((u) => u.pathname === "/signin" && u.searchParams.get("next") === `/join/${inviteCode}`);
    await fillSignIn(p, RETURNING);
    await p.waitForURL((u) => u.pathname === `/courses/${courseId}`);
    await p.getByRole("heading", { name: "Networks" }).first().waitFor();
  }, SLOW);

  test("sign-up from an invite link signs the newcomer in and joins the course, with nothing typed twice", async () => {
    const p = await guest();
    await p.goto(`/join/${inviteCode}`);
    await p.waitForURL((u) => u.pathname === "/signin");
    await p.getByRole("main").getByRole("link", { name: "Sign up", exact: true }).click();
    await p.waitForURL((u) => u.pathname === "/signup" && u.searchParams.get("next") === `/join/${inviteCode}`);
    await p.getByLabel("First Name").fill(NEWCOMER.firstName);
    await p.getByLabel("Last Name").fill(NEWCOMER.lastName);
    await p.getByLabel("Email Address").fill(NEWCOMER.email);
    await p.getByLabel("Password").fill(NEWCOMER.password);
    const started = Date.now();
    await p.getByRole("button", { name: "Create Account" }).click();
    await p.waitForURL((u) => u.pathname === `/courses/${courseId}`);
    // No 1.5 s pause on the way (the old sign-up waited, then asked to sign in).
    expect(Date.now() - started).toBeLessThan(10_000);
    await p.getByRole("heading", { name: "Networks" }).first().waitFor();
    const token = await p.evaluate(() => localStorage.getItem("token"));
    const courses = await api("/api/courses", { token: token! });
    expect(JSON.stringify(courses.body)).toContain(courseId);
  }, SLOW);

  test("a problem opened signed out comes back after sign-in, with its query", async () => {
    const p = await guest();
    const target = `/solve/${problemId}?from=mail&tab=statement`;
    await p.goto(target);
    await p.waitForURL((u) => u.pathname === "/signin" && u.searchParams.get("next") === target);
    await fillSignIn(p, RETURNING);
    await p.waitForURL((u) => `${u.pathname}${u.search}` === target);
    await p.getByRole("heading", { name: "Sum of Two Numbers" }).first().waitFor();
    expect(path(p)).toBe(target);
  }, SLOW);

  test("a hostile next ends on /problems of this site, from sign-in and from sign-up", async () => {
    const origin = new URL(server.url).origin;
    for (const hostile of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/%2F%2Fevil.example", "/api/auth/logout", "javascript:alert(1)"]) {
      const p = await guest();
      await p.goto(`/signin?next=${encodeURIComponent(hostile)}`);
      // The sign-up link carries no hostile next along.
      expect(await p.getByRole("main").getByRole("link", { name: "Sign up", exact: true }).getAttribute("href")).toBe("/signup");
      await fillSignIn(p, RETURNING);
      await p.waitForURL((u) => u.pathname === "/problems");
      expect(new URL(p.url()).origin).toBe(origin);
      await p.context().close();
      watched.pop();
    }
    const p = await guest();
    await p.goto(`/signup?next=${encodeURIComponent("//evil.example")}`);
    await p.getByLabel("First Name").fill("Evil");
    await p.getByLabel("Last Name").fill("Link");
    await p.getByLabel("Email Address").fill("clicked@uni.example");
    await p.getByLabel("Password").fill("hostile-next-1");
    await p.getByRole("button", { name: "Create Account" }).click();
    await p.waitForURL((u) => u.pathname === "/problems");
    expect(new URL(p.url()).origin).toBe(origin);
  }, SLOW);
});

describe("contest pages say what the visitor can do now", () => {
  test("a running contest: signed out, 'Sign in to register' comes back; signed in, Register; registered, the problems", async () => {
    const p = await guest();
    await p.goto("/contests/spring-open");
    await p.getByText("Sign in and register to see the problems.").waitFor();
    const link = p.getByRole("link", { name: "Sign in to register" });
    expect(await link.getAttribute("href")).toBe(`/signin?next=${encodeURIComponent("/contests/spring-open")}`);
    await link.click();
    await fillSignIn(p, RETURNING);
    await p.waitForURL((u) => u.pathname === "/contests/spring-open");
    await p.getByText("The contest is running: register below to see the problems and submit.").waitFor();
    await p.getByText("Register to see the problems.").waitFor();
    expect(await p.getByLabel("Registration code").count()).toBe(0);
    await p.getByLabel("Team name").fill("Kay's Team");
    await p.getByRole("button", { name: "Register" }).click();
    await p.getByTestId("team").filter({ hasText: "Kay's Team" }).waitFor();
    await p.getByRole("link", { name: "Sum of Two Numbers" }).waitFor();
    expect(await p.getByTestId("next-step").count()).toBe(0);
  }, SLOW);

  test("an upcoming contest with a code: the code field, then when it starts, in the site's date format", async () => {
    const p = await guest();
    await p.goto("/contests/invitational");
    await p.getByText(/^The contest starts /).first().waitFor();
    await p.getByRole("link", { name: "Sign in to register" }).click();
    await fillSignIn(p, RETURNING);
    await p.waitForURL((u) => u.pathname === "/contests/invitational");
    await p.getByText(/^Register below; the contest starts /).waitFor();
    await p.getByLabel("Team name").fill("Kay Invitational");
    await p.getByLabel("Registration code").fill(REGISTRATION_CODE);
    await p.getByRole("button", { name: "Register" }).click();
    const step = p.getByTestId("next-step");
    await step.filter({ hasText: "You are registered." }).waitFor();
    expect(await step.innerText()).toMatch(/^You are registered\. The contest starts \w{3} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M \(GMT[+-]\d{2}:\d{2}\) \(in \d+ days?( \d+ hours?)?\)\.$/);
    await p.getByText("The problems appear when the contest starts.").waitFor();
  }, SLOW);

  test("a course contest hidden from a guest: sign in and come back to it", async () => {
    const p = await guest();
    await p.goto("/contests/net-midterm");
    await p.getByRole("heading", { name: "Sign in to see this contest" }).waitFor();
    const signIn = p.getByTestId("next-step").getByRole("link", { name: "Sign in", exact: true });
    expect(await signIn.getAttribute("href")).toBe(`/signin?next=${encodeURIComponent("/contests/net-midterm")}`);
    await signIn.click();
    await fillSignIn(p, RETURNING); // a student of the course since the invite link above
    await p.waitForURL((u) => u.pathname === "/contests/net-midterm");
    await p.getByRole("heading", { name: "Networks Midterm" }).waitFor();
    await p.getByRole("link", { name: "Sum of Two Numbers" }).waitFor();
  }, SLOW);
});
