/**
 * JavaScript on Node.js (Debian's `nodejs`, `/usr/bin/node`). Chosen over Bun
 * as the judging runtime: it is a Debian package at a fixed path the box can
 * bind, its heap is bounded with `--max-old-space-size`, and its start-up is
 * measured in scripts/bench-languages.ts. "Compiling" is `node --check`, a
 * syntax check that writes nothing. The program reads stdin with
 * `require("fs").readFileSync(0)`.
 */
import type { Language } from "./types.ts";

const MIB = 1024;
/** V8's own threads (platform workers, GC helpers) and libuv's pool. */
const NODE_THREADS = 16;
/** What Node needs beyond the JavaScript heap (code, V8's own structures), KiB. */
const NODE_OVERHEAD_KIB = 64 * MIB;

export const js: Language<"js"> = {
  id: "js",
  name: "JavaScript",
  displayName: "JavaScript (Node.js)",
  // Measured 1.76 × C++ (scripts/bench-languages.ts: loop 1.2, sieve 1.1, input 4.3; 32 ms start-up): × 2 (decision 039).
  timeMultiplier: 2,
  editorMode: "javascript",
  boilerplate: `const data = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean);

// Your code here
`,
  sourceFileName: () => "main.js",
  compilerFlags: ["--check"],
  compileArgv(sourceFile, _extraFlags) {
    return ["/usr/bin/node", ...this.compilerFlags, sourceFile];
  },
  compileLimits: {
    cpuTimeLimitMs: 10_000,
    wallTimeLimitMs: 20_000,
    memoryLimitKib: 512 * MIB,
    processLimit: NODE_THREADS,
    outputLimitBytes: 64 * 1024,
    fileSizeLimitKib: 1 * MIB,
    // V8 reserves far more address space than it uses.
    addressSpaceLimit: false,
  },
  env: {},
  selectArtifacts: (source, boxFiles) => (boxFiles.includes(source) ? [source] : []),
  runCommand(mainFile, limits) {
    const heapMib = Math.max(16, Math.floor(limits.memoryLimitKib / MIB));
    return {
      argv: ["/usr/bin/node", `--max-old-space-size=${heapMib}`, "--stack-size=65500", mainFile],
      limits: {
        ...limits,
        memoryLimitKib: limits.memoryLimitKib + NODE_OVERHEAD_KIB,
        processLimit: limits.processLimit + NODE_THREADS,
        // Deep recursion with --stack-size needs a main-thread stack to match.
        stackLimitKib: Math.max(8 * MIB, Math.min(limits.memoryLimitKib, 256 * MIB)),
        addressSpaceLimit: false,
      },
    };
  },
  reclassify(result) {
    if ((result.status === "RE" || result.status === "SG") && /JavaScript heap out of memory/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "JavaScript heap out of memory" };
    }
    return result;
  },
  package: { code: "javascript", aliases: ["js", "nodejs"], extensions: ["js"] },
  requires: [{ path: "/usr/bin/node", versionArgs: ["--version"], debianPackage: "nodejs" }],
  selfTest: {
    code: 'const [a, b] = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean).map(BigInt);\nconsole.log(String(a + b));\n',
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
