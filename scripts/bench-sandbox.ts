/**
 * Sandbox overhead benchmark. For each real backend present:
 *  - per-run overhead: a trivial program (/bin/true) run RUNS times in one
 *    reused box against spawning it bare RUNS times in the same process, same
 *    run, interleaved; medians, the difference and the ratio. Targets on our
 *    2-core machine: bwrap ≤ 10 ms over bare, isolate ≤ 6 ms.
 *  - for bwrap, the same measurement with its start-up savings turned off
 *    (`tuning`: the sh/setpriv/prlimit chain instead of oj-launch, /etc and
 *    /dev mounted file by file), all interleaved in one loop so that load from
 *    elsewhere hits every series alike, plus where a run's time goes
 *    (`onRunTimings` phases, medians).
 *  - C++ compile time of a bits/stdc++.h program inside the box, with the
 *    precompiled header mounted and without it (target: ~0.4 s against ~2 s).
 *  - Python's hello world in the box.
 * isolate: every build the test command made (1.10.1 with cgroups, 2.6 in
 * rlimit mode on a cgroup v1 host) and an installed one, next to bwrap.
 * Writes its own section of docs/benchmarks.md (other sections are kept).
 *   bun scripts/bench-sandbox.ts [--runs 200] [--compiles 5]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { compileSource } from "../isolate/exec.ts";
import { createBwrapBackend, type BwrapOptions, type BwrapRunTimings } from "../isolate/backends/bwrap.ts";
import { getLanguage } from "../isolate/languages/index.ts";
import { ensurePch } from "../isolate/pch.ts";
import { backendCandidates } from "../isolate/test-backends.ts";
import { median } from "./lib/bench-doc.ts";
import type { Box, RunRequest, SandboxBackend } from "../isolate/types.ts";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg("runs", 200);
const COMPILES = arg("compiles", 5);
const SECTION = "## Sandbox runner (scripts/bench-sandbox.ts)";

const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const fmt = (ms: number) => ms.toFixed(2);
const load = () => loadavg().map((l) => l.toFixed(1)).join(" / ");

const TRIVIAL: RunRequest = {
  argv: ["/bin/true"],
  cpuTimeLimitMs: 1000,
  wallTimeLimitMs: 5000,
  memoryLimitKib: 64 * 1024,
  processLimit: 4,
  outputLimitBytes: 1024,
  fileSizeLimitKib: 1024,
};

async function bare(): Promise<number> {
  const t = performance.now();
  const p = Bun.spawn(["/bin/true"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: "/usr/bin:/bin" } });
  await Promise.all([new Response(p.stdout).arrayBuffer(), new Response(p.stderr).arrayBuffer(), p.exited]);
  return performance.now() - t;
}

/** One series of the interleaved loop: a backend, its box, its timings. */
interface Series {
  label: string;
  backend: SandboxBackend;
  box: Box;
  ms: number[];
  phases: Partial<Record<keyof BwrapRunTimings, number[]>>;
  target?: number;
}

/** Runs bare and every series RUNS times, interleaved (rotating order), after a warm-up. */
async function measure(series: Series[]): Promise<number[]> {
  const bareMs: number[] = [];
  const steps: (() => Promise<void>)[] = [
    async () => void bareMs.push(await bare()),
    ...series.map((s) => async () => {
      const t = performance.now();
      const r = await s.box.run(TRIVIAL);
      s.ms.push(performance.now() - t);
      if (r.status !== "OK") throw new Error(`${s.label}: /bin/true ended ${r.status} ${r.message ?? ""}`);
    }),
  ];
  for (let i = 0; i < 10; i++) for (const step of steps) await step();
  bareMs.length = 0;
  for (const s of series) {
    s.ms.length = 0;
    s.phases = {};
  }
  for (let i = 0; i < RUNS; i++) for (let j = 0; j < steps.length; j++) await steps[(i + j) % steps.length]!();
  return bareMs;
}

function row(name: string, b: number, s: Series): string {
  const m = median(s.ms);
  const target = s.target === undefined ? "" : `≤ ${s.target} ms: ${m - b <= s.target ? "met" : "NOT met"}`;
  console.log(`${name} ${s.label}: bare ${fmt(b)} ms, box ${fmt(m)} ms, overhead ${fmt(m - b)} ms (${(m / b).toFixed(1)}×)`);
  return `| ${name} | ${s.label} | ${fmt(b)} | ${fmt(m)} (p90 ${fmt(p90(s.ms))}) | **${fmt(m - b)}** | ${(m / b).toFixed(1)}× | ${target} |`;
}

const config = loadConfig(process.env);
const pch = await ensurePch(config.DATA_DIR);
const rows: string[] = [];
const phaseRows: string[] = [];
const compileRows: string[] = [];
const started = new Date();
const loadAtStart = load();
const mountCount = readFileSync("/proc/self/mountinfo", "utf8").trim().split("\n").length;
let loadAfterRuns = "";

/** Python's hello world in the box: the interpreter's start inside the sandbox, median of PY_RUNS, ms. */
const PY_RUNS = 20;
const pythonRows: string[] = [];
async function pythonHello(label: string, box: Box): Promise<void> {
  const req: RunRequest = { ...TRIVIAL, argv: ["/usr/bin/python3", "-B", "-I", "-c", 'print("Hello, World!")'], memoryLimitKib: 256 * 1024 };
  const ms: number[] = [];
  for (let i = 0; i < PY_RUNS + 3; i++) {
    const t = performance.now();
    const r = await box.run(req);
    if (r.status !== "OK" || r.stdout !== "Hello, World!\n") throw new Error(`${label}: python hello world ended ${r.status} ${r.message ?? ""}`);
    if (i >= 3) ms.push(performance.now() - t);
  }
  pythonRows.push(`| ${label} | ${fmt(median(ms))} | ${fmt(p90(ms))} |`);
  console.log(`${label}: python hello world ${fmt(median(ms))} ms`);
}

async function compileTimes(label: string, withPch: SandboxBackend, box: Box, withoutPch: () => Promise<SandboxBackend>): Promise<void> {
  const code = getLanguage("cpp").selfTest.code;
  const time = async (backend: SandboxBackend, bx: Box) => {
    const ms: number[] = [];
    for (let i = 0; i < COMPILES; i++) {
      const t = performance.now();
      const c = await compileSource(bx, "cpp", code);
      if (!c.ok) throw new Error(`compile failed: ${c.diagnostics}`);
      ms.push(performance.now() - t);
    }
    return median(ms);
  };
  const a = await time(withPch, box);
  const other = await withoutPch();
  const bx = await other.acquire();
  let b: number;
  try {
    b = await time(other, bx);
  } finally {
    await other.release(bx);
    await other.close();
  }
  compileRows.push(`| ${label} | ${fmt(a)} | ${fmt(b)} | ${(b / a).toFixed(1)}× |`);
  console.log(`${label}: compile with PCH ${fmt(a)} ms, without ${fmt(b)} ms`);
}

for (const candidate of backendCandidates()) {
  if (candidate.missing) {
    rows.push(`| ${candidate.name} | not installed here | | | | | |`);
    continue;
  }
  if (candidate.name === "isolate") {
    const backend = await candidate.create({ boxIdStart: 850 + candidate.boxIdOffset, pchDir: pch.dir });
    const box = await backend.acquire();
    try {
      const s: Series = { label: `box reused (${(backend.description ?? "").split(",").slice(1, 2).join("").trim()})`, backend, box, ms: [], phases: {}, target: 6 };
      const bareMs = await measure([s]);
      rows.push(row(candidate.label, median(bareMs), s));
      await compileTimes(candidate.label, backend, box, () => candidate.create({ boxIdStart: 854 + candidate.boxIdOffset }));
      await pythonHello(candidate.label, box);
    } finally {
      await backend.release(box);
      await backend.close();
    }
    continue;
  }

  // bwrap: the backend as configured, and with its start-up savings turned off, side by side.
  const root = join(tmpdir(), `oj-bench-sandbox-${process.pid}`);
  const variants: { label: string; tuning: BwrapOptions["tuning"]; boxIdStart: number; target?: number }[] = [
    { label: "sh → setpriv → prlimit, /etc and /dev file by file (the launch before oj-launch)", tuning: { launcher: false, preparedEtcDev: false, warm: false }, boxIdStart: 860 },
    { label: "oj-launch, /etc and /dev file by file", tuning: { launcher: true, preparedEtcDev: false, warm: false }, boxIdStart: 862 },
    { label: "oj-launch, prepared /etc and /dev, each run set up on its own path", tuning: { warm: false }, boxIdStart: 864 },
    { label: "oj-launch, prepared /etc and /dev, the next run's sandbox launched in advance (as shipped)", tuning: {}, boxIdStart: 868, target: 10 },
  ];
  const series: Series[] = [];
  try {
    for (const v of variants) {
      const s: Series = { label: v.label, backend: null as unknown as SandboxBackend, box: null as unknown as Box, ms: [], phases: {}, target: v.target };
      s.backend = await createBwrapBackend({
        root: `${root}-${v.boxIdStart}`,
        boxIdStart: v.boxIdStart,
        boxIdCount: 2,
        poolSize: 1,
        pchDir: pch.dir,
        tuning: v.tuning,
        onRunTimings: (t) => {
          for (const [k, ms] of Object.entries(t) as [keyof BwrapRunTimings, number | boolean][]) if (typeof ms === "number") (s.phases[k] ??= []).push(ms);
        },
      });
      s.box = await s.backend.acquire();
      series.push(s);
    }
    const bareMs = await measure(series);
    loadAfterRuns = load();
    const b = median(bareMs);
    for (const s of series) rows.push(row("bwrap", b, s));
    const first = series[0]!;
    const cold = series[series.length - 2]!;
    const last = series[series.length - 1]!;
    for (const phase of ["prepare", "spawn", "exit", "output", "collect", "total", "cleanup"] as const) {
      const m = (s: Series) => (s.phases[phase]?.length ? fmt(median(s.phases[phase]!)) : "–");
      phaseRows.push(`| ${phase} | ${m(first)} | ${m(cold)} | ${m(last)} |`);
    }
    await compileTimes("bwrap", last.backend, last.box, () => createBwrapBackend({ root: `${root}-866`, boxIdStart: 866, boxIdCount: 2, poolSize: 1 }));
    await pythonHello("bwrap", last.box);
  } finally {
    for (const s of series) {
      await s.backend.release(s.box);
      await s.backend.close();
    }
    for (const id of [...variants.map((v) => v.boxIdStart), 866]) await rm(`${root}-${id}`, { recursive: true, force: true }).catch(() => {});
  }
}

const section = [
  SECTION,
  "",
  `Measured ${started.toISOString()} on ${navigator.hardwareConcurrency} CPUs (Bun ${Bun.version}); load average (1 / 5 / 15 min) ${loadAtStart} at start${
    loadAfterRuns ? `, ${loadAfterRuns} after the runs` : ""
  }; ${mountCount} mounts on the host (bwrap re-reads the mount table for every bind mount, so more mounts cost more). Other work may have been running.`,
  "",
  `Per-run overhead: \`/bin/true\` ${RUNS} times in one reused box against ${RUNS} bare \`Bun.spawn\`s, all series interleaved in one loop, medians in ms.`,
  "",
  "| backend | launch | bare spawn | in the box | overhead | ratio | target |",
  "|---|---|---|---|---|---|---|",
  ...rows,
  "",
  ...(phaseRows.length
    ? [
        "The bwrap rows share one loop: the first three turn the start-up savings off with `tuning` (docs/decisions/003, addendum, and 034): " +
          "oj-launch, one static helper, instead of the `sh` → `setpriv` → `prlimit` execs; /etc and /dev as one prepared directory each " +
          "instead of about fourteen bind mounts (bwrap re-reads the mount table after each). All rows have the other changes: cgroup files " +
          "written and read synchronously, the run's cgroup removed after the result is returned. Before any of this (commit 1baf957) the " +
          "same benchmark measured 26.57 ms over bare at load 8.1. The last row makes each box's next sandbox (launcher, cgroup join, namespaces, " +
          "mounts) right after a run, for the same request, and lets it wait at bwrap's `--block-fd` gate: a run of the same request then only " +
          "writes its stdin and opens the gate (docs/decisions/034).",
        "",
        "Where a bwrap run's time goes (medians, ms; `exit` is the launcher, bwrap's set-up, the program and bwrap's exit for a run set up on its path, the program and bwrap's exit for a warm one; `cleanup` runs after the result is returned and includes the next launch):",
        "",
        "| phase | before oj-launch | set up on the run's path | as shipped (launched in advance) |",
        "|---|---|---|---|",
        ...phaseRows,
        "",
      ]
    : []),
  `C++ compile inside the box of a \`bits/stdc++.h\` program (the C++ self-test), median of ${COMPILES}, ms, wall time including the sandbox:`,
  "",
  "| backend | with precompiled header | without | speed-up |",
  "|---|---|---|---|",
  ...(compileRows.length ? compileRows : ["| (no backend) | | | |"]),
  "",
  `Python's hello world in the box (\`python3 -B -I -c 'print(...)'\`), ${PY_RUNS} runs after 3 warm-ups, wall time including the sandbox, ms:`,
  "",
  "| backend | median | p90 |",
  "|---|---|---|",
  ...(pythonRows.length ? pythonRows : ["| (no backend) | | |"]),
  "",
].join("\n");

const path = "docs/benchmarks.md";
const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n\nEach benchmark owns its section; run the script named in the heading to refresh it.\n";
const start = current.indexOf(SECTION);
let next: string;
if (start < 0) next = `${current.trimEnd()}\n\n${section}`;
else {
  const after = current.indexOf("\n## ", start + SECTION.length);
  next = current.slice(0, start) + section + (after < 0 ? "" : `\n${current.slice(after + 1)}`);
}
writeFileSync(path, `${next.trimEnd()}\n`);
console.log(`wrote the "${SECTION.slice(3)}" section of ${path}`);
