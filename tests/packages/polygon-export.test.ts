/**
 * A Polygon problem exported as a Kattis package (decision 080), through the
 * real app and sandbox: the testlib checker and interactor become the output
 * validator's folder (their files, testlib-checker.yaml, build and run), the
 * groups test groups, the solutions submissions/ by tag. The export imports
 * back here as the same testlib checker and judges the same; and with the
 * marker taken out (as any other Kattis judge sees the folder) its build/run
 * adapter judges the same through the Kattis validator protocol: exit 1 WA,
 * 7 partial where points cannot count WA, 2 PE WA, points as percent in a
 * scored group, the interactor's tout read by the checker.
 *
 * Boxes 5430–5437: a range no other file takes (box ids stay below 5534:
 * under bwrap as root a box's uid is 60000 + its id, which must stay below
 * the overflow uid 65534).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { unzipSync, zipSync } from "fflate";
import { parse, stringify } from "yaml";
import { JUDGE_TEST_BOX_ID_START } from "../judge/fixtures.ts";
import { startJudgeApp, type JudgeApp } from "../judge/app.ts";
import { request, signUp } from "../api.ts";
import { zipOf } from "./fixtures.ts";
import { GUESS_CHECKER, GUESS_INTERACTOR, HAVE_TESTLIB, polygonPackage, SUM_CHECKER, SUM_SECTIONS, testlibFile, type PolygonOptions } from "./polygon-fixtures.ts";

setDefaultTimeout(600_000);
const BOX_ID_START = 5430;

const SUM_CPP = "#include <bits/stdc++.h>\nint main(){ long long a,b; std::cin>>a>>b; std::cout<<a+b<<\"\\n\"; }\n";
const SUM_PY = "a, b = map(int, input().split())\nprint(a + b)\n";
const NEG_PY = "a, b = map(int, input().split())\nprint(-(a + b))\n";
const OFF_PY = "a, b = map(int, input().split())\nprint(a + b + 1)\n";
const TEXT_PY = "input()\nprint('sum')\n";
const SEARCH_CPP = `#include <iostream>
#include <string>
int main() { int lo = 1, hi = 1000; std::string r;
  while (lo <= hi) { int mid = (lo + hi) / 2; std::cout << "? " << mid << std::endl; if (!(std::cin >> r) || r == "=") return 0; if (r == "<") hi = mid - 1; else lo = mid + 1; } }
`;
const LINEAR_PY = "for g in range(1, 1001):\n    print('?', g, flush=True)\n    if input().strip() == '=': break\n";

const SUM_TESTS: PolygonOptions["tests"] = [
  { input: "1 2\n", answer: "3\n", sample: true },
  { input: "5 7\n", answer: "12\n" },
  { input: "1000000000 1000000000\n", answer: "2000000000\n" },
];

/** A+B on a pass-fail problem, with solutions of several tags. */
const sumPackage = () =>
  polygonPackage({
    tests: SUM_TESTS,
    solutions: [
      { tag: "main", path: "solutions/sol.cpp", code: SUM_CPP },
      { tag: "wrong-answer", path: "solutions/off.py", code: OFF_PY },
      { tag: "presentation-error", path: "solutions/text.py", code: TEXT_PY },
      { tag: "time-limit-exceeded-or-accepted", path: "solutions/fast.py", code: SUM_PY },
    ],
    extra: SUM_SECTIONS,
  });

/**
 * A+B with groups and points as percent: the samples, group 1 complete-group
 * (40 points), group 2 each-test (2 × 30): the checker's `points 50` for the
 * negated sum is nothing in group 1 and half of each test of group 2.
 */
function scoredPackage(policy1: "complete-group" | "each-test"): ReturnType<typeof polygonPackage> {
  const p1 = policy1 === "each-test" ? 20 : 0;
  return polygonPackage({
    percent: true,
    tests: [
      { input: "0 0\n", answer: "0\n", sample: true, group: "0", points: 0 },
      { input: "5 7\n", answer: "12\n", group: "1", points: p1 },
      { input: "2 2\n", answer: "4\n", group: "1", points: p1 },
      { input: "9 9\n", answer: "18\n", group: "2", points: 30 },
      { input: "-4 1\n", answer: "-3\n", group: "2", points: 30 },
    ],
    groupsXml: [
      '        <group feedback-policy="complete" name="0" points="0" points-policy="complete-group"/>',
      `        <group feedback-policy="complete" name="1" points="40" points-policy="${policy1}"/>`,
      '        <group feedback-policy="complete" name="2" points-policy="each-test">\n          <dependencies>\n            <dependency group="0"/>\n          </dependencies>\n        </group>',
    ].join("\n"),
    solutions: [
      { tag: "main", path: "solutions/sol.cpp", code: SUM_CPP },
      { tag: "wrong-answer", path: "solutions/neg.py", code: NEG_PY },
    ],
    extra: SUM_SECTIONS,
  });
}

/** Guess the number: the interactor writes tout, the checker reads it. */
const guessPackage = () =>
  polygonPackage({
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
    extra: { "statement-sections/english/legend.tex": "Find $s$ in at most 10 guesses.", "statement-sections/english/interaction.tex": "Print \\t{? g}." },
  });

const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

/**
 * The package as a Kattis judge that does not know the marker sees it: the
 * marker removed, so the folder is a program folder run by build/run. This
 * judge takes validator arguments only in data/ (not per group), so the
 * per-group `all_or_nothing` is dropped too (the groups it names have no
 * partial points in these problems' submissions, or none here).
 */
function asPlainKattis(zip: Uint8Array): Uint8Array {
  const files = unzipSync(zip);
  delete files["output_validator/testlib-checker.yaml"];
  for (const [path, content] of Object.entries(files)) {
    if (!/^data\/.+\/test_group\.yaml$/.test(path)) continue;
    const y = parse(text(content)!) as Record<string, unknown>;
    delete y.output_validator_args;
    if (Object.keys(y).length) files[path] = new TextEncoder().encode(stringify(y));
    else delete files[path];
  }
  return zipSync(files);
}

describe.skipIf(!HAVE_TESTLIB)("a Polygon problem exported as a Kattis package", () => {
  let ja: JudgeApp;
  let token: string;
  beforeAll(async () => {
    ja = await startJudgeApp(BOX_ID_START - JUDGE_TEST_BOX_ID_START, { ISOLATE_BOX_ID_COUNT: "8", SUBMIT_RATE_PER_MINUTE: "1000" });
    token = (await signUp(ja.app)).token;
  }, 60_000);
  afterAll(async () => {
    await ja?.close();
  });

  async function importZip(zip: Uint8Array) {
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zip)], { type: "application/zip" }), "p.zip");
    const res = await ja.app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    const body = await res.json();
    expect(`${res.status} ${JSON.stringify(body).slice(0, 400)}`).toStartWith("201");
    return body;
  }
  async function exportZip(id: string): Promise<Uint8Array> {
    const res = await ja.app.request(`/api/problems/${id}/package`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  }
  async function judged(problemId: string, code: string, language: string): Promise<[string, number | null, number | null]> {
    const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId, code, language } });
    expect(`${sub.status} ${JSON.stringify(sub.body).slice(0, 300)}`).toStartWith("201");
    return [sub.body.verdict, sub.body.score ?? null, sub.body.maxScore ?? null];
  }
  /** The three problems' verdicts: the Polygon import, its export imported back, and the export as a plain Kattis package. */
  async function threeWays(pkg: Uint8Array, programs: [string, string][]) {
    const first = await importZip(pkg);
    const exported = await exportZip(first.problem._id);
    const back = await importZip(exported);
    const plain = await importZip(asPlainKattis(exported));
    const out: Record<string, unknown[]> = {};
    for (const [code, lang] of programs) out[code] = await Promise.all([first, back, plain].map((b) => judged(b.problem._id, code, lang)));
    return { first, back, plain, exported: unzipSync(exported), out };
  }

  test("a pass-fail problem: the folder, submissions by tag, and the same verdicts three ways (exit 1 WA, 2 PE WA)", async () => {
    const { back, plain, exported, out } = await threeWays(zipOf(sumPackage()), [
      [SUM_CPP, "cpp"],
      [OFF_PY, "py"],
      [TEXT_PY, "py"],
    ]);
    expect(Object.keys(exported).filter((k) => k.startsWith("output_validator/")).sort()).toEqual(
      ["build", "check.cpp", "run", "testlib-checker.yaml", "testlib.h"].map((n) => `output_validator/${n}`),
    );
    expect(text(exported["output_validator/testlib-checker.yaml"])).toContain("checker: check.cpp");
    expect(parse(text(exported["data/test_group.yaml"])!)).toEqual({ output_validator_args: ["all_or_nothing"] });
    expect(Object.keys(exported).filter((k) => k.startsWith("submissions/")).sort()).toEqual([
      "submissions/accepted/sol.cpp",
      "submissions/submissions.yaml",
      "submissions/time_limit_exceeded/fast.py",
      "submissions/wrong_answer/off.py",
      "submissions/wrong_answer/text.py",
    ]);
    // TLE-or-AC as submissions.yaml's verdict lists, read back as the same expectation.
    expect(parse(text(exported["submissions/submissions.yaml"])!)).toEqual({ "time_limit_exceeded/fast.py": { permitted: ["AC", "TLE"], required: ["AC", "TLE"] } });
    expect(back.submissions).toEqual({ AC: 1, WA: 2, "TLE-or-AC": 1 });
    expect(back.problem.checker).toBe("testlib");
    expect(plain.problem.checker).toBe("custom");
    expect(out[SUM_CPP]).toEqual(Array(3).fill(["AC", null, null]));
    expect(out[OFF_PY]).toEqual(Array(3).fill(["WA", null, null]));
    expect(out[TEXT_PY]).toEqual(Array(3).fill(["WA", null, null]));
  });

  test("partial points from exit 7 where they cannot count are WA three ways, and as percent in each-test groups", async () => {
    // The negated sum gets `points 50`: WA on the pass-fail problem (all_or_nothing)...
    const pf = await threeWays(zipOf(polygonPackage({ tests: SUM_TESTS, solutions: [{ tag: "main", path: "solutions/sol.cpp", code: SUM_CPP }], extra: SUM_SECTIONS })), [[NEG_PY, "py"]]);
    expect(pf.out[NEG_PY]).toEqual(Array(3).fill(["WA", null, null]));
    // ...and half of each each-test test: 10 + 10 of group 1, 15 + 15 of group 2.
    const scored = await threeWays(zipOf(scoredPackage("each-test")), [
      [SUM_CPP, "cpp"],
      [NEG_PY, "py"],
    ]);
    expect(scored.out[SUM_CPP]).toEqual(Array(3).fill(["AC", 100, 100]));
    expect(scored.out[NEG_PY]).toEqual(Array(3).fill(["WA", 50, 100]));
    expect(text(scored.exported["output_validator/run"])).toContain("score_multiplier.txt");
  });

  test("a Python checker: no build, run calls python3; the same verdicts three ways (exit 0, 1, 2, 7 on a pass-fail problem)", async () => {
    const checker = [
      "import sys",
      "out, ans = sys.argv[2], sys.argv[3]",
      "want = int(open(ans).read().split()[0])",
      "try:",
      "    got = int(open(out).read().split()[0])",
      "except Exception:",
      "    sys.stderr.write('wrong output format: not a number\\n'); sys.exit(2)",
      "if got == want: sys.exit(0)",
      "if got == -want:",
      "    sys.stderr.write('points 50 the negation\\n'); sys.exit(7)",
      "sys.stderr.write('wrong answer\\n'); sys.exit(1)",
      "",
    ].join("\n");
    const files = polygonPackage({ tests: SUM_TESTS, checker: { path: "files/check.py", source: checker }, solutions: [{ tag: "main", path: "solutions/sol.cpp", code: SUM_CPP }], extra: SUM_SECTIONS });
    files["problem.xml"] = String(files["problem.xml"]).replace('<source path="files/check.py" type="cpp.g++17"/>', '<source path="files/check.py" type="python.3"/>');
    const { exported, plain, out } = await threeWays(zipOf(files), [
      [SUM_PY, "py"],
      [OFF_PY, "py"],
      [TEXT_PY, "py"],
      [NEG_PY, "py"],
    ]);
    expect(exported["output_validator/build"]).toBeUndefined();
    expect(text(exported["output_validator/run"])).toContain('python3 "$dir/check.py"');
    expect(plain.problem.checker).toBe("custom");
    expect(out[SUM_PY]).toEqual(Array(3).fill(["AC", null, null]));
    for (const code of [OFF_PY, TEXT_PY, NEG_PY]) expect(out[code]).toEqual(Array(3).fill(["WA", null, null]));
  });

  test("a complete-group group: its test_group.yaml tells the adapter all_or_nothing; back here the same verdict and score", async () => {
    const first = await importZip(zipOf(scoredPackage("complete-group")));
    const exported = await exportZip(first.problem._id);
    const files = unzipSync(exported);
    const groups = Object.keys(files).filter((k) => /^data\/secret\/[^/]+\/test_group\.yaml$/.test(k));
    const args = Object.fromEntries(groups.map((k) => [k, (parse(text(files[k])!) as { output_validator_args?: string[] }).output_validator_args ?? null]));
    expect(Object.values(args).filter((a) => a !== null)).toEqual([["all_or_nothing"]]);
    expect(parse(text(files["data/sample/test_group.yaml"])!)).toEqual({ output_validator_args: ["all_or_nothing"] });
    const back = await importZip(exported);
    expect(await judged(first.problem._id, NEG_PY, "py")).toEqual(["WA", 30, 100]);
    expect(await judged(back.problem._id, NEG_PY, "py")).toEqual(["WA", 30, 100]);
  });

  test("an interactive problem: the interactor and checker in one folder; the checker reads tout three ways", async () => {
    const { back, plain, exported, out } = await threeWays(zipOf(guessPackage()), [
      [SEARCH_CPP, "cpp"],
      [LINEAR_PY, "py"],
    ]);
    expect(text(exported["output_validator/testlib-checker.yaml"])).toContain("interactor: interactor.cpp");
    expect(text(exported["output_validator/build"])).toContain("-o interactor interactor.cpp");
    expect(back.problem.interactive).toBe(true);
    expect(plain.problem.interactive).toBe(true);
    expect(out[SEARCH_CPP]).toEqual(Array(3).fill(["AC", null, null]));
    expect(out[LINEAR_PY]).toEqual(Array(3).fill(["WA", null, null]));
  });

  /** A+B written here (the problem form's payload) with the given checker and files. */
  const written = (validator: Record<string, unknown> | undefined, checker = "testlib") =>
    request(ja.app, "POST", "/api/problems", {
      token,
      body: {
        title: "A plus B here",
        description: "Add two numbers.",
        inputFormat: "Two integers.",
        outputFormat: "Their sum.",
        constraints: "Small.",
        sampleInput: "1 2\n",
        sampleOutput: "3\n",
        difficulty: "easy",
        hiddenTestCases: [{ input: "5 7\n", expectedOutput: "12\n" }],
        timeLimitMs: 1000,
        memoryLimitKib: 65536,
        checker,
        ...(validator ? { validator } : {}),
      },
    });

  test("a problem written here with a testlib checker (the form's files with testlib.h) judges by testlib's rules and exports marked as such", async () => {
    const files = { "check.cpp": SUM_CHECKER, "testlib.h": testlibFile("testlib.h") };
    const created = await written({ files, args: "", testlib: { pointsAsPercent: true } });
    expect(`${created.status} ${JSON.stringify(created.body).slice(0, 300)}`).toStartWith("201");
    expect(created.body.checker).toBe("testlib");
    expect(await judged(created.body._id, SUM_PY, "py")).toEqual(["AC", null, null]);
    // Exit 7 (points 50) on a pass-fail problem, exit 1 and exit 2: all WA.
    for (const code of [NEG_PY, OFF_PY, TEXT_PY]) expect((await judged(created.body._id, code, "py"))[0]).toBe("WA");
    const exported = unzipSync(await exportZip(created.body._id));
    expect(text(exported["output_validator/testlib-checker.yaml"])).toContain("points_as_percent: true");
    const back = await importZip(zipSync(exported));
    expect(back.problem.checker).toBe("testlib");
    // Exported again: the same folder (the marker read back as the testlib checker, its scripts written anew).
    const again = unzipSync(await exportZip(back.problem._id));
    for (const name of ["testlib-checker.yaml", "run", "build", "check.cpp"]) expect(text(again[`output_validator/${name}`])).toBe(text(exported[`output_validator/${name}`]));
  });

  test("refused naming the field: a testlib checker without its files, or as a build/run folder; a Kattis marker naming no file", async () => {
    const none = await written(undefined);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain("validator");
    const scripted = await written({ files: { build: "#!/bin/sh\n", run: "#!/bin/sh\nexit 42\n" }, args: "", testlib: { pointsAsPercent: false } });
    expect(scripted.status).toBe(400);
    expect(JSON.stringify(scripted.body)).toContain("not build/run scripts");
    const pkg = unzipSync(zipOf(sumPackage(), { flat: true }));
    const first = await importZip(zipSync(pkg));
    const exported = unzipSync(await exportZip(first.problem._id));
    exported["output_validator/testlib-checker.yaml"] = new TextEncoder().encode("checker: nothere.cpp\n");
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zipSync(exported))], { type: "application/zip" }), "p.zip");
    const res = await ja.app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("output_validator/testlib-checker.yaml: checker: must name a source file of output_validator/");
  });

  /** Outputs each standard checker is tried on (with its answer): equal, reflowed, case, missing, extra, non-canonical, not a number. */
  const STD_CASES: [string, string, string[]][] = [
    ["wcmp", "hello world 42\n", ["hello world 42\n", "hello  world\n42\n\n", "Hello world 42\n", "hello world\n", "hello world 42 extra\n", ""]],
    ["ncmp", "12 -3 0\n", ["12 -3 0\n", "12\n-3\n0", "012 -3 0\n", "+12 -3 0\n", "12 -3 -0\n", "12 -3\n", "12 -3 0 5\n", "12 -3 1\n", "a b c\n"]],
    ["rcmp6", "1.5 1000000\n", ["1.5000009 1000000.9\n", "1.500002 1000000\n", "1.5 1000002\n", "1.5e0 1e6\n", "abc 1000000\n", "1.5\n", "1.5 1000000 3\n", "nan 1000000\n", "-1.5 1000000\n"]],
    ["rcmp9", "0.000000001\n", ["0.0000000015\n", "0.0000000025\n", "1e-9\n"]],
    ["yesno", "YES\n", ["yes\n", "YeS", "NO\n", "maybe\n", "YES YES\n", ""]],
    ["hcmp", "123456789012345678901234567890\n", ["123456789012345678901234567890\n", "0123456789012345678901234567890\n", "123456789012345678901234567891\n"]],
  ];

  test("testlib's standard checkers judged by the built-in comparison: the same verdicts as the compiled checker on their outputs", async () => {
    for (const [name, answer, outputs] of STD_CASES) {
      const pkg = (checkerName: string) =>
        zipOf(
          polygonPackage({
            tests: [
              { input: "1\n", answer, sample: true },
              { input: "2\n", answer },
            ],
            checker: { path: `files/${name}.cpp`, source: testlibFile(`checkers/${name}.cpp`), name: checkerName },
            solutions: [],
            extra: SUM_SECTIONS,
          }),
        );
      const fast = await importZip(pkg(`std::${name}.cpp`));
      const compiled = await importZip(pkg(`${name}.cpp`));
      expect([fast.problem.checker, compiled.problem.checker]).toEqual(["kattis", "testlib"]);
      expect(fast.warnings.join("\n")).toContain(`assets/checker std::${name}.cpp: judged by the built-in comparison`);
      const verdicts: string[][] = [];
      for (const out of outputs) {
        const code = `import sys\nsys.stdout.write(${JSON.stringify(out)})\n`;
        verdicts.push([out, (await judged(fast.problem._id, code, "py"))[0], (await judged(compiled.problem._id, code, "py"))[0]]);
      }
      expect(verdicts.map(([out, , testlib]) => [out, testlib])).toEqual(verdicts.map(([out, builtIn]) => [out, builtIn]));
      // Not vacuous: each checker accepts the first output and rejects another.
      expect(verdicts[0]![2]).toBe("AC");
      expect(verdicts.some((v) => v[2] === "WA")).toBe(true);
    }
  });
});
