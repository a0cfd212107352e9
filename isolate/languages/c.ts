/**
 * C17 with GCC (`gnu17`, `-O2`, linked with the maths library): the ICPC and
 * DOMjudge default set's C. No precompiled header: C's standard headers are
 * small enough that parsing them costs a few milliseconds (measured by
 * scripts/bench-languages.ts against C++'s bits/stdc++.h).
 */
import { GCC_COMPILE_LIMITS, nativeRun } from "./cpp.ts";
import type { Language } from "./types.ts";

export const c: Language<"c"> = {
  id: "c",
  name: "C",
  displayName: "C17 (GCC)",
  // Measured 0.98 × C++ (scripts/bench-languages.ts): × 1 (decision 039).
  timeMultiplier: 1,
  editorMode: "c",
  boilerplate: `#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    // Your code here

    return 0;
}
`,
  sourceFileName: () => "main.c",
  compilerFlags: ["-std=gnu17", "-O2", "-DONLINE_JUDGE", "-pipe", "-fmax-errors=20"],
  compileArgv(sourceFile, extraFlags) {
    return ["/usr/bin/gcc", ...this.compilerFlags, ...extraFlags, "-o", "prog", sourceFile, "-lm"];
  },
  compileLimits: GCC_COMPILE_LIMITS,
  env: {},
  selectArtifacts: (_source, boxFiles) => (boxFiles.includes("prog") ? ["prog"] : []),
  runCommand: (_mainFile, limits) => nativeRun(limits),
  package: { code: "c", aliases: [], extensions: ["c"] },
  requires: [{ path: "/usr/bin/gcc", versionArgs: ["--version"], debianPackage: "gcc" }],
  selfTest: {
    code: '#include <stdio.h>\nint main(void) { long long a, b; if (scanf("%lld %lld", &a, &b) != 2) return 1; printf("%lld\\n", a + b); return 0; }\n',
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
