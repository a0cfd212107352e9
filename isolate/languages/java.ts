/**
 * Java 17 (OpenJDK): `javac`, then `java` on the class that declares `main`.
 * Users paste `public class Solution`, `class Main` or any other name; the
 * source file must carry the public top-level class's name (JLS 7.6), so the
 * file name is derived from the code.
 *
 * Memory: the user's limit is the heap (`-Xmx`); the box's cgroup limit is that
 * plus `JVM_OVERHEAD_KIB` for metaspace, code cache, thread stacks and the JVM
 * itself, so the JVM's large virtual reservations are never mistaken for MLE.
 * A heap overflow (`java.lang.OutOfMemoryError`) is reported as MLE.
 */
import type { RunLimits, RunResult } from "../types.ts";
import type { Language } from "./types.ts";

const MIB = 1024;

/** Non-heap memory the JVM needs beyond -Xmx (measured: ~45 MiB RSS for hello world with these flags). */
export const JVM_OVERHEAD_KIB = 128 * MIB;
/** Threads the JVM starts by itself (VM, compiler, finalizer, reference handler, ...) plus headroom. */
export const JVM_THREADS = 48;

/** Flags shared by javac's JVM and the program's JVM: small, single-collector, no /tmp/hsperfdata writes. */
const JVM_FLAGS = ["-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:ActiveProcessorCount=1", "-Xshare:auto"];

/**
 * Removes comments, string/char/text-block literals so that class and main can
 * be found. One left-to-right pass (linear in the code's length: the judge runs
 * it on untrusted code on every compile-cache miss, so no backtracking regex).
 * An unterminated comment runs to the end; an unterminated string or char
 * literal ends at the line's end (javac reports both).
 */
export function stripJavaNoise(code: string): string {
  let out = "";
  let i = 0;
  const n = code.length;
  while (i < n) {
    const ch = code[i]!;
    if (ch === "/" && code[i + 1] === "*") {
      const end = code.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
      out += " ";
    } else if (ch === "/" && code[i + 1] === "/") {
      const end = code.indexOf("\n", i + 2);
      i = end < 0 ? n : end;
      out += " ";
    } else if (ch === '"' && code.startsWith('"""', i)) {
      let j = i + 3;
      while (j < n && !code.startsWith('"""', j)) j += code[j] === "\\" ? 2 : 1;
      i = Math.min(n, j + 3);
      out += '""';
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < n && code[j] !== ch && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
      i = code[j] === ch ? j + 1 : j;
      out += ch + ch;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/**
 * Longest class name used for a file name, characters (the names matched are
 * ASCII): `<name>.class` must fit a 255-byte file name. Java itself sets no
 * limit, so a longer name would make writing the source fail in the box (a
 * server error) instead of being the code's compile error.
 */
const TOP_LEVEL_MODIFIERS = new Set(["public", "final", "abstract", "static", "sealed", "strictfp"]);
const METHOD_MODIFIERS = new Set(["public", "protected", "private", "static", "final", "synchronized", "strictfp"]);
const DECLARATION_KEYWORDS = new Set(["class", "interface", "enum", "record"]);

export const MAX_CLASS_NAME_CHARS = 255 - ".class".length;

/**
 * The class to run: the top-level class that declares `static void main(`,
 * preferring a `public` top-level class (which javac requires to match the file
 * name). Returns "Main" when nothing matches, or when the name is longer than
 * MAX_CLASS_NAME_CHARS, so javac's own error explains.
 * @example mainClassName("public class Solution { public static void main(String[] a) {} }") // "Solution"
 */
export function mainClassName(code: string): string {
  const clean = stripJavaNoise(code);
  const topLevel: { name: string; isPublic: boolean; hasMain: boolean }[] = [];
  // Word by word, so the scan stays linear on hostile code (a regex with a
  // repeated modifier group re-reads every following modifier at each word).
  const word = /[A-Za-z_$][\w$]*/y;
  const nameAfter = /\s+([A-Za-z_$][\w$]*)/y;
  const mainAfterVoid = /\s+main\s*\(/y;
  let depth = 0;
  let current: (typeof topLevel)[number] | null = null;
  let modifiers: string[] = [];
  for (let i = 0; i < clean.length; i++) {
    const ch = clean[i];
    if (ch === "{" || ch === "}") {
      depth = ch === "{" ? depth + 1 : Math.max(0, depth - 1);
      modifiers = [];
    } else if (/[A-Za-z_$]/.test(ch!) && (i === 0 || !/[\w$]/.test(clean[i - 1]!))) {
      word.lastIndex = i;
      const w = word.exec(clean)![0];
      const wordEnd = i + w.length;
      if (depth === 0) {
        if (TOP_LEVEL_MODIFIERS.has(w)) {
          modifiers.push(w);
        } else if (DECLARATION_KEYWORDS.has(w)) {
          nameAfter.lastIndex = wordEnd;
          const m = nameAfter.exec(clean);
          if (m) {
            current = { name: m[1]!, isPublic: modifiers.includes("public"), hasMain: false };
            topLevel.push(current);
            modifiers = [];
            i = nameAfter.lastIndex - 1;
            continue;
          }
          modifiers = [];
        } else {
          modifiers = [];
        }
      } else if (current) {
        // `static void main(` with its modifiers in any order (`public static`, `static public final`).
        if (METHOD_MODIFIERS.has(w)) {
          modifiers.push(w);
        } else {
          if (w === "void" && modifiers.includes("static")) {
            mainAfterVoid.lastIndex = wordEnd;
            if (mainAfterVoid.test(clean)) current.hasMain = true;
          }
          modifiers = [];
        }
      }
      i = wordEnd - 1;
    } else if (!/\s/.test(ch!)) {
      modifiers = [];
    }
  }
  const pub = topLevel.find((c) => c.isPublic);
  const name = pub?.name ?? topLevel.find((c) => c.hasMain)?.name ?? topLevel[0]?.name ?? "Main";
  return name.length <= MAX_CLASS_NAME_CHARS ? name : "Main";
}

export const java: Language<"java"> = {
  id: "java",
  name: "Java",
  displayName: "Java 17 (OpenJDK)",
  // JVM start and JIT warm-up (USACO and HackerRank give Java 2×).
  timeMultiplier: 2,
  editorMode: "java",
  boilerplate: `import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

        // Your code here
    }
}
`,
  sourceFileName: (code) => `${mainClassName(code)}.java`,
  compilerFlags: ["-encoding", "UTF-8", "-J-Xms16m", "-J-Xmx384m", "-J-XX:TieredStopAtLevel=1", ...JVM_FLAGS.map((f) => `-J${f}`)],
  compileArgv(sourceFile, extraFlags) {
    return ["/usr/bin/javac", ...this.compilerFlags, ...extraFlags, sourceFile];
  },
  compileLimits: {
    cpuTimeLimitMs: 10_000,
    wallTimeLimitMs: 20_000,
    // javac's heap (-Xmx384m) plus the JVM's own memory.
    memoryLimitKib: 512 * MIB + JVM_OVERHEAD_KIB,
    processLimit: JVM_THREADS,
    outputLimitBytes: 64 * 1024,
    fileSizeLimitKib: 64 * MIB,
    // Without cgroups the address-space rlimit would count the JVM's reservations (javac is a JVM too).
    addressSpaceLimit: false,
  },
  env: {},
  selectArtifacts: (_source, boxFiles) => boxFiles.filter((f) => f.endsWith(".class")),
  runCommand(mainFile, limits: RunLimits) {
    const heapMib = Math.max(16, Math.floor(limits.memoryLimitKib / MIB));
    // A StackOverflowError unwinding a deep stack peaks at about 4× -Xss of memory (measured: 32m → 129 MiB), so the stack stays small.
    const stackMib = Math.max(8, Math.min(32, Math.floor(heapMib / 4)));
    return {
      argv: [
        "/usr/bin/java",
        ...JVM_FLAGS,
        `-Xms${Math.min(heapMib, 32)}m`,
        `-Xmx${heapMib}m`,
        `-Xss${stackMib}m`,
        // The JVM's own warnings (e.g. "Failed to start thread") go to stdout by default, where they
        // would become part of the answer: send them to stderr (JEP 158 unified logging).
        "-Xlog:disable",
        "-Xlog:all=warning:stderr",
        "-Dfile.encoding=UTF-8",
        "-cp",
        ".",
        mainFile.replace(/\.java$/, ""),
      ],
      limits: {
        ...limits,
        memoryLimitKib: limits.memoryLimitKib + JVM_OVERHEAD_KIB,
        processLimit: limits.processLimit + JVM_THREADS,
        // Without cgroups the address-space rlimit would count the JVM's reservations.
        addressSpaceLimit: false,
      },
    };
  },
  reclassify(result: RunResult): RunResult {
    if (result.status === "RE" && /java\.lang\.OutOfMemoryError/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "java.lang.OutOfMemoryError" };
    }
    return result;
  },
  package: { code: "java", aliases: [], extensions: ["java"] },
  requires: [
    { path: "/usr/bin/javac", versionArgs: ["-version"], debianPackage: "default-jdk-headless" },
    { path: "/usr/bin/java", versionArgs: ["-version"], debianPackage: "default-jdk-headless" },
  ],
  selfTest: {
    code: `import java.util.*;

public class Solution {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        long a = in.nextLong(), b = in.nextLong();
        System.out.println(a + b);
    }
}
`,
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
