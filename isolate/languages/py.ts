/**
 * Python 3, the system interpreter (`/usr/bin/python3`, not a user-level shim).
 * "Compiling" is a syntax check with `compile()` that writes no bytecode, so a
 * SyntaxError is a compile error; runs use `-B` (no .pyc) and `-I` (ignore
 * PYTHON* variables, user site-packages and the script's directory on sys.path).
 */
import type { Language } from "./types.ts";

const MIB = 1024;

/** Syntax check: prints Python's own SyntaxError text and exits 1; writes nothing (PyPy's compile step too). */
const PY_SYNTAX_CHECK = [
  "import sys, traceback",
  "path = sys.argv[1]",
  "src = open(path, 'rb').read()",
  "try:",
  "    compile(src, path, 'exec', dont_inherit=True)",
  "except (SyntaxError, ValueError) as e:",
  "    sys.stderr.write(''.join(traceback.format_exception_only(type(e), e)))",
  "    sys.exit(1)",
].join("\n");

export const py: Language<"py"> = {
  id: "py",
  name: "Python",
  displayName: "Python 3",
  // Interpreter speed (judges give Python 2–5×).
  timeMultiplier: 3,
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
    return ["/usr/bin/python3", ...this.compilerFlags, sourceFile];
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
      argv: ["/usr/bin/python3", "-B", "-I", mainFile],
      // The interpreter itself needs a few MiB of address space and a thread or two.
      limits: { ...limits, processLimit: Math.max(limits.processLimit, 4) },
    };
  },
  reclassify(result) {
    if (result.status === "RE" && /(^|\n)MemoryError\b/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "MemoryError" };
    }
    // mmap or a buffer past the address-space bound (rlimit mode): ENOMEM, the program's own error, is memory.
    if (result.status === "RE" && /(^|\n)(OSError|mmap\.error): \[Errno 12\] Cannot allocate memory/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "Cannot allocate memory" };
    }
    return result;
  },
  package: { code: "python3", aliases: ["python"], extensions: ["py", "py3"] },
  requires: [{ path: "/usr/bin/python3", versionArgs: ["--version"], debianPackage: "python3" }],
  selfTest: {
    code: "a, b = map(int, input().split())\nprint(a + b)\n",
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
