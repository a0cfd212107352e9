/**
 * Reading Kattis / ICPC problem packages (src/packages): both layouts, every
 * key the judge uses, clear errors naming the file and line, and zips that
 * try to escape their folder or exhaust the server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { filesFromFolder, filesFromZip, PACKAGE_LIMITS, packageLimits, PackageError } from "./files.ts";
import { readPackage, type ProblemPackage } from "./format.ts";
import { problemFromPackage } from "./import.ts";
import { loadConfig } from "../config.ts";
import { latexToMarkdown, splitStatement } from "./statement.ts";
import { legacyPackage, modernPackage, writeFolder, zipOf, type Files } from "../../tests/packages/fixtures.ts";
import { bigZip } from "../../tests/packages/big-zip.ts";

const work = mkdtempSync(join(tmpdir(), "oj-pkg-read-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const read = (files: Files) => readPackage(filesFromZip(zipOf(files)));
const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof PackageError) return err.message;
    throw err;
  }
  throw new Error("expected a PackageError");
};
/** The PackageError message of an async step. */
const failureOf = async (fn: () => Promise<unknown>): Promise<string> => {
  try {
    await fn();
  } catch (err) {
    if (err instanceof PackageError) return err.message;
    throw err;
  }
  throw new Error("expected a PackageError");
};

describe("a 2025-09 package", () => {
  let pkg: ProblemPackage;
  beforeAll(async () => {
    pkg = await read(modernPackage());
  });

  test("name (English of several), limits, flags from test_group.yaml's list", () => {
    expect(pkg.formatVersion).toBe("2025-09");
    expect(pkg.name).toBe("Yes Or Thirds");
    expect(pkg.timeLimitMs).toBe(1500);
    expect(pkg.memoryLimitKib).toBe(512 * 1024);
    expect(pkg.validatorFlags).toBe("float_tolerance 0.000001");
    expect(pkg.timeMultipliers).toEqual({ acToTimeLimit: 2, timeLimitToTle: 1.5 });
  });

  test("test data in the format's order: samples, then secret groups by path", () => {
    expect(pkg.tests.map((t) => t.name)).toEqual([
      "data/sample/1",
      "data/sample/2",
      "data/secret/group1/01",
      "data/secret/group1/02",
      "data/secret/group2/01",
    ]);
    expect(pkg.tests[0]).toMatchObject({ sample: true, input: "3\n", answer: "yes\n0.333333333\n" });
  });

  test("the English Markdown statement, the other languages kept; example submissions with their expected verdicts", () => {
    expect(pkg.statementFile).toBe("statement/problem.en.md");
    expect(pkg.statement).toContain("$\\frac{1}{n}$");
    expect(pkg.translations).toEqual({ sv: "Skriv **ja**.\n" });
    expect(pkg.warnings).toEqual([]);
    expect(pkg.submissions.map((s) => [s.path, s.expected, s.language])).toEqual([
      ["submissions/accepted/Thirds.java", "AC", "java"],
      ["submissions/accepted/sol.py", "AC", "py"],
      ["submissions/wrong_answer/no.py", "WA", "py"],
    ]);
  });

  test("example submissions by extension, as problemtools names them: .c is C, .C and .cc C++, .rs Rust, .go Go, .js JavaScript; Kotlin is not judged here", async () => {
    const files = modernPackage({
      "submissions/accepted/a.c": "int main(void){return 0;}\n",
      "submissions/accepted/b.C": "int main(){}\n",
      "submissions/accepted/c.cc": "int main(){}\n",
      "submissions/accepted/d.rs": "fn main(){}\n",
      "submissions/accepted/e.go": "package main\nfunc main(){}\n",
      "submissions/accepted/f.js": "\n",
      "submissions/accepted/g.kt": "fun main(){}\n",
    });
    const p = await read(files);
    const byPath = Object.fromEntries(p.submissions.map((x) => [x.path.split("/").pop(), x.language]));
    expect(byPath).toMatchObject({ "a.c": "c", "b.C": "cpp", "c.cc": "cpp", "d.rs": "rust", "e.go": "go", "f.js": "js" });
    expect(byPath["g.kt"]).toBeUndefined();
    expect(p.warnings.join("\n")).toContain("submissions/accepted/g.kt: language not judged here (C++, C, Java, Python, PyPy, JavaScript, Go and Rust are)");
  });

  test("submissions.yaml names a language the extension does not: python3 stays CPython, pypy3 is PyPy; an unknown code leaves its files out", async () => {
    const files = modernPackage({
      "submissions/accepted/slow.py": "print(1)\n",
      "submissions/accepted/fast.py": "print(1)\n",
      "submissions/accepted/jit/main.py": "print(1)\n",
      "submissions/accepted/jit/README.md": "notes\n",
      "submissions/accepted/cobol.py": "print(1)\n",
      "submissions/submissions.yaml": "accepted/slow.py:\n  language: python3\naccepted/fast.py:\n  language: pypy3\naccepted/jit:\n  language: PyPy\naccepted/cobol.py:\n  language: cobol\n",
    });
    const p = await read(files);
    const byPath = Object.fromEntries(p.submissions.map((x) => [x.path.slice("submissions/accepted/".length), x.language]));
    expect(byPath).toMatchObject({ "slow.py": "py", "fast.py": "pypy", "jit/main.py": "pypy" });
    expect(byPath["jit/README.md"]).toBeUndefined();
    expect(byPath["cobol.py"]).toBeUndefined();
    expect(p.warnings.join("\n")).toContain('submissions/submissions.yaml: accepted/cobol.py: language "cobol" is not judged here');
    await expect(read(modernPackage({ "submissions/submissions.yaml": "accepted/a.py:\n  language: [python3]\n" }))).rejects.toThrow("language must be a language code");
  });

  test("a submissions.yaml glob longer than 256 characters is refused, naming the file", async () => {
    const long = `accepted/${"*a".repeat(200)}.py`;
    await expect(read(modernPackage({ "submissions/submissions.yaml": `"${long}":\n  language: pypy3\n` }))).rejects.toThrow("a glob of at most 256 characters");
  });

  test("becomes a problem: statement split into fields, first sample shown, the rest hidden, one time limit for all, kattis checker", () => {
    const { input } = problemFromPackage(pkg);
    expect(input).toMatchObject({
      title: "Yes Or Thirds",
      description: "Print **yes** and then $\\frac{1}{n}$.",
      inputFormat: "One integer $n$ ($1 \\le n \\le 10^9$).",
      outputFormat: "`yes`, then $1/n$ within $10^{-6}$.",
      sampleInput: "3\n",
      sampleOutput: "yes\n0.333333333\n",
      timeLimitMs: 1500,
      memoryLimitKib: 524288,
      checker: "kattis",
      checkerFlags: "float_tolerance 0.000001",
      timeScaledByLanguage: false,
    });
    expect(input.hiddenTestCases.map((t) => t.input)).toEqual(["1\n", "8\n", "4\n", "7\n"]);
  });
});

describe("a legacy package", () => {
  test("LaTeX statement converted (sections, math, \\texttt, lists; comments and \\problemname dropped), flags from problem.yaml and testdata.yaml", async () => {
    const pkg = await read(legacyPackage({ "data/testdata.yaml": "output_validator_flags: space_change_sensitive\n" }));
    expect(pkg.formatVersion).toBe("legacy");
    expect(pkg.name).toBe("Hello Sum");
    expect(pkg.validatorFlags).toBe("case_sensitive space_change_sensitive");
    expect(pkg.statement).not.toContain("comment");
    expect(pkg.statement).not.toContain("problemname");
    const parts = splitStatement(pkg.statement);
    expect(parts.description).toContain("$\\sum_{i=1}^{n} a_{i}$");
    expect(parts.description).toContain("`Done`");
    expect(parts.input).toContain("**bold** item");
    expect(parts.input).toContain("*second* item");
    expect(parts.output).toBe("The sum, then `Done`.");
  });

  test("no time limit: a warning and the judge's default; DOMjudge's .timelimit counts", async () => {
    const plain = await read(legacyPackage());
    expect(plain.timeLimitMs).toBeNull();
    expect(plain.timeMultipliers).toEqual({ acToTimeLimit: 5, timeLimitToTle: 2 });
    const { input, warnings } = problemFromPackage(plain);
    expect(input.timeLimitMs).toBe(2000);
    expect(warnings.join("\n")).toContain("states no time limit");
    expect((await read(legacyPackage({ ".timelimit": "3\n" }))).timeLimitMs).toBe(3000);
  });

  test("a table and an \\illustration convert too", () => {
    const md = latexToMarkdown("\\begin{tabular}{|l|r|}\n\\hline a & b \\\\ \\hline 1 & 2 \\\\ \\hline\n\\end{tabular}\n\n\\illustration{0.3}{cat.png}{A cat}\n");
    expect(md).toContain("| 1 | 2 |");
    expect(md).toContain("![](cat.png)");
  });
});

describe("a custom output validator", () => {
  test("2025-09 output_validator/ with a header, its arguments from test_group.yaml, becomes the custom checker", async () => {
    const pkg = await read(
      modernPackage({
        "output_validator/validate.cpp": '#include "lib.h"\nint main(int argc, char** argv) { return 42; }\n',
        "output_validator/lib.h": "// helper\n",
        "data/test_group.yaml": "output_validator_args: [tolerance, '2']\n",
      }),
    );
    expect(pkg.validatorFlags).toBe("");
    expect(pkg.validator).toEqual({ language: "cpp", main: "validate.cpp", args: "tolerance 2", files: { "validate.cpp": expect.any(String), "lib.h": "// helper\n" } });
    expect(problemFromPackage(pkg).input).toMatchObject({ checker: "custom", validator: { language: "cpp", main: "validate.cpp", args: "tolerance 2" } });
  });

  test("legacy output_validators/<name>/ in Python, validation: custom", async () => {
    const files = legacyPackage({ "output_validators/checker/check.py": "import sys\nsys.exit(42)\n" });
    files["problem.yaml"] = "name: Hello Sum\nvalidation: custom\nvalidator_flags: strict\n";
    const pkg = await read(files);
    expect(pkg.validator).toMatchObject({ language: "py", main: "check.py", args: "strict" });
  });
});

describe("errors name the file (and line)", () => {
  test.each([
    ["no problem.yaml", (f: Files) => delete f["problem.yaml"], "problem.yaml: missing"],
    ["broken YAML", (f: Files) => (f["problem.yaml"] = "name: x\nlimits: [1, 2\n"), "problem.yaml:"],
    ["an input without an answer", (f: Files) => delete f["data/secret/group1/02.ans"], "data/secret/group1/02.in: has no answer file 02.ans"],
    ["an answer without an input", (f: Files) => delete f["data/secret/group2/01.in"], "data/secret/group2/01.ans: has no input file 01.in"],
    ["an interactive problem without a validator", (f: Files) => (f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: interactive\n"), "problem.yaml:3: type interactive: the package has no output validator"],
    ["a multi-pass problem without a validator", (f: Files) => (f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: [multi-pass]\n"), "problem.yaml:3: type multi-pass: the package has no output validator"],
    ["a scoring group without its points", (f: Files) => (f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: scoring\n"), "max_score: required for a group of a bounded secret"],
    ["an unbounded group", (f: Files) => { f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: scoring\n"; f["data/secret/group1/test_group.yaml"] = "max_score: unbounded\n"; }, "data/secret/group1/test_group.yaml:1: max_score: unbounded scores are not supported"],
    ["a submit-answer problem", (f: Files) => (f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: submit-answer\n"), "problem.yaml:3: type submit-answer: not judged here"],
    ["pass-fail with scoring", (f: Files) => (f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: [pass-fail, scoring]\n"), "problem.yaml:3: type: pass-fail and scoring exclude each other"],
    ["too many passes", (f: Files) => { f["output_validator/v.py"] = "import sys\nsys.exit(42)\n"; f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\ntype: multi-pass\nlimits:\n  validation_passes: 99\n"; }, "problem.yaml:5: limits.validation_passes 99 is over this judge's 20"],
    ["an output validator without a source", (f: Files) => (f["output_validator/README.txt"] = "notes"), "output_validator/: output validator: no C++ (.cpp, .cc) or Python (.py) source"],
    ["two legacy output validators", (f: Files) => { f["output_validators/a/a.py"] = "x"; f["output_validators/b/b.py"] = "y"; }, "output_validators/: 2 output validators (a/, b/); this judge runs one per problem"],
    ["a validator folder and a loose source (headers beside it are no program)", (f: Files) => { f["output_validators/a/a.py"] = "x"; f["output_validators/check.cpp"] = "int main() {}"; f["output_validators/testlib.h"] = "//"; }, "output_validators/: 2 output validators (a/, check.cpp); this judge runs one per problem"],
    ["interactive validation (legacy) without a validator", (f: Files) => (f["problem.yaml"] = "name: X\nvalidation: custom interactive\n"), "problem.yaml:2: validation: custom interactive, but there is no output_validators/ folder"],
    ["an unknown validation (legacy)", (f: Files) => (f["problem.yaml"] = "name: X\nvalidation: custom magic\n"), "problem.yaml:2: validation: custom magic is not one the format has"],
    ["flags for one test group", (f: Files) => (f["data/secret/group1/test_group.yaml"] = "output_validator_args: [case_sensitive]\n"), "data/secret/group1/test_group.yaml: validator flags per test group are not supported yet"],
    ["an unknown flag", (f: Files) => (f["data/test_group.yaml"] = "output_validator_args: [ignore_case]\n"), 'data/test_group.yaml: output_validator_args: Unknown flag "ignore_case"'],
    ["a negative time limit", (f: Files) => (f["problem.yaml"] = "problem_format_version: 2025-09\nname: X\nlimits:\n  time_limit: -1\n"), "problem.yaml:4: limits.time_limit must be a positive number"],
    ["an unknown format version", (f: Files) => (f["problem.yaml"] = "problem_format_version: 1999-01\nname: X\n"), "problem.yaml:1: problem_format_version"],
    ["no statement", (f: Files) => { delete f["statement/problem.en.md"]; delete f["statement/problem.sv.md"]; }, "statement/: no statement"],
  ] as [string, (f: Files) => unknown, string][])("%s", async (_, change, message) => {
    const files = modernPackage();
    change(files);
    expect(await failureOf(() => read(files))).toContain(message);
  });

  test("limits above this server's ceilings are refused when importing, naming the file, the rule and the setting", async () => {
    const pkg = await read(modernPackage({ "problem.yaml": "problem_format_version: 2025-09\nname: Big\nlimits:\n  memory: 4096\n" }));
    expect(failure(() => problemFromPackage(pkg))).toContain(
      "problem.yaml: limits.memory 4096 MiB: a problem's memory limit is at most 2048 MiB on this server (the setting PROBLEM_MEMORY_MAX_MIB allows more",
    );
    // A server that allows more imports it as it is.
    const roomy = loadConfig({ PROBLEM_MEMORY_MAX_MIB: "8192" }).ceilings;
    expect(problemFromPackage(pkg, { ceilings: roomy }).input.memoryLimitKib).toBe(4096 * 1024);
  });

  test("a package silent on memory gets its format's default: 2048 MiB from 2023-07 on, 1024 MiB legacy; above the ceiling, the ceiling with a note", async () => {
    const modern = await read(modernPackage({ "problem.yaml": "problem_format_version: 2025-09\nname: Quiet\n" }));
    expect(modern.memoryLimitKib).toBeNull();
    expect(problemFromPackage(modern).input.memoryLimitKib).toBe(2048 * 1024);
    const draft = await read(modernPackage({ "problem.yaml": "problem_format_version: 2023-07-draft\nname: Quiet\n" }));
    expect(problemFromPackage(draft).input.memoryLimitKib).toBe(2048 * 1024);
    const legacy = await read(modernPackage({ "problem.yaml": "name: Quiet\n" }));
    expect(legacy.formatVersion).toBe("legacy");
    expect(problemFromPackage(legacy).input.memoryLimitKib).toBe(1024 * 1024);
    const tight = loadConfig({ PROBLEM_MEMORY_MAX_MIB: "512" }).ceilings;
    const capped = problemFromPackage(modern, { ceilings: tight });
    expect(capped.input.memoryLimitKib).toBe(512 * 1024);
    expect(capped.warnings.join("\n")).toContain("the 2025-09 format's default is 2048 MiB, above this server's ceiling; 512 MiB instead (the setting PROBLEM_MEMORY_MAX_MIB allows more)");
  });
});

describe("hostile zips and folders", () => {
  test("entries that climb out, are absolute or use backslashes are refused", () => {
    for (const name of ["../evil.txt", "/etc/evil", "pkg\\..\\evil", "a/../../evil"]) {
      const zip = zipSync({ "problem.yaml": new TextEncoder().encode("name: x\n"), [name]: new Uint8Array([1]) });
      expect(failure(() => filesFromZip(zip))).toContain("unsafe path in the zip");
    }
  });

  test("a zip bomb stops at the limit counted on the inflated bytes, whatever its headers say", () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const zip = zipSync({ "problem.yaml": new TextEncoder().encode("name: x\n"), "data/secret/huge.in": zeros }, { level: 9 });
    expect(zip.length).toBeLessThan(64 * 1024);
    expect(failure(() => filesFromZip(zip, { ...PACKAGE_LIMITS, fileMaxBytes: 1024 * 1024 }))).toContain("data/secret/huge.in: larger than 1 MiB once decompressed");
    expect(failure(() => filesFromZip(zip, { ...PACKAGE_LIMITS, totalMaxBytes: 2 * 1024 * 1024 }))).toContain("the package is larger than 2 MiB once decompressed");
    // A server's own limits name what allows more: the setting, or for an upload the CLI.
    const server = packageLimits({ ...loadConfig({}).ceilings, testCaseBytes: 1024 * 1024 }, "disk");
    expect(failure(() => filesFromZip(zip, server))).toContain("larger than 1 MiB once decompressed (the setting PROBLEM_TEST_MAX_MIB allows more)");
    const upload = packageLimits(loadConfig({}).ceilings, "upload");
    // An upload unpacks to one problem's tests (512 MiB) and 64 MiB more, not PACKAGE_MAX_MIB's 1024 (review N2).
    expect(upload).toMatchObject({ zipMaxBytes: 64 * 1024 * 1024, totalMaxBytes: 576 * 1024 * 1024, fileMaxBytes: 128 * 1024 * 1024 });
    expect(packageLimits(loadConfig({ PROBLEM_TESTS_MAX_MIB: "2048" }).ceilings, "upload").totalMaxBytes).toBe(1024 * 1024 * 1024);
    expect(failure(() => filesFromZip(zip, { ...upload, zipMaxBytes: 1024 }))).toContain("the zip is larger than 0.0009765625 MiB (a larger package imports on the server with `bun run problem -- import <folder or zip>`)");
    // Forge the sizes in every header to claim 1 byte: the count is still of what inflates.
    const forged = new Uint8Array(zip);
    const view = new DataView(forged.buffer);
    for (let i = 0; i + 4 <= forged.length; i++) {
      const sig = view.getUint32(i, true);
      if (sig === 0x04034b50) view.setUint32(i + 22, 1, true);
      if (sig === 0x02014b50) view.setUint32(i + 24, 1, true);
    }
    expect(() => filesFromZip(forged, { ...PACKAGE_LIMITS, fileMaxBytes: 1024 * 1024 })).toThrow(PackageError);
  });

  test("an upload stops inflating at its unpacked limit (one problem's tests and 64 MiB), whatever the headers claim, and never inflates the rest", () => {
    const upload = packageLimits(loadConfig({}).ceilings, "upload");
    const zeros = new Uint8Array(128 * 1024 * 1024);
    // Eight files of 128 MiB each (1 GiB; PACKAGE_MAX_MIB would have let it all through), every header claiming 1 byte.
    const names = Array.from({ length: 8 }, (_, i) => `data/secret/${i}.in`);
    const zip = bigZip([{ name: "problem.yaml", content: new TextEncoder().encode("name: x\n") }, ...names.map((name) => ({ name, content: zeros }))], { claimedSize: 1 });
    expect(zip.length).toBeLessThan(2 * 1024 * 1024);
    const cpuBefore = process.cpuUsage();
    expect(failure(() => filesFromZip(zip, upload))).toBe(
      "data/secret/4.in: the package is larger than 576 MiB once decompressed (an upload unpacks to what one problem's tests may hold, PROBLEM_TESTS_MAX_MIB, and 64 MiB more; a larger package imports on the server with `bun run problem -- import <folder or zip>`)",
    );
    const cpu = process.cpuUsage(cpuBefore);
    // Four files whole and the fifth up to the limit: ~0.6 GiB of zeros through native zlib is a few s of CPU at most;
    // the whole gigabyte through fflate (before) took several times that.
    expect((cpu.user + cpu.system) / 1e6).toBeLessThan(20);
    // One file past its own limit stops at that limit, too.
    const single = bigZip([{ name: "data/secret/big.in", content: new Uint8Array(256 * 1024 * 1024) }], { claimedSize: 1 });
    expect(failure(() => filesFromZip(single, upload))).toBe("data/secret/big.in: larger than 128 MiB once decompressed (the setting PROBLEM_TEST_MAX_MIB allows more)");
  });

  test("not a zip, too many files", () => {
    expect(failure(() => filesFromZip(new TextEncoder().encode("hello")))).toContain("not a zip file");
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i++) many[`f${i}`] = new Uint8Array([1]);
    expect(failure(() => filesFromZip(zipSync(many), { ...PACKAGE_LIMITS, maxFiles: 10 }))).toContain("more than 10 files");
  });

  test("a folder: read whole, symlinks inside kept, a symlink leaving it refused", async () => {
    const dir = writeFolder(join(work, "folder"), modernPackage());
    symlinkSync(join(dir, "data/sample/1.in"), join(dir, "data/sample/3.in"));
    symlinkSync(join(dir, "data/sample/1.ans"), join(dir, "data/sample/3.ans"));
    expect((await readPackage(filesFromFolder(dir))).tests.filter((t) => t.sample)).toHaveLength(3);
    symlinkSync("/etc/passwd", join(dir, "data/secret/leak.in"));
    expect(failure(() => filesFromFolder(dir))).toContain("data/secret/leak.in: a symlink that leaves the package folder");
  });

  test("a zip of the package's folder and a flat zip read the same", async () => {
    const files = modernPackage();
    expect((await readPackage(filesFromZip(zipOf(files, { top: "yes-or-thirds" })))).name).toBe("Yes Or Thirds");
    expect((await readPackage(filesFromZip(zipOf(files, { flat: true })))).name).toBe("Yes Or Thirds");
  });
});
