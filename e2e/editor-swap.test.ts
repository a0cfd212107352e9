/**
 * The solving page's editor is usable before Monaco has loaded (client/src/editor/CodeEditor.tsx), in
 * Debian's Chromium against the real server: with Monaco's chunk held back, the plain editor is in
 * the editor's place, named and described as Monaco is, and Tab, Enter, Esc then Tab and Ctrl+M work
 * as in Monaco; when the chunk is let through while someone keeps typing, Monaco takes over with
 * every key typed (before, during and after the swap), the caret where it was and the focus in the
 * editor. When Monaco's chunk cannot load, the plain editor stays, with a note.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { api, signUp, type Person } from "./a11y-seed.ts";
import { ensureClientBuilt, launchBrowser, startServer, type TestServer } from "./harness.ts";

const PORT = 3372;
const SLOW = 120_000;
/** Monaco's lazy chunk (and its stylesheet). */
const MONACO_CHUNK = /\/assets\/MonacoEditor-[^/]+\.(js|css)$/;
const PLAIN = "textarea.plain-code-editor";

let server: TestServer;
let browser: Browser;
let person: Person;
let problemId = "";

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  person = await signUp(server, { firstName: "Swap", lastName: "Typist", email: "swap@uni.example", password: "swap-typist-1" });
  const list = await api(server, "/api/problems", { token: person.token, expect: 200 });
  const problems = (Array.isArray(list.body) ? list.body : list.body.problems) as { _id: string; title: string }[];
  problemId = problems.find((p) => p.title === "Sum of Two Numbers")!._id;
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedInPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  await context.addInitScript((t) => localStorage.setItem("token", t), person.token);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** The code the page stored for the problem (what Run and Submit send). */
const storedCode = (page: Page) =>
  page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith("code:"))?.[1] ?? null);

async function waitForStored(page: Page, expected: string): Promise<void> {
  await page
    .waitForFunction((want) => Object.entries(localStorage).some(([k, v]) => k.startsWith("code:") && v === want), expected, { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`stored code ${JSON.stringify(await storedCode(page))}, expected ${JSON.stringify(expected)}`);
    });
}

describe("the plain editor, then Monaco", () => {
  test("typing before, during and after the swap: nothing lost, the caret and the focus kept", async () => {
    const { context, page, errors } = await signedInPage();
    try {
      const held: Route[] = [];
      let release = false;
      await page.route(MONACO_CHUNK, (route) => (release ? route.continue() : void held.push(route)));
      await page.goto(`/solve/${problemId}`);
      await page.getByRole("heading", { level: 1, name: "Sum of Two Numbers" }).waitFor();

      // The plain editor is there at once, named and described as Monaco is; Monaco is not.
      const plain = page.locator(PLAIN);
      await plain.waitFor();
      expect(await page.getByRole("textbox", { name: "Code editor" }).count()).toBe(1);
      expect(await plain.getAttribute("aria-describedby")).toBe("editor-escape-tip");
      expect(await page.locator(".monaco-editor").count()).toBe(0);

      // Typing: Enter keeps the indentation, Tab indents (spaces to the tab stop) and keeps the focus.
      await plain.click();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("first line");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await page.keyboard.type("second");
      await page.keyboard.press("Enter");
      await page.keyboard.type("third");
      await waitForStored(page, "first line\n    second\n    third");
      expect(await page.evaluate(() => document.activeElement?.matches("textarea.plain-code-editor"))).toBe(true);

      // Esc then Tab leaves for the next control, Shift+Tab comes back; Ctrl+M switches Tab to moving focus, and back.
      await page.keyboard.press("Escape");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("custom-input");
      await page.keyboard.press("Shift+Tab");
      expect(await page.evaluate(() => document.activeElement?.matches("textarea.plain-code-editor"))).toBe(true);
      await page.keyboard.press("Control+M");
      await page.getByRole("status").filter({ hasText: "Tab now moves the focus to the next control." }).waitFor({ state: "attached" });
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("custom-input");
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Control+M");
      await page.getByRole("status").filter({ hasText: "Tab now types a tab." }).waitFor({ state: "attached" });
      await waitForStored(page, "first line\n    second\n    third");

      // The caret goes to the start of "second" (line 2, after its indentation): keys typed from now on go there.
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");

      // Where each key lands: the plain editor or Monaco.
      await page.evaluate(() => {
        const w = window as unknown as { landed: { plain: number; monaco: number } };
        w.landed = { plain: 0, monaco: 0 };
        addEventListener(
          "keydown",
          (e) => {
            const el = e.target as Element;
            if (el.closest(".monaco-editor")) w.landed.monaco++;
            else if (el.matches("textarea.plain-code-editor")) w.landed.plain++;
          },
          true,
        );
      });
      // Monaco is let through (requested in a pause of typing, or at the latest 5 s after the page showed); keys go
      // on being typed while it loads and takes over, and a few after.
      release = true;
      for (const route of held.splice(0)) await route.continue();
      let typed = 0;
      let afterSwap = -1;
      const deadline = Date.now() + 60_000;
      while (afterSwap < 8) {
        if (Date.now() > deadline) throw new Error("Monaco did not take over within 60 s");
        await page.keyboard.press("k");
        typed++;
        if (afterSwap >= 0) afterSwap++;
        else if (await page.locator(".monaco-editor").isVisible()) afterSwap = 0;
      }
      const expected = `first line\n    ${"k".repeat(typed)}second\n    third`;
      await waitForStored(page, expected);

      // Monaco has the focus, the plain editor is gone, and keys landed in both.
      expect(await page.evaluate(() => document.activeElement?.closest(".monaco-editor") !== null)).toBe(true);
      expect(await page.locator(PLAIN).count()).toBe(0);
      const landed = await page.evaluate(() => (window as unknown as { landed: { plain: number; monaco: number } }).landed);
      expect(landed.plain).toBeGreaterThan(0);
      expect(landed.monaco).toBeGreaterThan(0);
      expect(landed.plain + landed.monaco).toBe(typed);
      // Monaco shows the text and is the one editor named "Code editor", described by the escape tip.
      expect(await page.locator(".monaco-editor .view-lines").innerText()).toContain("second");
      expect(await page.getByRole("textbox", { name: "Code editor" }).count()).toBe(1);
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-describedby"))).toBe("editor-escape-tip");
      // Esc then Tab still leaves Monaco for the next control.
      await page.keyboard.press("Escape");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("custom-input");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, SLOW);

  test("when Monaco cannot load, the plain editor stays and says so", async () => {
    const { context, page } = await signedInPage();
    try {
      await page.route(MONACO_CHUNK, (route) => route.abort());
      await page.goto(`/solve/${problemId}`);
      const plain = page.locator(PLAIN);
      await plain.waitFor();
      await page.getByText("The full editor (highlighting, line numbers) could not be loaded.", { exact: false }).waitFor();
      await plain.click();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("still works");
      await waitForStored(page, "still works");
      expect(await page.locator(".monaco-editor").count()).toBe(0);
    } finally {
      await context.close();
    }
  }, SLOW);
});
