/**
 * Python 3 on PyPy (Debian's `pypy3`): the ICPC World Finals' and DOMjudge's
 * default Python, a JIT that runs loop-heavy solutions several times faster
 * than CPython. The compile step is the same syntax check as CPython's
 * (py.ts), run by PyPy itself; runs use `-B` and `-I` as CPython's do.
 */
import type { Language } from "./types.ts";
import { PY_SYNTAX_CHECK } from "./py.ts";

const MIB = 1024;

export const pypy: Language<"pypy"> = {
  id: "pypy",
  name: "PyPy",
  displayName: "Python 3 (PyPy)",
  // Measured (scripts/bench-languages.ts): see docs/benchmarks.md.
  timeMultiplier: 2,
  editorMode: "python",
  boilerplate: `import sys


def main():
    data = sys.stdin.read().split()

    # Your code here


if __name__ == "__main__":
    main()
`,
  sourceFileName: () => "main.py",
  compilerFlags: ["-B", "-I", "-c", PY_SYNTAX_CHECK],
  compileArgv(sourceFile, _extraFlags) {
    return ["/usr/bin/pypy3", ...this.compilerFlags, sourceFile];
  },
  compileLimits: {
    cpuTimeLimitMs: 10_000,
    wallTimeLimitMs: 20_000,
    memoryLimitKib: 512 * MIB,
    processLimit: 4,
    outputLimitBytes: 64 * 1024,
    fileSizeLimitKib: 1 * MIB,
  },
  env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8", PYTHONHASHSEED: "0" },
  selectArtifacts: (source, boxFiles) => (boxFiles.includes(source) ? [source] : []),
  runCommand(mainFile, limits) {
    return {
      argv: ["/usr/bin/pypy3", "-B", "-I", mainFile],
      // The JIT's own threads and its memory reservations.
      limits: { ...limits, processLimit: Math.max(limits.processLimit, 4), addressSpaceLimit: false },
    };
  },
  reclassify(result) {
    if (result.status === "RE" && /(^|\n)MemoryError\b/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "MemoryError" };
    }
    return result;
  },
  requires: [{ path: "/usr/bin/pypy3", versionArgs: ["--version"], debianPackage: "pypy3" }],
  selfTest: {
    code: "a, b = map(int, input().split())\nprint(a + b)\n",
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
