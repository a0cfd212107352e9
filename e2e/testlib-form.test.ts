/**
 * The problem form's testlib checker (decision 080), in Chromium: chosen in
 * the checker list, its files (the source and testlib.h) uploaded with the
 * labelled file control, the percent switch used from the keyboard, no axe
 * (WCAG 2.1 AA) violation in the open dialog, the controls translated (German),
 * and the saved problem judged by the checker's exit codes (1: WA).
 * Port 3338 (boxes 4704–4711).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { createClient } from "@libsql/client";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { HAVE_TESTLIB, SUM_CHECKER, testlibFile } from "../tests/packages/polygon-fixtures.ts";

const PORT = 3338;
const SLOW = 180_000;
const USER = { firstName: "Mike", lastName: "Mirzayanov", email: "polygon@example.com", password: "testlib-0.9.45" };

let server: TestServer;
let browser: Browser;
let main: WatchedPage;
let page: Page;

beforeAll(async () => {
  if (!HAVE_TESTLIB) return;
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  main = await openPage(browser, server.url);
  page = main.page;
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

afterEach(() => {
  if (main) expectCleanPages([main], main);
});

async function openForm(p: Page) {
  await p.goto("/problems");
  await p.getByRole("button", { name: "Create Problem" }).click();
  const dialog = p.getByRole("dialog", { name: "Create New Problem" });
  await dialog.waitFor();
  return dialog;
}

describe.skipIf(!HAVE_TESTLIB)("a testlib checker in the problem form", () => {
  test("chosen, uploaded with testlib.h, accessible, translated, and judging by testlib's exit codes", async () => {
    await page.goto("/signup");
    await page.getByLabel("First Name").fill(USER.firstName);
    await page.getByLabel("Last Name").fill(USER.lastName);
    await page.getByLabel("Email Address").fill(USER.email);
    await page.getByLabel("Password").fill(USER.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("**/problems", { timeout: 15_000 });

    const dialog = await openForm(page);
    for (const [label, value] of [
      ["Problem Title", "Sum by testlib"],
      ["Problem Description", "Add two numbers."],
      ["Input Format", "a b"],
      ["Output Format", "a + b"],
      ["Constraints", "small"],
      ["Sample Input", "1 2\n"],
      ["Sample Output", "3\n"],
    ] as const) {
      await dialog.getByLabel(label).fill(value);
    }
    await dialog.getByLabel("Output Checker").selectOption("testlib");
    await dialog.getByRole("group", { name: "testlib checker" }).waitFor();
    await dialog.getByLabel("testlib checker files").setInputFiles([
      { name: "check.cpp", mimeType: "text/x-c++src", buffer: Buffer.from(SUM_CHECKER) },
      { name: "testlib.h", mimeType: "text/x-chdr", buffer: Buffer.from(testlibFile("testlib.h")) },
    ]);
    await dialog.getByTestId("testlib-files").filter({ hasText: "check.cpp, testlib.h" }).waitFor();
    // The switch by keyboard: focused, Space turns it off.
    const percent = dialog.getByLabel("The checker's points (exit 7) are a percentage of the test's points, not points");
    expect(await percent.isChecked()).toBe(true);
    await percent.focus();
    await page.keyboard.press("Space");
    expect(await percent.isChecked()).toBe(false);
    expect(formatFindings("problem form, testlib checker", await axeViolations(page))).toEqual([]);
    await dialog.getByRole("button", { name: "Create Problem" }).click();
    await page.getByText("Problem saved successfully!").waitFor({ timeout: 30_000 });

    const db = createClient({ url: server.databaseUrl });
    const row = (await db.execute({ sql: "select id, checker, validator from problems where title = ?", args: ["Sum by testlib"] })).rows[0]!;
    db.close();
    expect(row.checker).toBe("testlib");
    expect(JSON.parse(String(row.validator)).testlib).toEqual({ pointsAsPercent: false });
    const token = await page.evaluate(() => localStorage.getItem("token"));
    const judge = async (code: string) => {
      const res = await fetch(`${server.url}/api/submissions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ problemId: String(row.id), language: "py", code }),
      });
      return ((await res.json()) as { verdict: string }).verdict;
    };
    expect(await judge("a, b = map(int, input().split())\nprint(a + b)\n")).toBe("AC");
    expect(await judge("a, b = map(int, input().split())\nprint(a + b + 1)\n")).toBe("WA");

    // German: the legend, the file control and the switch come from the catalogue.
    await page.goto("/problems?lang=de");
    await page.getByRole("button", { name: "Aufgabe erstellen" }).click();
    const de = page.getByRole("dialog");
    await de.waitFor();
    await de.locator("#pf-checker").selectOption("testlib");
    await de.getByRole("group", { name: "testlib-Checker" }).waitFor();
    await de.getByLabel("Dateien des testlib-Checkers").waitFor({ state: "attached" });
    await de.getByLabel("Die Punkte des Checkers (Exit 7) sind ein Prozentsatz der Punkte des Tests, keine Punkte").waitFor();
  }, SLOW);
});
