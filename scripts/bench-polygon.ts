/**
 * Polygon standard packages → the "Polygon: generating a standard package's
 * tests" section of docs/benchmarks.md.
 *
 * A standard A+B package of 100 tests (the sample manual, 99 made by
 * `gen 1000 i`, a testlib generator), with a testlib validator and a C++
 * main solution (tests/packages/polygon-generate-fixtures.ts), is:
 * - generated: the importer's generation step (src/packages/polygon/generate.ts
 *   makeTests) with this host's sandbox: its programs built, then per test a
 *   box for the generator, one for the validator, one for the main solution
 *   (the whole read, statements and all, is timed once for the record);
 * - baseline: the same programs built the same way once (buildProgram), then
 *   the same commands run directly in the sandbox in a loop (per test the
 *   generator, the validator and the main solution, each in a box taken and
 *   given back: doall.sh's loop, with nothing of the importer around it).
 * Target: generated ≤ 1.2 × baseline. Each several times (medians).
 * Then what a testlib checker costs per test: testlib's own std::wcmp, compiled
 * with testlib.h, judging the 100 tests' right answers in its own box
 * (src/judge/validator.ts runValidator, as the judge runs it), against the
 * built-in comparison the std checkers' fast path uses instead
 * (src/packages/std-checkers.ts: std::wcmp → the default validator,
 * case-sensitive) on the same outputs. Boxes
 * 5422–5429 (bwrap as root: 60000 + id below the overflow uid).
 *
 * Usage: bun scripts/bench-polygon.ts [--write] [--repeats N]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox } from "../isolate/index.ts";
import { ensurePch } from "../isolate/pch.ts";
import { loadConfig } from "../src/config.ts";
import { sandboxOptions } from "../src/sandbox.ts";
import { readAnyPackage } from "../src/packages/read.ts";
import { readDescriptor } from "../src/packages/polygon/descriptor.ts";
import { buildProgram, failureOf, runOnce } from "../src/packages/polygon/build.ts";
import { commandWords, GENERATOR_CPU_MS, makeTests, VALIDATOR_CPU_MS } from "../src/packages/polygon/generate.ts";
import { runWallLimitMs } from "../isolate/exec.ts";
import { DEFAULT_CEILINGS } from "../src/problems/ceilings.ts";
import type { RunLimits } from "../isolate/types.ts";
import { manyTests, sumStandard } from "../tests/packages/polygon-generate-fixtures.ts";
import { median, writeSection } from "./lib/bench-doc.ts";
import { readFileSync } from "node:fs";
import { prepareValidator, runValidator, type CompileValidator } from "../src/judge/validator.ts";
import { defaultValidator } from "../src/judge/default-validator.ts";
import { parseValidatorFlags } from "../src/problems/validator-flags.ts";
import { stdCheckerFlags } from "../src/packages/std-checkers.ts";

const write = process.argv.includes("--write");
const repeatsAt = process.argv.indexOf("--repeats");
const REPEATS = repeatsAt > 0 ? Number(process.argv[repeatsAt + 1]) : 3;
const TESTS = 100;

const dir = mkdtempSync(join(tmpdir(), "oj-bench-polygon-"));
const config = loadConfig({
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  DATABASE_URL: `file:${join(dir, "bench.db")}`,
  DATA_DIR: join(dir, "data"),
  SANDBOX: "bwrap",
  SANDBOX_ROOT: mkdtempSync(join(tmpdir(), "oj-bench-polygon-boxes-")),
  ISOLATE_BOX_ID_START: "5422",
  ISOLATE_BOX_ID_COUNT: "8",
  SANDBOX_POOL_SIZE: "1",
  SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0000",
});
await ensurePch(config.DATA_DIR);
const sandbox = await createSandbox(sandboxOptions(config), () => {}, { buildPch: false });
if (!sandbox.backend) throw new Error(`no sandbox: ${sandbox.reason}`);
const backend = sandbox.backend;

const raw = sumStandard(manyTests(TESTS));
const files = new Map(Object.entries(raw).map(([k, v]) => [k, typeof v === "string" ? new TextEncoder().encode(v) : v]));
const d = readDescriptor(files);

/**
 * The importer's generation step (makeTests, what readAnyPackage runs for a standard package): its programs built,
 * then every test generated, validated and answered. Builds: until the first test's progress.
 */
async function generated(): Promise<{ ms: number; buildMs: number }> {
  const t = performance.now();
  let firstTest = 0;
  const warnings: string[] = [];
  const made = await makeTests(files, d, {
    backend,
    ceilings: DEFAULT_CEILINGS,
    onProgress: (p) => {
      if (p.phase === "tests" && !firstTest) firstTest = performance.now();
    },
  }, warnings);
  if (made.size !== TESTS) throw new Error(`generated ${made.size} tests`);
  return { ms: performance.now() - t, buildMs: firstTest - t };
}

/** The whole read of the package (statements converted, checker read, tests generated), once, for the record. */
async function wholeRead(): Promise<number> {
  const t = performance.now();
  const pkg = await readAnyPackage(files, { backend, ceilings: DEFAULT_CEILINGS });
  if (pkg.tests.length !== TESTS) throw new Error(`read ${pkg.tests.length} tests`);
  return performance.now() - t;
}

const memoryKib = 1024 * 1024;
const genLimits: RunLimits = { cpuTimeLimitMs: GENERATOR_CPU_MS, wallTimeLimitMs: runWallLimitMs(GENERATOR_CPU_MS), memoryLimitKib: memoryKib, processLimit: 16, outputLimitBytes: DEFAULT_CEILINGS.testCaseBytes, fileSizeLimitKib: DEFAULT_CEILINGS.testCaseBytes / 1024 };
const valLimits: RunLimits = { ...genLimits, cpuTimeLimitMs: VALIDATOR_CPU_MS, wallTimeLimitMs: runWallLimitMs(VALIDATOR_CPU_MS), outputLimitBytes: 64 * 1024, fileSizeLimitKib: 1024 };
const mainLimits: RunLimits = { ...genLimits, cpuTimeLimitMs: d.tests.timeLimitMs, wallTimeLimitMs: runWallLimitMs(d.tests.timeLimitMs), memoryLimitKib: d.tests.memoryLimitBytes / 1024 };

/** The baseline: the programs built once, then the commands run directly, a box each, in a loop. */
async function direct(): Promise<{ ms: number; buildMs: number }> {
  const t = performance.now();
  const gen = await buildProgram(backend, files, d, d.executables.find((e) => e.path === "files/gen.cpp")!, "gen");
  const val = await buildProgram(backend, files, d, d.validators[0]!, "validator");
  const main = await buildProgram(backend, files, d, d.solutions.find((s) => s.tag === "main")!.source, "main");
  const buildMs = performance.now() - t;
  for (const test of d.tests.tests) {
    let input = "1 2\n";
    if (test.cmd) {
      const r = await runOnce(backend, gen, commandWords(test.cmd).slice(1), "", genLimits);
      if (failureOf(r)) throw new Error(`gen: ${failureOf(r)}`);
      input = r.stdout;
    }
    const v = await runOnce(backend, val, ["--testset", "tests"], input, valLimits);
    if (failureOf(v)) throw new Error(`validator: ${failureOf(v)}`);
    const m = await runOnce(backend, main, [], input, mainLimits);
    if (failureOf(m)) throw new Error(`main: ${failureOf(m)}`);
  }
  return { ms: performance.now() - t, buildMs };
}

const VENDOR = join(import.meta.dir, "..", "..", "shared", "vendor", "testlib");

/** Per test: testlib's std::wcmp in its own box (compiled once, untimed) against the fast path's built-in comparison. */
async function checkerCost(): Promise<{ testlibMs: number[]; builtinUs: number[]; compileMs: number }> {
  const tests = d.tests.tests.map((_, i) => {
    const a = i + 1;
    const b = 1000 - i;
    return { input: `${a} ${b}\n`, answer: `${a + b}\n` };
  });
  const vbox = await backend.acquire();
  try {
    // testlib programs are C++ here: prepareTestlib builds them through `cached`, never `compile`.
    const compiler: CompileValidator = {
      compile: async () => ({ kind: "ie", detail: "not used" }),
      cached: async (_key, make) => (await make()).step,
    };
    const t0 = performance.now();
    const ready = await prepareValidator(compiler, vbox, {
      language: "cpp",
      main: "check.cpp",
      files: { "check.cpp": readFileSync(join(VENDOR, "checkers", "wcmp.cpp"), "utf8"), "testlib.h": readFileSync(join(VENDOR, "testlib.h"), "utf8") },
      args: "",
      testlib: { pointsAsPercent: false },
    });
    if ("error" in ready) throw new Error(ready.error);
    const compileMs = performance.now() - t0;
    const testlibMs: number[] = [];
    for (const t of tests) {
      const s = performance.now();
      const out = await runValidator(vbox, (req) => vbox.run(req), ready, t.input, t.answer, t.answer);
      testlibMs.push(performance.now() - s);
      if (out.verdict !== "AC") throw new Error(`wcmp: ${JSON.stringify(out)}`);
    }
    const parsed = parseValidatorFlags(stdCheckerFlags("std::wcmp") ?? "");
    if (!parsed.ok) throw new Error(parsed.error);
    const builtinUs: number[] = [];
    for (const t of tests) {
      const s = performance.now();
      const v = defaultValidator(t.answer, t.answer, parsed.options);
      builtinUs.push((performance.now() - s) * 1000);
      if (!v.ok) throw new Error(`built-in: ${v.reason}`);
    }
    return { testlibMs, builtinUs, compileMs };
  } finally {
    await backend.release(vbox);
  }
}

let whole = 0;
let cost: Awaited<ReturnType<typeof checkerCost>> | null = null;
const g: { ms: number; buildMs: number }[] = [];
const b: { ms: number; buildMs: number }[] = [];
try {
  for (let i = 0; i < REPEATS; i++) {
    // Alternating, so the machine's load falls on both alike.
    b.push(await direct());
    g.push(await generated());
    if (i === 0) whole = await wholeRead();
    if (i === 0) cost = await checkerCost();
    console.log(`run ${i + 1}: generated ${g.at(-1)!.ms.toFixed(0)} ms (builds ${g.at(-1)!.buildMs.toFixed(0)}), direct ${b.at(-1)!.ms.toFixed(0)} ms (builds ${b.at(-1)!.buildMs.toFixed(0)})`);
  }
} finally {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
}
const gMs = median(g.map((x) => x.ms));
const bMs = median(b.map((x) => x.ms));
const gLoop = median(g.map((x) => x.ms - x.buildMs));
const bLoop = median(b.map((x) => x.ms - x.buildMs));
const ratio = gMs / bMs;
const loopRatio = gLoop / bLoop;
const runs = 3 * TESTS - 1;

const section = `## Polygon: generating a standard package's tests (scripts/bench-polygon.ts)

\`bun scripts/bench-polygon.ts --write\` (${new Date().toISOString().slice(0, 10)}, this machine: 2 cores, ${backend.description ?? backend.name}, one box at a time).
A standard A+B package of ${TESTS} tests (${TESTS - 1} made by a testlib generator, \`gen 1000 i\`) with a testlib validator and
a C++ main solution: ${runs} runs (generator, validator and main solution per test), each in a box of its own.
Generated: the importer's generation step (src/packages/polygon/generate.ts \`makeTests\`). Direct: the same three programs
built the same way, then the same commands run straight in the sandbox in a loop (doall.sh's loop, nothing of the importer
around it). Medians of ${REPEATS}, alternating. The whole read of the package (its statements converted through LaTeX, the
checker read, the tests generated) took ${(whole / 1000).toFixed(1)} s once.

| | total | builds (3 programs, testlib ×2) | the ${TESTS} tests | per run |
| --- | --- | --- | --- | --- |
| generated (import) | ${(gMs / 1000).toFixed(1)} s | ${(median(g.map((x) => x.buildMs)) / 1000).toFixed(1)} s | ${(gLoop / 1000).toFixed(1)} s | ${(gLoop / runs).toFixed(1)} ms |
| direct in a loop | ${(bMs / 1000).toFixed(1)} s | ${(median(b.map((x) => x.buildMs)) / 1000).toFixed(1)} s | ${(bLoop / 1000).toFixed(1)} s | ${(bLoop / runs).toFixed(1)} ms |
| ratio | **${ratio.toFixed(2)}×** | | **${loopRatio.toFixed(2)}×** | |

Target: generated ≤ 1.2 × direct (${ratio <= 1.2 && loopRatio <= 1.2 ? "met, in total and on the tests alone" : ratio <= 1.2 ? `met in total; ${loopRatio.toFixed(2)}× on the tests alone` : "MISSED"}). What a run costs is
the box (taken, cleaned, given back) and the process's start; compiling testlib.h (~10 s of CPU a program) dominates a
small package. Over HTTP the same work runs in the import process with the server's boxes lent over IPC
(src/packages/sandbox-proxy.ts): each box call is one message each way more.

What a testlib checker costs per test, on the same ${TESTS} outputs (the right answers): testlib's own \`std::wcmp\` (compiled once
with testlib.h in ${((cost?.compileMs ?? 0) / 1000).toFixed(1)} s, not counted) run in its own box as the judge runs it, against the built-in
comparison that the std checkers' fast path judges \`std::wcmp\` with instead (src/packages/std-checkers.ts, decision 080).

| checker, per test | median | p90 |
| --- | ---: | ---: |
| testlib \`std::wcmp\` in its box (write the files, run, read the exit code) | ${median(cost!.testlibMs).toFixed(1)} ms | ${[...cost!.testlibMs].sort((x, y) => x - y)[Math.floor(cost!.testlibMs.length * 0.9)]!.toFixed(1)} ms |
| built-in comparison (the fast path) | ${median(cost!.builtinUs).toFixed(1)} µs | ${[...cost!.builtinUs].sort((x, y) => x - y)[Math.floor(cost!.builtinUs.length * 0.9)]!.toFixed(1)} µs |
| ratio | **${Math.round((median(cost!.testlibMs) * 1000) / Math.max(0.001, median(cost!.builtinUs))).toLocaleString("en")}×** | |

A compiled checker pays a process in a box per test (and its compile once per problem version, through the compile cache);
the fast path pays a string comparison, which is why the std checkers that have an exact built-in equivalent take it.
`;
console.log(section);
if (write) writeSection(join(import.meta.dir, "..", "docs", "benchmarks.md"), "## Polygon: generating a standard package's tests", section);
