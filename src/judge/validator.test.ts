/**
 * Custom output validators (src/judge/validator.ts) through the real sandbox:
 * the Kattis protocol (42 accept, 43 reject) in C++ and Python with
 * arguments, a validator that crashes, times out or does not compile is IE
 * (never AC), hidden answers never reach a later test's program, Run uses
 * the validator too, and a package's validator imports and exports.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { filesFromZip } from "../packages/files.ts";
import { readPackage } from "../packages/format.ts";
import { request, signUp } from "../../tests/api.ts";
import { startJudgeApp, type JudgeApp } from "../../tests/judge/app.ts";
import { zipOf } from "../../tests/packages/fixtures.ts";

setDefaultTimeout(90_000);
let ja: JudgeApp;
let app: JudgeApp["app"];

beforeAll(async () => {
  ja = await startJudgeApp(88);
  app = ja.app;
}, 60_000);
afterAll(async () => {
  await ja?.close();
});

/** Accepts an integer within 1 of the answer; writes its judgement to the feedback directory. */
const CPP_NEAR = `#include <bits/stdc++.h>
int main(int argc, char** argv) {
  std::ifstream in(argv[1]), ans(argv[2]);
  long long n, a, t; in >> n; ans >> a;
  if (!(std::cin >> t)) return 43;
  std::string extra; if (std::cin >> extra) return 43;
  std::ofstream(std::string(argv[3]) + "judgemessage.txt") << "diff " << (t - a) << "\\n";
  return std::llabs(t - a) <= 1 ? 42 : 43;
}
`;
/** Accepts within the tolerance given as its first argument. */
const PY_TOL = "import sys\nans = int(open(sys.argv[2]).read())\ntol = int(sys.argv[4])\ntry:\n    t = int(sys.stdin.read().split()[0])\nexcept Exception:\n    sys.exit(43)\nsys.exit(42 if abs(t - ans) <= tol else 43)\n";

const base = {
  description: "Print about 2n.",
  inputFormat: "n",
  outputFormat: "about 2n",
  constraints: "small",
  sampleInput: "5\n",
  sampleOutput: "10\n",
  difficulty: "easy",
  hiddenTestCases: [{ input: "7\n", expectedOutput: "14\n" }],
};

async function problem(token: string, validator: { files: Record<string, string>; args?: string }, extra: Record<string, unknown> = {}) {
  const res = await request(app, "POST", "/api/problems", { token, body: { ...base, title: `V ${crypto.randomUUID().slice(0, 6)}`, checker: "custom", validator, ...extra } });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body._id as string;
}
const submit = (token: string, problemId: string, code: string) => request(app, "POST", "/api/submissions", { token, body: { problemId, code, language: "py" } }).then((r) => r.body);

describe("custom output validators", () => {
  test("C++: accept (42) and reject (43) decide AC and WA", async () => {
    const me = await signUp(app);
    const id = await problem(me.token, { files: { "near.cpp": CPP_NEAR } });
    expect((await submit(me.token, id, "print(2 * int(input()) + 1)\n")).verdict).toBe("AC");
    expect((await submit(me.token, id, "print(2 * int(input()) + 2)\n")).verdict).toBe("WA");
    expect((await submit(me.token, id, "print(2 * int(input()), 'extra')\n")).verdict).toBe("WA");
  });

  test("C++ with the header it ships (as testlib-based validators ship testlib.h)", async () => {
    const me = await signUp(app);
    const header = "#pragma once\n#include <cstdlib>\ninline bool near(long long a, long long b) { return std::llabs(a - b) <= 1; }\n";
    const main = '#include <fstream>\n#include <iostream>\n#include "near.h"\nint main(int, char** argv) { std::ifstream ans(argv[2]); long long a, t; ans >> a; if (!(std::cin >> t)) return 43; return near(a, t) ? 42 : 43; }\n';
    const id = await problem(me.token, { files: { "near.h": header, "validate.cpp": main } });
    expect((await submit(me.token, id, "print(2 * int(input()) - 1)\n")).verdict).toBe("AC");
    expect((await submit(me.token, id, "print(2 * int(input()) - 2)\n")).verdict).toBe("WA");
  });

  test("Python, with the arguments it is given", async () => {
    const me = await signUp(app);
    const strict = await problem(me.token, { files: { "validate.py": PY_TOL }, args: "0" });
    const loose = await problem(me.token, { files: { "validate.py": PY_TOL }, args: "3" });
    const code = "print(2 * int(input()) + 2)\n";
    expect((await submit(me.token, strict, code)).verdict).toBe("WA");
    expect((await submit(me.token, loose, code)).verdict).toBe("AC");
  });

  test("a validator that crashes, exits otherwise, times out or does not compile is IE, never AC", async () => {
    const me = await signUp(app);
    const right = "print(2 * int(input()))\n";
    const crash = await problem(me.token, { files: { "v.cpp": "#include <cstdlib>\nint main(){ std::abort(); }\n" } });
    const other = await problem(me.token, { files: { "v.py": "import sys\nsys.exit(0)\n" } });
    const broken = await problem(me.token, { files: { "v.cpp": "int main( {\n" } });
    const slow = await problem(me.token, { files: { "v.py": "while True: pass\n" } });
    for (const id of [crash, other, broken, slow]) {
      const s = await submit(me.token, id, right);
      expect(s.verdict).toBe("IE");
      expect(s.isPassed).toBe(false);
    }
  });

  test("a later test's program never reads an earlier test's answer", async () => {
    const me = await signUp(app);
    // Accepts only "0" or "-1": what a program sees when the answer file is empty or absent.
    const v = "import sys\nout = sys.stdin.read().split()\nsys.exit(42 if out and out[0] in ('0', '-1') else 43)\n";
    const id = await problem(me.token, { files: { "v.py": v } }, {
      hiddenTestCases: [1, 2, 3].map((i) => ({ input: `${i}\n`, expectedOutput: `secret-answer-${i}\n` })),
    });
    const peek = "import os\nprint(len(open('judge_answer.ans').read()) if os.path.exists('judge_answer.ans') else -1)\n";
    const s = await submit(me.token, id, peek);
    expect(`${s.verdict} ${s.testsPassed}/${s.testsTotal}`).toBe("AC 4/4");
  });

  test("a program cannot steer the validator: a planted module the validator imports (fractions.py, its own helper's name) changes nothing", async () => {
    const me = await signUp(app);
    // A Python validator importing a standard module and a helper module of its own.
    const helper = "def near(a, b):\n    return abs(a - b) <= 0\n";
    const v = "import sys\nfrom fractions import Fraction\nfrom helper import near\nans = Fraction(open(sys.argv[2]).read().strip())\ntry:\n    t = Fraction(sys.stdin.read().split()[0])\nexcept Exception:\n    sys.exit(43)\nsys.exit(42 if near(t, ans) else 43)\n";
    const id = await problem(me.token, { files: { "validate.py": v, "helper.py": helper } });
    expect((await submit(me.token, id, "print(2 * int(input()))\n")).verdict).toBe("AC");
    // The attack: write modules into the working directory (the box) that accept anything, then answer wrong.
    const plant = [
      "import os",
      "accept = 'import sys\\nsys.exit(42)\\n'",
      "for name in ('fractions.py', 'helper.py', 'sitecustomize.py', 'usercustomize.py', 'validate.py', 'validator.py'):",
      "    try:",
      "        open(name, 'w').write(accept)",
      "    except OSError:",
      "        pass",
      "print(-12345)",
    ].join("\n") + "\n";
    const s = await submit(me.token, id, plant);
    expect(s.verdict).toBe("WA");
    expect(s.isPassed).toBe(false);
  });

  test("a program cannot read the validator: its files are never in the program's box (the sample's output would show them)", async () => {
    const me = await signUp(app);
    const marker = "VALIDATOR-SOURCE-7f3a9";
    const v = `import sys\n# ${marker}\nans = open(sys.argv[2]).read().split()\nsys.exit(42 if sys.stdin.read().split() == ans else 43)\n`;
    const id = await problem(me.token, { files: { "validate.py": v, "notes.txt": marker } });
    const snoop = [
      "import os",
      "seen = []",
      "for name in sorted(os.listdir('.')):",
      "    if name.startswith('main'):",
      "        continue",
      "    try:",
      "        seen.append(name + ':' + open(name).read())",
      "    except Exception:",
      "        seen.append(name)",
      "print(' | '.join(seen) or 'nothing')",
    ].join("\n") + "\n";
    const s = await submit(me.token, id, snoop);
    expect(s.verdict).toBe("WA");
    expect(JSON.stringify(s)).not.toContain(marker);
    expect(JSON.stringify(s)).not.toContain("validat");
    const run = await request(app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: snoop, input: "5\n", expectedOutput: "10\n", problemId: id } });
    expect(JSON.stringify(run.body)).not.toContain(marker);
  });

  test("Run against the sample uses the validator; the validator is the owner's to read; creating custom without one is refused", async () => {
    const me = await signUp(app);
    const other = await signUp(app);
    const id = await problem(me.token, { files: { "near.cpp": CPP_NEAR } });
    const run = await request(app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "print(11)\n", input: "5\n", expectedOutput: "10\n", problemId: id } });
    expect(run.body).toMatchObject({ verdict: "AC", correct: true });
    const mine = (await request(app, "GET", "/api/problems", { token: me.token })).body.find((p: { _id: string }) => p._id === id);
    expect(mine.validator).toMatchObject({ language: "cpp", main: "near.cpp" });
    const theirs = (await request(app, "GET", "/api/problems", { token: other.token })).body.find((p: { _id: string }) => p._id === id);
    expect(theirs.validator).toBeUndefined();
    const refused = await request(app, "POST", "/api/problems", { token: me.token, body: { ...base, title: "No validator", checker: "custom" } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: "validator" });
  });

  test("a Run with custom input (no expected output) on a custom-checker problem answers OK, not IE", async () => {
    const me = await signUp(app);
    const id = await problem(me.token, { files: { "near.cpp": CPP_NEAR } });
    const run = await request(app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "print(42)\n", input: "5\n", problemId: id } });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ verdict: "OK", output: "42\n" });
    expect(run.body.correct).toBeUndefined();
  });

  test("a package's validator imports, judges, and exports again", async () => {
    const me = await signUp(app);
    const files = {
      "problem.yaml": "problem_format_version: 2025-09\nname: Near Double\nlimits:\n  time_limit: 1\n",
      "statement/problem.en.md": "About $2n$.\n\n## Input\n\n$n$\n\n## Output\n\nAbout $2n$.\n",
      "data/sample/1.in": "5\n",
      "data/sample/1.ans": "10\n",
      "data/secret/1.in": "7\n",
      "data/secret/1.ans": "14\n",
      "data/test_group.yaml": "output_validator_args: ['1']\n",
      "output_validator/validate.py": PY_TOL,
    };
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zipOf(files))]), "p.zip");
    const imported = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${me.token}` }, body: form });
    expect(imported.status).toBe(201);
    const p = (await imported.json()).problem;
    // The import answers without hidden data (tests, validator: an upload may hold 512 MiB); the export below reads the validator back.
    expect(p).toMatchObject({ checker: "custom" });
    expect((await submit(me.token, p._id, "print(2 * int(input()) - 1)\n")).verdict).toBe("AC");
    const exported = await app.request(`/api/problems/${p._id}/package`, { headers: { authorization: `Bearer ${me.token}` } });
    const back = await readPackage(filesFromZip(new Uint8Array(await exported.arrayBuffer())));
    expect(back.validator).toEqual({ language: "py", main: "validate.py", args: "1", files: { "validate.py": PY_TOL } });
  });
});
