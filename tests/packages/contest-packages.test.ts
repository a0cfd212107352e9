/**
 * Packages shaped like the ones real contests publish (GCPC, NWERC, SWERC
 * exports from DOMjudge and BAPCtools), with what each of them got wrong
 * here before (issue items 10 and 11):
 *
 * - the time limit given only in DOMjudge's `domjudge-problem.ini`, or not
 *   at all (then derived from the accepted submissions at import);
 * - interactive samples given only as `data/sample/*.interaction`, or with an
 *   empty `.ans`; a legacy `output_validators/` holding `interactor.cpp`
 *   beside the `testlib.h` it includes (a testlib interactor, built against
 *   ../shared/vendor/testlib/testlib.h);
 * - a validator program folder (`build`/`run`) whose parser recurses once per
 *   term of one long output line (NWERC 2023 higherarithmetic's shape).
 *
 * Everything runs through the real sandbox (bwrap) and the REST door.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { request, signUp } from "../api.ts";
import { startJudgeApp, type JudgeApp } from "../judge/app.ts";
import { filesFromZip } from "../../src/packages/files.ts";
import { readPackage } from "../../src/packages/format.ts";
import { verifyPackage } from "../../src/packages/verify.ts";
import { problemUpdateInput } from "../../src/problems/input.ts";
import { zipOf, type Files } from "./fixtures.ts";

setDefaultTimeout(240_000);

const TESTLIB = join(import.meta.dir, "..", "..", "..", "shared", "vendor", "testlib", "testlib.h");
const testlibMissing = existsSync(TESTLIB) ? null : `the vendored testlib (${TESTLIB}) is not here`;

let ja: JudgeApp;
let token = "";
const sandboxRoot = mkdtempSync("/tmp/oj-h3-contest-");

beforeAll(async () => {
  // Box ids 5300.. (uids 65300..; the bwrap backend refuses uids at 65534 and above) and a sandbox root of this file's own.
  ja = await startJudgeApp(1800, { SANDBOX_ROOT: sandboxRoot });
  token = (await signUp(ja.app)).token;
}, 60_000);

afterAll(async () => {
  await ja?.close();
  rmSync(sandboxRoot, { recursive: true, force: true });
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

async function submit(problemId: string, code: string, language: string) {
  const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId, code, language } });
  expect(`${sub.status} ${JSON.stringify(sub.body).slice(0, 300)}`).toStartWith("201");
  return sub.body;
}

/** The owner's view of a problem, without what a new import changes (id, dates, version). */
async function ownView(id: string) {
  const list = await request(ja.app, "GET", "/api/problems", { token });
  const { _id, user, __v, createdAt, updatedAt, ...content } = list.body.find((x: { _id: string }) => x._id === id);
  void _id, user, __v, createdAt, updatedAt;
  return content;
}

const ADD_PY = "a, b = map(int, input().split())\nprint(a + b)\n";

/** A legacy package as DOMjudge exports it (GCPC 2021): no limits in problem.yaml, the limit in domjudge-problem.ini. */
function domjudgeExport(ini: string): Files {
  return {
    "problem.yaml": "name: Add Slowly\nsource: GCPC 2021\n",
    "domjudge-problem.ini": ini,
    "problem_statement/problem.en.tex": "\\problemname{Add Slowly}\nAdd $a$ and $b$.\n\\section*{Input}\nTwo integers.\n\\section*{Output}\nTheir sum.\n",
    "data/sample/1.in": "1 2\n",
    "data/sample/1.ans": "3\n",
    "data/secret/1.in": "5 6\n",
    "data/secret/1.ans": "11\n",
    "submissions/accepted/add.py": ADD_PY,
  };
}

describe("the time limit a contest used", () => {
  test("domjudge-problem.ini's timelimit (quoted or not) is the limit; the import says where it came from, and export keeps it", async () => {
    for (const ini of ["probid = 'A'\nname = 'Add Slowly'\ntimelimit = '8'\ncolor = '#ff0000'\n", 'timelimit = "8"\n', "timelimit=8\n"]) {
      const pkg = await readPackage(filesFromZip(zipOf(domjudgeExport(ini))));
      expect([pkg.timeLimitMs, pkg.timeLimitSource]).toEqual([8000, "domjudge-problem.ini"]);
    }
    // problem.yaml's key and .timelimit come first, in that order.
    const both = { ...domjudgeExport("timelimit = '8'\n"), ".timelimit": "3\n" };
    expect((await readPackage(filesFromZip(zipOf(both)))).timeLimitSource).toBe(".timelimit");
    const yaml = { ...both, "problem.yaml": "name: Add Slowly\nlimits:\n  time_limit: 5\n" };
    expect((await readPackage(filesFromZip(zipOf(yaml)))).timeLimitMs).toBe(5000);
    await expect(readPackage(filesFromZip(zipOf(domjudgeExport("name = 'x'\ntimelimit = 'soon'\n"))))).rejects.toThrow("domjudge-problem.ini:2: timelimit must be a positive number of seconds");

    const imported = await importZip(zipOf(domjudgeExport("timelimit = '8'\n")));
    expect(imported.problem.timeLimitMs).toBe(8000);
    expect(imported.timeLimitSource).toBe("domjudge-problem.ini");
    expect(imported.timeLimitFrom).toContain("domjudge-problem.ini");
    expect(imported.warnings.join("\n")).not.toContain("time limit");
    const exported = filesFromZip(await exportZip(imported.problem._id));
    expect(new TextDecoder().decode(exported.get("problem.yaml")!)).toContain("time_limit: 8");
    expect((await importZip(await exportZip(imported.problem._id))).problem.timeLimitMs).toBe(8000);
  });

  test("a package that states no limit anywhere gets one derived from its accepted submissions at import, and says so", async () => {
    const files = domjudgeExport("");
    delete files["domjudge-problem.ini"];
    const imported = await importZip(zipOf(files));
    // A fast accepted submission: T_ac × 5 (legacy time_multiplier) rounded up to whole seconds is 1 s, not the form's 2 s.
    expect(imported.timeLimitSource).toBe("derived");
    expect(imported.problem.timeLimitMs).toBe(1000);
    expect(imported.timeLimitFrom).toContain("derived from 1 accepted submission");
    expect(imported.warnings.join("\n")).not.toContain("states no time limit");
    const list = await request(ja.app, "GET", "/api/problems", { token });
    expect(list.body.find((p: { _id: string }) => p._id === imported.problem._id).timeLimitMs).toBe(1000);
    // Without accepted submissions nothing can be derived: the default, with a warning that says why.
    delete files["submissions/accepted/add.py"];
    const bare = await importZip(zipOf(files));
    expect([bare.timeLimitSource, bare.problem.timeLimitMs]).toEqual(["default", 2000]);
    expect(bare.warnings.join("\n")).toContain("states no time limit");
    expect(bare.warnings.join("\n")).toContain("no accepted submissions");
  });
});

/**
 * A guessing game's testlib interactor, as Polygon-trained setters write them
 * for DOMjudge: the exit codes are the Kattis protocol's, and the format's
 * arguments are handed to testlib in its own order (an unpatched testlib.h
 * would write its log over the answer file and read the feedback directory
 * as the answer).
 */
const TESTLIB_INTERACTOR = `#define OK_EXIT_CODE 42
#define WA_EXIT_CODE 43
#define PE_EXIT_CODE 43
#define FAIL_EXIT_CODE 1
#include "testlib.h"
#include <iostream>

int main(int argc, char* argv[]) {
  // Called as the format calls an interactor (input answer feedback_dir); testlib's order is input, its own output file, answer.
  if (argc < 4) return 1;
  std::string log = std::string(argv[3]) + "/judgemessage.txt";
  char* args[] = {argv[0], argv[1], const_cast<char*>(log.c_str()), argv[2]};
  registerInteraction(4, args);
  int secret = inf.readInt();
  for (int q = 1; q <= 10; q++) {
    std::string op = ouf.readToken();
    if (op != "?") quitf(_wa, "expected a guess, got %s", op.c_str());
    int g = ouf.readInt(1, 1000, "g");
    if (g == secret) {
      std::cout << "=" << std::endl;
      quitf(_ok, "found in %d guesses", q);
    }
    std::cout << (secret < g ? "<" : ">") << std::endl;
  }
  quitf(_wa, "more than 10 guesses");
}
`;

const SEARCH_PY = "lo, hi = 1, 1000\nwhile lo <= hi:\n    mid = (lo + hi) // 2\n    print('?', mid, flush=True)\n    r = input().strip()\n    if r == '=': break\n    if r == '<': hi = mid - 1\n    else: lo = mid + 1\n";
const LINEAR_PY = "for g in range(1, 1001):\n    print('?', g, flush=True)\n    if input().strip() == '=': break\n";
const INTERACTION = ">? 500\n<<\n>? 250\n<>\n>? 375\n<<\n>? 312\n<<\n>? 281\n<<\n>? 265\n<<\n>? 257\n<<\n>? 253\n<<\n>? 251\n<>\n>? 252\n<=\n";

/** GCPC 2022's shape: legacy, interactor.cpp beside testlib.h directly in output_validators/, the sample only as its .interaction, empty answers. */
function gcpcInteractive(): Files {
  return {
    "problem.yaml": "name: Guess with Testlib\nsource: GCPC 2022\nvalidation: custom interactive\n",
    "domjudge-problem.ini": "timelimit = '2'\n",
    "problem_statement/problem.en.tex": "\\problemname{Guess with Testlib}\nFind the secret number $s$ ($1 \\le s \\le 1000$) in at most 10 guesses.\n",
    "output_validators/interactor.cpp": TESTLIB_INTERACTOR,
    "output_validators/testlib.h": testlibMissing ? "" : readFileSync(TESTLIB, "utf8"),
    "data/sample/1.interaction": INTERACTION,
    "data/secret/1.in": "1\n",
    "data/secret/1.ans": "",
    "data/secret/2.in": "537\n",
    "data/secret/2.ans": "",
    "submissions/accepted/search.py": SEARCH_PY,
    "submissions/wrong_answer/linear.py": LINEAR_PY,
  };
}

describe("real interactive packages", () => {
  test.skipIf(testlibMissing !== null)(`GCPC's shape: a testlib interactor beside its testlib.h, the sample only as .interaction, empty answers: read, verified, imported and judged (${testlibMissing ?? "testlib present"})`, async () => {
    const pkg = await readPackage(filesFromZip(zipOf(gcpcInteractive())));
    expect(pkg).toMatchObject({ interactive: true, timeLimitMs: 2000 });
    expect(Object.keys(pkg.validator!.files).sort()).toEqual(["interactor.cpp", "testlib.h"]);
    expect(pkg.validator!.main).toBe("interactor.cpp");
    expect(pkg.tests.map((t) => [t.name, t.sample])).toEqual([["data/secret/1", false], ["data/secret/2", false]]);
    expect(pkg.sampleInteractions).toEqual([{ name: "data/sample/1", text: INTERACTION }]);
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict, r.note ?? ""])).toEqual([
      ["submissions/accepted/search.py", "AC", ""],
      ["submissions/wrong_answer/linear.py", "WA", ""],
    ]);

    const { problem } = await importZip(zipOf(gcpcInteractive()));
    expect(problem).toMatchObject({ interactive: true, checker: "custom", sampleInput: "", sampleOutput: "", hiddenTestCount: 2 });
    expect(problem.description).toContain(INTERACTION.trimEnd());
    expect((await submit(problem._id, SEARCH_PY, "py")).verdict).toBe("AC");
    const wa = await submit(problem._id, LINEAR_PY, "py");
    expect(wa.verdict).toBe("WA");
    // Judged from the first hidden test on (no sample to run as test 0).
    const again = await importZip(await exportZip(problem._id));
    expect(await ownView(again.problem._id)).toEqual(await ownView(problem._id));
  });

  test("NWERC's shape: a sample with an input, an empty answer and its interaction is shown and judged; export and import give it back unchanged", async () => {
    const files: Files = {
      "problem.yaml": "problem_format_version: 2023-07-draft\nname: Guess Again\nuuid: 3f0f2b5c-0000-4000-8000-0000000000b1\ntype: interactive\nlimits:\n  time_limit: 1\n",
      "statement/problem.en.md": "Find the secret number.\n\n## Input\n\nAfter each guess: `<`, `>` or `=`.\n\n## Output\n\nGuesses `? g`.\n",
      "output_validator/guess.cpp": readFileSync(join(import.meta.dir, "..", "judge", "_problems", "validators", "guess.cpp"), "utf8"),
      "data/sample/1.in": "252\n",
      "data/sample/1.ans": "",
      "data/sample/1.interaction": INTERACTION,
      "data/sample/2.interaction": ">? 500\n<=\n",
      "data/secret/1.in": "1000\n",
      "data/secret/1.ans": "",
      "submissions/accepted/search.py": SEARCH_PY,
    };
    const { problem } = await importZip(zipOf(files));
    expect(problem).toMatchObject({ interactive: true, sampleInput: "252\n", sampleOutput: "", hiddenTestCount: 2 });
    expect(problem.description).toContain("## Sample interactions");
    expect(problem.description).toContain(">? 500\n<=");
    const ac = await submit(problem._id, SEARCH_PY, "py");
    expect(ac).toMatchObject({ verdict: "AC", testsTotal: 2, testsPassed: 2 });
    // A program that finds 1000 but not 252 fails the sample, which is judged (as the first hidden test).
    const onlyHigh = "print('? 1000', flush=True)\ninput()\n";
    expect((await submit(problem._id, onlyHigh, "py")).verdict).toBe("WA");
    // The owner may save the problem as it is (the form sends interactive with it); a problem that is not interactive needs its sample answer.
    expect(problemUpdateInput.safeParse({ id: problem._id, sampleOutput: "", interactive: true }).success).toBe(true);
    const refused = problemUpdateInput.safeParse({ id: problem._id, sampleOutput: "" });
    expect(refused.success ? [] : refused.error.issues.map((i) => i.path.join("."))).toEqual(["sampleOutput"]);
    const exported = filesFromZip(await exportZip(problem._id));
    expect([...exported.keys()].filter((k) => k.startsWith("data/")).sort()).toEqual(["data/sample/001.ans", "data/sample/001.in", "data/secret/001.ans", "data/secret/001.in"]);
    const again = await importZip(await exportZip(problem._id));
    expect(await ownView(again.problem._id)).toEqual(await ownView(problem._id));
  });
});

/**
 * NWERC 2023 higherarithmetic's shape: a validator program folder (build and
 * run) whose parser takes one long expression and recurses once per term
 * (expr := term ['+' expr]), as a plain recursive-descent parser does.
 */
const RECURSIVE_VALIDATOR = `#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>
// A value kept modulo two primes: exact enough to compare with the jury's value.
struct Val { long long m1, m2; };
static const long long P1 = 1000000007LL, P2 = 998244353LL;
static std::string s; static size_t pos = 0; static std::vector<long long> a; static size_t k = 0;
static Val add(Val x, Val y) { return { (x.m1 + y.m1) % P1, (x.m2 + y.m2) % P2 }; }
static Val mul(Val x, Val y) { return { x.m1 * y.m1 % P1, x.m2 * y.m2 % P2 }; }
static Val atom() {
  std::string digits;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') digits += s[pos++];
  if (digits.empty() || k >= a.size() || a[k++] != std::stoll(digits)) std::exit(43);
  long long v = std::stoll(digits);
  return { v % P1, v % P2 };
}
static Val term() { Val v = atom(); if (pos < s.size() && s[pos] == '*') { pos++; Val rest = term(); return mul(v, rest); } return v; }
static Val expr() { Val v = term(); if (pos < s.size() && s[pos] == '+') { pos++; Val rest = expr(); return add(v, rest); } return v; }
int main(int argc, char** argv) {
  if (argc < 4) return 1;
  std::ifstream in(argv[1]), ans(argv[2]);
  int n; in >> n; a.resize(n); for (auto& x : a) in >> x;
  long long want; ans >> want;
  if (!std::getline(std::cin, s)) return 43;
  Val got = expr();
  std::ofstream(std::string(argv[3]) + "/judgemessage.txt") << "value " << got.m1 << "\\n";
  return pos == s.size() && k == a.size() && got.m1 == want % P1 && got.m2 == want % P2 ? 42 : 43;
}
`;

function longExpressionPackage(): Files {
  // 2·10^6 terms: the answer is one line of 4 MB, and the parser recurses 2·10^6 deep (~112 MB of stack at -O0).
  const n = 2_000_000;
  return {
    "problem.yaml": "problem_format_version: 2023-07-draft\nname: Sum It Up\nuuid: 3f0f2b5c-0000-4000-8000-0000000000b2\nlimits:\n  time_limit: 4\n",
    "statement/problem.en.md": "Write the sum of the numbers as one expression.\n\n## Input\n\n$n$, then $n$ digits.\n\n## Output\n\nOne line.\n",
    "output_validator/build": "#!/bin/sh\nset -e\ng++ -O0 -std=gnu++17 -o validator validator.cpp\n",
    "output_validator/run": "#!/bin/sh\nexec ./validator \"$@\"\n",
    "output_validator/validator.cpp": RECURSIVE_VALIDATOR,
    "data/sample/1.in": "3\n1 2 3\n",
    "data/sample/1.ans": "6\n",
    "data/secret/1.in": `${n}\n${"1 ".repeat(n).trimEnd()}\n`,
    "data/secret/1.ans": `${n}\n`,
    "submissions/accepted/join.py": "import sys\nsys.stdin.readline()\nprint('+'.join(sys.stdin.readline().split()))\n",
  };
}

describe("a validator program folder reading one long line (NWERC 2023 higherarithmetic)", () => {
  test("an accepted submission whose output is one long expression is AC, in verify and when judged", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(longExpressionPackage())));
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict, r.note ?? ""])).toEqual([["submissions/accepted/join.py", "AC", ""]]);
    const { problem } = await importZip(zipOf(longExpressionPackage()));
    const sub = await submit(problem._id, "import sys\nsys.stdin.readline()\nprint('+'.join(sys.stdin.readline().split()))\n", "py");
    expect([sub.verdict, sub.testsPassed, sub.testsTotal]).toEqual(["AC", 2, 2]);
  });
});
