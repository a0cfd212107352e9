/**
 * A contest in a real browser against the real server and sandbox, on the
 * wall clock: a jury (allowed to create with `bun run admin`) creates a
 * two-minute ICPC contest with a one-minute freeze through the form; three
 * users register on the contest page and solve from the solving page (which
 * shows the contest clock and submits into the contest); the scoreboard
 * follows without a reload; a clarification is asked and answered; during
 * the freeze a submission's result reaches its team and the jury but neither
 * another participant's screen nor their network traffic; the balloon list;
 * after the end the jury steps through the reveal and unfreezes. The board
 * fits a 360 px phone (the table scrolls inside) and the projector view.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import dayjs from "dayjs";
import type { Page } from "playwright-core";
import type { Browser } from "playwright-core";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, setEditorCode, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3319;
const SLOW = 240_000;
const JURY = { firstName: "Jane", lastName: "Jury", email: "jury@icpc.example", password: "judge-them-all" };
const USERS = [
  { firstName: "Ada", lastName: "One", email: "ada@icpc.example", password: "first-team-pw", team: "Team Ada" },
  { firstName: "Bob", lastName: "Two", email: "bob@icpc.example", password: "second-team-pw", team: "Team Bob" },
  { firstName: "Cy", lastName: "Three", email: "cy@icpc.example", password: "third-team-pw", team: "Team Cy" },
];
const PY_AC = "print(int(input()) + 1)\n";
const PY_WA = "print(int(input()))\n";

let server: TestServer;
let browser: Browser;
let jury: WatchedPage;
const teams: WatchedPage[] = [];
const watched: WatchedPage[] = [];
let startsAt = 0;
let contestUrl = "";

async function signUpAndIn(p: Page, u: { firstName: string; lastName: string; email: string; password: string }) {
  await p.goto("/signup");
  await p.getByLabel("First Name").fill(u.firstName);
  await p.getByLabel("Last Name").fill(u.lastName);
  await p.getByLabel("Email Address").fill(u.email);
  await p.getByLabel("Password").fill(u.password);
  await p.getByRole("button", { name: "Create Account" }).click();
  // Sign-up signs in and goes on to /problems (decision 056).
  await p.waitForURL("**/problems", { timeout: 10_000 });
}

/** Opens problem A from the contest page, pastes `code`, submits, and waits for `verdict`. */
async function solve(p: Page, code: string, verdict: string) {
  await p.goto(contestUrl);
  await p.getByRole("link", { name: "Plus One" }).click();
  await p.getByTestId("contest-banner").waitFor();
  expect(await p.getByTestId("contest-banner").textContent()).toContain("problem A");
  await p.getByRole("main").getByLabel("Language").selectOption("py");
  await setEditorCode(p, code);
  await p.getByRole("button", { name: "Submit Code" }).click();
  await p.getByTestId("final-verdict").filter({ hasText: verdict }).waitFor({ timeout: 30_000 });
}

const untilMs = async (at: number) => {
  const wait = at - Date.now();
  if (wait > 0) await Bun.sleep(wait);
};

beforeAll(async () => {
  ensureClientBuilt();
  // scripts/test.sh runs this file beside the rest of the suite: its own box ids, apart from
  // every other server's (the sandbox lock refuses a second server on the same ids).
  server = await startServer(PORT, { ISOLATE_BOX_ID_START: "4100", ISOLATE_BOX_ID_COUNT: "8" });
  browser = await launchBrowser();
  jury = await openPage(browser, server.url);
  watched.push(jury);
  for (let i = 0; i < USERS.length; i++) {
    const w = await openPage(browser, server.url);
    teams.push(w);
    watched.push(w);
  }
}, SLOW);

afterEach(() => expectCleanPages(watched, jury));

afterAll(async () => {
  // A failure's server-side cause, when there was one.
  const lines = server?.log().split("\n") ?? [];
  const problems = lines.flatMap((l, i) => (/ (ERROR|WARN) |trpc/.test(l) ? lines.slice(i, i + 4) : []));
  if (problems.length) console.warn(`SERVER LOG\n${problems.join("\n")}`);
  await browser?.close();
  await server?.stop();
});

describe("an ICPC contest from creation to the reveal", () => {
  test("the jury creates the contest through the form", async () => {
    await signUpAndIn(jury.page, JURY);
    const admin = Bun.spawnSync(["bun", "scripts/admin.ts", "allow-courses", JURY.email], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
    });
    expect(admin.exitCode).toBe(0);
    const p = jury.page;
    const made = await p.evaluate(async () => {
      const res = await fetch("/api/problems", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("token")}` },
        body: JSON.stringify({
          title: "Plus One",
          description: "Print n + 1.",
          inputFormat: "An integer n.",
          outputFormat: "n + 1.",
          constraints: "0 <= n <= 1000",
          sampleInput: "1\n",
          sampleOutput: "2\n",
          difficulty: "easy",
          hiddenTestCases: [{ input: "41\n", expectedOutput: "42\n" }],
        }),
      });
      return res.status;
    });
    expect(made).toBe(201);
    await p.goto("/contests");
    await p.getByRole("link", { name: "New contest" }).click();
    await p.getByLabel("Title").fill("Campus Qualifier");
    await p.getByLabel("Short name").fill("campus26");
    // Signing up three teams takes about 40 seconds: the contest starts after that.
    startsAt = Math.ceil((Date.now() + 45_000) / 1000) * 1000;
    await p.getByLabel("Starts at").fill(dayjs(startsAt).format("YYYY-MM-DDTHH:mm:ss"));
    await p.getByLabel("Length", { exact: true }).fill("2");
    await p.getByLabel("Scoreboard freeze").fill("1");
    // The picker lists every problem it may offer, a few rows at a time: search, then choose.
    await p.getByLabel("Search problems").fill("Plus One");
    await p.getByRole("option", { name: /^Plus One/ }).click();
    await p.getByRole("button", { name: "Create contest" }).click();
    await p.waitForURL("**/contests/campus26");
    contestUrl = "/contests/campus26";
    await p.getByText("Starts in").waitFor();
    await p.getByRole("heading", { name: "Jury" }).waitFor();
  }, SLOW);

  test("three users register on the contest page; problems appear at the start", async () => {
    for (const [i, u] of USERS.entries()) {
      const p = teams[i]!.page;
      await signUpAndIn(p, u);
      await p.goto(contestUrl);
      await p.getByLabel("Team name").fill(u.team);
      await p.getByLabel("Organization").fill("Campus University");
      await p.getByRole("button", { name: "Register" }).click();
      await p.getByTestId("team").filter({ hasText: u.team }).waitFor();
      await p.getByText("The problems appear when the contest starts.").waitFor();
    }
    expect(Date.now()).toBeLessThan(startsAt);
    await untilMs(startsAt + 500);
  }, SLOW);

  test("they solve from the solving page; the public scoreboard follows live", async () => {
    const board = await openPage(browser, server.url, { width: 360, height: 740 });
    watched.push(board);
    await board.page.goto(`${contestUrl}/scoreboard`);
    await board.page.getByRole("row", { name: /Team Ada/ }).waitFor();
    await solve(teams[0]!.page, PY_WA, "Wrong Answer");
    await solve(teams[0]!.page, PY_AC, "Accepted");
    await solve(teams[1]!.page, PY_AC, "Accepted");
    // No reload: the phone's board shows Ada's two tries and the first solve.
    const ada = board.page.getByRole("row", { name: /Team Ada/ });
    await ada.locator(".sb-solved, .sb-first").waitFor({ timeout: 15_000 });
    expect(await ada.locator(".sb-tries").textContent()).toBe("2");
    // A 360 px phone: the page does not scroll sideways (the table scrolls inside its box).
    const wide = await board.page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 361 && !e.closest(".table-scroll"))
        .map((e) => `${e.tagName}.${e.className}`)
        .slice(0, 5),
    );
    expect(wide).toEqual([]);
    await board.context.close();
    watched.pop();
  }, SLOW);

  test("a clarification is asked, answered, and shows a badge", async () => {
    const cy = teams[2]!.page;
    await cy.goto(contestUrl);
    await cy.getByLabel("Question").fill("May n be negative?");
    await cy.getByRole("button", { name: "Ask the jury" }).click();
    await cy.getByText("Sent to the jury.").waitFor();
    const j = jury.page;
    await j.goto(contestUrl);
    await j.getByTestId("clarification-badge").waitFor({ timeout: 15_000 });
    await j.getByRole("textbox", { name: "Answer" }).fill("No, 0 <= n.");
    await j.getByRole("button", { name: "Answer the team" }).click();
    await cy.getByTestId("clarification-badge").waitFor({ timeout: 15_000 });
    await cy.getByText("No, 0 <= n.").waitFor();
  }, SLOW);

  test("during the freeze: Cy's result reaches Cy and the jury, not Bob's screen or network traffic", async () => {
    await untilMs(startsAt + 61_000);
    const bob = teams[1]!.page;
    const seen: string[] = [];
    bob.on("response", async (res) => {
      if (!res.url().includes("contests.")) return;
      if (res.headers()["content-type"]?.includes("text/event-stream")) return;
      seen.push(await res.text().catch(() => ""));
    });
    await bob.goto(`${contestUrl}/scoreboard`);
    await bob.getByTestId("frozen-badge").waitFor();
    await solve(teams[2]!.page, PY_AC, "Accepted");
    const cyRow = () => bob.getByRole("row", { name: /Team Cy/ });
    await cyRow().locator(".sb-pending").waitFor({ timeout: 15_000 });
    await bob.reload();
    await cyRow().locator(".sb-pending").waitFor();
    expect(await cyRow().locator(".sb-solved, .sb-first").count()).toBe(0);
    // Nothing Bob's browser received says Cy solved: Cy's cell has no solve time anywhere.
    const cyCells = seen.flatMap((body) => [...body.matchAll(/"solvedAtMs":(\d+)/g)].map((m) => Number(m[1])));
    expect(cyCells.every((ms) => ms < 60_000)).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    // The jury's board is live.
    const j = jury.page;
    await j.goto(`${contestUrl}/scoreboard`);
    await j.getByRole("row", { name: /Team Cy/ }).locator(".sb-solved, .sb-first").waitFor({ timeout: 15_000 });
    await j.goto(`${contestUrl}/balloons`);
    await j.getByTestId("balloon").nth(2).waitFor();
    expect(await j.getByTestId("balloon").count()).toBe(3);
    // The mark is the server's: the box shows it once stored.
    await j.getByTestId("balloon").first().getByRole("checkbox").click();
    await j.getByTestId("balloon").first().getByRole("checkbox", { checked: true }).waitFor();
  }, SLOW);

  test("after the end the jury steps through the reveal, then unfreezes", async () => {
    await untilMs(startsAt + 121_000);
    const j = jury.page;
    await j.goto(`${contestUrl}/reveal`);
    await j.getByTestId("reveal-progress").filter({ hasText: "Step 0 of 1" }).waitFor({ timeout: 10_000 }).catch(async (err) => {
      throw new Error(`${err}\n${await j.locator("body").innerText()}`);
    });
    expect(await j.getByRole("row", { name: /Team Cy/ }).locator(".sb-pending").count()).toBe(1);
    await j.getByRole("button", { name: "Next" }).click();
    await j.getByTestId("reveal-progress").filter({ hasText: "Step 1 of 1" }).waitFor();
    await j.getByRole("row", { name: /Team Cy/ }).locator(".sb-solved, .sb-first").waitFor();
    await j.goto(contestUrl);
    await j.getByRole("button", { name: "Unfreeze" }).click();
    await j.getByText("The scoreboard is unfrozen.", { exact: true }).waitFor();
    const bob = teams[1]!.page;
    await bob.goto(`${contestUrl}/scoreboard?projector`);
    await bob.getByRole("row", { name: /Team Cy/ }).locator(".sb-solved, .sb-first").waitFor({ timeout: 15_000 });
    expect(await bob.getByTestId("frozen-badge").count()).toBe(0);
  }, SLOW);
});
