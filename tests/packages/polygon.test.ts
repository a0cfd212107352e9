/**
 * Codeforces Polygon packages (src/packages/polygon/), built here with the
 * vendored testlib: read into the importer's package (statements in two
 * languages, limits, groups and points, tags, tagged solutions), refused
 * naming the element (a standard package, a missing file, a zip slip), and
 * judged in the real sandbox with their testlib checkers (exit 1 WA, 2 PE,
 * 7 points) and interactor (the checker reading its tout): verify gives what
 * the tags say; the HTTP import takes the zip and judges submissions with the
 * testlib checker. Boxes 5500–5529 only.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { zipSync } from "fflate";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { filesFromZip, PackageError, type PackageFiles } from "../../src/packages/files.ts";
import { readAnyPackage } from "../../src/packages/read.ts";
import { verifyPackage, type VerifyReport } from "../../src/packages/verify.ts";
import { JUDGE_TEST_BOX_ID_START, judgeConfig, preparePch } from "../judge/fixtures.ts";
import { startJudgeApp, type JudgeApp } from "../judge/app.ts";
import { request, signUp } from "../api.ts";
import { writeFolder, zipOf, type Files } from "./fixtures.ts";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GUESS_CHECKER, GUESS_INTERACTOR, HAVE_TESTLIB, polygonPackage, SUM_SECTIONS, testlibFile, type PolygonOptions } from "./polygon-fixtures.ts";

setDefaultTimeout(300_000);
if (!HAVE_TESTLIB) console.warn("polygon.test.ts: ../shared/vendor/testlib/testlib.h is absent: the Polygon package tests are skipped");

/** This file's boxes: 5500–5519 for verify, 5520–5529 for the app's judge, 5530–5531 for the CLI (the task's range is 5500–5533). */
const VERIFY_BOX_OFFSET = 5500 - JUDGE_TEST_BOX_ID_START;
const APP_BOX_OFFSET = 5520 - JUDGE_TEST_BOX_ID_START;

const SUM_CPP = "#include <bits/stdc++.h>\nint main(){ long long a,b; std::cin>>a>>b; std::cout<<a+b<<\"\\n\"; }\n";
const NEG_PY = "a, b = map(int, input().split())\nprint(-(a + b))\n";
const OFF_PY = "a, b = map(int, input().split())\nprint(a + b + 1)\n";
const TEXT_PY = "input()\nprint('sum')\n";
const SUM_PY = "a, b = map(int, input().split())\nprint(a + b)\n";
const SLOW_PY = "import time\nt = time.process_time()\nwhile time.process_time() - t < 3: pass\na, b = map(int, input().split())\nprint(a + b)\n";
const MLE_CPP = "#include <bits/stdc++.h>\nint main(){ std::vector<long long> v(60000000, 1); long long a,b; std::cin>>a>>b; std::cout<<a+b+v[12345]-1<<\"\\n\"; }\n";
const SEARCH_CPP = `#include <iostream>
#include <string>
int main() { int lo = 1, hi = 1000; std::string r;
  while (lo <= hi) { int mid = (lo + hi) / 2; std::cout << "? " << mid << std::endl; if (!(std::cin >> r) || r == "=") return 0; if (r == "<") hi = mid - 1; else lo = mid + 1; } }
`;
const LINEAR_PY = "for g in range(1, 1001):\n    print('?', g, flush=True)\n    if input().strip() == '=': break\n";

const SUM_TESTS: PolygonOptions["tests"] = [
  { input: "1 2\n", answer: "3\n", sample: true },
  { input: "5 7\n", answer: "12\n" },
  { input: "1000000000 1000000000\n", answer: "2000000000\n", cmd: "gen 1000000000" },
];

/** A full A+B package: two languages, tags, every kind of tagged solution. */
function sumPackage(extra: Partial<PolygonOptions> = {}): Files {
  return polygonPackage({
    names: { english: "A plus B", russian: "А плюс Б" },
    memoryBytes: 64 * 1024 * 1024,
    tests: SUM_TESTS,
    solutions: [
      { tag: "main", path: "solutions/sol.cpp", code: SUM_CPP },
      { tag: "wrong-answer", path: "solutions/off.py", code: OFF_PY },
      { tag: "wrong-answer", path: "solutions/neg.py", code: NEG_PY },
      { tag: "presentation-error", path: "solutions/text.py", code: TEXT_PY },
      { tag: "time-limit-exceeded", path: "solutions/slow.py", code: SLOW_PY },
      { tag: "memory-limit-exceeded", path: "solutions/mle.cpp", code: MLE_CPP },
      { tag: "time-limit-exceeded-or-accepted", path: "solutions/fast.py", code: SUM_PY },
    ],
    extra: { ...SUM_SECTIONS, tags: "math\nimplementation\nno-such-topic-here\n" },
    ...extra,
  });
}

/** A+B with groups: samples (group 0), group 1 complete-group 40 points, group 2 each-test 2 × 30 depending on the samples; points as percent. */
function scoredPackage(): Files {
  return polygonPackage({
    percent: true,
    tests: [
      // The negation of 0 is 0: the sample is passed, so group 2 (depending on it) runs.
      { input: "0 0\n", answer: "0\n", sample: true, group: "0", points: 0 },
      { input: "5 7\n", answer: "12\n", group: "1", points: 0 },
      { input: "2 2\n", answer: "4\n", group: "1", points: 0 },
      { input: "9 9\n", answer: "18\n", group: "2", points: 30 },
      { input: "-4 1\n", answer: "-3\n", group: "2", points: 30 },
    ],
    groupsXml: [
      '        <group feedback-policy="complete" name="0" points="0" points-policy="complete-group"/>',
      '        <group feedback-policy="complete" name="1" points="40" points-policy="complete-group"/>',
      '        <group feedback-policy="icpc" name="2" points-policy="each-test">\n          <dependencies>\n            <dependency group="0"/>\n          </dependencies>\n        </group>',
    ].join("\n"),
    solutions: [
      { tag: "main", path: "solutions/sol.cpp", code: SUM_CPP },
      { tag: "wrong-answer", path: "solutions/neg.py", code: NEG_PY },
    ],
    extra: SUM_SECTIONS,
  });
}

/** Guess the number: an interactor writing tout and a checker reading it. */
function guessPackage(): Files {
  return polygonPackage({
    names: { english: "Guess" },
    tests: [
      { input: "252\n", answer: "252\n", sample: true },
      { input: "1\n", answer: "1\n" },
      { input: "1000\n", answer: "1000\n" },
    ],
    checker: { path: "files/check.cpp", source: GUESS_CHECKER },
    interactor: GUESS_INTERACTOR,
    solutions: [
      { tag: "main", path: "solutions/search.cpp", code: SEARCH_CPP },
      { tag: "wrong-answer", path: "solutions/linear.py", code: LINEAR_PY },
    ],
    extra: {
      "statement-sections/english/legend.tex": "Find $s$ ($1 \\le s \\le 1000$) in at most 10 guesses.",
      "statement-sections/english/interaction.tex": "Print \\t{? g}; read \\t{<}, \\t{>} or \\t{=}.",
    },
  });
}

const asFiles = (f: Files): PackageFiles => new Map(Object.entries(f).map(([k, v]) => [k, typeof v === "string" ? new TextEncoder().encode(v) : v]));

/** The PackageError a read throws. */
async function refusal(files: Files): Promise<string> {
  try {
    await readAnyPackage(asFiles(files));
  } catch (err) {
    expect(err).toBeInstanceOf(PackageError);
    return (err as Error).message;
  }
  throw new Error("the package was read");
}

describe.skipIf(!HAVE_TESTLIB)("reading a Polygon package", () => {
  test("a full package: names and statements in both languages, limits, samples first, tags, solutions with their tags' verdicts, the testlib checker", async () => {
    const pkg = await readAnyPackage(asFiles(sumPackage()));
    expect(pkg.origin).toBe("polygon");
    expect(pkg.name).toBe("A plus B");
    expect(pkg.timeLimitMs).toBe(1000);
    expect(pkg.timeLimitSource).toBe("problem.xml");
    expect(pkg.memoryLimitKib).toBe(64 * 1024);
    expect(pkg.statement).toContain("$a$");
    expect(pkg.statement).toContain("## Input");
    expect(pkg.statement).toContain("## Output");
    expect(pkg.statement).toContain("## Notes");
    expect(pkg.statement).toContain("**their sum**");
    expect(pkg.statementLanguage).toBe("en");
    expect(Object.keys(pkg.translations)).toEqual(["ru"]);
    expect(pkg.translations.ru).toStartWith("# А плюс Б");
    expect(pkg.translations.ru).toContain("Выведите их сумму");
    expect(pkg.tests.map((t) => [t.name, t.sample, t.answer])).toEqual([
      ["tests/01", true, "3\n"],
      ["tests/02", false, "12\n"],
      ["tests/03", false, "2000000000\n"],
    ]);
    expect(pkg.scoring).toBeNull();
    expect(pkg.keywords).toEqual(["math", "implementation", "no-such-topic-here"]);
    expect(pkg.submissions.map((s) => [s.path, s.expected, s.language])).toEqual([
      ["solutions/sol.cpp", "AC", "cpp"],
      ["solutions/off.py", "WA", "py"],
      ["solutions/neg.py", "WA", "py"],
      ["solutions/text.py", "WA", "py"],
      ["solutions/slow.py", "TLE", "py"],
      ["solutions/mle.cpp", "MLE", "cpp"],
      ["solutions/fast.py", "TLE-or-AC", "py"],
    ]);
    expect(pkg.validator?.testlib).toEqual({ pointsAsPercent: false });
    expect(Object.keys(pkg.validator!.files).sort()).toEqual(["check.cpp", "testlib.h"]);
    expect(pkg.interactive).toBe(false);
    // What is not honoured is said, naming the element.
    expect(pkg.warnings.join("\n")).toContain("statement-sections/english/tutorial.tex: the tutorial is not kept");
    expect(pkg.warnings.join("\n")).toContain("files/executables: files/gen.cpp not used");
  });

  test("groups with points, policies and dependencies become scored groups", async () => {
    const pkg = await readAnyPackage(asFiles(scoredPackage()));
    expect(pkg.scoring).toEqual({
      maxScore: 100,
      aggregation: "sum",
      requirePass: [],
      groups: [
        { name: "1", maxScore: 40, aggregation: "pass-fail", requirePass: [], testCount: 2 },
        { name: "2", maxScore: 60, aggregation: "sum", requirePass: ["sample"], testCount: 2 },
      ],
    });
    expect(pkg.validator?.testlib?.pointsAsPercent).toBe(true);
    expect(pkg.warnings.join("\n")).toContain("group 2: feedback-policy icpc is not honoured");
  });

  test("an interactive package: the interactor with its checker", async () => {
    const pkg = await readAnyPackage(asFiles(guessPackage()));
    expect(pkg.interactive).toBe(true);
    expect(pkg.validator?.testlib?.interactor?.main).toBe("interactor.cpp");
    expect(Object.keys(pkg.validator!.testlib!.interactor!.files).sort()).toEqual(["interactor.cpp", "testlib.h"]);
    expect(pkg.statement).toContain("### Interaction");
  });

  test("a zip of the package's folder is read from inside the folder", async () => {
    const pkg = await readAnyPackage(filesFromZip(zipOf(sumPackage(), { top: "a-plus-b-7$linux" })));
    expect(pkg.name).toBe("A plus B");
  });

  test("refused, naming the element or file: a standard package read without a sandbox, a missing checker, a missing test answer, file input, a zip slip", async () => {
    // Read without a sandbox (generating is tested in polygon-generate.test.ts).
    expect(await refusal(sumPackage({ standard: true }))).toBe(
      'problem.xml: judging/testset[name=tests]/tests/test 3: method="generated" and tests/03 is not in the package: this is a standard package, and generating its tests needs the judge\'s sandbox, which is not available here',
    );
    const noChecker = sumPackage();
    delete noChecker["files/check.cpp"];
    expect(await refusal(noChecker)).toBe("files/check.cpp: missing: problem.xml names it (assets/checker/source)");
    const noAnswer = sumPackage();
    delete noAnswer["tests/02.a"];
    expect(await refusal(noAnswer)).toStartWith("tests/02.a: missing: the answer of test 2");
    const noSolution = sumPackage();
    delete noSolution["solutions/neg.py"];
    expect(await refusal(noSolution)).toBe("solutions/neg.py: missing: problem.xml names it (assets/solutions/solution[tag=wrong-answer]/source)");
    const fileInput = sumPackage();
    fileInput["problem.xml"] = String(fileInput["problem.xml"]).replace('input-file=""', 'input-file="input.txt"');
    expect(await refusal(fileInput)).toContain('judging: input-file "input.txt"');
    const noSample = polygonPackage({ tests: SUM_TESTS.map((t) => ({ ...t, sample: false })), extra: SUM_SECTIONS });
    expect(await refusal(noSample)).toBe('problem.xml: judging/testset[name=tests]/tests: no test is marked sample="true" (the first sample is shown to solvers and judged first)');
    const broken = sumPackage();
    broken["problem.xml"] = String(broken["problem.xml"]).replace("</names>", "");
    expect(await refusal(broken)).toMatch(/^problem\.xml:\d+: not well-formed XML/);
    const slip = zipSync({ "problem.xml": new TextEncoder().encode("<problem/>"), "../../etc/evil": new TextEncoder().encode("x") });
    expect(() => filesFromZip(slip)).toThrow("../../etc/evil: unsafe path in the zip");
  });
});

describe.skipIf(!HAVE_TESTLIB)("judging with testlib in the sandbox", () => {
  let sandbox: SandboxSelection;
  beforeAll(async () => {
    await preparePch();
    sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, VERIFY_BOX_OFFSET)), () => {}, { buildPch: false });
    if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.backend?.close();
  });
  const rows = (r: VerifyReport) => r.rows.map((x) => [x.path, x.expected, x.verdict, x.ok]);

  test("verify: every tagged solution gets what its tag says (checker exit 1 WA, 2 PE as WA, 7 partial as WA on a pass-fail problem, TLE, MLE)", async () => {
    const pkg = await readAnyPackage(asFiles(sumPackage()));
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(rows(report)).toEqual([
      ["solutions/sol.cpp", "AC", "AC", true],
      ["solutions/off.py", "WA", "WA", true],
      ["solutions/neg.py", "WA", "WA", true],
      ["solutions/text.py", "WA", "WA", true],
      ["solutions/slow.py", "TLE", "TLE", true],
      ["solutions/mle.cpp", "MLE", "MLE", true],
      ["solutions/fast.py", "TLE-or-AC", "AC", true],
    ]);
    expect(report.ok).toBe(true);
  });

  test("verify with testlib's own std::wcmp checker: a solution whose tag is wrong is a mismatch", async () => {
    const checker = { path: "files/check.cpp", source: testlibFile("checkers/wcmp.cpp"), name: "std::wcmp.cpp" };
    const solutions = [
      { tag: "accepted", path: "solutions/off.py", code: OFF_PY },
      { tag: "main", path: "solutions/sum.py", code: SUM_PY },
    ];
    const pkg = await readAnyPackage(asFiles(polygonPackage({ tests: SUM_TESTS, checker, solutions, extra: SUM_SECTIONS })));
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(rows(report)).toEqual([
      ["solutions/off.py", "AC", "WA", false],
      ["solutions/sum.py", "AC", "AC", true],
    ]);
    expect(report.ok).toBe(false);
  });

  test("verify on groups: the checker's exit 7 (points 50 as percent) scores half of each-test tests, nothing in a complete-group group", async () => {
    const pkg = await readAnyPackage(asFiles(scoredPackage()));
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(report.rows.map((x) => [x.path, x.verdict, x.score, x.maxScore, x.ok])).toEqual([
      ["solutions/sol.cpp", "AC", 100, 100, true],
      ["solutions/neg.py", "WA", 30, 100, true],
    ]);
  });

  test("verify on an interactive package: the checker reads the interactor's tout", async () => {
    const pkg = await readAnyPackage(asFiles(guessPackage()));
    const report = await verifyPackage(sandbox.backend!, pkg);
    expect(rows(report)).toEqual([
      ["solutions/search.cpp", "AC", "AC", true],
      // The interactor accepts the linear search (it finds the number); the checker, reading tout, counts 252 guesses.
      ["solutions/linear.py", "WA", "WA", true],
    ]);
  });
});

describe.skipIf(!HAVE_TESTLIB)("the HTTP import of a Polygon zip", () => {
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
  async function submit(problemId: string, code: string, language: string) {
    const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId, code, language } });
    expect(`${sub.status} ${JSON.stringify(sub.body).slice(0, 300)}`).toStartWith("201");
    return sub.body;
  }

  test("imports with the testlib checker, tags and warnings; submissions are judged by the checker (exit 1 WA, 7 partial on pass-fail WA, 2 PE WA)", async () => {
    const { status, body } = await importZip(zipOf(sumPackage()));
    expect(`${status} ${JSON.stringify(body).slice(0, 300)}`).toStartWith("201");
    const problem = body.problem;
    expect(problem.title).toBe("A plus B");
    expect(problem.checker).toBe("testlib");
    expect(problem.timeLimitMs).toBe(1000);
    expect(problem.memoryLimitKib).toBe(65536);
    expect(problem.sampleInput).toBe("1 2\n");
    expect(problem.tags.map((t: { slug: string }) => t.slug).sort()).toEqual(["implementation", "math"]);
    expect(body.warnings.join("\n")).toContain('tags: keyword "no-such-topic-here" is not a topic tag here');
    expect(body.timeLimitFrom).toContain("problem.xml");
    expect(body.submissions).toEqual({ AC: 1, WA: 3, TLE: 1, MLE: 1, "TLE-or-AC": 1 });
    expect((await submit(problem._id, SUM_CPP, "cpp")).verdict).toBe("AC");
    expect((await submit(problem._id, OFF_PY, "py")).verdict).toBe("WA");
    expect((await submit(problem._id, NEG_PY, "py")).verdict).toBe("WA");
    expect((await submit(problem._id, TEXT_PY, "py")).verdict).toBe("WA");
  });

  test("a scored package judges with partial points from the checker", async () => {
    const { status, body } = await importZip(zipOf(scoredPackage()));
    expect(`${status} ${JSON.stringify(body).slice(0, 300)}`).toStartWith("201");
    const neg = await submit(body.problem._id, NEG_PY, "py");
    expect([neg.verdict, neg.score, neg.maxScore]).toEqual(["WA", 30, 100]);
  });

  test("an interactive package: the checker reads tout", async () => {
    const { status, body } = await importZip(zipOf(guessPackage()));
    expect(`${status} ${JSON.stringify(body).slice(0, 300)}`).toStartWith("201");
    expect(body.problem.interactive).toBe(true);
    expect((await submit(body.problem._id, SEARCH_CPP, "cpp")).verdict).toBe("AC");
    expect((await submit(body.problem._id, LINEAR_PY, "py")).verdict).toBe("WA");
  });

  test("bun run problem -- import takes a Polygon folder (a standard one: polygon-generate.test.ts)", async () => {
    const me = await signUp(ja.app);
    const work = mkdtempSync(join(tmpdir(), "oj-polygon-import-"));
    try {
      const env = { ...process.env, DATABASE_URL: ja.t.config.DATABASE_URL, DATA_DIR: ja.t.config.DATA_DIR, NODE_ENV: "test", SESSION_SECRET: "cli-test-secret-0123456789abcdef0123456789" };
      const run = async (...args: string[]) => {
        const p = Bun.spawn(["bun", "scripts/problem.ts", ...args], { cwd: join(import.meta.dir, "..", ".."), env, stdout: "pipe", stderr: "pipe" });
        const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
        return { code: await p.exited, out, err };
      };
      const ok = await run("import", writeFolder(join(work, "full"), sumPackage()), "--owner", me.user.email);
      expect(ok.err).toBe("");
      expect(ok.out).toContain('imported "A plus B"');
      expect(ok.code).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("refused with 400 naming the element: a missing file, a zip slip (a standard package's failures: polygon-generate.test.ts)", async () => {
    const missing = sumPackage();
    delete missing["files/check.cpp"];
    const noChecker = await importZip(zipOf(missing));
    expect(noChecker.status).toBe(400);
    expect(JSON.stringify(noChecker.body)).toContain("files/check.cpp: missing: problem.xml names it (assets/checker/source)");
    const slip = await importZip(zipSync({ "problem.xml": new TextEncoder().encode("<problem/>"), "../evil.txt": new TextEncoder().encode("x") }));
    expect(slip.status).toBe(400);
    expect(JSON.stringify(slip.body)).toContain("../evil.txt: unsafe path in the zip");
  });
});

describe.skipIf(!HAVE_TESTLIB)("bun run problem -- verify on a Polygon folder", () => {
  test("the report with expected against actual, exit 0 when every tag holds and 1 otherwise", async () => {
    const work = mkdtempSync(join(tmpdir(), "oj-polygon-cli-"));
    chmodSync(work, 0o755);
    try {
      const solutions = (tag: string) => [
        { tag: "main", path: "solutions/sol.cpp", code: SUM_CPP },
        { tag, path: "solutions/off.py", code: OFF_PY },
      ];
      const good = writeFolder(join(work, "good"), polygonPackage({ tests: SUM_TESTS, solutions: solutions("wrong-answer"), extra: SUM_SECTIONS }));
      const bad = writeFolder(join(work, "bad"), polygonPackage({ tests: SUM_TESTS, solutions: solutions("accepted"), extra: SUM_SECTIONS }));
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        NODE_ENV: "test",
        DATABASE_URL: `file:${join(work, "cli.db")}`,
        DATA_DIR: join(work, "data"),
        SANDBOX: "bwrap",
        SANDBOX_ROOT: join(work, "boxes"),
        ISOLATE_BOX_ID_START: "5530",
        ISOLATE_BOX_ID_COUNT: "2",
        SANDBOX_POOL_SIZE: "1",
      };
      const run = async (dir: string) => {
        const p = Bun.spawn(["bun", "scripts/problem.ts", "verify", dir], { cwd: join(import.meta.dir, "..", ".."), env, stdout: "pipe", stderr: "pipe" });
        const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
        return { code: await p.exited, out, err };
      };
      const ok = await run(good);
      expect(ok.err).toBe("");
      expect(ok.out).toMatch(/OK +solutions\/sol\.cpp +expected AC +got AC/);
      expect(ok.out).toMatch(/OK +solutions\/off\.py +expected WA +got WA/);
      expect(ok.code).toBe(0);
      const fail = await run(bad);
      expect(fail.out).toMatch(/FAIL solutions\/off\.py +expected AC +got WA/);
      expect(fail.code).toBe(1);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
