/**
 * Python 3 on PyPy (Debian's `pypy3`): the ICPC World Finals' and DOMjudge's
 * default Python, a JIT that runs loop-heavy solutions several times faster
 * than CPython. Everything but the interpreter is CPython's record (py.ts):
 * the boilerplate, the syntax check (run by PyPy itself), `-B -I`, the
 * environment and MemoryError as MLE.
 */
import type { Language } from "./types.ts";
import { py } from "./py.ts";

const MIB = 1024;

export const pypy: Language<"pypy"> = {
  ...py,
  id: "pypy",
  name: "PyPy",
  displayName: "Python 3 (PyPy)",
  // Measured 1.97 × C++ (scripts/bench-languages.ts: loop 1.2, sieve 3.4, input 1.9; 26 ms start-up): × 2 (decision 039).
  timeMultiplier: 2,
  compileArgv(sourceFile, _extraFlags) {
    return ["/usr/bin/pypy3", ...this.compilerFlags, sourceFile];
  },
  runCommand(mainFile, limits) {
    const run = py.runCommand(mainFile, limits);
    // The JIT reserves address space it may never touch: memory is bounded by the cgroup and, where
    // only rlimits exist, by PyPy's own garbage collector (PYPY_GC_MAX: past it, MemoryError → MLE).
    return {
      argv: ["/usr/bin/pypy3", ...run.argv.slice(1)],
      limits: { ...run.limits, addressSpaceLimit: false },
      env: { PYPY_GC_MAX: `${Math.max(1, Math.floor(limits.memoryLimitKib / MIB))}MB` },
    };
  },
  // The format has one Python 3 code; a package picks PyPy by naming it (DOMjudge's and Debian's name).
  package: { code: "pypy3", aliases: ["pypy", "python3-pypy"], extensions: [] },
  requires: [{ path: "/usr/bin/pypy3", versionArgs: ["--version"], debianPackage: "pypy3" }],
};
