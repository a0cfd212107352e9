/**
 * Interactive benchmark → the "Interactive problems" section of docs/benchmarks.md.
 *
 * Two C++ programs (compiled here with the judge's flags): a peer that sends
 * N numbers one at a time and checks each answer (a validator's shape, exit
 * 42), and a program that answers each with the number plus one, flushing
 * every line. They are run:
 * - baseline: directly on the host, connected by a bare pipe (the same
 *   two binaries, no sandbox);
 * - judged: each in its own sandbox box, connected by isolate/pipes.ts
 *   (runConnected, as the judge runs an interactive test), on every backend
 *   present here.
 * Each with N = 0 and N = 10^5 exchanges, several times (medians); the time
 * per exchange is (T(10^5) − T(0)) / 10^5, so the boxes' start-up is not
 * counted in it. Target: within 1.5× of the bare pipe's.
 *
 * Usage: bun scripts/bench-interactive.ts [--write]
 */
import { closeSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILER_FLAGS } from "../isolate/exec.ts";
import { createPipe, runConnected } from "../isolate/pipes.ts";
import { backendCandidates } from "../isolate/test-backends.ts";
import type { RunRequest } from "../isolate/types.ts";
import { median, writeSection } from "./lib/bench-doc.ts";

const write = process.argv.includes("--write");
const EXCHANGES = 100_000;
const REPEATS = 5;

const PEER = String.raw`
#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv) {
  long n = atol(argv[1]);
  for (long i = 0; i < n; i++) {
    printf("%ld\n", i); fflush(stdout);
    long a; if (scanf("%ld", &a) != 1 || a != i + 1) return 43;
  }
  printf("-1\n"); fflush(stdout);
  return 42;
}`;
const PROGRAM = String.raw`
#include <cstdio>
int main() {
  long x;
  while (scanf("%ld", &x) == 1 && x >= 0) { printf("%ld\n", x + 1); fflush(stdout); }
  return 0;
}`;

const work = mkdtempSync(join(tmpdir(), "oj-bench-interactive-"));
function compile(name: string, code: string): string {
  const src = join(work, `${name}.cpp`);
  writeFileSync(src, code);
  const flags = COMPILER_FLAGS.cpp.filter((f) => f !== "-I/pch");
  const out = join(work, name);
  const r = Bun.spawnSync(["g++", ...flags, "-o", out, src], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`g++ ${name}: ${r.stderr.toString()}`);
  return out;
}
const peerBin = compile("peer", PEER);
const programBin = compile("program", PROGRAM);

/** The two binaries on the host, connected by a bare pipe each way. @returns wall time, ms */
async function bare(n: number, oneCpu = false): Promise<number> {
  const pin = oneCpu ? ["taskset", "-c", "0"] : [];
  const toPeer = await createPipe();
  const toProgram = await createPipe();
  const t = performance.now();
  const program = Bun.spawn([...pin, programBin], { stdin: toProgram.readFd, stdout: toPeer.writeFd });
  const peer = Bun.spawn([...pin, peerBin, String(n)], { stdin: toPeer.readFd, stdout: toProgram.writeFd });
  for (const fd of [toPeer.readFd, toPeer.writeFd, toProgram.readFd, toProgram.writeFd]) closeSync(fd);
  const [pc, qc] = await Promise.all([program.exited, peer.exited]);
  const ms = performance.now() - t;
  if (pc !== 0 || qc !== 42) throw new Error(`bare run failed: program ${pc}, peer ${qc}`);
  return ms;
}

const LIMITS = { cpuTimeLimitMs: 10_000, wallTimeLimitMs: 30_000, memoryLimitKib: 256 * 1024, processLimit: 4, outputLimitBytes: 1024 * 1024, fileSizeLimitKib: 1024 } satisfies Omit<RunRequest, "argv">;

const rows: string[] = [];
const bareTimes = { zero: [] as number[], full: [] as number[] };
for (let i = 0; i < REPEATS; i++) {
  bareTimes.zero.push(await bare(0));
  bareTimes.full.push(await bare(EXCHANGES));
}
const bareUs = ((median(bareTimes.full) - median(bareTimes.zero)) / EXCHANGES) * 1000;
// The same pair on one CPU: a wake-up on the same core instead of across cores (the cost that dominates here).
const pinned = { zero: [] as number[], full: [] as number[] };
for (let i = 0; i < REPEATS; i++) {
  pinned.zero.push(await bare(0, true));
  pinned.full.push(await bare(EXCHANGES, true));
}
const pinnedUs = ((median(pinned.full) - median(pinned.zero)) / EXCHANGES) * 1000;
console.log(`bare pipe: ${median(bareTimes.full).toFixed(0)} ms for ${EXCHANGES} exchanges, ${bareUs.toFixed(2)} µs per exchange`);
let allMet = true;

for (const candidate of backendCandidates()) {
  if (candidate.missing) {
    rows.push(`| ${candidate.label} | not present here | | | | |`);
    continue;
  }
  const backend = await candidate.create({ boxIdStart: 870 + candidate.boxIdOffset });
  const [box, vbox] = await backend.acquireMany(2);
  try {
    const bytes = async (p: string) => new Uint8Array(await Bun.file(p).arrayBuffer());
    await box!.writeFile("prog", await bytes(programBin), 0o755);
    await vbox!.writeFile("peer", await bytes(peerBin), 0o755);
    const judged = async (n: number) => {
      const t = performance.now();
      const r = await runConnected({ box: box!, req: { ...LIMITS, argv: ["./prog"] } }, { box: vbox!, req: { ...LIMITS, argv: ["./peer", String(n)] } });
      const ms = performance.now() - t;
      if (r.peer.exitCode !== 42 || r.program.status !== "OK") throw new Error(`${candidate.label}: ${JSON.stringify({ peer: r.peer, program: r.program }).slice(0, 400)}`);
      return { ms, cpuMs: r.program.cpuTimeMs };
    };
    const zero: number[] = [];
    const full: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      zero.push((await judged(0)).ms);
      const f = await judged(EXCHANGES);
      full.push(f.ms);
      cpu.push(f.cpuMs);
    }
    const us = ((median(full) - median(zero)) / EXCHANGES) * 1000;
    const ratio = us / bareUs;
    if (ratio > 1.5) allMet = false;
    console.log(`${candidate.label}: ${median(full).toFixed(0)} ms, start-up ${median(zero).toFixed(0)} ms, ${us.toFixed(2)} µs per exchange (${ratio.toFixed(2)}×)`);
    rows.push(`| ${candidate.label} | ${median(full).toFixed(0)} ms | ${median(zero).toFixed(0)} ms | ${us.toFixed(2)} µs | ${ratio.toFixed(2)}× | ${median(cpu).toFixed(0)} ms |`);
  } finally {
    await backend.release(box!);
    await backend.release(vbox!);
    await backend.close();
  }
}
rmSync(work, { recursive: true, force: true });

const section = `## Interactive problems

\`bun scripts/bench-interactive.ts --write\` (${new Date().toISOString().slice(0, 10)}, this machine: 2 cores). A peer (a validator's shape) sends
${EXCHANGES.toLocaleString("en")} numbers one line at a time and checks each answer; the program answers each with the number plus
one, flushing every line (C++, the judge's flags). Baseline, same run: the same two binaries on the host, connected by a
bare pipe each way: ${median(bareTimes.full).toFixed(0)} ms, **${bareUs.toFixed(2)} µs per exchange**. Judged: each in its own box, connected as the judge
connects an interactive test (isolate/pipes.ts, direct pipes, the runner holding the write ends). Per exchange =
(T(${EXCHANGES.toLocaleString("en")}) − T(0)) / ${EXCHANGES.toLocaleString("en")}, so the boxes' start-up is not in it. Medians of ${REPEATS}.

| backend | ${EXCHANGES.toLocaleString("en")} exchanges | no exchange (start-up) | per exchange | vs bare pipe | program's CPU time |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

Target: within 1.5× of the bare pipe per exchange (${allMet ? "met on every backend" : "MISSED on at least one backend"}).

What an exchange costs here is the wake-up of the other process on the other core: the same bare pair pinned to one CPU
(\`taskset -c 0\`) takes ${median(pinned.full).toFixed(0)} ms, ${pinnedUs.toFixed(2)} µs per exchange (${(bareUs / pinnedUs).toFixed(0)}× less). The boxes are not pinned (a judge
runs other submissions on the other core meanwhile), so they pay it as the bare pair does; pinning both boxes of an
interactive test to one core is a possible gain left for later. The bytes go straight from one box to the
other (no copy through the server); the sample's transcript is recorded by relaying through the server, which only the
sample pays for.
`;
console.log(section);
if (write) writeSection(join(import.meta.dir, "..", "docs", "benchmarks.md"), "## Interactive problems", section);
