/**
 * The keyboard-only journey in Debian's Chromium against the real server and
 * sandbox: sign in, open a problem, type a solution into Monaco, leave the
 * editor (Esc then Tab), run it, submit it and read the verdict, with only
 * Tab, Shift+Tab, Enter, Esc and typed text (no clicks), asserting where focus
 * is at every step: the escape tip is announced before the editor and tied to
 * it (aria-describedby); after Run and after the final verdict focus is on the
 * short status line (a polite live region, "Accepted, 3 of 3 tests"), and the
 * next Tab reaches the details.
 *
 * After each in-app navigation (after sign-in, after opening the problem) focus
 * is on the new page's heading (client/src/components/shell/useFocusOnNavigate.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { api, PY_AC, signUp, type Person } from "./a11y-seed.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3371;
const SLOW = 180_000;
/** Most Tab presses to reach a control; more means the page's order is broken. */
const MAX_TABS = 60;

let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let person: Person;
let problemId = "";

/** What has focus: tag, id, role, accessible-ish name and a few attributes. */
async function focused(p: Page) {
  return p.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: "body", id: "", text: "", href: "", label: "", describedBy: "", role: "", inEditor: false };
    const labelled = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent ?? "" : "";
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      text: (el.innerText ?? "").trim(),
      href: el.getAttribute("href") ?? "",
      label: el.getAttribute("aria-label") ?? labelled,
      describedBy: el.getAttribute("aria-describedby") ?? "",
      role: el.getAttribute("role") ?? "",
      inEditor: Boolean(el.closest(".monaco-editor")),
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until `matches` holds for the focused element.
 * @throws when MAX_TABS presses do not get there (with where focus went).
 */
async function tabTo(p: Page, what: string, matches: (f: Awaited<ReturnType<typeof focused>>) => boolean, key = "Tab") {
  const seen: string[] = [];
  for (let i = 0; i < MAX_TABS; i++) {
    await p.keyboard.press(key);
    const f = await focused(p);
    if (matches(f)) return f;
    seen.push(`${f.tag}#${f.id}${f.label ? `[${f.label}]` : ""}${f.text ? `"${f.text.slice(0, 30)}"` : ""}`);
  }
  throw new Error(`${what} not reached in ${MAX_TABS} ${key} presses; focus went: ${seen.join(" → ")}`);
}

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  person = await signUp(server, { firstName: "Kay", lastName: "Board", email: "kay@uni.example", password: "keyboard-only-1" });
  const made = await api(server, "/api/problems", {
    method: "POST",
    token: person.token,
    expect: 201,
    body: {
      title: "Keyboard Sum",
      description: "Print a + b.",
      inputFormat: "Two integers a and b.",
      outputFormat: "Their sum.",
      constraints: "|a|, |b| <= 1000",
      sampleInput: "1 2\n",
      sampleOutput: "3\n",
      difficulty: "easy",
      hiddenTestCases: [
        { input: "2 3\n", expectedOutput: "5\n" },
        { input: "-4 4\n", expectedOutput: "0\n" },
      ],
    },
  });
  problemId = (made.body._id ?? made.body.id) as string;
  watched = await openPage(browser, server.url);
  page = watched.page;
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits (up to 6 s, past HEADING_WAIT_MS) for focus to land on a heading; the assertion after it says where focus is if it did not. */
async function headingFocused(p: Page): Promise<void> {
  await p.waitForFunction(() => document.activeElement?.tagName === "H1", null, { timeout: 6000 }).catch(() => undefined);
}

describe("keyboard only: sign in, solve, submit, read the verdict", () => {
  test("sign in with Tab, typing and Enter", async () => {
    await page.goto("/signin");
    expect((await tabTo(page, "the email field", (f) => f.id === "signin-email")).tag).toBe("input");
    await page.keyboard.type(person.email);
    expect((await tabTo(page, "the password field", (f) => f.id === "signin-password")).tag).toBe("input");
    await page.keyboard.type(person.password);
    await page.keyboard.press("Enter");
    await page.waitForURL("**/problems");
  }, SLOW);

  // After an in-app navigation focus is on the new page's heading (client/src/components/shell/useFocusOnNavigate.ts).
  test("after sign-in, focus is on the problems page's heading", async () => {
    await headingFocused(page);
    expect((await focused(page)).tag).toBe("h1");
  });

  test("open the problem with Tab and Enter", async () => {
    await page.getByRole("heading", { name: "Keyboard Sum" }).waitFor();
    const link = await tabTo(page, "the problem's Solve link", (f) => f.tag === "a" && f.href === `/solve/${problemId}`);
    expect(link.text).toBe("Solve");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/solve/${problemId}`);
    await page.getByRole("heading", { level: 1, name: "Keyboard Sum" }).waitFor();
    await page.locator(".monaco-editor").waitFor({ timeout: 30_000 });
  }, SLOW);

  test("after opening the problem, focus is on its heading", async () => {
    await headingFocused(page);
    expect((await focused(page)).text).toBe("Keyboard Sum");
  });

  test("the escape tip comes before the editor and describes it; typing a solution", async () => {
    // The tip is in the reading order before the editor.
    const order = await page.evaluate(() => {
      const tip = document.getElementById("editor-escape-tip");
      const editor = document.querySelector(".monaco-editor");
      return tip && editor ? tip.compareDocumentPosition(editor) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order).toBeTruthy();
    expect(await page.locator("#editor-escape-tip").innerText()).toContain("Esc then Tab");
    // Python 3, chosen in the language list with the arrow keys.
    await tabTo(page, "the language list", (f) => f.id === "language");
    for (let i = 0; i < 12 && (await page.locator("#language").inputValue()) !== "py"; i++) await page.keyboard.press("ArrowDown");
    expect(await page.locator("#language").inputValue()).toBe("py");
    const editor = await tabTo(page, "the code editor", (f) => f.inEditor);
    expect(editor.describedBy).toBe("editor-escape-tip");
    // Replace the boilerplate: select all, then enter line by line (Enter; Shift+Home, Delete to undo any auto-indent).
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    const lines = PY_AC.trimEnd().split("\n");
    for (const [i, line] of lines.entries()) {
      if (i > 0) {
        await page.keyboard.press("Enter");
        await page.keyboard.press("Shift+Home");
        await page.keyboard.press("Delete");
      }
      // Each line's text as one text input (as an input method sends it): typed key by key, Monaco's
      // auto-closing brackets and suggestions would change it; Enter, Home and Delete are real keys.
      await page.keyboard.insertText(line);
    }
    await page
      .waitForFunction(
        (expected) => Object.keys(localStorage).some((k) => k.startsWith("code:") && localStorage.getItem(k)?.trimEnd() === expected),
        PY_AC.trimEnd(),
        { timeout: 10_000 },
      )
      .catch(async (err) => {
        const stored = await page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith("code:")));
        throw new Error(`the typed code was not stored: ${JSON.stringify(stored)} (${err})`);
      });
    // Tab inside the editor types (focus stays); Esc then Tab leaves it for the next control.
    expect((await focused(page)).inEditor).toBe(true);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    const after = await focused(page);
    expect(after.inEditor).toBe(false);
    expect(after.id).toBe("custom-input");
    // The code was not changed by leaving.
    expect(await page.evaluate(() => Object.values(localStorage).some((v) => v.trimEnd() === "a, b = map(int, input().split())\nprint(a + b)"))).toBe(true);
  }, SLOW);

  test("Run: focus moves to the short status, announced politely; the details follow", async () => {
    const run = await tabTo(page, "Run Code", (f) => f.tag === "button" && f.text === "Run Code");
    expect(run.text).toBe("Run Code");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id === "run-status", undefined, { timeout: 60_000 });
    const status = await focused(page);
    expect(status.text).toBe("Sample test passed");
    expect(status.role).toBe("status");
    expect(await page.locator("#run-status").getAttribute("aria-live")).toBe("polite");
    // The output panel itself is not a live region (it would re-read everything).
    expect(await page.getByRole("region", { name: "Output", exact: true }).getAttribute("aria-live")).toBeNull();
    await page.keyboard.press("Tab");
    const details = await focused(page);
    expect(details.label).toBe("Output");
  }, SLOW);

  test("Submit: focus moves to the verdict's status; Tab reads the details", async () => {
    await tabTo(page, "Submit Code", (f) => f.tag === "button" && f.text === "Submit Code", "Shift+Tab");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id === "run-status" && /tests?$/.test(document.activeElement.textContent ?? ""), undefined, { timeout: 60_000 });
    const status = await focused(page);
    expect(status.text).toBe("Accepted, 3 of 3 tests");
    await page.keyboard.press("Tab");
    expect((await focused(page)).label).toBe("Output");
    const verdict = page.getByTestId("final-verdict");
    expect(await verdict.innerText()).toContain("Accepted");
    // The verdict's icon is an SVG, not an emoji.
    expect(await verdict.locator("svg.verdict-icon").count()).toBe(1);
    expect(await verdict.innerText()).not.toMatch(/\p{Extended_Pictographic}/u);
    expectCleanPages([watched], watched);
  }, SLOW);
});
