/**
 * Codeforces Polygon packages built by the tests, with the vendored testlib
 * (../shared/vendor/testlib/, 0.9.45): problem.xml written as Polygon writes
 * it, files/testlib.h, a testlib checker (custom, or a standard one from
 * testlib's checkers/), an interactor, statement sections in two languages,
 * tests/NN and tests/NN.a, tagged solutions and the `tags` file.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Files } from "./fixtures.ts";

/** The vendored testlib, beside the repository (absent: the Polygon tests skip, saying so). */
export const TESTLIB_DIR = join(import.meta.dir, "..", "..", "..", "shared", "vendor", "testlib");
export const HAVE_TESTLIB = existsSync(join(TESTLIB_DIR, "testlib.h"));
export const testlibFile = (path: string) => readFileSync(join(TESTLIB_DIR, path), "utf8");

/**
 * A+B's checker: exit 0 for the sum, 7 with `points 50` for its negation
 * (half marks), 1 (WA) otherwise; a token that is not a number is testlib's
 * own PE (exit 2).
 */
export const SUM_CHECKER = `#include "testlib.h"
int main(int argc, char* argv[]) {
  registerTestlibCmd(argc, argv);
  long long want = ans.readLong();
  long long got = ouf.readLong();
  if (got == want) quitf(_ok, "the sum %lld", got);
  if (got == -want) quitp(50.0, "the sum's negation");
  quitf(_wa, "expected %lld, found %lld", want, got);
}
`;

/** Guess the number: reads the contestant's `? g`, answers < > =, writes the number of guesses to tout. */
export const GUESS_INTERACTOR = `#include "testlib.h"
#include <iostream>
int main(int argc, char* argv[]) {
  registerInteraction(argc, argv);
  int s = inf.readInt();
  int guesses = 0;
  while (true) {
    ouf.readToken("[?]");
    int g = ouf.readInt(1, 1000);
    guesses++;
    if (g == s) { std::cout << "=" << std::endl; break; }
    std::cout << (s < g ? "<" : ">") << std::endl;
    if (guesses >= 1000) quitf(_wa, "no end after 1000 guesses");
  }
  tout << guesses << std::endl;
  quitf(_ok, "found in %d", guesses);
}
`;

/** The guess problem's checker: reads the interactor's tout as the output; more than 10 guesses is WA. */
export const GUESS_CHECKER = `#include "testlib.h"
int main(int argc, char* argv[]) {
  registerTestlibCmd(argc, argv);
  int guesses = ouf.readInt();
  if (guesses > 10) quitf(_wa, "%d guesses, more than 10", guesses);
  quitf(_ok, "%d guesses", guesses);
}
`;

export interface PolygonTestSpec {
  input: string;
  answer: string;
  sample?: boolean;
  group?: string;
  points?: number;
  /** `generated` with a cmd (the file present or not: a standard package leaves it out). */
  cmd?: string;
}

export interface PolygonOptions {
  names?: Record<string, string>;
  timeLimitMs?: number;
  memoryBytes?: number;
  tests: PolygonTestSpec[];
  /** The testset's <groups> body (XML). */
  groupsXml?: string;
  percent?: boolean;
  checker?: { path: string; source: string; name?: string };
  interactor?: string;
  solutions?: { tag: string; path: string; code: string; type?: string }[];
  /** Leave out test files whose test has a cmd (a standard package). */
  standard?: boolean;
  extra?: Files;
}

/** A Polygon package as files. */
export function polygonPackage(o: PolygonOptions): Files {
  const names = o.names ?? { english: "A plus B" };
  const checker = o.checker ?? { path: "files/check.cpp", source: SUM_CHECKER };
  const files: Files = { "files/testlib.h": testlibFile("testlib.h"), [checker.path]: checker.source, "check.cpp": checker.source };
  const pad = (i: number) => String(i).padStart(2, "0");
  const testsXml = o.tests
    .map((t, i) => {
      if (!(o.standard && t.cmd)) {
        files[`tests/${pad(i + 1)}`] = t.input;
        files[`tests/${pad(i + 1)}.a`] = t.answer;
      }
      const attrs = [t.cmd ? `cmd="${t.cmd}" method="generated"` : 'method="manual"', t.sample ? 'sample="true"' : "", t.group ? `group="${t.group}"` : "", t.points !== undefined ? `points="${t.points.toFixed(1)}"` : ""];
      return `          <test ${attrs.filter(Boolean).join(" ")}/>`;
    })
    .join("\n");
  const solutions = (o.solutions ?? []).map((s) => {
    files[s.path] = s.code;
    return `      <solution tag="${s.tag}">\n        <source path="${s.path}" type="${s.type ?? (s.path.endsWith(".py") ? "python.3" : "cpp.g++17")}"/>\n      </solution>`;
  });
  if (o.interactor) files["files/interactor.cpp"] = o.interactor;
  files["problem.xml"] = `<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="7" short-name="a-plus-b" url="https://polygon.codeforces.com/p0/test/a-plus-b">
  <names>
${Object.entries(names).map(([l, v]) => `    <name language="${l}" value="${v}"/>`).join("\n")}
  </names>
  <statements>
${Object.keys(names).map((l) => `    <statement charset="UTF-8" language="${l}" mathjax="true" path="statements/${l}/problem.tex" type="application/x-tex"/>`).join("\n")}
  </statements>
  <judging cpu-name="Intel(R) Core(TM) i3-8100 CPU @ 3.60GHz" cpu-speed="3600" input-file="" output-file=""${o.percent ? ' treat-points-from-checker-as-percent="true"' : ""}>
    <testset name="tests">
      <time-limit>${o.timeLimitMs ?? 1000}</time-limit>
      <memory-limit>${o.memoryBytes ?? 268435456}</memory-limit>
      <test-count>${o.tests.length}</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>
${testsXml}
      </tests>
${o.groupsXml ? `      <groups>\n${o.groupsXml}\n      </groups>` : ""}
    </testset>
  </judging>
  <files>
    <resources>
      <file path="files/olymp.sty"/>
      <file path="files/testlib.h" type="h.g++"/>
    </resources>
    <executables>
      <executable>
        <source path="files/gen.cpp" type="cpp.g++17"/>
      </executable>
    </executables>
  </files>
  <assets>
    <checker name="${checker.name ?? "check.cpp"}" type="testlib">
      <source path="${checker.path}" type="cpp.g++17"/>
      <copy path="check.cpp"/>
    </checker>
${o.interactor ? '    <interactor>\n      <source path="files/interactor.cpp" type="cpp.g++17"/>\n    </interactor>' : ""}
    <solutions>
${solutions.join("\n")}
    </solutions>
  </assets>
  <properties>
    <property name="tests-wellformed" value="true"/>
  </properties>
</problem>
`;
  files["files/olymp.sty"] = "% olymp.sty\n";
  files["files/gen.cpp"] = '#include "testlib.h"\nint main(int argc, char* argv[]) { registerGen(argc, argv, 1); println(rnd.next(1, 100), rnd.next(1, 100)); }\n';
  return { ...files, ...(o.extra ?? {}) };
}

/** Statement sections of A+B in English and Russian. */
export const SUM_SECTIONS: Files = {
  "statement-sections/english/name.tex": "A plus B",
  "statement-sections/english/legend.tex": "Given two integers $a$ and $b$, print {\\bf their sum}.",
  "statement-sections/english/input.tex": "Two integers $a$ and $b$ ($-10^9 \\le a, b \\le 10^9$).",
  "statement-sections/english/output.tex": "One integer: $a + b$.",
  "statement-sections/english/notes.tex": "The sum may not fit in 32 bits.",
  "statement-sections/english/tutorial.tex": "Add them.",
  "statement-sections/russian/name.tex": "А плюс Б",
  "statement-sections/russian/legend.tex": "Даны два целых числа $a$ и $b$. Выведите их сумму.",
  "statement-sections/russian/input.tex": "Два целых числа $a$ и $b$.",
  "statement-sections/russian/output.tex": "Одно число $a + b$.",
};
