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
/**
 * Address space Node maps beyond the memory limit, KiB, for rlimit mode (no
 * cgroup; review N7: without any bound, Buffers were unlimited there).
 * Measured with `ulimit -v` (Node 20.20.2, amd64, 2026-11-26, stack rlimit
 * 8 MiB): hello world needs 715 MiB whatever --max-old-space-size says (V8's
 * code range and cage reservations); a program holding a 50 MiB heap of 64
 * needs 1060 MiB, 400 of 512 needs 1432 MiB, 700 of 1024 runs in 1953 MiB:
 * the heap plus about 1 GiB at most. Threads come on top (NODE_THREADS).
 */
const NODE_RESERVED_KIB = 1024 * MIB;
/**
 * The main thread's stack, KiB: V8's --stack-size below is 65 500 KiB, so a
 * larger rlimit is never used by JavaScript; and every other thread of Node
 * (glibc's default) takes a stack of this size out of the address space
 * (measured: hello world's 715 MiB becomes 996 MiB with 64 MiB stacks, five
 * threads; fs and dns start four more).
 */
const nodeStackKib = (memoryLimitKib: number) => Math.max(8 * MIB, Math.min(memoryLimitKib, 80 * MIB));
/**
 * The address-space bound for a memory limit (memoryLimitKib already holds
 * NODE_OVERHEAD_KIB): the limit, the runtime's reservations, and a stack for
 * each thread Node may start. Past it an allocation fails (V8's "Fatal process
 * OOM", a Buffer's "Array buffer allocation failed": MLE); below it, a peak
 * resident size above the limit is MLE too (the backends' rlimit rule).
 */
const nodeAddressSpaceKib = (memoryLimitKib: number, stackKib: number) => memoryLimitKib + NODE_RESERVED_KIB + NODE_THREADS * stackKib;

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
    // V8 reserves far more address space than it uses: the limit plus its reservations (the backends' default 64 MiB stack).
    addressSpaceLimitKib: nodeAddressSpaceKib(512 * MIB, 64 * MIB),
  },
  env: {},
  selectArtifacts: (source, boxFiles) => (boxFiles.includes(source) ? [source] : []),
  runCommand(mainFile, limits) {
    const heapMib = Math.max(16, Math.floor(limits.memoryLimitKib / MIB));
    const memoryLimitKib = limits.memoryLimitKib + NODE_OVERHEAD_KIB;
    // Deep recursion with --stack-size needs a main-thread stack to match.
    const stackLimitKib = nodeStackKib(limits.memoryLimitKib);
    return {
      argv: ["/usr/bin/node", `--max-old-space-size=${heapMib}`, "--stack-size=65500", mainFile],
      limits: {
        ...limits,
        memoryLimitKib,
        processLimit: limits.processLimit + NODE_THREADS,
        stackLimitKib,
        addressSpaceLimitKib: nodeAddressSpaceKib(memoryLimitKib, stackLimitKib),
      },
    };
  },
  reclassify(result) {
    if ((result.status === "RE" || result.status === "SG") && /JavaScript heap out of memory/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "JavaScript heap out of memory" };
    }
    // Past the address-space bound (rlimit mode): V8 cannot map memory, or a Buffer cannot be allocated.
    if ((result.status === "RE" || result.status === "SG") && /Fatal process OOM|Failed to reserve virtual memory|Array buffer allocation failed|RangeError: Array buffer allocation/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "out of memory" };
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
