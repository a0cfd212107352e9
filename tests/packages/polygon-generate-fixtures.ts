/**
 * Standard Polygon packages built by the tests (tests/packages/polygon-generate.test.ts,
 * scripts/bench-polygon.ts): A+B whose tests are made by a testlib C++
 * generator and a Python one, checked by a testlib validator that knows its
 * groups, answered by the main solution; and the same problem's full twin,
 * its generated tests made on the host (g++ and python3 outside the sandbox,
 * as Polygon makes a full package) with CRLF line endings (p2d: running
 * doall.sh yourself gives CRLF files).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Files } from "./fixtures.ts";
import { polygonPackage, SUM_SECTIONS, testlibFile, type PolygonTestSpec } from "./polygon-fixtures.ts";

/** testlib generator: two numbers in [1, argv[1]], seeded from argv. */
export const GEN_CPP = `#include "testlib.h"
#include <cstdlib>
int main(int argc, char* argv[]) {
  registerGen(argc, argv, 1);
  int n = atoi(argv[1]);
  println(rnd.next(1, n), rnd.next(1, n));
}
`;

/** A Python generator, seeded from its arguments (deterministic). */
export const GEN_PY = `import random, sys
random.seed(" ".join(sys.argv[1:]))
n = int(sys.argv[1])
print(random.randint(1, n), random.randint(1, n))
`;

/** testlib validator: |a|, |b| ≤ 1000, or ≤ 10^9 in group "big". */
export const VALIDATOR_CPP = `#include "testlib.h"
int main(int argc, char* argv[]) {
  registerValidation(argc, argv);
  int lim = validator.group() == "big" ? 1000000000 : 1000;
  inf.readInt(-lim, lim, "a");
  inf.readSpace();
  inf.readInt(-lim, lim, "b");
  inf.readEoln();
  inf.readEof();
}
`;

export const MAIN_CPP = "#include <bits/stdc++.h>\nint main(){ long long a,b; std::cin>>a>>b; std::cout<<a+b<<\"\\n\"; }\n";
export const CRASH_CPP = "int main() { volatile int* p = nullptr; return *p; }\n";
export const LOOP_CPP = "int main() { volatile unsigned long x = 0; for (;;) x++; }\n";

/** A+B's tests: two manual, four generated (one by the Python generator, one in group "big"). */
export const GENERATED_TESTS: PolygonTestSpec[] = [
  { input: "1 2\n", answer: "3\n", sample: true },
  { input: "", answer: "", cmd: "gen 1000" },
  { input: "", answer: "", cmd: "gen 1000 2" },
  { input: "", answer: "", cmd: "gen 1000000000", group: "big" },
  { input: "", answer: "", cmd: "pygen 50" },
  { input: "5 7\n", answer: "12\n" },
];

/** Adds executables and validators to a package's problem.xml (the base fixture lists only files/gen.cpp). */
export function withPrograms(files: Files, o: { executables?: string[]; binaries?: string[]; validators?: string[] }): Files {
  let xml = String(files["problem.xml"]);
  const exe = (o.executables ?? []).map((p) => `      <executable>\n        <source path="${p}" type="${p.endsWith(".py") ? "python.3" : "cpp.g++17"}"/>\n      </executable>`);
  const bin = (o.binaries ?? []).map((p) => `      <executable>\n        <binary path="${p}" type="exe.win32"/>\n      </executable>`);
  xml = xml.replace("    </executables>", [...exe, ...bin, "    </executables>"].join("\n"));
  if (o.validators?.length) {
    const v = o.validators.map((p) => `      <validator>\n        <source path="${p}" type="cpp.g++17"/>\n      </validator>`).join("\n");
    xml = xml.replace("    <solutions>", `    <validators>\n${v}\n    </validators>\n    <solutions>`);
  }
  return { ...files, "problem.xml": xml };
}

/** The standard package (`standard`: generated tests left out) or, with `made`, its full twin holding them. */
export function sumStandard(tests: PolygonTestSpec[] = GENERATED_TESTS, extra: Files = {}, programs: { executables?: string[]; binaries?: string[] } = {}): Files {
  const files = polygonPackage({
    tests,
    standard: true,
    solutions: [{ tag: "main", path: "solutions/sol.cpp", code: MAIN_CPP }],
    extra: { ...SUM_SECTIONS, "files/gen.cpp": GEN_CPP, "files/pygen.py": GEN_PY, "files/validator.cpp": VALIDATOR_CPP, ...extra },
  });
  return withPrograms(files, { executables: ["files/pygen.py", "files/validator.cpp", ...(programs.executables ?? [])], binaries: programs.binaries, validators: ["files/validator.cpp"] });
}

/**
 * The full twin: the standard package with every generated test and every
 * answer made on the host, lines ending in CRLF.
 */
export async function fullTwin(standard: Files, tests: PolygonTestSpec[] = GENERATED_TESTS): Promise<Files> {
  const dir = mkdtempSync(join(tmpdir(), "oj-polygon-twin-"));
  try {
    writeFileSync(join(dir, "testlib.h"), testlibFile("testlib.h"));
    writeFileSync(join(dir, "gen.cpp"), GEN_CPP);
    writeFileSync(join(dir, "pygen.py"), GEN_PY);
    writeFileSync(join(dir, "sol.cpp"), MAIN_CPP);
    for (const [src, out] of [["gen.cpp", "gen"], ["sol.cpp", "sol"]]) {
      const c = Bun.spawnSync(["g++", "-O2", "-std=gnu++17", "-o", join(dir, out!), join(dir, src!)], { cwd: dir });
      if (c.exitCode !== 0) throw new Error(`g++ ${src}: ${c.stderr.toString()}`);
    }
    const twin: Files = { ...standard };
    const crlf = (s: string) => s.replace(/\n/g, "\r\n");
    for (const [i, t] of tests.entries()) {
      const name = `tests/${String(i + 1).padStart(2, "0")}`;
      let input = t.input;
      if (t.cmd) {
        const [prog, ...args] = t.cmd.split(" ");
        const argv = prog === "pygen" ? ["python3", join(dir, "pygen.py"), ...args] : [join(dir, prog!), ...args];
        input = Bun.spawnSync(argv).stdout.toString();
      }
      const answer = Bun.spawnSync([join(dir, "sol")], { stdin: Buffer.from(input) }).stdout.toString();
      twin[name] = crlf(input);
      twin[`${name}.a`] = crlf(answer);
    }
    return twin;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A package of `count` generated tests (the sample manual), each `gen 1000 i`. */
export function manyTests(count: number): PolygonTestSpec[] {
  return [{ input: "1 2\n", answer: "3\n", sample: true }, ...Array.from({ length: count - 1 }, (_, i) => ({ input: "", answer: "", cmd: `gen 1000 ${i + 2}` }))];
}
