/**
 * C++17 with GCC. `bits/stdc++.h` is precompiled for exactly `PCH_FLAGS`
 * (isolate/pch.ts) and mounted read-only at `/pch` inside the box; `-I/pch`
 * makes GCC find `/pch/bits/stdc++.h.gch` before the system header (GCC manual,
 * "Using Precompiled Headers": a `.gch` beside a header in the search path wins
 * when it was built with compatible options).
 */
import { PCH_MOUNT, type RunLimits } from "../types.ts";
import type { Language } from "./types.ts";

/** Flags that change the generated code; the precompiled header is built with exactly these. */
export const PCH_FLAGS: readonly string[] = ["-std=gnu++17", "-O2", "-DONLINE_JUDGE"];

const MIB = 1024;

/**
 * Compile limits of a language compiled by GCC (C, C++): cc1/cc1plus, as,
 * collect2, ld a few at once; the file-size limit bounds the linked program
 * (a gigabyte initialised array cannot be written).
 */
export const GCC_COMPILE_LIMITS = {
  cpuTimeLimitMs: 10_000,
  wallTimeLimitMs: 20_000,
  memoryLimitKib: 512 * MIB,
  processLimit: 16,
  outputLimitBytes: 64 * 1024,
  fileSizeLimitKib: 64 * MIB,
} as const;

/**
 * How a native program (`./prog`: C, C++, Rust) runs: stack up to three
 * quarters of the memory limit (at least 8 MiB), so deep recursion works and
 * infinite recursion ends in SIGSEGV.
 */
export function nativeRun(limits: RunLimits): { argv: string[]; limits: RunLimits } {
  return { argv: ["./prog"], limits: { ...limits, stackLimitKib: Math.max(8 * MIB, Math.floor((limits.memoryLimitKib * 3) / 4)) } };
}

export const cpp: Language<"cpp"> = {
  id: "cpp",
  name: "C++",
  displayName: "C++17 (GCC)",
  // No multiplier: the problem's limit is the C++ limit.
  timeMultiplier: 1,
  editorMode: "cpp",
  boilerplate: `#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);

    // Your code here

    return 0;
}
`,
  sourceFileName: () => "main.cpp",
  compilerFlags: [...PCH_FLAGS, "-pipe", "-fmax-errors=20", `-I${PCH_MOUNT}`],
  compileArgv(sourceFile, extraFlags) {
    return ["/usr/bin/g++", ...this.compilerFlags, ...extraFlags, "-o", "prog", sourceFile];
  },
  compileLimits: GCC_COMPILE_LIMITS,
  env: {},
  selectArtifacts: (_source, boxFiles) => (boxFiles.includes("prog") ? ["prog"] : []),
  runCommand: (_mainFile, limits) => nativeRun(limits),
  /**
   * A failed allocation is the memory limit's doing: std::bad_alloc ending the
   * program (terminate → abort) is MLE. Where memory is limited as address
   * space (rlimit mode) that is how a memory bomb ends; with control groups
   * the kernel's OOM kill usually comes first.
   */
  reclassify(result) {
    if ((result.status === "RE" || result.status === "SG") && /std::bad_alloc/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "std::bad_alloc" };
    }
    return result;
  },
  package: { code: "cpp", aliases: ["c++"], extensions: ["cpp", "cc", "cxx", "c++", "C"] },
  requires: [{ path: "/usr/bin/g++", versionArgs: ["--version"], debianPackage: "g++" }],
  selfTest: {
    code: `#include <bits/stdc++.h>
using namespace std;
int main() {
  long long a, b;
  cin >> a >> b;
  vector<long long> v{a, b};
  cout << accumulate(v.begin(), v.end(), 0LL) << "\\n";
}
`,
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
