/**
 * Contest roles in a real browser against the real server and sandbox
 * (decision 053): the contest's creator grants a helper the role `jury` by
 * e-mail address in the contest page's "Contest roles" region; the helper
 * sees every submission and rejudges one; revoked, the helper is the public
 * again. Granted `balloon`, another helper is pointed from the contest page
 * to the balloon list, reads it and marks a balloon delivered.
 * Accounts, the problem, the contest and the team's solve are made through
 * the REST API (not the sign-up page); the people sign in through /signin.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3340;
const SLOW = 120_000;
type Account = { firstName: string; lastName: string; email: string; password: string };
const OWNER: Account = { firstName: "Olga", lastName: "Owner", email: "owner@roles.example", password: "owner-password-1" };
const JUDGE: Account = { firstName: "Hal", lastName: "Helper", email: "helper@roles.example", password: "helper-password-1" };
const RUNNER: Account = { firstName: "Rita", lastName: "Runner", email: "runner@roles.example", password: "runner-password-1" };
const TEAM: Account = { firstName: "Tom", lastName: "Team", email: "team@roles.example", password: "team-password-1" };

let server: TestServer;
let browser: Browser;
let owner: WatchedPage;
let judge: WatchedPage;
let runner: WatchedPage;
const watched: WatchedPage[] = [];
const tokens: Record<string, string> = {};
let contestUrl = "";
let contestId = "";
let teamId = "";

/** One REST call to the server as `token`'s holder. @returns the status and the parsed JSON body. */
async function rest(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Makes an account through the API and signs in through it; returns the bearer token. */
async function account(u: Account): Promise<string> {
  const reg = await rest("POST", "/api/auth/register", undefined, u);
  expect(reg.status).toBe(200);
  const login = await rest("POST", "/api/auth/login", undefined, { email: u.email, password: u.password });
  expect(login.status).toBe(200);
  return login.body.token;
}

/** Signs in through the /signin page and waits until it has moved on. */
async function signIn(p: Page, u: Account) {
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(u.email);
  await p.getByLabel("Password").fill(u.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL((url) => !url.pathname.startsWith("/signin"), { timeout: 15_000 });
}

/** In the owner's "Contest roles" region, grants `role` (the select's option value) to `email`, and waits for it in the list. */
async function grant(p: Page, email: string, role: "jury" | "balloon") {
  const region = p.getByRole("region", { name: "Contest roles" });
  const form = region.getByRole("form", { name: "Grant a contest role" });
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Grant" }).click();
  await region.getByTestId("contest-role").filter({ hasText: email }).waitFor();
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  for (const u of [OWNER, JUDGE, RUNNER, TEAM]) tokens[u.email] = await account(u);
  const allow = Bun.spawnSync(["bun", "scripts/admin.ts", "allow-courses", OWNER.email], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
  });
  expect(allow.exitCode).toBe(0);
  const problem = await rest("POST", "/api/problems", tokens[OWNER.email], {
    title: "Plus One",
    description: "Print n + 1.",
    inputFormat: "An integer n.",
    outputFormat: "n + 1.",
    constraints: "0 <= n <= 1000",
    sampleInput: "1\n",
    sampleOutput: "2\n",
    difficulty: "easy",
    hiddenTestCases: [{ input: "41\n", expectedOutput: "42\n" }],
  });
  expect(problem.status).toBe(201);
  const startsAt = Date.now() + 4_000;
  const contest = await rest("POST", "/api/contests", tokens[OWNER.email], {
    title: "Roles Open",
    shortName: "roles-open",
    startsAt: new Date(startsAt).toISOString(),
    durationMinutes: 60,
    scoring: "icpc",
    registration: "open",
    problems: [{ problemId: problem.body._id, label: "A", color: "#ff8800" }],
  });
  expect(contest.status).toBe(201);
  contestId = contest.body.id;
  contestUrl = "/contests/roles-open";
  const reg = await rest("POST", `/api/contests/${contestId}/register`, tokens[TEAM.email], { teamName: "Team Tom" });
  expect(reg.status).toBe(201);
  teamId = reg.body.team.id;
  await Bun.sleep(Math.max(0, startsAt - Date.now() + 200));
  const solve = await rest("POST", `/api/contests/${contestId}/submissions`, tokens[TEAM.email], { problemId: problem.body._id, language: "py", code: "print(int(input()) + 1)\n" });
  expect([solve.status, solve.body.verdict]).toEqual([201, "AC"]);
  for (const u of [OWNER, JUDGE, RUNNER]) {
    const w = await openPage(browser, server.url);
    watched.push(w);
    await signIn(w.page, u);
  }
  [owner, judge, runner] = watched as [WatchedPage, WatchedPage, WatchedPage];
}, SLOW);

afterEach(() => expectCleanPages(watched, owner));

afterAll(async () => {
  const lines = server?.log().split("\n") ?? [];
  const problems = lines.flatMap((l, i) => (/ (ERROR|WARN) /.test(l) ? lines.slice(i, i + 4) : []));
  if (problems.length) console.warn(`SERVER LOG\n${problems.join("\n")}`);
  await browser?.close();
  await server?.stop();
});

describe("contest roles", () => {
  test("the creator grants jury by email; the helper judges; revoked, they are the public again", async () => {
    // Before: the helper is the public (a registration form, no submissions), and sees no roles region.
    await judge.page.goto(contestUrl);
    await judge.page.getByRole("form", { name: "Register" }).waitFor();
    expect(await judge.page.getByRole("heading", { name: "All submissions" }).count()).toBe(0);

    await owner.page.goto(contestUrl);
    await grant(owner.page, JUDGE.email, "jury");

    await judge.page.reload();
    await judge.page.getByRole("heading", { name: "All submissions" }).waitFor();
    expect(await judge.page.getByRole("region", { name: "Contest roles" }).count()).toBe(0);
    const row = judge.page.getByTestId("contest-submission").filter({ hasText: "Team Tom" });
    await row.getByRole("button", { name: "Rejudge" }).click();
    await row.getByText("Accepted").waitFor({ timeout: 60_000 });
    expect((await rest("GET", `/api/contests/${contestId}/submissions`, tokens[JUDGE.email])).status).toBe(200);

    const region = owner.page.getByRole("region", { name: "Contest roles" });
    await region.getByRole("button", { name: `Revoke jury from ${JUDGE.email}` }).click();
    await region.getByText("No role granted yet.").waitFor();

    await judge.page.reload();
    await judge.page.getByRole("form", { name: "Register" }).waitFor();
    expect(await judge.page.getByRole("heading", { name: "All submissions" }).count()).toBe(0);
    expect((await rest("GET", `/api/contests/${contestId}/submissions`, tokens[JUDGE.email])).status).toBe(403);
  }, SLOW);

  test("granted balloon, the helper is pointed to the balloon list and reads it", async () => {
    await owner.page.goto(contestUrl);
    await grant(owner.page, RUNNER.email, "balloon");

    const p = runner.page;
    await p.goto(contestUrl);
    await p.getByRole("region", { name: "Balloon runner" }).getByRole("link", { name: "Open the balloon list" }).click();
    await p.waitForURL("**/contests/roles-open/balloons");
    const balloon = p.getByTestId("balloon").filter({ hasText: "Team Tom" });
    await balloon.waitFor();
    expect(await balloon.textContent()).toContain("A");
    // The box shows what the server stored: it turns checked once the list is read again after the mark.
    const box = balloon.getByRole("checkbox", { name: "delivered" });
    await box.click();
    const delivered = async () => (await rest("GET", `/api/contests/${contestId}/balloons`, tokens[RUNNER.email])).body[0]?.deliveredAt ?? null;
    for (let i = 0; i < 100 && (await delivered()) === null; i++) await Bun.sleep(100);
    expect(await delivered()).toBeString();
    for (let i = 0; i < 100 && !(await box.isChecked()); i++) await Bun.sleep(100);
    expect(await box.isChecked()).toBe(true);
    expect((await rest("GET", `/api/contests/${contestId}/balloons`, tokens[RUNNER.email])).body.map((b: any) => b.teamId)).toEqual([teamId]);
    // Nothing else of the jury's: no submissions on the contest page, and the server refuses them.
    await p.goto(contestUrl);
    await p.getByRole("region", { name: "Balloon runner" }).waitFor();
    expect(await p.getByRole("heading", { name: "All submissions" }).count()).toBe(0);
    expect((await rest("GET", `/api/contests/${contestId}/submissions`, tokens[RUNNER.email])).status).toBe(403);
  }, SLOW);
});
