/**
 * A house rule for the tests that drive a browser (docs/decisions/084-no-resolves-beside-playwright.md):
 * they await playwright's promises before `expect`, never `expect(promise).resolves` or `.rejects`.
 *
 * Why: Bun's `.resolves` waits for the promise in a nested turn of the event loop. Called while a
 * batch of `setImmediate` callbacks is running, that nested turn runs callbacks queued later before
 * the rest of the batch (Bun 1.4.5; the repro is in the decision). playwright-core's in-process
 * connection delivers each protocol message in its own `setImmediate`, so a response could arrive
 * before the request it belongs to: "Cannot find parent object request@… to create response@…",
 * and every later step of the file failed with it (CI, stop 47: 14 tests of e2e/journeys.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "node_modules" && name !== "dist" && name !== "fixtures") walk(path, out);
    } else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** Whether a file drives a browser: it imports playwright-core or the e2e harness. */
export const drivesBrowser = (code: string) => /from\s+["'](playwright-core|[./]*\/harness(\.ts)?|\.\/harness(\.ts)?)["']/.test(code);

/** The places `.resolves` or `.rejects` is chained on an expect. */
export const nestedWaits = (code: string) => [...code.matchAll(/\)\s*\.(resolves|rejects)\s*\./g)].map((m) => m[1]!);

describe("tests that drive a browser", () => {
  test("await playwright's promises before expect: no expect(...).resolves or .rejects", () => {
    const files = [...walk(join(ROOT, "e2e")), ...walk(join(ROOT, "tests"))].filter((f) => !f.endsWith("browser-tests.test.ts"));
    const browserFiles = files.filter((f) => drivesBrowser(readFileSync(f, "utf8")));
    expect(browserFiles.length).toBeGreaterThan(20);
    const offenders = browserFiles.flatMap((f) => nestedWaits(readFileSync(f, "utf8")).map((kind) => `${relative(ROOT, f)}: .${kind}`));
    expect(offenders).toEqual([]);
  });

  test("the check sees both forms, and a file that drives a browser", () => {
    expect(nestedWaits('await expect(page.title()).resolves.toBe("x");\nawait expect(p).rejects .toThrow();')).toEqual(["resolves", "rejects"]);
    expect(nestedWaits('expect(await page.title()).toBe("x");')).toEqual([]);
    expect(drivesBrowser('import { chromium } from "playwright-core";')).toBe(true);
    expect(drivesBrowser('import { launchBrowser } from "./harness.ts";')).toBe(true);
    expect(drivesBrowser('import { startServer } from "../tests/server-process.ts";')).toBe(false);
  });
});
