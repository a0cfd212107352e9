/**
 * verify: every example submission judged with this judge's sandbox and the
 * default validator, verifyproblem-style (src/packages/verify.ts), in C++,
 * Java (a class not called Main) and Python; the time limit derived when the
 * package has none; the CLI's report and exit code.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { sandboxOptions } from "../sandbox.ts";
import { filesFromZip } from "./files.ts";
import { readPackage } from "./format.ts";
import { formatReport, verifyPackage, verifyWallLimitMs } from "./verify.ts";
import { JUDGE_TEST_BOX_ID_START, judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { unmountUnder } from "../../tests/mounts.ts";
import { writeFolder, zipOf, type Files } from "../../tests/packages/fixtures.ts";

setDefaultTimeout(120_000);
const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-pkg-verify-"));
chmodSync(work, 0o755);
let sandbox: SandboxSelection;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 78)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
}, 60_000);
afterAll(async () => {
  await sandbox?.backend?.close();
  unmountUnder(work);
  rmSync(work, { recursive: true, force: true });
});

const CPP_SUM = "#include <bits/stdc++.h>\nint main(){ long long a,b; std::cin>>a>>b; std::cout<<a+b<<\"\\n\"; }\n";
const CPP_ABORT = "#include <cstdlib>\nint main(){ std::abort(); }\n";
const JAVA_SUM = "import java.util.*;\npublic class Adder { public static void main(String[] x) { Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + s.nextLong()); } }\n";
const PY_SUM = "a, b = map(int, input().split())\nprint(a + b)\n";
const PY_OFF = "a, b = map(int, input().split())\nprint(a + b + 1)\n";
/** Busy for `s` seconds of CPU time, then right. */
const pySpin = (s: number) => `import time\nt = time.process_time()\nwhile time.process_time() - t < ${s}: pass\na, b = map(int, input().split())\nprint(a + b)\n`;

function sumPackage(limits: string, submissions: Files): Files {
  return {
    "problem.yaml": `problem_format_version: 2025-09\nname: A Plus B\n${limits}`,
    "statement/problem.en.md": "Add $a$ and $b$.\n\n## Input\n\nTwo integers.\n\n## Output\n\nTheir sum.\n",
    "data/sample/1.in": "1 2\n",
    "data/sample/1.ans": "3\n",
    "data/secret/1.in": "-5 7\n",
    "data/secret/1.ans": "2\n",
    "data/secret/2.in": "1000000000 1000000000\n",
    "data/secret/2.ans": "2000000000\n",
    ...submissions,
  };
}

describe("verify", () => {
  test("each folder's verdict, with times, in C++, Java and Python", async () => {
    const pkg = await readPackage(
      filesFromZip(
        zipOf(
          sumPackage("limits:\n  time_limit: 1\n", {
            "submissions/accepted/sum.cpp": CPP_SUM,
            "submissions/accepted/Adder.java": JAVA_SUM,
            "submissions/accepted/sum.py": PY_SUM,
            "submissions/wrong_answer/off.py": PY_OFF,
            "submissions/time_limit_exceeded/spin.py": pySpin(5),
            "submissions/run_time_error/abort.cpp": CPP_ABORT,
            "submissions/rejected/off-by-one.py": PY_OFF,
          }),
        ),
      ),
    );
    const seen: string[] = [];
    const report = await verifyPackage(sandbox.backend!, pkg, (row) => seen.push(row.path));
    expect(report).toMatchObject({ timeLimitMs: 1000, timeLimitSource: "package", timeLimitHighMs: 1500, ok: true });
    expect(seen).toHaveLength(7);
    expect(report.rows.map((r) => [r.path, r.expected, r.verdict, r.ok])).toEqual([
      ["submissions/accepted/Adder.java", "AC", "AC", true],
      ["submissions/accepted/sum.cpp", "AC", "AC", true],
      ["submissions/accepted/sum.py", "AC", "AC", true],
      ["submissions/rejected/off-by-one.py", "rejected", "WA", true],
      ["submissions/run_time_error/abort.cpp", "RE", "RE", true],
      ["submissions/time_limit_exceeded/spin.py", "TLE", "TLE", true],
      ["submissions/wrong_answer/off.py", "WA", "WA", true],
    ]);
    expect(report.rows.find((r) => r.path.endsWith("spin.py"))!.maxTimeMs).toBeGreaterThan(1500);
    expect(report.slowestAcMs).not.toBeNull();
    const text = formatReport(pkg.name, report).join("\n");
    expect(text).toContain("A Plus B: time limit 1000 ms (package), with safety margin 1500 ms");
    expect(text).toContain("verify: all 7 submissions as expected");
  });

  test("the ICPC set's other languages: C, Rust, Go, JavaScript, and PyPy where submissions.yaml names it", async () => {
    const pkg = await readPackage(
      filesFromZip(
        zipOf(
          sumPackage("limits:\n  time_limit: 2\n", {
            "submissions/accepted/sum.c": '#include <stdio.h>\nint main(void){ long long a,b; scanf("%lld %lld",&a,&b); printf("%lld\\n",a+b); return 0; }\n',
            "submissions/accepted/sum.rs":
              "use std::io::Read;\nfn main(){ let mut s=String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect(); println!(\"{}\", v[0]+v[1]); }\n",
            "submissions/accepted/sum.go": 'package main\nimport "fmt"\nfunc main(){ var a, b int64; fmt.Scan(&a, &b); fmt.Println(a + b) }\n',
            "submissions/accepted/sum.js": 'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(BigInt);\nconsole.log(String(a + b));\n',
            "submissions/accepted/jit.py": PY_SUM,
            "submissions/wrong_answer/off.c": '#include <stdio.h>\nint main(void){ long long a,b; scanf("%lld %lld",&a,&b); printf("%lld\\n",a+b+1); return 0; }\n',
            "submissions/run_time_error/panic.rs": 'fn main(){ panic!("no"); }\n',
            "submissions/submissions.yaml": "accepted/jit.py:\n  language: pypy3\n",
          }),
        ),
      ),
    );
    expect(pkg.submissions.map((s) => s.language)).toEqual(["pypy", "c", "go", "js", "rust", "rust", "c"]);
    const report = await verifyPackage(sandbox.backend!, pkg, () => {});
    expect(report.rows.map((r) => [r.path.split("/").slice(1).join("/"), r.verdict])).toEqual([
      ["accepted/jit.py", "AC"],
      ["accepted/sum.c", "AC"],
      ["accepted/sum.go", "AC"],
      ["accepted/sum.js", "AC"],
      ["accepted/sum.rs", "AC"],
      ["run_time_error/panic.rs", "RE"],
      ["wrong_answer/off.c", "WA"],
    ]);
    expect(report.ok).toBe(true);
  });

  test("a submission in the wrong folder, and a TLE only within the safety margin, fail", async () => {
    const pkg = await readPackage(
      filesFromZip(
        zipOf(
          sumPackage("limits:\n  time_limit: 1\n  time_multipliers:\n    time_limit_to_tle: 3\n", {
            "submissions/accepted/actually-wrong.py": PY_OFF,
            "submissions/time_limit_exceeded/barely.py": pySpin(1.4),
          }),
        ),
      ),
    );
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(report.ok).toBe(false);
    const [wrong, barely] = report.rows;
    expect(wrong).toMatchObject({ verdict: "WA", ok: false, note: expect.stringContaining("expected AC, got WA (data/sample/1: WA)") });
    expect(barely).toMatchObject({ verdict: "TLE", verdictHigh: "AC", ok: false, note: expect.stringContaining("TLE only within the safety margin") });
  });

  test("no time limit in the package: derived from the slowest accepted test (× ac_to_time_limit, whole seconds)", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(sumPackage("", { "submissions/accepted/sum.py": PY_SUM, "submissions/time_limit_exceeded/spin.py": pySpin(4) }))));
    expect(pkg.timeLimitMs).toBeNull();
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(report).toMatchObject({ timeLimitMs: 1000, timeLimitSource: "derived", timeLimitHighMs: 1500, ok: true });
  });

  test("a package's own output validator judges the outputs", async () => {
    const near = "import sys\nans = int(open(sys.argv[2]).read())\nt = int(sys.stdin.read().split()[0])\nsys.exit(42 if abs(t - ans) <= 1 else 43)\n";
    const pkg = await readPackage(
      filesFromZip(
        zipOf(
          sumPackage("limits:\n  time_limit: 1\n", {
            "output_validator/near.py": near,
            "submissions/accepted/plus-one.py": "a, b = map(int, input().split())\nprint(a + b + 1)\n",
            "submissions/wrong_answer/plus-two.py": "a, b = map(int, input().split())\nprint(a + b + 2)\n",
          }),
        ),
      ),
    );
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict, r.ok])).toEqual([
      ["submissions/accepted/plus-one.py", "AC", true],
      ["submissions/wrong_answer/plus-two.py", "WA", true],
    ]);
  });

  test("bun run problem -- verify: the report, exit code 0 when all match and 1 otherwise", async () => {
    const good = writeFolder(join(work, "good"), sumPackage("limits:\n  time_limit: 1\n", { "submissions/accepted/sum.py": PY_SUM, "submissions/wrong_answer/off.py": PY_OFF }));
    const bad = writeFolder(join(work, "bad"), sumPackage("limits:\n  time_limit: 1\n", { "submissions/accepted/off.py": PY_OFF }));
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      NODE_ENV: "test",
      DATABASE_URL: `file:${join(work, "cli.db")}`,
      DATA_DIR: join(work, "data"),
      SANDBOX: "bwrap",
      SANDBOX_ROOT: join(work, "boxes"),
      ISOLATE_BOX_ID_START: String(JUDGE_TEST_BOX_ID_START + 82),
      ISOLATE_BOX_ID_COUNT: "2",
      SANDBOX_POOL_SIZE: "1",
    };
    const run = async (dir: string) => {
      const p = Bun.spawn(["bun", "scripts/problem.ts", "verify", dir], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
      const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
      return { code: await p.exited, out, err };
    };
    const ok = await run(good);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/OK +submissions\/accepted\/sum\.py +expected AC +got AC/);
    expect(ok.out).toContain("verify: all 2 submissions as expected");
    const fail = await run(bad);
    expect(fail.code).toBe(1);
    expect(fail.out).toMatch(/FAIL submissions\/accepted\/off\.py +expected AC +got WA/);
  });
});

describe("verify within the server's ceilings (a scripted sandbox: times as a slow machine would report them)", () => {
  test("a derived limit past 10 s is clamped to it, and no run is given more CPU time than the ceiling, whatever the multipliers", async () => {
    const { FakeBackend } = await import("../../tests/judge/fixtures.ts");
    const backend = new FakeBackend();
    const pkg = await readPackage(
      filesFromZip(
        zipOf(
          sumPackage("limits:\n  time_multipliers:\n    ac_to_time_limit: 10\n    time_limit_to_tle: 10\n", {
            "submissions/accepted/slow.py": PY_SUM,
          }),
        ),
      ),
    );
    expect(pkg.timeLimitMs).toBeNull();
    // Compile, then one run per test, each reporting 3 s of CPU time.
    backend.push({ result: {} }, ...pkg.tests.map((t) => ({ result: { stdout: t.answer, cpuTimeMs: 3000 } })));
    const report = await verifyPackage(backend, pkg);
    expect(report.timeLimitSource).toBe("derived");
    expect(report.timeLimitMs).toBe(10_000);
    expect(report.timeLimitHighMs).toBe(10_000);
    for (const req of backend.requests) expect(req.cpuTimeLimitMs).toBeLessThanOrEqual(10_000);
  });

  test("each run's CPU limit is TL_high and its wall clock 2 × TL_high + 1 s: a busy machine's late CPU does not turn an example TLE by the wall clock", async () => {
    const { FakeBackend } = await import("../../tests/judge/fixtures.ts");
    const backend = new FakeBackend();
    const pkg = await readPackage(filesFromZip(zipOf(sumPackage("limits:\n  time_limit: 1\n", { "submissions/accepted/a.py": PY_SUM }))));
    // Compile, then one run per test, each taking 3 s of wall clock for 0.2 s of CPU (a loaded machine: the old wall clock, 2.5 s, ended it).
    backend.push({ result: {} }, ...pkg.tests.map((t) => ({ result: { stdout: t.answer, cpuTimeMs: 200, wallTimeMs: 3000 } })));
    const report = await verifyPackage(backend, pkg);
    const runs = backend.requests.slice(1);
    expect(runs.map((r) => [r.cpuTimeLimitMs, r.wallTimeLimitMs])).toEqual(pkg.tests.map(() => [1500, verifyWallLimitMs(1500)]));
    expect(verifyWallLimitMs(1500)).toBe(4000);
    expect(report.rows.map((r) => r.verdict)).toEqual(["AC"]);
  });

  test("each example waits for live judging before it takes a box (the server's verify yields while submissions are queued)", async () => {
    const { FakeBackend } = await import("../../tests/judge/fixtures.ts");
    type FakeStep = import("../../tests/judge/fixtures.ts").FakeStep;
    const backend = new FakeBackend();
    const pkg = await readPackage(filesFromZip(zipOf(sumPackage("limits:\n  time_limit: 1\n", { "submissions/accepted/a.py": PY_SUM, "submissions/accepted/b.py": PY_SUM }))));
    const order: string[] = [];
    backend.push(
      ...[0, 1].flatMap((): FakeStep[] => [
        { result: {}, before: (): void => void order.push("compile") },
        ...pkg.tests.map((t): FakeStep => ({ result: { stdout: t.answer }, before: (): void => void order.push("run") })),
      ]),
    );
    await verifyPackage(backend, pkg, undefined, undefined, async () => void order.push("yield"));
    expect(order.filter((o) => o !== "run")).toEqual(["yield", "compile", "yield", "compile"]);
  });
});
