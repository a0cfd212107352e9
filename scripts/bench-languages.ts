/**
 * Language speed benchmark → the "Languages" section of docs/benchmarks.md,
 * and the measured side of each language's `timeMultiplier`
 * (docs/decisions/039-isolate-and-languages.md).
 *
 * The same three small programs in every language, compiled and run through
 * the real sandbox (bwrap, as shipped) in one run, against C++ (the baseline):
 *  - loop:  an integer recurrence, `x = (x * 31 + i) % 1000003` for i < n;
 *  - sieve: the primes up to n by Eratosthenes (array writes and reads);
 *  - io:    read n integers from stdin and print their sum (the input path).
 * Each program reads n first. n is doubled per language and program until a
 * run takes at least CALIBRATE_MS of CPU time, then RUNS runs at that n are
 * timed; the cost of one unit of work is (median CPU time − the language's
 * own start-up CPU time) / n, and the ratio is that cost over C++'s. The
 * slowdown of a language is the geometric mean of its three ratios.
 * Also per language: hello-world start-up (CPU, wall) and peak memory, and for
 * JavaScript the same start-up figures for Bun (is it the better runtime?).
 *   bun scripts/bench-languages.ts [--runs 3] [--calibrate-ms 400]
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBwrapBackend } from "../isolate/backends/bwrap.ts";
import { compileSource, runProgram, type Artifact } from "../isolate/exec.ts";
import { LANGUAGE_IDS, LANGUAGES, type LanguageId } from "../isolate/languages/index.ts";
import { ensurePch } from "../isolate/pch.ts";
import type { Box } from "../isolate/types.ts";
import { median, writeSection } from "./lib/bench-doc.ts";
import { loadConfig } from "../src/config.ts";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg("runs", 3);
const CALIBRATE_MS = arg("calibrate-ms", 400);
const SECTION = "## Languages (scripts/bench-languages.ts)";
const WORKLOADS = ["loop", "sieve", "io"] as const;
type Workload = (typeof WORKLOADS)[number];

/** The programs, per language and workload; every one prints one number. */
const PROGRAMS: Partial<Record<LanguageId, Record<Workload, string>>> = {
  cpp: {
    loop: `#include <cstdio>\nint main(){ long long n; if(scanf("%lld",&n)!=1) return 1; long long x=0; for(long long i=0;i<n;i++) x=(x*31+i)%1000003; printf("%lld\\n",x); }\n`,
    sieve: `#include <cstdio>\n#include <vector>\nint main(){ int n; if(scanf("%d",&n)!=1) return 1; std::vector<char> c(n+1,0); int k=0; for(long long i=2;i<=n;i++){ if(!c[i]){ k++; for(long long j=i*i;j<=n;j+=i) c[j]=1; } } printf("%d\\n",k); }\n`,
    io: `#include <cstdio>\nint main(){ long long n,s=0,v; if(scanf("%lld",&n)!=1) return 1; for(long long i=0;i<n;i++){ if(scanf("%lld",&v)!=1) return 1; s+=v; } printf("%lld\\n",s); }\n`,
  },
  c: {
    loop: `#include <stdio.h>\nint main(void){ long long n; if(scanf("%lld",&n)!=1) return 1; long long x=0; for(long long i=0;i<n;i++) x=(x*31+i)%1000003; printf("%lld\\n",x); return 0; }\n`,
    sieve: `#include <stdio.h>\n#include <stdlib.h>\nint main(void){ int n; if(scanf("%d",&n)!=1) return 1; char *c=calloc(n+1,1); int k=0; for(long long i=2;i<=n;i++){ if(!c[i]){ k++; for(long long j=i*i;j<=n;j+=i) c[j]=1; } } printf("%d\\n",k); return 0; }\n`,
    io: `#include <stdio.h>\nint main(void){ long long n,s=0,v; if(scanf("%lld",&n)!=1) return 1; for(long long i=0;i<n;i++){ if(scanf("%lld",&v)!=1) return 1; s+=v; } printf("%lld\\n",s); return 0; }\n`,
  },
  java: {
    loop: `import java.util.*;\npublic class Main { public static void main(String[] a) { long n = new Scanner(System.in).nextLong(); long x = 0; for (long i = 0; i < n; i++) x = (x * 31 + i) % 1000003; System.out.println(x); } }\n`,
    sieve: `import java.util.*;\npublic class Main { public static void main(String[] a) { int n = new Scanner(System.in).nextInt(); boolean[] c = new boolean[n + 1]; int k = 0; for (long i = 2; i <= n; i++) { if (!c[(int) i]) { k++; for (long j = i * i; j <= n; j += i) c[(int) j] = true; } } System.out.println(k); } }\n`,
    io: `import java.io.*;\nimport java.util.*;\npublic class Main { public static void main(String[] a) throws IOException { BufferedReader r = new BufferedReader(new InputStreamReader(System.in), 1 << 16); StreamTokenizer t = new StreamTokenizer(r); t.nextToken(); long n = (long) t.nval, s = 0; for (long i = 0; i < n; i++) { t.nextToken(); s += (long) t.nval; } System.out.println(s); } }\n`,
  },
  py: {
    loop: `n = int(input())\nx = 0\nfor i in range(n):\n    x = (x * 31 + i) % 1000003\nprint(x)\n`,
    sieve: `n = int(input())\nc = bytearray(n + 1)\nk = 0\nfor i in range(2, n + 1):\n    if not c[i]:\n        k += 1\n        c[i * i::i] = bytes(len(range(i * i, n + 1, i)))\nprint(k)\n`,
    io: `import sys\nd = sys.stdin.buffer.read().split()\nn = int(d[0])\nprint(sum(map(int, d[1:n + 1])))\n`,
  },
  js: {
    loop: `const n = Number(require("fs").readFileSync(0, "utf8").trim());\nlet x = 0;\nfor (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;\nconsole.log(x);\n`,
    sieve: `const n = Number(require("fs").readFileSync(0, "utf8").trim());\nconst c = new Uint8Array(n + 1);\nlet k = 0;\nfor (let i = 2; i <= n; i++) { if (!c[i]) { k++; for (let j = i * i; j <= n; j += i) c[j] = 1; } }\nconsole.log(k);\n`,
    io: `const d = require("fs").readFileSync(0, "utf8").split(/\\s+/);\nconst n = Number(d[0]);\nlet s = 0;\nfor (let i = 1; i <= n; i++) s += Number(d[i]);\nconsole.log(s);\n`,
  },
  go: {
    loop: `package main\n\nimport "fmt"\n\nfunc main() {\n\tvar n int64\n\tfmt.Scan(&n)\n\tvar x int64\n\tfor i := int64(0); i < n; i++ {\n\t\tx = (x*31 + i) % 1000003\n\t}\n\tfmt.Println(x)\n}\n`,
    sieve: `package main\n\nimport "fmt"\n\nfunc main() {\n\tvar n int\n\tfmt.Scan(&n)\n\tc := make([]bool, n+1)\n\tk := 0\n\tfor i := 2; i <= n; i++ {\n\t\tif !c[i] {\n\t\t\tk++\n\t\t\tfor j := i * i; j <= n; j += i {\n\t\t\t\tc[j] = true\n\t\t\t}\n\t\t}\n\t}\n\tfmt.Println(k)\n}\n`,
    io: `package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tr := bufio.NewReaderSize(os.Stdin, 1<<16)\n\tvar n, s, v int64\n\tfmt.Fscan(r, &n)\n\tfor i := int64(0); i < n; i++ {\n\t\tfmt.Fscan(r, &v)\n\t\ts += v\n\t}\n\tfmt.Println(s)\n}\n`,
  },
  rust: {
    loop: `use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: u64 = s.trim().parse().unwrap(); let mut x: u64 = 0; for i in 0..n { x = (x * 31 + i) % 1000003; } println!("{}", x); }\n`,
    sieve: `use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: usize = s.trim().parse().unwrap(); let mut c = vec![false; n + 1]; let mut k = 0; let mut i = 2; while i <= n { if !c[i] { k += 1; let mut j = i * i; while j <= n { c[j] = true; j += i; } } i += 1; } println!("{}", k); }\n`,
    io: `use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let mut it = s.split_ascii_whitespace(); let n: usize = it.next().unwrap().parse().unwrap(); let mut t: i64 = 0; for _ in 0..n { t += it.next().unwrap().parse::<i64>().unwrap(); } println!("{}", t); }\n`,
  },
};
// PyPy runs CPython's programs.
PROGRAMS.pypy = PROGRAMS.py;

const START_N: Record<Workload, number> = { loop: 1 << 16, sieve: 1 << 16, io: 1 << 12 };
const MAX_N: Record<Workload, number> = { loop: 2 ** 33, sieve: 2 ** 28, io: 2 ** 23 };

const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

function stdinFor(w: Workload, n: number): string {
  if (w !== "io") return `${n}\n`;
  const parts: string[] = [String(n)];
  for (let i = 0; i < n; i++) parts.push(String((i * 7919) % 1000000));
  return parts.join("\n") + "\n";
}

const LIMITS = { timeLimitMs: 20_000, wallTimeLimitMs: 60_000, memoryLimitKib: 1024 * 1024 };

async function timed(box: Box, id: LanguageId, compiled: { artifacts: Artifact[]; entry: string }, stdin: string) {
  const r = await runProgram(box, id, { ...compiled, stdin, ...LIMITS });
  if (r.status !== "OK") throw new Error(`${id}: ${r.status} ${r.message ?? ""} ${r.stderr.slice(0, 300)}`);
  return r;
}

async function main() {
  const pch = await ensurePch(loadConfig(process.env).DATA_DIR);
  const backend = await createBwrapBackend({ root: join(tmpdir(), `oj-bench-lang-${process.pid}`), boxIdStart: 870, boxIdCount: 2, poolSize: 1, pchDir: pch.dir });
  const box = await backend.acquire();
  type Row = { id: LanguageId; startCpuMs: number; startWallMs: number; startMemKib: number; perUnitNs: Partial<Record<Workload, number>>; n: Partial<Record<Workload, number>> };
  const rows: Row[] = [];
  try {
    for (const id of LANGUAGE_IDS) {
      const programs = PROGRAMS[id];
      const lang = LANGUAGES[id];
      if (!programs) {
        console.log(`${id}: no programs in this benchmark yet: skipped`);
        continue;
      }
      // Start-up: the language's own A + B self-test.
      const hello = await compileSource(box, id, lang.selfTest.code);
      if (!hello.ok) throw new Error(`${id}: self-test does not compile: ${hello.diagnostics}`);
      const starts = [];
      for (let i = 0; i < RUNS + 2; i++) starts.push(await timed(box, id, hello, lang.selfTest.stdin));
      const row: Row = {
        id,
        startCpuMs: median(starts.map((r) => r.cpuTimeMs)),
        startWallMs: median(starts.map((r) => r.wallTimeMs)),
        startMemKib: median(starts.map((r) => r.memoryKib)),
        perUnitNs: {},
        n: {},
      };
      for (const w of WORKLOADS) {
        const c = await compileSource(box, id, programs[w]);
        if (!c.ok) throw new Error(`${id} ${w}: does not compile: ${c.diagnostics}`);
        let n = START_N[w];
        for (;;) {
          const r = await timed(box, id, c, stdinFor(w, n));
          if (r.cpuTimeMs >= CALIBRATE_MS || n >= MAX_N[w]) break;
          n *= r.cpuTimeMs < CALIBRATE_MS / 8 ? 4 : 2;
        }
        const stdin = stdinFor(w, n);
        const cpu: number[] = [];
        for (let i = 0; i < RUNS; i++) cpu.push((await timed(box, id, c, stdin)).cpuTimeMs);
        row.n[w] = n;
        row.perUnitNs[w] = (Math.max(1, median(cpu) - row.startCpuMs) * 1e6) / n;
        console.log(`${id} ${w}: n=${n} cpu=${median(cpu)} ms (start ${row.startCpuMs} ms) → ${row.perUnitNs[w]!.toFixed(2)} ns/unit`);
      }
      rows.push(row);
    }

    // JavaScript's other candidate runtime: Bun, where installed, on the same self-test.
    let bunLine = "Bun: not measured (no bun on this host)";
    const bunBin = Bun.which("bun");
    if (bunBin && PROGRAMS.js) {
      const real = (await import("node:fs")).realpathSync(bunBin);
      if (real.startsWith("/usr/")) {
        await box.writeFile("main.js", LANGUAGES.js.selfTest.code, 0o644);
        const runs = [];
        for (let i = 0; i < RUNS + 2; i++) {
          const r = await box.run({ argv: [real, "main.js"], stdin: LANGUAGES.js.selfTest.stdin, cpuTimeLimitMs: 5000, wallTimeLimitMs: 10_000, memoryLimitKib: 1024 * 1024, processLimit: 64, outputLimitBytes: 1 << 20, fileSizeLimitKib: 1024, addressSpaceLimit: false });
          if (r.status !== "OK") {
            bunLine = `Bun ${real}: did not run in the box (${r.status} ${r.message ?? ""} ${r.stderr.slice(0, 120).replace(/\s+/g, " ")})`;
            break;
          }
          runs.push(r);
        }
        if (runs.length === RUNS + 2) {
          bunLine = `Bun (${real}) on JavaScript's self-test: start-up ${median(runs.map((r) => r.cpuTimeMs))} ms CPU, ${median(runs.map((r) => r.wallTimeMs))} ms wall, ${Math.round(median(runs.map((r) => r.memoryKib)) / 1024)} MiB peak`;
        }
      } else {
        bunLine = `Bun: not measured (${real} is outside /usr, which the box binds)`;
      }
    }

    const base = rows.find((r) => r.id === "cpp")!;
    const lines: string[] = [];
    lines.push(SECTION, "");
    lines.push(
      `Measured ${new Date().toISOString().slice(0, 10)} on this 2-core machine, bwrap backend, ${RUNS} timed runs per point after calibration (n doubled until a run takes ≥ ${CALIBRATE_MS} ms of CPU). Per-unit cost = (median CPU − the language's start-up CPU) / n; ratio = that over C++'s; slowdown = geometric mean of the three ratios. The multiplier is the judge's policy on top of it (docs/decisions/039-isolate-and-languages.md).`,
      "",
    );
    lines.push("| language | start-up CPU / wall | start-up peak memory | loop × C++ | sieve × C++ | io × C++ | slowdown (geo. mean) | time multiplier |");
    lines.push("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const r of rows) {
      const ratios = WORKLOADS.map((w) => r.perUnitNs[w]! / base.perUnitNs[w]!);
      lines.push(
        `| ${LANGUAGES[r.id].displayName} | ${r.startCpuMs} / ${r.startWallMs} ms | ${(r.startMemKib / 1024).toFixed(1)} MiB | ${ratios.map((x) => x.toFixed(2)).join(" | ")} | ${geomean(ratios).toFixed(2)} | × ${LANGUAGES[r.id].timeMultiplier} |`,
      );
    }
    lines.push("", `JavaScript runtime: Node (the judge's) above; ${bunLine}.`, "");
    lines.push(`C++ baseline per unit: ${WORKLOADS.map((w) => `${w} ${base.perUnitNs[w]!.toFixed(2)} ns (n = ${base.n[w]})`).join(", ")}.`, "");
    const text = lines.join("\n");
    console.log(`\n${text}`);
    writeSection(join(import.meta.dir, "..", "docs", "benchmarks.md"), SECTION, text);
    console.log("bench-languages: wrote docs/benchmarks.md");
  } finally {
    await backend.release(box);
    await backend.close();
  }
}

await main();
