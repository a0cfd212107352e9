/**
 * The compile cache's key spaces (review N10, 2026-11-26): a user's code may
 * be any text, NUL included, so a Run whose code spells a validator's key
 * text must not land on the validator's cache entry. Through the real app
 * and sandbox: the attacker Runs first, the victim's problem is judged after.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request, signUp } from "../../tests/api.ts";
import { startJudgeApp, type JudgeApp } from "../../tests/judge/app.ts";
import { CompileCache } from "./compile-cache.ts";

setDefaultTimeout(90_000);
let ja: JudgeApp;

beforeAll(async () => {
  ja = await startJudgeApp(560);
}, 60_000);
afterAll(async () => {
  await ja?.close();
});

/** Accepts exactly the answer file's integer. */
const VALIDATOR = "import sys\nans = int(open(sys.argv[2]).read())\ntry:\n    t = int(sys.stdin.read().split()[0])\nexcept Exception:\n    sys.exit(43)\nsys.exit(42 if t == ans else 43)\n";

describe("compile cache key spaces", () => {
  test("the same text as a submission and as a validator has two keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oj-cache-keys-"));
    try {
      const cache = await CompileCache.open(dir, 1 << 20);
      const text = `validator\0validate.py\0${VALIDATOR}`;
      const asCode = cache.key("py", [], text);
      expect(cache.key("py", [], text, "submission")).toBe(asCode);
      expect(cache.key("py", [], text, "validator")).not.toBe(asCode);
      expect(cache.key("py", [], text, "validator-build")).not.toBe(cache.key("py", [], text, "validator"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a Run whose code is a validator's key text does not poison that validator (IE for everyone before)", async () => {
    const attacker = await signUp(ja.app);
    // The key text prepareValidator hashes for a one-file Python validator: kind, then each file by name.
    const poison = await request(ja.app, "POST", "/api/compiler", {
      token: attacker.token,
      body: { language: "py", code: `validator\0validate.py\0${VALIDATOR}`, input: "" },
    });
    expect(poison.status).toBeLessThan(500);
    expect(JSON.stringify(poison.body)).not.toContain('"AC"');

    const victim = await signUp(ja.app);
    const created = await request(ja.app, "POST", "/api/problems", {
      token: victim.token,
      body: {
        title: `Double ${crypto.randomUUID().slice(0, 6)}`,
        description: "Print 2n.",
        inputFormat: "n",
        outputFormat: "2n",
        constraints: "small",
        sampleInput: "5\n",
        sampleOutput: "10\n",
        difficulty: "easy",
        hiddenTestCases: [{ input: "7\n", expectedOutput: "14\n" }],
        checker: "custom",
        validator: { files: { "validate.py": VALIDATOR } },
      },
    });
    expect(created.status).toBe(201);
    const judged = await request(ja.app, "POST", "/api/submissions", {
      token: victim.token,
      body: { problemId: created.body._id, code: "print(2 * int(input()))\n", language: "py" },
    });
    expect(judged.body.verdict).toBe("AC");
  });
});
