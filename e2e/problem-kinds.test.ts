/**
 * Interactive and scoring problems in a real browser against the real server
 * and sandbox: the list marks them; on an interactive problem Run plays the
 * sample and shows the interaction, and a submission is judged Accepted; on a
 * scoring problem the subtasks are listed and a partial solution is judged
 * "Wrong Answer, 45/100" with a table of its groups; an author creates a
 * scoring problem with the form's groups editor.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, setEditorCode, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3321;
const SLOW = 120_000;
const AUTHOR = { firstName: "Grace", lastName: "Hopper", email: "grace@uni.example", password: "cobol-compiler" };
const GUESS_PY = readFileSync(join(import.meta.dir, "..", "tests", "judge", "_problems", "validators", "guess.py"), "utf8");
const SEARCH_PY = "lo, hi = 1, 1000\nwhile lo <= hi:\n    mid = (lo + hi) // 2\n    print('?', mid, flush=True)\n    r = input().strip()\n    if r == '=': break\n    if r == '<': hi = mid - 1\n    else: lo = mid + 1\n";
const SMALL_ONLY_PY = "a, b = map(int, input().split())\nprint(a + b if a <= 100 else 0)\n";

let server: TestServer;
let browser: Browser;
let author: WatchedPage;
let token = "";

async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const statement = { description: "See the title.", inputFormat: "See the description.", outputFormat: "See the description.", constraints: "Small.", difficulty: "medium" };
let guessId = "";
let subtasksId = "";

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { ISOLATE_BOX_ID_START: "4200", ISOLATE_BOX_ID_COUNT: "4" });
  browser = await launchBrowser();
  author = await openPage(browser, server.url);
  expect((await api("/api/auth/register", { method: "POST", body: AUTHOR })).status).toBe(200);
  token = (await api("/api/auth/login", { method: "POST", body: { email: AUTHOR.email, password: AUTHOR.password } })).body.token;
  const guess = await api("/api/problems", {
    method: "POST",
    body: {
      ...statement, title: "Guess the Number", sampleInput: "500\n", sampleOutput: "500\n",
      hiddenTestCases: [{ input: "1\n", expectedOutput: "1\n" }, { input: "777\n", expectedOutput: "777\n" }],
      checker: "custom", validator: { files: { "guess.py": GUESS_PY } }, interactive: true, timeLimitMs: 1000,
    },
  });
  expect(guess.status).toBe(201);
  guessId = guess.body._id;
  const subtasks = await api("/api/problems", {
    method: "POST",
    body: {
      ...statement, title: "A Plus B by Subtasks", sampleInput: "1 2\n", sampleOutput: "3\n",
      hiddenTestCases: [
        { input: "3 4\n", expectedOutput: "7\n", group: "small" },
        { input: "1000 2000\n", expectedOutput: "3000\n", group: "medium" },
        { input: "2000000000 2000000000\n", expectedOutput: "4000000000\n", group: "large" },
        { input: "-2000000000 -2000000000\n", expectedOutput: "-4000000000\n", group: "large" },
      ],
      scoring: { groups: [{ name: "small", maxScore: 20 }, { name: "medium", maxScore: 30, requirePass: ["small"] }, { name: "large", maxScore: 50, aggregation: "sum" }] },
    },
  });
  expect(subtasks.status).toBe(201);
  subtasksId = subtasks.body._id;
  const p = author.page;
  await p.goto("/signin");
  await p.getByLabel("Email Address").fill(AUTHOR.email);
  await p.getByLabel("Password").fill(AUTHOR.password);
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL("**/problems");
}, SLOW);

afterEach(() => expectCleanPages([author], author));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const card = (title: string) => author.page.getByTestId("problem-card").filter({ hasText: title });

describe("problem kinds", () => {
  test("the list marks the interactive problem and the scoring one", async () => {
    const p = author.page;
    await p.getByRole("tab", { name: /Medium/i }).click();
    await card("Guess the Number").getByText("INTERACTIVE").waitFor();
    await card("A Plus B by Subtasks").getByText("SUBTASKS", { exact: true }).waitFor();
  }, SLOW);

  test("interactive: Run plays the sample and shows the interaction; Submit is Accepted", async () => {
    const p = author.page;
    await p.goto(`/solve/${guessId}`);
    await p.getByTestId("interactive-note").waitFor();
    await p.getByRole("heading", { name: "Sample: the validator's input" }).waitFor();
    await p.locator(".monaco-editor").waitFor({ timeout: 30_000 });
    await p.getByRole("main").getByLabel("Language").selectOption("py");
    await setEditorCode(p, SEARCH_PY);
    await p.getByRole("button", { name: "Run Code" }).click();
    const output = p.getByRole("region", { name: "Output", exact: true });
    await output.getByText("Sample test passed", { exact: true }).waitFor({ timeout: 60_000 });
    expect((await output.getByTestId("interaction").innerText()).trimEnd()).toBe(">? 500\n<=");
    await p.getByRole("button", { name: "Submit Code" }).click();
    await output.getByText("Submission saved.").waitFor({ timeout: 90_000 });
    expect(await output.getByTestId("final-verdict").innerText()).toContain("Accepted");
  }, SLOW);

  test("scoring: the subtasks are listed; a partial solution is Wrong Answer, 45/100, group by group", async () => {
    const p = author.page;
    await p.goto(`/solve/${subtasksId}`);
    const subtasks = p.getByTestId("subtasks");
    await subtasks.getByText("Subtasks (100 points)").waitFor();
    expect(await subtasks.innerText()).toContain("medium: 30 points, 1 test (all must pass); needs small");
    await p.locator(".monaco-editor").waitFor({ timeout: 30_000 });
    await p.getByRole("main").getByLabel("Language").selectOption("py");
    await setEditorCode(p, SMALL_ONLY_PY);
    await p.getByRole("button", { name: "Submit Code" }).click();
    const output = p.getByRole("region", { name: "Output", exact: true });
    await output.getByText("Submission saved.").waitFor({ timeout: 90_000 });
    expect(await output.getByTestId("final-verdict").innerText()).toContain("Wrong Answer, 45/100");
    const groups = output.getByTestId("group-table");
    // Cells as read (the verdict's icon is an image, no text).
    const rowsRead = (await groups.locator("tbody tr").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
    expect(rowsRead).toEqual(["small Accepted 20/20", "medium Wrong Answer 0/30", "large Wrong Answer 25/50"]);
  }, SLOW);

  test("an author creates a scoring problem with the form's groups editor", async () => {
    const p = author.page;
    await p.goto("/problems");
    await p.getByRole("button", { name: /Create Problem|New Problem|Add Problem/ }).first().click();
    await p.getByLabel("Problem Title").fill("Two Subtasks");
    for (const [label, text] of [["Problem Description", "Echo n."], ["Input Format", "n"], ["Output Format", "n"], ["Constraints", "n <= 10"], ["Sample Input", "1"], ["Sample Output", "1"]] as const) {
      await p.getByLabel(label, { exact: true }).fill(text);
    }
    await p.getByLabel(/Score by test groups/).check();
    await p.getByLabel("Group 1 name").fill("easy");
    await p.getByLabel("Points", { exact: true }).first().fill("40");
    await p.getByRole("button", { name: "+ Add Group" }).click();
    await p.getByLabel("Group 2 name").fill("hard");
    await p.getByLabel("Points", { exact: true }).nth(1).fill("60");
    await p.getByLabel("Input", { exact: true }).first().fill("2");
    await p.getByLabel("Expected Output").first().fill("2");
    await p.getByLabel("Group", { exact: true }).first().selectOption("easy");
    await p.getByRole("button", { name: "+ Add Test Case" }).click();
    await p.getByLabel("Input", { exact: true }).nth(1).fill("9");
    await p.getByLabel("Expected Output").nth(1).fill("9");
    await p.getByLabel("Group", { exact: true }).nth(1).selectOption("hard");
    await p.getByRole("button", { name: "Create Problem" }).last().click();
    await card("Two Subtasks").getByText("SUBTASKS", { exact: true }).waitFor({ timeout: 30_000 });
    const list = await api("/api/problems");
    const created = list.body.find((x: { title: string }) => x.title === "Two Subtasks");
    expect(created.scoring.groups.map((g: { name: string; maxScore: number; testCount: number }) => [g.name, g.maxScore, g.testCount])).toEqual([["easy", 40, 1], ["hard", 60, 1]]);
  }, SLOW);
});
