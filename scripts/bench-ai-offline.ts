/**
 * Benchmark: how long the offline AI review takes per language, against a
 * baseline measured in the same run on the same sandbox: the judge's own
 * work for the sample (compile without warnings, one run of the sample). The
 * ratio is what the review adds (warnings, Python's syntax-tree checks, the
 * heuristics, the markdown). One more C++ row measures a server's first
 * minutes, before its precompiled `bits/stdc++.h` exists (it is built in the
 * background at the first start). Writes its section of docs/benchmarks.md.
 *
 * Usage: bun scripts/bench-ai-offline.ts [rounds=5]
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSource, createSandbox, runProgram } from "../isolate/index.ts";
import { ensurePch } from "../isolate/pch.ts";
import { createOfflineProvider } from "../src/ai/offline/offline.ts";
import type { Language, ReviewSubject } from "../src/ai/provider.ts";
import { loadConfig } from "../src/config.ts";
import { sandboxOptions } from "../src/sandbox.ts";

const rounds = Number(process.argv[2] ?? 5);
const SECTION = "## AI offline review (scripts/bench-ai-offline.ts)";

const PROBLEM = {
  id: "bench",
  title: "Sum",
  description: "Print the sum of N integers.",
  inputFormat: "N, then N integers.",
  outputFormat: "The sum.",
  constraints: "1 <= N <= 2*10^5, |a_i| <= 10^9",
  sampleInput: "3\n1 2 3\n",
  sampleOutput: "6\n",
  timeLimitMs: 1000,
  memoryLimitKib: 262144,
  checker: "lines" as const,
  version: 0,
};

const CODE: Partial<Record<Language, string>> & Record<"cpp" | "java" | "py", string> = {
  cpp: "#include <bits/stdc++.h>\nusing namespace std;\nint main(){int n;cin>>n;long long s=0;for(int i=0;i<n;i++){long long x;cin>>x;s+=x;}cout<<s<<'\\n';}\n",
  java: "import java.util.*;\npublic class Main{public static void main(String[] a){Scanner sc=new Scanner(System.in);int n=sc.nextInt();long s=0;for(int i=0;i<n;i++)s+=sc.nextLong();System.out.println(s);}}\n",
  py: "import sys\nd=sys.stdin.buffer.read().split()\nprint(sum(map(int,d[1:1+int(d[0])])))\n",
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dataDir = join(tmpdir(), "oj-judge-tests-data");
await ensurePch(dataDir);
const root = mkdtempSync(join(tmpdir(), "oj-bench-ai-"));
/** A DATA_DIR without the precompiled header: a server's first start. */
const bareDataDir = mkdtempSync(join(tmpdir(), "oj-bench-ai-nopch-"));
chmodSync(bareDataDir, 0o755);
const sandboxFor = async (dir: string, boxIdStart: number) => {
  const selection = await createSandbox(
    sandboxOptions(loadConfig({
      SANDBOX: "auto",
      SANDBOX_ROOT: join(root, String(boxIdStart)),
      DATA_DIR: dir,
      ISOLATE_BOX_ID_START: String(boxIdStart),
      ISOLATE_BOX_ID_COUNT: "5",
      SANDBOX_POOL_SIZE: "1",
    })),
    () => {},
    { buildPch: false },
  );
  if (!selection.backend) throw new Error(`no sandbox: ${selection.reason}`);
  return selection.backend;
};
chmodSync(root, 0o755);
const backend = await sandboxFor(dataDir, 3460);
const bareBackend = await sandboxFor(bareDataDir, 3465);

const rows: string[] = [];
try {
  for (const [label, language, box] of [
    ["cpp", "cpp", backend],
    ["java", "java", backend],
    ["py", "py", backend],
    ["cpp, first start (no precompiled header yet)", "cpp", bareBackend],
  ] as const) {
    const offline = createOfflineProvider({ sandbox: box });
    const base: number[] = [];
    const review: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      const bx = await box.acquire();
      try {
        const c = await compileSource(bx, language, CODE[language]);
        if (!c.ok) throw new Error(`baseline compile failed: ${c.diagnostics}`);
        const r = await runProgram(bx, language, { entry: c.entry, stdin: PROBLEM.sampleInput, timeLimitMs: 1000, memoryLimitKib: 262144 });
        if (r.status !== "OK") throw new Error(`baseline run ${r.status}: ${r.message ?? ""}`);
      } finally {
        await box.release(bx);
      }
      base.push(performance.now() - t);
      t = performance.now();
      const subject: ReviewSubject = { code: CODE[language], language, problem: PROBLEM, latestVerdict: null };
      const text = await offline.complete(subject, { timeoutMs: 60_000 });
      if (!text.includes("Passes the sample")) throw new Error(`unexpected review:\n${text}`);
      review.push(performance.now() - t);
    }
    const b = median(base);
    const r = median(review);
    rows.push(`| ${label} | ${b.toFixed(0)} | ${r.toFixed(0)} | ${(r / b).toFixed(2)} |`);
    console.log(`${label}: baseline ${b.toFixed(0)} ms, offline review ${r.toFixed(0)} ms, ratio ${(r / b).toFixed(2)}`);
  }
} finally {
  await backend.close();
  await bareBackend.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(bareDataDir, { recursive: true, force: true });
}

const section = [
  SECTION,
  "",
  `\`bun scripts/bench-ai-offline.ts ${rounds}\` — ${new Date().toISOString().slice(0, 10)}, sandbox ${backend.description ?? backend.name}, median of ${rounds} rounds.`,
  "Baseline: the judge's own work for a sample (compile without warnings + one run). Review: the whole offline review",
  "(compile with warnings, Python syntax-tree checks, the sample run, heuristics, markdown) of the same correct program.",
  "The last row is a server's first minutes: the precompiled `bits/stdc++.h` is still being built in the background",
  "(once per DATA_DIR), so both sides parse the whole header. Over SSE the review's first text (its header) arrives",
  "at once and the sections follow as each is known.",
  `Load average at the end: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" / ")} (other work shares these cores; figures are noisy).`,
  "",
  "| language | baseline ms | offline review ms | ratio |",
  "|---|---|---|---|",
  ...rows,
  "",
  "",
].join("\n");

const file = join(import.meta.dir, "..", "docs", "benchmarks.md");
const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nEach benchmark owns its section; rerun it to replace the section.\n\n";
const start = current.indexOf(`${SECTION}\n`);
let next: string;
if (start === -1) next = `${current.replace(/\n*$/, "\n\n")}${section}`;
else {
  const after = current.indexOf("\n## ", start + SECTION.length);
  next = current.slice(0, start) + section + (after === -1 ? "" : current.slice(after + 1));
}
writeFileSync(file, next);
console.log(`wrote ${SECTION} in docs/benchmarks.md`);
