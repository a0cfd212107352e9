/**
 * Interactive, multi-pass and scoring packages, written here as problemtools
 * expects them (2025-09 `type: interactive` / `multi-pass` / `scoring` with
 * test groups, legacy `validation: custom interactive` and `testdata.yaml`
 * graders): read, verified (their example
 * submissions judged as their folders say, through the real sandbox), imported
 * through the REST door, exported and imported again unchanged.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request, signUp } from "../api.ts";
import { startJudgeApp, type JudgeApp } from "../judge/app.ts";
import { filesFromZip } from "../../src/packages/files.ts";
import { readPackage } from "../../src/packages/format.ts";
import { verifyPackage } from "../../src/packages/verify.ts";
import { zipOf, type Files } from "./fixtures.ts";

setDefaultTimeout(180_000);

const validators = join(import.meta.dir, "..", "judge", "_problems", "validators");
const source = (name: string) => readFileSync(join(validators, name), "utf8");

const SEARCH_CPP = `#include <iostream>
#include <string>
int main() {
  int lo = 1, hi = 1000; std::string r;
  while (lo <= hi) { int mid = (lo + hi) / 2; std::cout << "? " << mid << std::endl; if (!(std::cin >> r) || r == "=") return 0; if (r == "<") hi = mid - 1; else lo = mid + 1; }
}
`;
const SEARCH_PY = "lo, hi = 1, 1000\nwhile lo <= hi:\n    mid = (lo + hi) // 2\n    print('?', mid, flush=True)\n    r = input().strip()\n    if r == '=': break\n    if r == '<': hi = mid - 1\n    else: lo = mid + 1\n";
const LINEAR_PY = "for g in range(1, 1001):\n    print('?', g, flush=True)\n    if input().strip() == '=': break\n";
const SILENT_CPP = "#include <unistd.h>\nint main() { sleep(30); }\n";
const CRASH_CPP = "#include <cstdlib>\n#include <iostream>\nint main() { std::cout << \"? 500\" << std::endl; std::string r; std::cin >> r; std::abort(); }\n";

const INTERACTION = ">? 500\n<<\n>? 250\n<>\n>? 375\n<<\n>? 312\n<<\n>? 281\n<<\n>? 265\n<<\n>? 257\n<<\n>? 253\n<<\n>? 251\n<>\n>? 252\n<=\n";

function guessPackage(): Files {
  return {
    "problem.yaml": "problem_format_version: 2025-09\nname: Guess the Number\nuuid: 3f0f2b5c-0000-4000-8000-000000000023\ntype: interactive\nlimits:\n  time_limit: 1\n",
    "statement/problem.en.md": "Find the secret number $s$ ($1 \\le s \\le 1000$) in at most 10 guesses.\n\n## Input\n\nAfter each guess: `<`, `>` or `=`.\n\n## Output\n\nGuesses `? g`.\n",
    "output_validator/guess.cpp": source("guess.cpp"),
    "data/sample/1.in": "252\n",
    "data/sample/1.ans": "252\n",
    "data/sample/1.interaction": INTERACTION,
    "data/secret/1.in": "1\n",
    "data/secret/1.ans": "1\n",
    "data/secret/2.in": "1000\n",
    "data/secret/2.ans": "1000\n",
    "data/secret/3.in": "537\n",
    "data/secret/3.ans": "537\n",
    "submissions/accepted/search.cpp": SEARCH_CPP,
    "submissions/accepted/search.py": SEARCH_PY,
    "submissions/wrong_answer/linear.py": LINEAR_PY,
    "submissions/time_limit_exceeded/silent.cpp": SILENT_CPP,
    "submissions/run_time_error/crash.cpp": CRASH_CPP,
  };
}

function legacyGuessPackage(): Files {
  return {
    "problem.yaml": "validation: custom interactive\nlimits:\n  time_multiplier: 5\n",
    "problem_statement/problem.tex": "\\problemname{Guess the Number}\nFind the secret number in at most 10 guesses.\n",
    "output_validators/guess/guess.py": source("guess.py"),
    "data/sample/1.in": "500\n",
    "data/sample/1.ans": "500\n",
    "data/secret/1.in": "999\n",
    "data/secret/1.ans": "999\n",
    "submissions/accepted/search.py": SEARCH_PY,
    "submissions/wrong_answer/linear.py": LINEAR_PY,
  };
}

function relayPackage(): Files {
  return {
    "problem.yaml": "problem_format_version: 2025-09\nname: Relay\nuuid: 3f0f2b5c-0000-4000-8000-000000000024\ntype: multi-pass\nlimits:\n  time_limit: 1\n  validation_passes: 2\n",
    "statement/problem.en.md": "Carry a number from the first pass to the second.\n\n## Input\n\n`encode x` or `decode w`.\n\n## Output\n\nA word, or $x$.\n",
    "output_validator/relay.py": source("relay.py"),
    "data/sample/1.in": "encode 42\n",
    "data/sample/1.ans": "42\n",
    "data/secret/1.in": "encode 999999999\n",
    "data/secret/1.ans": "999999999\n",
    "submissions/accepted/letters.py": "kind, v = input().split()\nprint(''.join(chr(97 + int(d)) for d in v) if kind == 'encode' else ''.join(str(ord(c) - 97) for c in v))\n",
    "submissions/wrong_answer/state.py":
      "import os\nkind, v = input().split()\nif kind == 'encode':\n    open('state', 'w').write(v)\n    print('a')\nelse:\n    print(open('state').read() if os.path.exists('state') else 0)\n",
  };
}

let ja: JudgeApp;
let token = "";

beforeAll(async () => {
  ja = await startJudgeApp(500);
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
  expect(`${res.status} ${JSON.stringify(body).slice(0, 300)}`).toStartWith("201");
  return body.problem;
}

async function exportZip(id: string): Promise<Uint8Array> {
  const res = await ja.app.request(`/api/problems/${id}/package`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The owner's view of a problem, without what a new import changes (id, dates, version). */
async function ownView(id: string) {
  const list = await request(ja.app, "GET", "/api/problems", { token });
  const { _id, user, __v, createdAt, updatedAt, ...content } = list.body.find((x: { _id: string }) => x._id === id);
  void _id, user, __v, createdAt, updatedAt;
  return content;
}

describe("an interactive package (2025-09)", () => {
  test("reads as interactive, and verify judges its examples as their folders say", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(guessPackage())));
    expect(pkg).toMatchObject({ interactive: true, validationPasses: 1 });
    expect(pkg.tests[0]!.interaction).toBe(INTERACTION);
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict, r.ok])).toEqual([
      ["submissions/accepted/search.cpp", "AC", true],
      ["submissions/accepted/search.py", "AC", true],
      ["submissions/run_time_error/crash.cpp", "RE", true],
      ["submissions/time_limit_exceeded/silent.cpp", "TLE", true],
      ["submissions/wrong_answer/linear.py", "WA", true],
    ]);
    expect(report.ok).toBe(true);
  });

  test("imports as an interactive problem with its sample interaction in the statement, exports as one, and imports again unchanged", async () => {
    const first = await importZip(zipOf(guessPackage()));
    expect(first).toMatchObject({ interactive: true, checker: "custom", validationPasses: 1, sampleInput: "252\n" });
    expect(first.description).toContain("## Sample interaction");
    expect(first.description).toContain(INTERACTION.trimEnd());
    const exported = await exportZip(first._id);
    const again = await readPackage(filesFromZip(exported));
    expect(again).toMatchObject({ interactive: true, validationPasses: 1 });
    expect(Object.keys(again.validator!.files)).toEqual(["guess.cpp"]);
    const second = await importZip(exported);
    expect(await ownView(second._id)).toEqual(await ownView(first._id));
    // And it judges the same.
    const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: second._id, code: SEARCH_CPP, language: "cpp" } });
    expect(sub.body.verdict).toBe("AC");
  });
});

describe("an interactive package (legacy: validation: custom interactive)", () => {
  test("reads, verifies and imports; the title comes from \\problemname", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(legacyGuessPackage())));
    expect(pkg).toMatchObject({ formatVersion: "legacy", interactive: true, name: "Guess the Number" });
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict])).toEqual([
      ["submissions/accepted/search.py", "AC"],
      ["submissions/wrong_answer/linear.py", "WA"],
    ]);
    const p = await importZip(zipOf(legacyGuessPackage()));
    expect(p).toMatchObject({ interactive: true, title: "Guess the Number" });
  });
});

/** The guessing game with its validator as a program folder: build and run scripts, and two sources of which build picks one. */
function scriptedGuessPackage(build: string): Files {
  const files = guessPackage();
  delete files["output_validator/guess.cpp"];
  return {
    ...files,
    "problem.yaml": (files["problem.yaml"] as string).replace("3f0f2b5c-0000-4000-8000-000000000023", "3f0f2b5c-0000-4000-8000-000000000026"),
    "output_validator/guess.cpp": source("guess.cpp"),
    // A second source with a main() that accepts everything: built, a wrong answer would pass.
    "output_validator/lenient.cpp": "int main() { return 42; }\n",
    "output_validator/build": build,
    "output_validator/run": "#!/bin/sh\nexec ./guess \"$@\"\n",
  };
}

describe("a validator folder with build and run scripts (the format's Programs)", () => {
  const BUILD = "#!/bin/sh\nset -e\ng++ -O2 -std=gnu++17 -o guess guess.cpp\n";

  test("reads as a scripted validator; verify builds it once in the validator's box and judges the examples as their folders say", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(scriptedGuessPackage(BUILD))));
    expect(pkg.validator).toMatchObject({ language: "script", main: "run" });
    expect(Object.keys(pkg.validator!.files).sort()).toEqual(["build", "guess.cpp", "lenient.cpp", "run"]);
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict, r.ok])).toEqual([
      ["submissions/accepted/search.cpp", "AC", true],
      ["submissions/accepted/search.py", "AC", true],
      ["submissions/run_time_error/crash.cpp", "RE", true],
      ["submissions/time_limit_exceeded/silent.cpp", "TLE", true],
      // The build picked guess.cpp: lenient.cpp would have accepted it.
      ["submissions/wrong_answer/linear.py", "WA", true],
    ]);
  });

  test("imports, judges through the compile cache (one build for many submissions), exports the folder and imports again unchanged", async () => {
    const first = await importZip(zipOf(scriptedGuessPackage(BUILD)));
    expect(first).toMatchObject({ interactive: true, checker: "custom" });
    const ac = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: first._id, code: SEARCH_CPP, language: "cpp" } });
    expect(ac.body.verdict).toBe("AC");
    const wa = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: first._id, code: LINEAR_PY, language: "py" } });
    expect(wa.body.verdict).toBe("WA");
    // A new submission compiles itself only: the validator's build is cached like a compile.
    const before = ja.judge.cache.stats.compiles;
    const fresh = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: first._id, code: `${SEARCH_CPP}// ${crypto.randomUUID()}\n`, language: "cpp" } });
    expect(fresh.body.verdict).toBe("AC");
    expect(ja.judge.cache.stats.compiles - before).toBe(1);
    const exported = await exportZip(first._id);
    const files = filesFromZip(exported);
    expect([...files.keys()].filter((k) => k.startsWith("output_validator/")).sort()).toEqual(["output_validator/build", "output_validator/guess.cpp", "output_validator/lenient.cpp", "output_validator/run"]);
    const second = await importZip(exported);
    expect(await ownView(second._id)).toEqual(await ownView(first._id));
  });

  test("a build that fails is the problem's fault: IE with the build's own words, never a verdict for the submission", async () => {
    const broken = scriptedGuessPackage("#!/bin/sh\necho 'no compiler flags today' >&2\nexit 3\n");
    const report = await verifyPackage(ja.sandbox.backend!, await readPackage(filesFromZip(zipOf(broken))));
    expect(report.rows.every((r) => r.verdict === "IE")).toBe(true);
    expect(report.rows[0]!.note).toContain("does not build: build failed (exit 3): no compiler flags today");
    const problem = await importZip(zipOf(broken));
    const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: problem._id, code: SEARCH_CPP, language: "cpp" } });
    expect(sub.body.verdict).toBe("IE");
    // A folder whose build leaves no run file is refused the same way.
    const noRun = { ...scriptedGuessPackage("#!/bin/sh\ng++ -o guess guess.cpp\n") };
    delete noRun["output_validator/run"];
    const r2 = await verifyPackage(ja.sandbox.backend!, await readPackage(filesFromZip(zipOf(noRun))));
    expect(r2.rows[0]!.note).toContain("build did not leave a run file");
  });

  test("a run script alone (no build): a Python validator started by its script (legacy layout)", async () => {
    const files = legacyGuessPackage();
    files["output_validators/guess/run"] = "#!/bin/sh\nexec python3 guess.py \"$@\"\n";
    const pkg = await readPackage(filesFromZip(zipOf(files)));
    expect(pkg.validator).toMatchObject({ language: "script" });
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict])).toEqual([
      ["submissions/accepted/search.py", "AC"],
      ["submissions/wrong_answer/linear.py", "WA"],
    ]);
  });
});

describe("a multi-pass package", () => {
  test("reads with its passes, verifies (state kept in the box between passes does not help), round-trips", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(relayPackage())));
    expect(pkg).toMatchObject({ interactive: false, validationPasses: 2 });
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict])).toEqual([
      ["submissions/accepted/letters.py", "AC"],
      ["submissions/wrong_answer/state.py", "WA"],
    ]);
    const first = await importZip(zipOf(relayPackage()));
    expect(first).toMatchObject({ interactive: false, validationPasses: 2 });
    const exported = await exportZip(first._id);
    expect(new TextDecoder().decode(filesFromZip(exported).get("problem.yaml")!)).toContain("multi-pass");
    const second = await importZip(exported);
    expect(await ownView(second._id)).toEqual(await ownView(first._id));
  });
});

const SUM_FULL = "a, b = map(int, input().split())\nprint(a + b)\n";
const SUM_SMALL = "# @EXPECTED_SCORE@: 45\na, b = map(int, input().split())\nprint(a + b if a <= 100 else 0)\n";
const SUM_NONE = "print(0)\n";

function scoringPackage(): Files {
  return {
    "problem.yaml": "problem_format_version: 2025-09\nname: A Plus B by Subtasks\nuuid: 3f0f2b5c-0000-4000-8000-000000000025\ntype: scoring\nlimits:\n  time_limit: 1\n",
    "statement/problem.en.md": "Add $a$ and $b$.\n\n## Input\n\nTwo integers.\n\n## Output\n\nTheir sum.\n",
    "data/sample/1.in": "1 2\n",
    "data/sample/1.ans": "3\n",
    "data/secret/test_group.yaml": "max_score: 100\n",
    "data/secret/1-small/test_group.yaml": "max_score: 20\n",
    "data/secret/1-small/a.in": "3 4\n",
    "data/secret/1-small/a.ans": "7\n",
    "data/secret/2-medium/test_group.yaml": "max_score: 30\nrequire_pass: secret/1-small\n",
    "data/secret/2-medium/a.in": "1000 2000\n",
    "data/secret/2-medium/a.ans": "3000\n",
    "data/secret/3-large/test_group.yaml": "max_score: 50\nscore_aggregation: sum\n",
    "data/secret/3-large/a.in": "2000000000 2000000000\n",
    "data/secret/3-large/a.ans": "4000000000\n",
    "data/secret/3-large/b.in": "-2000000000 -2000000000\n",
    "data/secret/3-large/b.ans": "-4000000000\n",
    "submissions/accepted/full.py": SUM_FULL,
    "submissions/partially_accepted/small.py": SUM_SMALL,
    "submissions/wrong_answer/none.py": SUM_NONE,
    "submissions/submissions.yaml": "wrong_answer/none.py:\n  score: 0\n",
  };
}

describe("a scoring package (2025-09 test groups)", () => {
  test("reads its groups, verifies the expected scores, imports, exports and imports again unchanged", async () => {
    const pkg = await readPackage(filesFromZip(zipOf(scoringPackage())));
    expect(pkg.scoring).toEqual({
      maxScore: 100,
      aggregation: "sum",
      requirePass: [],
      groups: [
        { name: "1-small", maxScore: 20, aggregation: "pass-fail", requirePass: [], testCount: 1 },
        { name: "2-medium", maxScore: 30, aggregation: "pass-fail", requirePass: ["1-small"], testCount: 1 },
        { name: "3-large", maxScore: 50, aggregation: "sum", requirePass: [], testCount: 2 },
      ],
    });
    expect(pkg.submissions.map((s) => [s.path, s.expected, s.expectedScore])).toEqual([
      ["submissions/accepted/full.py", "AC", undefined],
      ["submissions/partially_accepted/small.py", "PAC", [45, 45]],
      ["submissions/wrong_answer/none.py", "WA", [0, 0]],
    ]);
    const report = await verifyPackage(ja.sandbox.backend!, pkg);
    expect(report.rows.map((r) => [r.path, r.verdict, r.score, r.ok])).toEqual([
      ["submissions/accepted/full.py", "AC", 100, true],
      ["submissions/partially_accepted/small.py", "WA", 45, true],
      ["submissions/wrong_answer/none.py", "WA", 0, true],
    ]);
    const first = await importZip(zipOf(scoringPackage()));
    expect(first.scoring.groups.map((g: { name: string }) => g.name)).toEqual(["1-small", "2-medium", "3-large"]);
    const exported = await exportZip(first._id);
    const files = filesFromZip(exported);
    expect(new TextDecoder().decode(files.get("data/secret/2-medium/test_group.yaml")!)).toContain("secret/1-small");
    const second = await importZip(exported);
    expect(await ownView(second._id)).toEqual(await ownView(first._id));
    const sub = await request(ja.app, "POST", "/api/submissions", { token, body: { problemId: second._id, code: SUM_SMALL, language: "py" } });
    expect(sub.body).toMatchObject({ verdict: "WA", score: 45, maxScore: 100 });
  });

  test("a wrong expected score fails verify, naming the score", async () => {
    const files = scoringPackage();
    files["submissions/submissions.yaml"] = "wrong_answer/none.py:\n  score: 10\n";
    const report = await verifyPackage(ja.sandbox.backend!, await readPackage(filesFromZip(zipOf(files))));
    const row = report.rows.find((r) => r.path.endsWith("none.py"))!;
    expect(row.ok).toBe(false);
    expect(row.note).toContain("expected a score in [10, 10], got WA 0/100");
  });
});

describe("a scoring package (legacy testdata.yaml graders)", () => {
  test("min groups are all-or-nothing worth accept_score; the default sums accept_score per test", async () => {
    const files: Files = {
      "problem.yaml": "name: Legacy Subtasks\ntype: scoring\n",
      "problem_statement/problem.tex": "Add two numbers.\n",
      "data/sample/1.in": "1 2\n",
      "data/sample/1.ans": "3\n",
      "data/secret/g1/testdata.yaml": "grader_flags: min\naccept_score: 40\n",
      "data/secret/g1/1.in": "3 4\n",
      "data/secret/g1/1.ans": "7\n",
      "data/secret/g2/testdata.yaml": "accept_score: 30\n",
      "data/secret/g2/1.in": "1000 2000\n",
      "data/secret/g2/1.ans": "3000\n",
      "data/secret/g2/2.in": "5 5\n",
      "data/secret/g2/2.ans": "10\n",
    };
    const pkg = await readPackage(filesFromZip(zipOf(files)));
    expect(pkg.scoring).toMatchObject({ maxScore: 100, groups: [{ name: "g1", maxScore: 40, aggregation: "pass-fail" }, { name: "g2", maxScore: 60, aggregation: "sum" }] });
    const bad = { ...files, "data/secret/g2/testdata.yaml": "grader_flags: avg\n" };
    await expect(readPackage(filesFromZip(zipOf(bad)))).rejects.toThrow("grader_flags avg: not supported");
  });
});
