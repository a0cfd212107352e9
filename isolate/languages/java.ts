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

/** Removes comments, string/char/text-block literals so that class and main can be found by regex. */
export function stripJavaNoise(code: string): string {
  return code
    .replace(/"""[\s\S]*?"""/g, '""')
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/[^\n]*/g, " ")
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

/**
 * The class to run: the top-level class that declares `static void main(`,
 * preferring a `public` top-level class (which javac requires to match the file
 * name). Returns "Main" when nothing matches, so javac's own error explains.
 * @example mainClassName("public class Solution { public static void main(String[] a) {} }") // "Solution"
 */
export function mainClassName(code: string): string {
  const clean = stripJavaNoise(code);
  const topLevel: { name: string; isPublic: boolean; hasMain: boolean }[] = [];
  const decl = /\b(public\s+|final\s+|abstract\s+|static\s+|sealed\s+|strictfp\s+)*(class|interface|enum|record)\s+([A-Za-z_$][\w$]*)/y;
  const main = /static\s+(?:final\s+)?void\s+main\s*\(/y;
  let depth = 0;
  let current: (typeof topLevel)[number] | null = null;
  for (let i = 0; i < clean.length; i++) {
    const ch = clean[i];
    if (ch === "{") depth++;
    else if (ch === "}") depth = Math.max(0, depth - 1);
    else if (/[A-Za-z_$]/.test(ch!) && (i === 0 || !/[\w$]/.test(clean[i - 1]!))) {
      if (depth === 0) {
        decl.lastIndex = i;
        const m = decl.exec(clean);
        if (m) {
          current = { name: m[3]!, isPublic: /\bpublic\b/.test(m[0]), hasMain: false };
          topLevel.push(current);
          i = decl.lastIndex - 1;
          continue;
        }
      } else if (current) {
        main.lastIndex = i;
        if (main.exec(clean)) current.hasMain = true;
      }
    }
  }
  const pub = topLevel.find((c) => c.isPublic);
  return pub?.name ?? topLevel.find((c) => c.hasMain)?.name ?? topLevel[0]?.name ?? "Main";
}

export const java: Language = {
  id: "java",
  displayName: "Java 17 (OpenJDK)",
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
