// Pipeline logic with a fake backend of queued results (verdict order, first-failure
// stop, lease loss, IE handling and its bounded retries, compile cache use, Run's
// compile-and-run order). Real programs: tests/judge/*.test.ts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { submissions, submissionTests } from "../../db/schema.ts";
import { createTestDb } from "../../tests/db.ts";
import { captureLog, FakeBackend, insertProblem, insertUser, silentLog, type ProblemSpec } from "../../tests/judge/fixtures.ts";
import { CompileCache } from "./compile-cache.ts";
import { JudgeEvents } from "./events.ts";
import { getLanguage } from "../../isolate/languages/index.ts";
import { SANDBOX_RETRIES } from "./compile.ts";
import { judgeSubmission, type PipelineDeps } from "./judge-submission.ts";
import { compileAndRun, RUN_PROVES_COMPILE } from "./run.ts";
import type { JobPort } from "./job-port.ts";
import type { SubmissionRow } from "../submissions/row.ts";
import { JudgeQueue } from "../submissions/queue.ts";
import { decideVerdict } from "./verdict.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
let cacheDir: string;
let userId: string;
let backend: FakeBackend;
let deps: PipelineDeps;
let changes: string[];

beforeEach(async () => {
  t = await createTestDb();
  cacheDir = mkdtempSync(join(tmpdir(), "oj-pipe-cache-"));
  userId = await insertUser(t.db);
  backend = new FakeBackend();
  const events = new JudgeEvents();
  changes = [];
  const queue = new JudgeQueue(t.db, { owner: "test-worker", leaseMs: 60_000 });
  deps = { db: t.db, backend, cache: await CompileCache.open(cacheDir, 1 << 24), queue, events, log: silentLog };
  const origChanged = events.changed.bind(events);
  events.changed = (id: string) => {
    changes.push(id);
    origChanged(id);
  };
});
afterEach(() => {
  t.cleanup();
  rmSync(cacheDir, { recursive: true, force: true });
});

const compiled = { result: { status: "OK" as const }, creates: ["prog"] };
const out = (stdout: string, over: object = {}) => ({ result: { stdout, ...over } });

async function judge(spec: ProblemSpec, code = "int main(){}", language: "cpp" | "py" = "cpp") {
  const problemId = await insertProblem(t.db, userId, spec);
  await t.db.insert(submissions).values({ userId, problemId, language, code });
  const claimed = await deps.queue.claim();
  const verdict = await judgeSubmission(deps, claimed!, new AbortController().signal);
  const row = (await t.db.query.submissions.findFirst({ where: eq(submissions.id, claimed!.id) }))!;
  const tests = await t.db
    .select()
    .from(submissionTests)
    .where(eq(submissionTests.submissionId, claimed!.id))
    .orderBy(asc(submissionTests.index));
  return { verdict, row, tests };
}

const threeTests = {
  sampleInput: "1 2\n",
  sampleOutput: "3\n",
  tests: [
    { input: "2 2", output: "4" },
    { input: "5 5", output: "10" },
    { input: "7 7", output: "14" },
  ],
};

describe("judgeSubmission", () => {
  test("judges through any JobPort: an in-memory port gets the tests and the verdict, the database is not touched", async () => {
    backend.push(compiled, out("3\n"), out("4\n"), out("11\n"));
    const writes: string[] = [];
    const row = { id: "job-1", claimToken: "t", problemId: "p", userId, language: "cpp", code: "int main(){}", assignmentId: null, runAllTests: false } as unknown as SubmissionRow;
    const port: JobPort = {
      load: async () => ({
        problem: { id: "p", sampleInput: "1 2\n", sampleOutput: "3\n", timeLimitMs: 1000, memoryLimitKib: 65536, timeScaledByLanguage: true, checker: "lines", checkerFlags: "", validator: null, interactive: false, validationPasses: 1, scoring: null, pythonImplementation: "cpython" },
        hidden: [
          { input: "2 2", expectedOutput: "4" },
          { input: "5 5", expectedOutput: "10" },
        ],
      }),
      clear: async () => void writes.push("clear"),
      update: async (v) => (writes.push(`update ${Object.keys(v).sort().join(",")}`), true),
      addTest: async (x) => (writes.push(`test ${x.index} ${x.verdict}`), true),
      finish: async (v) => (writes.push(`finish ${v.verdict}`), true),
      keepFailure: async () => void writes.push("keepFailure"),
      afterJudged: async () => void writes.push("afterJudged"),
    };
    expect(await judgeSubmission(deps, row, new AbortController().signal, port)).toBe("WA");
    expect(writes.filter((w) => !w.startsWith("update"))).toEqual(["clear", "test 0 AC", "test 1 AC", "test 2 WA", "finish WA", "afterJudged"]);
    expect(await t.db.select().from(submissions)).toEqual([]);
  });

  test("all tests pass: AC, sample output stored, totals and per-test rows", async () => {
    backend.push(compiled, out("3\n", { cpuTimeMs: 7, memoryKib: 900 }), out("4\n", { cpuTimeMs: 30 }), out("10\n"), out("14\n", { memoryKib: 5000 }));
    const { verdict, row, tests } = await judge(threeTests);
    expect(verdict).toBe("AC");
    expect(row.status).toBe("done");
    expect(row.verdict).toBe("AC");
    expect(row.isPassed).toBe(true);
    expect(row.output).toBe("3\n");
    expect(row.expectedOutput).toBe("3\n");
    expect(row.testsPassed).toBe(4);
    expect(row.testsTotal).toBe(4);
    expect(row.timeMs).toBe(30);
    expect(row.memoryKib).toBe(5000);
    expect(row.leaseOwner).toBeNull();
    expect(row.judgedAt).not.toBeNull();
    expect(tests.map((x) => [x.index, x.isSample, x.verdict])).toEqual([
      [0, true, "AC"],
      [1, false, "AC"],
      [2, false, "AC"],
      [3, false, "AC"],
    ]);
    expect(backend.released).toBe(backend.acquired);
    expect(changes.length).toBeGreaterThan(5);
  });

  test("stops at the first failing test; later tests never run", async () => {
    backend.push(compiled, out("3\n"), out("4\n"), out("11\n"), out("14\n"));
    const { verdict, row, tests } = await judge(threeTests);
    expect(verdict).toBe("WA");
    expect(row.isPassed).toBe(false);
    expect(row.testsPassed).toBe(2);
    expect(tests.map((x) => x.verdict)).toEqual(["AC", "AC", "WA"]);
    expect(backend.steps.length).toBe(1);
  });

  test("a failing sample stops judging before the hidden tests", async () => {
    backend.push(compiled, { result: { status: "TLE", tleKind: "cpu", cpuTimeMs: 2010, wallTimeMs: 2100, stdout: "" } }, out("4\n"));
    const { row, tests } = await judge(threeTests);
    expect(row.verdict).toBe("TLE");
    expect(tests.map((x) => [x.index, x.verdict, x.timeMs])).toEqual([[0, "TLE", 2010]]);
  });

  test("a wall-clock TLE reports the wall time", async () => {
    backend.push(compiled, { result: { status: "TLE", tleKind: "wall", cpuTimeMs: 3, wallTimeMs: 5000 } });
    const { tests } = await judge(threeTests);
    expect(tests[0]!.timeMs).toBe(5000);
  });

  test("hidden tests' output and stderr are never stored", async () => {
    backend.push(compiled, out("3\n"), out("4\n"), { result: { stdout: "SECRET-OUTPUT", stderr: "SECRET-STDERR" } });
    const { row } = await judge(threeTests);
    expect(row.verdict).toBe("WA");
    expect(JSON.stringify(row)).not.toContain("SECRET");
    expect(row.output).toBe("3\n");
  });

  test("the sample is test 0; without a sample output the hidden tests are 1..n", async () => {
    backend.push(compiled, out("4\n"), out("10\n"), out("14\n"));
    const { row, tests } = await judge({ ...threeTests, sampleOutput: "  \n" });
    expect(row.verdict).toBe("AC");
    expect(row.testsTotal).toBe(3);
    expect(tests.map((x) => [x.index, x.isSample])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(row.output).toBe("");
  });

  test("a sample without hidden tests is judged alone", async () => {
    backend.push(compiled, out("3\n"));
    const { row } = await judge({ sampleInput: "1 2", sampleOutput: "3" });
    expect(row.verdict).toBe("AC");
    expect(row.testsTotal).toBe(1);
  });

  test("a problem with no tests at all is IE (the setter's fault), without running anything", async () => {
    const { row } = await judge({ sampleOutput: "" });
    expect(row.verdict).toBe("IE");
    expect(row.errorDetail).toContain("no tests");
    expect(backend.requests.length).toBe(0);
  });

  test("a compile error is CE with the diagnostics; nothing runs", async () => {
    backend.push({ result: { status: "RE", exitCode: 1, stderr: "main.cpp:1:1: error: expected ';'" } });
    const { row, tests } = await judge(threeTests);
    expect(row.verdict).toBe("CE");
    expect(row.compileOutput).toContain("expected ';'");
    expect(row.isPassed).toBe(false);
    expect(tests).toEqual([]);
    expect(backend.requests.length).toBe(1);
  });

  test("a sandbox failure (XX) while running is IE, never a user verdict", async () => {
    const xx = { result: { status: "XX" as const, message: "cgroup vanished", stdout: "4\n" } };
    backend.push(compiled, out("3\n"), xx, xx, xx);
    const { row, tests } = await judge(threeTests);
    expect(row.verdict).toBe("IE");
    expect(row.errorDetail).toContain("cgroup vanished");
    expect(tests.map((x) => x.verdict)).toEqual(["AC", "IE"]);
  });

  test("a sandbox failure while compiling is IE and is not cached", async () => {
    const xx = { result: { status: "XX" as const, message: "bwrap died" } };
    backend.push(xx, xx, xx);
    const first = await judge(threeTests, "same code");
    expect(first.row.verdict).toBe("IE");
    expect(first.row.compileOutput).toBeNull();
    backend.push(compiled, out("3\n"), out("4\n"), out("10\n"), out("14\n"));
    const second = await judge(threeTests, "same code");
    expect(second.row.verdict).toBe("AC");
    expect(backend.requests.filter((r) => r.argv[0]!.includes("g++")).length).toBe(4);
  });

  test("a compiler out of CPU time is CE with a note; starved of wall time (load) it is IE; neither is cached", async () => {
    backend.push({ result: { status: "TLE", tleKind: "cpu", cpuTimeMs: 10_010, wallTimeMs: 10_500, exitCode: null, signal: 9 } });
    const cpu = await judge(threeTests, "template <int N> struct F;");
    expect(cpu.row.verdict).toBe("CE");
    expect(cpu.row.compileOutput).toContain("CPU time limit");
    const log = captureLog();
    deps.log = log;
    backend.push({ result: { status: "TLE", tleKind: "wall", cpuTimeMs: 2_500, wallTimeMs: 20_010, exitCode: null, signal: 9 } });
    const wall = await judge(threeTests, "int main(){}");
    expect(wall.row.verdict).toBe("IE");
    expect(wall.row.compileOutput).toBeNull();
    expect(wall.row.errorDetail).toContain("starved");
    expect(log.lines.some((l) => l.message === "judge: compile hit its wall-time limit under load")).toBe(true);
    // Neither was cached: the same codes compile again.
    backend.push(compiled, out("3\n"), out("4\n"), out("10\n"), out("14\n"));
    expect((await judge(threeTests, "int main(){}")).row.verdict).toBe("AC");
    backend.push({ result: { status: "RE", exitCode: 1, stderr: "error: incomplete type" } });
    expect((await judge(threeTests, "template <int N> struct F;")).row.verdict).toBe("CE");
    expect(backend.steps.length).toBe(0);
  });

  test("a transient sandbox failure is retried and the program's own verdict stands", async () => {
    backend.push(
      { result: { status: "XX", message: "EAGAIN" } },
      compiled,
      out("3\n"),
      { result: { status: "XX", message: "EAGAIN" } },
      { result: { status: "RE", exitCode: 1 } },
    );
    const { row, tests } = await judge(threeTests);
    expect(row.verdict).toBe("RE");
    expect(tests.map((x) => x.verdict)).toEqual(["AC", "RE"]);
    expect(backend.steps.length).toBe(0);
  });

  test("a thrown sandbox error is IE and the box is released", async () => {
    backend.push(compiled, out("3\n"));
    const { row } = await judge(threeTests);
    expect(row.verdict).toBe("IE");
    expect(row.errorDetail).toContain("no scripted result");
    expect(backend.released).toBe(backend.acquired);
  });

  test("identical code compiles once across submissions (compile cache)", async () => {
    backend.push(compiled, out("3\n"), out("4\n"), out("10\n"), out("14\n"));
    await judge(threeTests, "int main(){return 0;}");
    backend.push(out("3\n"), out("4\n"), out("10\n"), out("14\n"));
    const second = await judge(threeTests, "int main(){return 0;}");
    expect(second.row.verdict).toBe("AC");
    expect(backend.requests.filter((r) => r.argv[0]!.includes("g++")).length).toBe(1);
    // the cached artifact was put into the new box and run
    expect(backend.requests.at(-1)!.argv).toEqual(["./prog"]);
  });

  test("the problem's limits reach the sandbox, with the language's multiplier", async () => {
    backend.push({ result: { status: "OK" } }, out("3\n"));
    await judge({ sampleInput: "1 2", sampleOutput: "3", timeLimitMs: 1500, memoryLimitKib: 65536 }, "print(3)", "py");
    const run = backend.requests[1]!;
    expect(run.cpuTimeLimitMs).toBe(4500);
    expect(run.memoryLimitKib).toBe(65536);
  });

  test("the problem's checker decides", async () => {
    backend.push(compiled, out("0.3333334\n"));
    const { row } = await judge({ sampleInput: "", sampleOutput: "0.333333333", checker: "float" });
    expect(row.verdict).toBe("AC");
  });

  test("a lost lease mid-judging stops without writing a verdict", async () => {
    backend.push(compiled, out("3\n"), {
      result: { stdout: "4\n" },
      before: async () => {
        await t.db.update(submissions).set({ leaseOwner: "thief" });
      },
    });
    const { verdict, row } = await judge(threeTests);
    expect(verdict).toBeNull();
    expect(row.status).not.toBe("done");
    expect(row.verdict).toBeNull();
    expect(row.leaseOwner).toBe("thief");
    expect(backend.released).toBe(backend.acquired);
  });

  test("an aborted job stops between tests without a verdict", async () => {
    const ctl = new AbortController();
    backend.push(compiled, { result: { stdout: "3\n" }, before: () => ctl.abort() }, out("4\n"));
    const problemId = await insertProblem(t.db, userId, threeTests);
    await t.db.insert(submissions).values({ userId, problemId, language: "cpp", code: "x" });
    const claimed = await deps.queue.claim();
    expect(await judgeSubmission(deps, claimed!, ctl.signal)).toBeNull();
    const row = (await t.db.query.submissions.findFirst({ where: eq(submissions.id, claimed!.id) }))!;
    expect(row.verdict).toBeNull();
    expect(backend.steps.length).toBe(1);
  });
});

describe("sandbox failures: bounded, logged retries; never a user verdict", () => {
  test("a run failing in the sandbox every time is tried 1 + SANDBOX_RETRIES times, each retry logged, then IE", async () => {
    const log = captureLog();
    deps.log = log;
    const xx = { result: { status: "XX" as const, message: "clone: Resource temporarily unavailable", stdout: "3\n" } };
    backend.push(compiled, ...Array.from({ length: SANDBOX_RETRIES + 1 }, () => xx), out("never used\n"));
    const { row, tests } = await judge(threeTests);
    expect(row.verdict).toBe("IE");
    expect(row.isPassed).toBe(false);
    expect(tests.map((x) => x.verdict)).toEqual(["IE"]);
    // compile + (1 + SANDBOX_RETRIES) attempts of test 0, nothing more
    expect(backend.requests.length).toBe(2 + SANDBOX_RETRIES);
    expect(backend.steps.length).toBe(1);
    const retries = log.lines.filter((l) => l.message === "judge: sandbox failure, retrying the test");
    expect(retries.map((l) => l.data?.attempt)).toEqual(Array.from({ length: SANDBOX_RETRIES }, (_, i) => i + 1));
    expect(retries.every((l) => l.level === "warn" && String(l.data?.message).includes("Resource temporarily"))).toBe(true);
    expect(log.lines.some((l) => l.message === "judge: sandbox failure while running")).toBe(true);
  });
});

describe("compileAndRun (Run's compile + run) with scripted sandbox results", () => {
  const run = async (language: "py" | "cpp", code: string, log = captureLog()) => {
    const box = await backend.acquire();
    try {
      return { step: await compileAndRun(deps.cache, box, language, code, { stdin: "", timeLimitMs: 1000, memoryLimitKib: 65536 }, log), log };
    } finally {
      await backend.release();
    }
  };
  const isCheck = (argv: string[]) => argv.includes("-c");

  test("fresh Python: the run goes first, with the source as its artifact; exit 0 proves the syntax", async () => {
    backend.push(out("hi\n"));
    const { step } = await run("py", "print('hi')");
    expect(step).toMatchObject({ kind: "ran", cached: false, sandboxStarts: 1, result: { stdout: "hi\n" } });
    expect(backend.requests.map((r) => isCheck(r.argv))).toEqual([false]);
    // Cached as compiled: the next Run of this code runs straight away, from the cached source.
    backend.push(out("hi\n"));
    const again = await run("py", "print('hi')");
    expect(again.step).toMatchObject({ kind: "ran", cached: true, sandboxStarts: 1 });
    expect(deps.cache.stats.compiles).toBe(1);
  });

  test("fresh Python failing with empty stdout: the syntax check decides CE (run discarded)", async () => {
    backend.push({ result: { status: "RE", exitCode: 1, stderr: "SyntaxError: invalid syntax" } }, {
      result: { status: "RE", exitCode: 1, stderr: '  File "main.py", line 1\nSyntaxError: invalid syntax' },
    });
    const { step } = await run("py", "def f(:");
    expect(step).toMatchObject({ kind: "ce", cached: false, sandboxStarts: 2 });
    if (step.kind === "ce") expect(step.diagnostics).toContain("SyntaxError");
    expect(backend.requests.map((r) => isCheck(r.argv))).toEqual([false, true]);
  });

  test("fresh Python failing with empty stdout and a clean check: the run's RE stands", async () => {
    backend.push({ result: { status: "RE", exitCode: 1, stderr: "SyntaxError: forged" } }, { result: { status: "OK" } });
    const { step } = await run("py", "raise SyntaxError('forged')");
    expect(step).toMatchObject({ kind: "ran", sandboxStarts: 2, result: { status: "RE", exitCode: 1 } });
  });

  test("a sandbox failure of the fresh run is retried, logged, then IE; nothing is cached", async () => {
    const xx = { result: { status: "XX" as const, message: "bwrap: setting up uid map: Permission denied" } };
    backend.push(...Array.from({ length: SANDBOX_RETRIES + 1 }, () => xx));
    const { step, log } = await run("py", "print(1)");
    expect(step).toMatchObject({ kind: "ie", sandboxStarts: SANDBOX_RETRIES + 1 });
    if (step.kind === "ie") expect(step.detail).toContain("uid map");
    expect(log.lines.filter((l) => l.message === "judge: sandbox failure, retrying the run").length).toBe(SANDBOX_RETRIES);
    // Not cached: the next Run of the same code starts over and gets the program's own result.
    backend.push(out("1\n"));
    expect((await run("py", "print(1)")).step).toMatchObject({ kind: "ran", cached: false, result: { stdout: "1\n" } });
  });

  test("a sandbox failure of the syntax check is IE, never CE or the run's RE", async () => {
    const xx = { result: { status: "XX" as const, message: "cgroup vanished" } };
    backend.push({ result: { status: "RE", exitCode: 1 } }, ...Array.from({ length: SANDBOX_RETRIES + 1 }, () => xx));
    const { step } = await run("py", "import sys; sys.exit(1)");
    expect(step.kind).toBe("ie");
    backend.push({ result: { status: "RE", exitCode: 1 } }, { result: { status: "OK" } });
    expect((await run("py", "import sys; sys.exit(1)")).step).toMatchObject({ kind: "ran", result: { status: "RE" } });
  });

  test("C++ compiles first, then runs; a run ending in XX after the retries is returned as XX (IE upstream)", async () => {
    const xx = { result: { status: "XX" as const, message: "EAGAIN" } };
    backend.push(compiled, ...Array.from({ length: SANDBOX_RETRIES + 1 }, () => xx));
    const { step } = await run("cpp", "int main(){}");
    expect(step).toMatchObject({ kind: "ran", sandboxStarts: 2 + SANDBOX_RETRIES, result: { status: "XX" } });
    if (step.kind === "ran") expect(decideVerdict(step.result, "", "lines").verdict).toBe("IE");
    expect(backend.requests[0]!.argv[0]).toContain("g++");
  });
});

describe("RUN_PROVES_COMPILE's assumptions about the language records", () => {
  for (const id of RUN_PROVES_COMPILE) {
    test(`${id}: the compile step keeps only the source, and the run command runs that source file`, () => {
      const lang = getLanguage(id);
      const source = lang.sourceFileName("print(1)\n");
      expect(lang.selectArtifacts(source, [source, "stray.txt"])).toEqual([source]);
      const { argv } = lang.runCommand(source, { cpuTimeLimitMs: 1000, wallTimeLimitMs: 3000, memoryLimitKib: 65536, processLimit: 4, outputLimitBytes: 1024, fileSizeLimitKib: 1024 });
      expect(argv.at(-1)).toBe(source);
    });
  }
});
