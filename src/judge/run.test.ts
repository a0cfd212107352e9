// Run (compileAndRun) through the real sandbox: a fresh Python Run is one
// sandbox start when the run itself proves the code compiles, and CE vs RE
// stays exactly what the syntax check says; the program's run is the same
// command with the same semantics (argv, __file__, tracebacks) whether the
// code was cached or not. C++ keeps compile + run.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSource, runProgram } from "../../isolate/exec.ts";
import { createSandbox } from "../../isolate/index.ts";
import type { Box, SandboxBackend } from "../../isolate/types.ts";
import { CompileCache } from "./compile-cache.ts";
import { runOptions } from "./compile.ts";
import { compileAndRun, type CompileAndRunStep } from "./run.ts";
import { captureLog, judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { sandboxOptions } from "../sandbox.ts";

setDefaultTimeout(60_000);

let backend: SandboxBackend;
let cacheDir: string;
let cache: CompileCache;
const log = captureLog();

beforeAll(async () => {
  await preparePch();
  const sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", { ISOLATE_BOX_ID_COUNT: "8" }, 10)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  backend = sandbox.backend;
  cacheDir = mkdtempSync(join(tmpdir(), "oj-run-once-cache-"));
  cache = await CompileCache.open(cacheDir, 64 << 20);
});

afterAll(async () => {
  await backend?.close();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

const LIMITS = { timeLimitMs: 1000, memoryLimitKib: 256 * 1024 };

/** compileAndRun in a fresh box (as Run does: acquire, compile-and-run, release). */
async function run(language: "py" | "cpp", code: string, stdin = "", limits = LIMITS): Promise<CompileAndRunStep> {
  const box = await backend.acquire();
  try {
    return await compileAndRun(cache, box, language, code, { stdin, ...limits }, log);
  } finally {
    await backend.release(box);
  }
}

/** A unique comment, so each test's code is a cache miss. */
const fresh = (code: string) => `${code}\n# ${crypto.randomUUID()}\n`;

function ran(step: CompileAndRunStep) {
  if (step.kind !== "ran") throw new Error(`expected a run, got ${JSON.stringify(step)}`);
  return step;
}

describe("a fresh Python Run", () => {
  test("that succeeds is one sandbox start; the same code again comes from the cache", async () => {
    const code = fresh("a, b = map(int, input().split())\nprint(a + b)");
    const first = ran(await run("py", code, "40 2\n"));
    expect(first.sandboxStarts).toBe(1);
    expect(first.cached).toBe(false);
    expect(first.result.status).toBe("OK");
    expect(first.result.stdout).toBe("42\n");
    const again = ran(await run("py", code, "1 2\n"));
    expect(again.cached).toBe(true);
    expect(again.sandboxStarts).toBe(1);
    expect(again.result.stdout).toBe("3\n");
  });

  test("a syntax error is CE with Python's diagnostics (run, then the check), and cached as CE", async () => {
    const code = fresh("print('before')\ndef f(:\n    pass");
    const step = await run("py", code);
    expect(step.kind).toBe("ce");
    if (step.kind !== "ce") return;
    expect(step.diagnostics).toContain("SyntaxError");
    expect(step.diagnostics).not.toContain("before");
    expect(step.sandboxStarts).toBe(2);
    const again = await run("py", code);
    expect(again).toMatchObject({ kind: "ce", cached: true, sandboxStarts: 0 });
  });

  test("SyntaxError raised at run time, or forged on stderr, is RE, never CE", async () => {
    const programs = [
      "raise SyntaxError('invalid syntax')",
      "import sys\nsys.stderr.write('  File \"main.py\", line 1\\n    def f(:\\n          ^\\nSyntaxError: invalid syntax\\n')\nsys.exit(1)",
      "compile('def f(:', 'main.py', 'exec')",
      "exec('x = = 1')",
    ];
    for (const program of programs) {
      const step = ran(await run("py", fresh(program)));
      expect(`${step.result.status} ${step.result.exitCode}`).toBe("RE 1");
      expect(step.result.stderr).toContain("SyntaxError");
      // Empty stdout and a failure: the syntax check ran too, and passed.
      expect(step.sandboxStarts).toBe(2);
    }
  });

  test("a program that printed before failing needs no check: one start, RE", async () => {
    const step = ran(await run("py", fresh("print('partial')\nraise ValueError('boom')")));
    expect(step.result.status).toBe("RE");
    expect(step.result.stdout).toBe("partial\n");
    expect(step.sandboxStarts).toBe(1);
  });

  test("a limit hit with empty stdout is checked, and the run's verdict stands", async () => {
    const code = fresh("while True:\n    pass");
    const short = { ...LIMITS, timeLimitMs: 200 };
    const step = ran(await run("py", code, "", short));
    expect(step.result.status).toBe("TLE");
    expect(step.sandboxStarts).toBe(2);
    const again = ran(await run("py", code, "", short));
    expect(again.cached).toBe(true);
    expect(again.result.status).toBe("TLE");
  });

  test("argv, __file__, __name__, sys.path and tracebacks are exactly those of the separate check + run", async () => {
    const program = [
      "import sys, os",
      "print(sys.argv, __file__, __name__, sys.flags.isolated, sys.dont_write_bytecode)",
      "print(sys.path[0] == os.getcwd() or sys.path[0])",
      "def f():",
      "    return 1 / 0",
      "f()",
    ].join("\n");
    const code = fresh(program);
    const step = ran(await run("py", code));
    expect(step.sandboxStarts).toBe(1);
    // The old way, by hand: the syntax check, then the run, in one box.
    const box: Box = await backend.acquire();
    try {
      const c = await compileSource(box, "py", code);
      expect(c.ok).toBe(true);
      const r = await runProgram(box, "py", { entry: c.entry, stdin: "", ...runOptions("py", LIMITS.timeLimitMs, LIMITS.memoryLimitKib) });
      expect(step.result.stdout).toBe(r.stdout);
      expect(step.result.stderr).toBe(r.stderr);
      expect(step.result.exitCode).toBe(r.exitCode);
    } finally {
      await backend.release(box);
    }
    expect(step.result.stdout.split("\n")[0]).toBe("['main.py'] /box/main.py __main__ 1 True");
    expect(step.result.stderr).toContain('File "/box/main.py", line 5, in f');
    expect(step.result.stderr).toContain("ZeroDivisionError");
  });
});

describe("C++ Run", () => {
  test("compiles, then runs: two starts fresh, one from the cache", async () => {
    const code = `#include <cstdio>\nint main() { int a, b; std::scanf("%d %d", &a, &b); std::printf("%d\\n", a * b); }\n// ${crypto.randomUUID()}\n`;
    const first = ran(await run("cpp", code, "6 7\n"));
    expect(first.sandboxStarts).toBe(2);
    expect(first.result.stdout).toBe("42\n");
    const again = ran(await run("cpp", code, "2 3\n"));
    expect(again).toMatchObject({ cached: true, sandboxStarts: 1 });
    expect(again.result.stdout).toBe("6\n");
  });
});

test("nothing was logged as a sandbox failure", () => {
  expect(log.lines.filter((l) => l.level === "warn" || l.level === "error")).toEqual([]);
});
