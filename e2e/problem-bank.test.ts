/**
 * The problem bank (issue 35) in a real browser against the real server and
 * sandbox, by keyboard only: a bank of a few hundred problems with tags (the
 * bank fixture, tests/fixtures/bank-fixture.ts, written into the server's own
 * database through the store's tables) needs several pages; "Show more" adds
 * the next 50 and moves the focus to the first of them; a word of a statement
 * finds its problem, with the word in <mark>; Back undoes the search; a tag
 * chip filters by its tag; the learner's problem, judged Accepted by the real
 * sandbox, shows "✓ Solved" and the Solved filter finds it; the spoiler-free
 * switch hides tags and the account remembers it; axe finds nothing in the
 * light and dark themes, and the pseudo-locale leaves no English behind.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { openDatabase } from "../db/index.ts";
import { buildBankFixture } from "../tests/fixtures/bank-fixture.ts";
import { api, PY_AC, signUp, type Person } from "./a11y-seed.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";
import { layoutBreaks, untranslatedText } from "./pseudo.ts";

const PORT = 3350;
const SLOW = 240_000;
const TITLE = "Lighthouse Keeper";
const WORD = "zanzibar";

let server: TestServer;
let browser: Browser;
let learner: Person;
let w: WatchedPage;
let problemId = "";
let titles: string[] = [];

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  const { db, client } = await openDatabase(server.databaseUrl);
  try {
    // 300 problems (100 of them in courses the learner is not in), tags on each, 3,000 judged submissions.
    await buildBankFixture(db, { problems: 300, submissions: 3000, users: 60 });
  } finally {
    client.close();
  }
  learner = await signUp(server, { firstName: "Lena", lastName: "Learner", email: "lena@uni.example", password: "lena-password-1" });
  const created = await api(server, "/api/problems", {
    method: "POST",
    token: learner.token,
    expect: 201,
    body: {
      title: TITLE, difficulty: "easy", description: `Keep the ${WORD} light burning: add the two numbers of oil.`,
      inputFormat: "Two integers a and b.", outputFormat: "Their sum.", constraints: "0 <= a, b <= 1000",
      sampleInput: "1 2\n", sampleOutput: "3\n", hiddenTestCases: [{ input: "40 2\n", expectedOutput: "42\n" }],
    },
  });
  problemId = created.body._id;
  // Judged by the real sandbox; the status row and counters follow the verdict (src/problems/bank/status.ts).
  await api(server, "/api/submissions", { method: "POST", token: learner.token, body: { problemId, language: "py", code: PY_AC }, expect: 201 });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const list = await api(server, `/api/submissions/${problemId}`, { token: learner.token, expect: 200 });
    const subs = (Array.isArray(list.body) ? list.body : (list.body.submissions ?? [])) as { status: string; verdict?: string }[];
    if (subs.length && subs.every((s) => s.status === "done")) {
      expect(subs[0]!.verdict).toBe("AC");
      break;
    }
    if (Date.now() > deadline) throw new Error(`not judged in 90 s: ${JSON.stringify(list.body).slice(0, 300)}`);
    await Bun.sleep(500);
  }
  titles = ((await api(server, "/api/problems", { token: learner.token, expect: 200 })).body as { title: string }[]).map((p) => p.title);
  browser = await launchBrowser();
  w = await openPage(browser, server.url, { width: 1280, height: 900 });
  await w.context.addInitScript((t) => localStorage.setItem("token", t), learner.token);
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Presses Tab until the focused element matches `selector` (at most `max` presses): how a keyboard user gets there. */
async function tabTo(page: Page, selector: string, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const cards = (page: Page) => page.getByTestId("problem-card");
const total = (page: Page) => page.locator(".bank-total");

describe("problem bank", () => {
  test("a page of 50; Show more adds the next and focuses its first problem", async () => {
    const { page } = w;
    await page.goto("/problems");
    await cards(page).first().waitFor();
    const count = Number((await total(page).innerText()).replace(/\D/g, ""));
    expect(count).toBeGreaterThan(100);
    expect(await cards(page).count()).toBe(50);
    await tabTo(page, ".bank-more button");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=problem-card]").length === 100);
    const focused = await page.evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe(await cards(page).nth(50).getByRole("heading").innerText());
    expectCleanPages([w], w);
  }, SLOW);

  test("a word of a statement finds its problem, marked; it shows ✓ Solved; Back undoes the search", async () => {
    const { page } = w;
    await page.goto("/problems");
    await cards(page).first().waitFor();
    await tabTo(page, "input[type=search]");
    await page.keyboard.type(WORD);
    await page.waitForURL(`**/problems?q=${WORD}`);
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=problem-card]").length === 1);
    const card = cards(page).first();
    expect(await card.getByRole("heading").innerText()).toBe(TITLE);
    expect(await card.locator("mark").allInnerTexts()).toEqual([WORD]);
    expect((await card.getByTestId("status-solved").textContent())?.replace(/\s+/g, " ").trim()).toBe("✓ Solved");
    expect(await total(page).innerText()).toBe("1 problem");
    await page.goBack();
    await page.waitForURL("**/problems");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=problem-card]").length === 50);
    expect(await page.locator("input[type=search]").inputValue()).toBe("");
    expectCleanPages([w], w);
  }, SLOW);

  test("a tag chip filters by its tag; the Solved filter finds the solved problem", async () => {
    const { page } = w;
    await page.goto("/problems");
    await cards(page).first().waitFor();
    await tabTo(page, ".bank-chip");
    const tagName = await page.evaluate(() => document.activeElement?.textContent ?? "");
    await page.keyboard.press("Enter");
    await page.waitForURL(/tag=[a-z-]+/);
    await page.waitForFunction((n) => {
      const all = [...document.querySelectorAll("[data-testid=problem-card]")];
      return all.length > 0 && all.every((c) => [...c.querySelectorAll(".bank-chip.active")].some((b) => b.textContent === n));
    }, tagName);
    const slug = new URL(page.url()).searchParams.get("tag");
    expect(await page.getByLabel("Tag", { exact: true }).inputValue()).toBe(slug!);
    // Clear filters, then Status: Solved (typing "S" on the focused select picks it, as a keyboard user would).
    await tabTo(page, ".bank-summary button");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/problems");
    // The button went away with the filters: the focus is on the search box; Tab goes on to Tag, then Status.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("bank-search");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest(".kit-field")?.querySelector("label")?.textContent)).toBe("Status");
    await page.keyboard.type("S");
    await page.waitForURL("**/problems?status=solved");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=problem-card]").length === 1);
    expect(await cards(page).first().getByRole("heading").innerText()).toBe(TITLE);
    expectCleanPages([w], w);
  }, SLOW);

  test("spoiler-free: the switch hides every tag and the account remembers it", async () => {
    const { page } = w;
    await page.goto("/problems");
    await page.locator(".bank-chip").first().waitFor();
    await tabTo(page, "input[role=switch]");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelectorAll(".bank-chip").length === 0 && document.querySelector("[data-testid=problem-card]"));
    // Another browser, same account: still hidden.
    const other = await openPage(browser, server.url);
    await other.context.addInitScript((t) => localStorage.setItem("token", t), learner.token);
    await other.page.goto("/problems");
    await cards(other.page).first().waitFor();
    expect(await other.page.getByRole("switch").isChecked()).toBe(true);
    expect(await other.page.locator(".bank-chip").count()).toBe(0);
    await other.context.close();
    await page.keyboard.press("Space");
    await page.locator(".bank-chip").first().waitFor();
    expectCleanPages([w, other], w);
  }, SLOW);

  test("axe: no WCAG 2.1 AA violation, light and dark; en-XA leaves no English and breaks no layout", async () => {
    for (const [dark, pseudo, width] of [[false, false, 1280], [true, false, 1280], [true, true, 390], [false, true, 1280]] as const) {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width, height: 900 }, colorScheme: dark ? "dark" : "light", reducedMotion: "reduce" });
      await context.addInitScript(
        ([t, d, p]) => {
          localStorage.setItem("token", t);
          localStorage.setItem("darkMode", JSON.stringify(d));
          if (p) localStorage.setItem("codearena.locale", "en-XA");
        },
        [learner.token, dark, pseudo] as const,
      );
      const page = await context.newPage();
      // A search, so the marks and a status are on the page too.
      await page.goto(`/problems?q=${WORD}`);
      await cards(page).first().locator("mark").waitFor();
      await page.goto("/problems");
      await cards(page).nth(49).waitFor();
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      const where = `${dark ? "dark" : "light"}${pseudo ? " en-XA" : ""} ${width}px`;
      expect(formatFindings(where, await axeViolations(page))).toEqual([]);
      if (pseudo) {
        // The problems' titles on the page are user content (the fixture's are written straight into the store).
        const shown = await page.locator(".problem-card-title").allTextContents();
        expect(await untranslatedText(page, [...titles, ...shown, "Lena Learner", "Lena", "CodeArena"]), where).toEqual([]);
        expect(await layoutBreaks(page), where).toEqual([]);
      }
      await context.close();
    }
  }, SLOW);
});
