/**
 * Standard Polygon packages (src/packages/polygon/generate.ts): their tests
 * generated in the real sandbox from the package's own generator sources (a
 * testlib C++ generator and a Python one), answered by the main solution,
 * every input checked by the package's testlib validator with its group;
 * byte for byte the tests of the same problem's full twin (made on the host,
 * CRLF normalised); the same again on a second read. Refused naming the test
 * and the program: a crashing generator, a looping one, a validator's
 * rejection (in a standard and in a full package), a Windows-only generator,
 * 10,000 tests. Over HTTP the import worker generates in the server's sandbox
 * (lent over IPC) while the server keeps answering; the CLI generates in its
 * own. Boxes 5400–5421 only: 5400–5409 direct reads, 5410–5419 the app,
 * 5420–5421 the CLI (the range given, 5540–5569, is past what bwrap as root
 * allows: a box's uid 60000 + id must stay below the overflow uid 65534).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { PackageError, type PackageFiles } from "../../src/packages/files.ts";
import { readAnyPackage } from "../../src/packages/read.ts";
import { commandWords } from "../../src/packages/polygon/generate.ts";
import { CompileCache } from "../../src/judge/compile-cache.ts";
import { DEFAULT_CEILINGS } from "../../src/problems/ceilings.ts";
import type { GenerationProgress } from "../../src/packages/polygon/generate.ts";
import { JUDGE_TEST_BOX_ID_START, judgeConfig, preparePch } from "../judge/fixtures.ts";
import { startJudgeApp, type JudgeApp } from "../judge/app.ts";
import { request, signUp } from "../api.ts";
import { writeFolder, zipOf, type Files } from "./fixtures.ts";
import { HAVE_TESTLIB } from "./polygon-fixtures.ts";
import { CRASH_CPP, fullTwin, GENERATED_TESTS, LOOP_CPP, manyTests, sumStandard } from "./polygon-generate-fixtures.ts";

setDefaultTimeout(600_000);

const READ_BOX_OFFSET = 5400 - JUDGE_TEST_BOX_ID_START;
const APP_BOX_OFFSET = 5410 - JUDGE_TEST_BOX_ID_START;

const asFiles = (f: Files): PackageFiles => new Map(Object.entries(f).map(([k, v]) => [k, typeof v === "string" ? new TextEncoder().encode(v) : v]));

test("a test's cmd splits into words as doall.sh's eval splits it", () => {
  expect(commandWords("gen --type=tree  01")).toEqual(["gen", "--type=tree", "01"]);
  expect(commandWords(`gen "a b" 'c d' e\\ f ""`)).toEqual(["gen", "a b", "c d", "e f", ""]);
});

describe.skipIf(!HAVE_TESTLIB)("generating a standard package's tests in the sandbox", () => {
  let sandbox: SandboxSelection;
  // The judge's compile cache, as the server and the CLI give the read: each C++ program is built once per content.
  const cacheDir = mkdtempSync(join(tmpdir(), "oj-polygon-gen-cache-"));
  let cache: CompileCache;
  beforeAll(async () => {
    await preparePch();
    sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", { ISOLATE_BOX_ID_COUNT: "10" }, READ_BOX_OFFSET)), () => {}, { buildPch: false });
    if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
    cache = await CompileCache.open(cacheDir, 256 * 1024 * 1024);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.backend?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const read = (files: Files, more: { generatorCpuMs?: number; onProgress?: (p: GenerationProgress) => void } = {}) =>
    readAnyPackage(asFiles(files), { backend: sandbox.backend!, ceilings: DEFAULT_CEILINGS, cache, ...more });
  async function refusal(files: Files, more: { generatorCpuMs?: number } = {}): Promise<string> {
    try {
      await read(files, more);
    } catch (err) {
      expect(err).toBeInstanceOf(PackageError);
      return (err as Error).message;
    }
    throw new Error("the package was read");
  }

  test("the standard package's tests equal its full twin's byte for byte (CRLF normalised), and a second read gives the same", async () => {
    const standard = sumStandard();
    const progress: GenerationProgress[] = [];
    const pkg = await read(standard, { onProgress: (p) => progress.push(p) });
    const twin = await read(await fullTwin(standard));
    expect(pkg.tests.map((t) => t.name)).toEqual(["tests/01", "tests/02", "tests/03", "tests/04", "tests/05", "tests/06"]);
    // The twin's CRLF files were read as LF: equal byte for byte.
    expect(pkg.tests.map((t) => [t.input, t.answer])).toEqual(twin.tests.map((t) => [t.input, t.answer]));
    expect(twin.tests.some((t) => t.input.includes("\r"))).toBe(false);
    // Each generated test is what its command makes: different seeds, different tests; answers are sums.
    expect(new Set(pkg.tests.map((t) => t.input)).size).toBe(6);
    for (const t of pkg.tests) {
      const [a, b] = t.input.trim().split(" ").map(Number);
      expect(t.answer).toBe(`${a! + b!}\n`);
    }
    expect(Number(pkg.tests[3]!.input.split(" ")[0])).toBeGreaterThan(1000);
    expect(progress).toContainEqual({ phase: "build", program: "files/validator.cpp" });
    expect(progress).toContainEqual({ phase: "build", program: "files/pygen.py" });
    expect(progress.at(-1)).toEqual({ phase: "tests", done: 6, total: 6 });
    expect(pkg.warnings.join("\n")).not.toContain("not used");
    const compiles = cache.stats.compiles;
    const hits = cache.stats.hits;
    const again = await read(standard);
    expect(again.tests).toEqual(pkg.tests);
    // The second read built nothing: its C++ programs (the validator, the generator, the main solution) came from the cache.
    expect(cache.stats.compiles).toBe(compiles);
    expect(cache.stats.hits).toBeGreaterThan(hits);
  });

  test("refused naming the test and the program: a validator's rejection (standard and full), a crashing generator, a looping one, a Windows-only one", async () => {
    // Test 4 out of group "big": its numbers break the validator's 1000.
    const noGroup = GENERATED_TESTS.map((t, i) => (i === 3 ? { ...t, group: undefined } : t));
    expect(await refusal(sumStandard(noGroup))).toMatch(
      /^problem\.xml: judging\/testset\[name=tests\]\/tests\/test 4 \(cmd "gen 1000000000"\): the validator files\/validator\.cpp rejected it \(exit 3: FAIL Integer parameter \[name=a\] equals to \d+, violates the range \[-1000, 1000\]/,
    );
    const full = await fullTwin(sumStandard());
    full["tests/02"] = "5000 1\n";
    expect(await refusal(full)).toMatch(/^problem\.xml: judging\/testset\[name=tests\]\/tests\/test 2: the validator files\/validator\.cpp rejected it \(exit 3: FAIL Integer parameter \[name=a\] equals to 5000/);
    const crash = sumStandard([...GENERATED_TESTS, { input: "", answer: "", cmd: "crash 1" }], { "files/crash.cpp": CRASH_CPP }, { executables: ["files/crash.cpp"] });
    expect(await refusal(crash)).toMatch(/^problem\.xml: judging\/testset\[name=tests\]\/tests\/test 7 \(cmd "crash 1"\): the generator files\/crash\.cpp failed \(killed by signal 11/);
    const started = Date.now();
    const loop = sumStandard([GENERATED_TESTS[0]!, { input: "", answer: "", cmd: "loop 5" }], { "files/loop.cpp": LOOP_CPP }, { executables: ["files/loop.cpp"] });
    expect(await refusal(loop, { generatorCpuMs: 1000 })).toMatch(/^problem\.xml: judging\/testset\[name=tests\]\/tests\/test 2 \(cmd "loop 5"\): the generator files\/loop\.cpp failed \(time limit \(\d+ ms (CPU|wall)\)\)$/);
    expect(Date.now() - started).toBeLessThan(120_000);
    const win = sumStandard([GENERATED_TESTS[0]!, { input: "", answer: "", cmd: "win 5" }], { "files/win.exe": new Uint8Array([0x4d, 0x5a, 0x90, 0]) }, { binaries: ["files/win.exe"] });
    expect(await refusal(win)).toBe(
      'problem.xml: judging/testset[name=tests]/tests/test 2 (cmd "win 5"): the generator win is only files/win.exe, a Windows executable with no source in the package: it cannot be built here (add its source to files/executables on Polygon)',
    );
  });

  test("10,000 generated tests are refused before anything is built or run", async () => {
    const started = Date.now();
    expect(await refusal(sumStandard(manyTests(10_000)))).toBe(
      "problem.xml: judging/testset[name=tests]: 10000 tests (9999 not samples): a problem has at most 1000 on this server (the setting PROBLEM_TEST_COUNT_MAX allows more, up to 10000); nothing was generated",
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("without a sandbox a standard package is refused, and a full package's validators are a warning", async () => {
    const standard = sumStandard();
    await expect(readAnyPackage(asFiles(standard))).rejects.toThrow('problem.xml: judging/testset[name=tests]/tests/test 2: method="generated" and tests/02 is not in the package: this is a standard package, and generating its tests needs the judge\'s sandbox, which is not available here');
    const pkg = await readAnyPackage(asFiles(await fullTwin(standard)));
    expect(pkg.warnings).toContain("assets/validators/validator files/validator.cpp: not run (no sandbox here): the tests are taken as they are");
  });
});

describe.skipIf(!HAVE_TESTLIB)("importing a standard package over HTTP and from the CLI", () => {
  let ja: JudgeApp;
  let token: string;
  beforeAll(async () => {
    ja = await startJudgeApp(APP_BOX_OFFSET, { ISOLATE_BOX_ID_COUNT: "10" });
    token = (await signUp(ja.app)).token;
  }, 60_000);
  afterAll(async () => {
    await ja?.close();
  });

  async function importZip(zip: Uint8Array) {
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zip)], { type: "application/zip" }), "p.zip");
    const res = await ja.app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: await res.json() };
  }

  test("the import worker generates in the server's sandbox while the server answers; the problem judges a submission", async () => {
    const importing = importZip(zipOf(sumStandard()));
    // The server's event loop stays free while the worker builds and runs the programs in the server's boxes.
    let done = false;
    void importing.then(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const t0 = performance.now();
      const health = await ja.app.request("/api/health");
      expect(health.status).toBeLessThan(600);
      waits.push(performance.now() - t0);
      await Bun.sleep(200);
    }
    const { status, body } = await importing;
    expect(`${status} ${JSON.stringify(body).slice(0, 300)}`).toStartWith("201");
    expect(waits.length).toBeGreaterThan(3);
    expect(Math.max(...waits)).toBeLessThan(1000);
    expect(body.problem.hiddenTestCount).toBe(5);
    expect(body.problem.sampleInput).toBe("1 2\n");
    const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: body.problem._id, code: "a, b = map(int, input().split())\nprint(a + b)\n", language: "py" } });
    expect(sub.status).toBe(201);
    expect(sub.body.verdict).toBe("AC");
  });

  test("over HTTP: a generator's failure is a 400 naming the test and program; 10,000 tests a quick 400", async () => {
    const crash = sumStandard([GENERATED_TESTS[0]!, { input: "", answer: "", cmd: "crash 1" }], { "files/crash.cpp": CRASH_CPP }, { executables: ["files/crash.cpp"] });
    const failed = await importZip(zipOf(crash));
    expect(failed.status).toBe(400);
    expect(JSON.stringify(failed.body)).toContain('tests/test 2 (cmd \\"crash 1\\"): the generator files/crash.cpp failed (killed by signal 11');
    const started = Date.now();
    const many = await importZip(zipOf(sumStandard(manyTests(10_000))));
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.body)).toContain("10000 tests (9999 not samples): a problem has at most 1000 on this server");
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test("bun run problem -- import generates a standard folder's tests in its own sandbox, printing progress", async () => {
    const me = await signUp(ja.app);
    const work = mkdtempSync(join(tmpdir(), "oj-polygon-gen-cli-"));
    chmodSync(work, 0o755);
    try {
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        NODE_ENV: "test",
        DATABASE_URL: ja.t.config.DATABASE_URL,
        DATA_DIR: ja.t.config.DATA_DIR,
        SESSION_SECRET: "cli-test-secret-0123456789abcdef0123456789",
        SANDBOX: "bwrap",
        SANDBOX_ROOT: join(work, "boxes"),
        ISOLATE_BOX_ID_START: "5420",
        ISOLATE_BOX_ID_COUNT: "2",
        SANDBOX_POOL_SIZE: "1",
      };
      const p = Bun.spawn(["bun", "scripts/problem.ts", "import", writeFolder(join(work, "standard"), sumStandard()), "--owner", me.user.email], { cwd: join(import.meta.dir, "..", ".."), env, stdout: "pipe", stderr: "pipe" });
      const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
      expect(err).toBe("");
      expect(out).toContain("problem: building files/gen.cpp");
      expect(out).toContain("problem: test 6 of 6 generated and validated");
      expect(out).toContain('imported "A plus B"');
      expect(out).toContain("(6 tests,");
      expect(await p.exited).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
