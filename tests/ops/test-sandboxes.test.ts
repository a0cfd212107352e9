/**
 * The test suite runs beside a running product: a server started with the
 * default settings (`bun run start`: ISOLATE_BOX_ID_START=0, SANDBOX_ROOT=/tmp/oj-boxes)
 * holds box ids 0-99 and that root, and a test server asking for them is
 * refused its sandbox (src/sandbox.ts lockSandbox). So every test server and
 * sandbox takes box ids from 1000 up and a root of its own: the e2e harness
 * gives each port its own range and refuses a default one; judgeConfig and
 * createTestServices never default to it; and every file that starts
 * `src/server.ts`, `src/worker.ts` or `scripts/start.ts` itself names its own
 * ISOLATE_BOX_ID_START (checked here over the sources, so a new test file
 * that forgets cannot slip in).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { assertTestSandbox, e2eBoxIdStart, startServer, TEST_BOX_ID_MIN } from "../../e2e/harness.ts";
import { judgeConfig } from "../judge/fixtures.ts";
import { createTestServices } from "../services.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** Every .ts file under `dir` (relative to the repository), node_modules and build output left out. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Test code: the tests/ and e2e/ folders, and the *.test.ts files beside the sources. */
const testFiles = [...sources("tests"), ...sources("e2e"), ...sources("src").filter((f) => f.endsWith(".test.ts")), ...sources("isolate").filter((f) => f.endsWith(".test.ts"))];

describe("test servers never take a default server's sandbox", () => {
  test("the e2e harness gives each port its own range from 1000 up, and refuses a default range or root naming the setting", async () => {
    for (const port of [3310, 3318, 3321, 3399]) {
      expect(e2eBoxIdStart(port)).toBeGreaterThanOrEqual(TEST_BOX_ID_MIN);
      expect(() => assertTestSandbox({ ISOLATE_BOX_ID_START: String(e2eBoxIdStart(port)), ISOLATE_BOX_ID_COUNT: "8", SANDBOX_ROOT: "/tmp/oj-e2e-x/boxes" })).not.toThrow();
    }
    expect(new Set([3310, 3311, 3312, 3314, 3315, 3316, 3318, 3320].map(e2eBoxIdStart)).size).toBe(8);
    expect(() => assertTestSandbox({ ISOLATE_BOX_ID_START: "60", ISOLATE_BOX_ID_COUNT: "8", SANDBOX_ROOT: "/tmp/oj-e2e-x/boxes" })).toThrow("ISOLATE_BOX_ID_START=60");
    expect(() => assertTestSandbox({ ISOLATE_BOX_ID_START: "4400", ISOLATE_BOX_ID_COUNT: "8", SANDBOX_ROOT: "/tmp/oj-boxes" })).toThrow("SANDBOX_ROOT=/tmp/oj-boxes");
    // 60000 + box id must stay below the overflow uid for bwrap as root.
    expect(() => assertTestSandbox({ ISOLATE_BOX_ID_START: "6600", ISOLATE_BOX_ID_COUNT: "8", SANDBOX_ROOT: "/tmp/oj-e2e-x/boxes" })).toThrow("ISOLATE_BOX_ID_START=6600");
    // Refused before any process starts.
    await expect(startServer(3399, { ISOLATE_BOX_ID_START: "0" })).rejects.toThrow("never the default range 0-99");
  });

  test("judgeConfig and createTestServices default to a range from 1000 up and a root of their own", async () => {
    const judge = judgeConfig("file::memory:");
    expect(judge.ISOLATE_BOX_ID_START).toBeGreaterThanOrEqual(TEST_BOX_ID_MIN);
    expect(judge.SANDBOX_ROOT).not.toBe("/tmp/oj-boxes");
    expect(() => judgeConfig("file::memory:", { ISOLATE_BOX_ID_START: "0" })).toThrow("ISOLATE_BOX_ID_START=0");
    const t = await createTestServices();
    try {
      expect(t.config.ISOLATE_BOX_ID_START).toBeGreaterThanOrEqual(TEST_BOX_ID_MIN);
      expect(t.config.SANDBOX_ROOT).not.toBe("/tmp/oj-boxes");
    } finally {
      t.cleanup();
    }
  });

  test("every test file that starts a server or worker process names its own ISOLATE_BOX_ID_START, and no literal one is below 1000", () => {
    const spawns = /["'`](src\/server\.ts|src\/worker\.ts|scripts\/start\.ts)["'`]/;
    const offenders: string[] = [];
    const low: string[] = [];
    for (const file of testFiles) {
      const text = readFileSync(join(ROOT, file), "utf8");
      const rel = relative(ROOT, join(ROOT, file));
      // The harness gives its servers their own range (tested above); this file only names the entry points.
      if (rel === "e2e/harness.ts" || rel === "tests/ops/test-sandboxes.test.ts") continue;
      if (spawns.test(text) && !text.includes("ISOLATE_BOX_ID_START")) offenders.push(rel);
      for (const m of text.matchAll(/ISOLATE_BOX_ID_START["']?\s*[:=]\s*["'`]?(\d+)/g)) {
        if (Number(m[1]) < TEST_BOX_ID_MIN) low.push(`${rel}: ISOLATE_BOX_ID_START ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
    expect(low).toEqual([]);
  });
});
