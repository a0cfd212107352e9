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
/**
 * Address space PyPy maps beyond its garbage-collected heap, KiB, for rlimit
 * mode (no cgroup; review N7: mmap and other memory outside the GC heap were
 * unbounded there). Measured with `ulimit -v` (PyPy 7.3.11, amd64,
 * 2026-11-26): hello world needs 86 MiB; a program whose heap reaches
 * PYPY_GC_MAX=64MB needs 147 MiB (the heap plus 83). Each thread takes one
 * more stack, so a threaded program may fail to start its threads there, as
 * C++'s do (docs/sandbox.md).
 */
const PYPY_RESERVED_KIB = 128 * MIB;

/**
 * PyPy's nursery (its young-generation arena), fixed. Unset, PyPy sizes it at half "the cache"
 * it reads from /proc/cpuinfo's `cache size` (rpython/memory/gc/env.py), which on x86 is the
 * last-level cache: 240 MiB on a host reporting 480 MiB of L3 (AMD EPYC with 3D V-Cache), so
 * under a 64 MiB limit PyPy died at start-up ("cannot allocate nursery", rlimit) or was MLE
 * adding two numbers (cgroup). 4 MB is PyPy's own default when it cannot read a cache size
 * (PYPY_GC_NURSERY, pypy.org's garbage collector documentation); fixing it also makes a
 * submission's memory use the same on every judge host.
 */
export const PYPY_NURSERY = "4MB";

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
    // Memory is bounded by the cgroup; where only rlimits exist, by PyPy's own garbage collector
    // (PYPY_GC_MAX: past it, MemoryError → MLE) and an address space of the limit, PyPy's own
    // mappings and the main thread's stack (the backends' default stack), past which mmap fails
    // (ENOMEM → MLE) and above which a peak resident size is MLE.
    const stackKib = run.limits.stackLimitKib ?? Math.min(run.limits.memoryLimitKib, 64 * MIB);
    return {
      argv: ["/usr/bin/pypy3", ...run.argv.slice(1)],
      limits: { ...run.limits, addressSpaceLimitKib: run.limits.memoryLimitKib + PYPY_RESERVED_KIB + stackKib },
      env: { PYPY_GC_MAX: `${Math.max(1, Math.floor(limits.memoryLimitKib / MIB))}MB`, PYPY_GC_NURSERY: PYPY_NURSERY },
    };
  },
  // The format has one Python 3 code; a package picks PyPy by naming it (DOMjudge's and Debian's name).
  package: { code: "pypy3", aliases: ["pypy", "python3-pypy"], extensions: [] },
  requires: [{ path: "/usr/bin/pypy3", versionArgs: ["--version"], debianPackage: "pypy3" }],
};
