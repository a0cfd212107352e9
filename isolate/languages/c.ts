/**
 * C17 with GCC (`gnu17`, `-O2`, linked with the maths library): the ICPC and
 * DOMjudge default set's C. No precompiled header: C's standard headers are
 * small enough that parsing them costs a few milliseconds (measured by
 * scripts/bench-languages.ts against C++'s bits/stdc++.h).
 */
import type { RunLimits } from "../types.ts";
import type { Language } from "./types.ts";

const MIB = 1024;

export const c: Language<"c"> = {
  id: "c",
  name: "C",
  displayName: "C17 (GCC)",
  // Compiled like C++: the problem's limit is the C limit.
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
  compileLimits: {
    cpuTimeLimitMs: 10_000,
    wallTimeLimitMs: 20_000,
    memoryLimitKib: 512 * MIB,
    // cc1, as, collect2, ld.
    processLimit: 16,
    outputLimitBytes: 64 * 1024,
    fileSizeLimitKib: 64 * MIB,
  },
  env: {},
  selectArtifacts: (_source, boxFiles) => (boxFiles.includes("prog") ? ["prog"] : []),
  runCommand(_mainFile, limits: RunLimits) {
    return {
      argv: ["./prog"],
      // As C++: stack up to three quarters of the memory limit.
      limits: { ...limits, stackLimitKib: Math.max(8 * MIB, Math.floor((limits.memoryLimitKib * 3) / 4)) },
    };
  },
  requires: [{ path: "/usr/bin/gcc", versionArgs: ["--version"], debianPackage: "gcc" }],
  selfTest: {
    code: '#include <stdio.h>\nint main(void) { long long a, b; if (scanf("%lld %lld", &a, &b) != 2) return 1; printf("%lld\\n", a + b); return 0; }\n',
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
