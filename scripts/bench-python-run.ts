/**
 * Where a Python Run's time goes → the "Python Run breakdown" section of
 * docs/benchmarks.md. Medians over interleaved rounds, in one process, bwrap:
 *
 * - bare: `python3 -B -I main.py` spawned directly (the baseline);
 * - box: the same program through the sandbox directly (acquire a box, write
 *   the source, runProgram, release), with each run's sandbox set up on its
 *   path ("cold", `tuning.warm: false`, the backend before decision 034) and as
 *   shipped (the box's next sandbox launched in advance, waiting at its gate);
 * - session: GET /api/auth/me through the app (HTTP handling and the session check);
 * - Run: POST /api/compiler through the app (in-process `app.request`), new code
 *   each time, against a server on each of the two backends.
 *
 * Two regimes, each interleaving every step: back to back, and after a pause
 * before each step (a person clicks Run seconds apart; on cgroup v1, moving a
 * process into a cgroup waits for an RCU grace period once the kernel's fast
 * path has cooled down, which back-to-back runs never see).
 * Usage: bun scripts/bench-python-run.ts [--write] [--rounds 40] [--pause-ms 250]
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { newId } from "../db/ids.ts";
import { users } from "../db/schema.ts";
import { createBwrapBackend } from "../isolate/backends/bwrap.ts";
import { runProgram } from "../isolate/exec.ts";
import type { SandboxBackend } from "../isolate/types.ts";
import { createApp } from "../src/app.ts";
import { createSession } from "../src/auth/session.ts";
import { loadConfig } from "../src/config.ts";
import { buildServices } from "../src/context.ts";
import { JudgeService } from "../src/judge/service.ts";
import { createLogger } from "../src/log.ts";
import { percentile, writeSection } from "./lib/bench-doc.ts";

const root = join(import.meta.dir, "..");
const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const write = process.argv.includes("--write");
const rounds = arg("--rounds", 40);
const pauseMs = arg("--pause-ms", 250);
const dir = mkdtempSync(join(tmpdir(), "oj-bench-py-"));
chmodSync(dir, 0o755);
const backends: SandboxBackend[] = [];
try {
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(dir, "app.db")}`,
    DATA_DIR: join(dir, "data"),
    SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
    SANDBOX_ROOT: join(dir, "boxes"),
    RUN_RATE_PER_MINUTE: "100000",
  });
  const { db, client } = await openDatabase(config.DATABASE_URL);
  await migrateDatabase(db);
  const userId = newId();
  await db.insert(users).values({ id: userId, firstName: "P", lastName: "Y", email: "p@y", emailNormalized: "p@y" });
  const log = createLogger("silent");
  /** A backend, and a server judging on it. */
  const side = async (label: "cold" | "warm", boxIdStart: number) => {
    const backend = await createBwrapBackend({ root: join(dir, `boxes-${label}`), boxIdStart, boxIdCount: 2, poolSize: 2, tuning: label === "cold" ? { warm: false } : {} });
    backends.push(backend);
    const sandbox = { backend, name: "bwrap" as const };
    const judge = await JudgeService.create({ config, db, log, sandbox, cacheDir: join(dir, `cache-${label}`) });
    const services = buildServices({ config, db, log, sessionKey: new TextEncoder().encode(config.SESSION_SECRET!), sandbox, judge });
    return { label, backend, judge, app: createApp(services), token: (await createSession(services, userId)).token };
  };
  const sides = [await side("cold", 3940), await side("warm", 3944)];
  const description = sides[1]!.backend.description;
  const file = join(dir, "main.py");

  type Steps = Record<string, number[]>;
  const measure = async (pause: number, n: number): Promise<Steps> => {
    const t: Steps = { bare: [], session: [], "box cold": [], "box warm": [], "Run cold": [], "Run warm": [] };
    const time = async (name: string, keep: boolean, fn: () => Promise<unknown>) => {
      if (pause) await Bun.sleep(pause);
      const s = performance.now();
      await fn();
      if (keep) t[name]!.push(performance.now() - s);
    };
    for (let i = 0; i < n + 5; i++) {
      const keep = i >= 5;
      const code = `print(${i})\n`;
      writeFileSync(file, code);
      await time("bare", keep, async () => {
        const p = Bun.spawn(["/usr/bin/python3", "-B", "-I", file], { stdout: "pipe", stderr: "pipe" });
        await new Response(p.stdout).text();
        await p.exited;
      });
      await time("session", keep, async () => (await sides[0]!.app.request("/api/auth/me", { headers: { authorization: `Bearer ${sides[0]!.token}` } })).arrayBuffer());
      for (const s of sides) {
        // As a Run uses a box: acquire, write the source, run, release.
        await time(`box ${s.label}`, keep, async () => {
          const box = await s.backend.acquire();
          try {
            await box.writeFile("main.py", code);
            await runProgram(box, "py", { entry: "main.py", stdin: "", timeLimitMs: 1000, memoryLimitKib: 256 * 1024 });
          } finally {
            await s.backend.release(box);
          }
        });
        await time(`Run ${s.label}`, keep, async () => {
          const r = await s.app.request("/api/compiler", {
            method: "POST",
            headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
            body: JSON.stringify({ language: "py", code: `print(${i}) # ${s.label} ${pause}`, input: "" }),
          });
          if (r.status !== 200) throw new Error(`run ${r.status}: ${await r.text()}`);
        });
      }
    }
    return t;
  };
  const fast = await measure(0, rounds);
  const paused = await measure(pauseMs, Math.max(10, Math.round(rounds / 2)));
  for (const s of sides) await s.judge.stop();
  client.close();

  const m = (x: number[]) => percentile(x, 50);
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const cell = (t: Steps, name: string) => {
    const v = m(t[name]!);
    if (name === "bare" || name === "session") return ms(v);
    return `${ms(v)} (${(v / m(t.bare!)).toFixed(2)}×)`;
  };
  const rows: [string, string][] = [
    ["bare", "bare `python3 -B -I main.py` (the baseline: interpreter start and run)"],
    ["box cold", "through the sandbox directly, each run set up on its path (before)"],
    ["box warm", "through the sandbox directly, launched in advance (as shipped)"],
    ["session", "HTTP and the session check alone (GET /api/auth/me)"],
    ["Run cold", "**Run** (POST /api/compiler), sandbox set up on the run's path (before)"],
    ["Run warm", "**Run** (POST /api/compiler), as shipped"],
  ];
  const ratio = (t: Steps) => m(t["Run warm"]!) / m(t.bare!);
  const verdict = (r: number) => `${r.toFixed(2)}× (${r <= 1.3 ? "met" : "missed"})`;
  const lines = [
    `Medians; hello world in Python 3; ${description}. Every step interleaved in each round: ${rounds} rounds back to back, ${Math.max(10, Math.round(rounds / 2))} rounds with a ${pauseMs} ms pause before each step. Ratios are to the bare run of the same regime.`,
    "",
    `| what | back to back | after a ${pauseMs} ms pause |`,
    "| --- | --- | --- |",
    ...rows.map(([k, label]) => `| ${label} | ${cell(fast, k)} | ${cell(paused, k)} |`),
    "",
    `Target: a Run within 1.3× the bare run. As shipped: ${verdict(ratio(fast))} back to back, ${verdict(ratio(paused))} after a pause.`,
    "",
    "Where the time went before: the sandbox's set-up on the run's path (the launcher, joining the run's cgroup, bwrap's namespaces and mounts: about 4 ms back to back), and on this kernel's cgroup v1 the join itself, which waits for an RCU grace period (up to about 10 ms) whenever no other process joined a cgroup in the last few milliseconds — the usual case for a person's Run, invisible in back-to-back loops. The server's own work (HTTP, session, validation, rate limits, the compile-cache lookup) is under a millisecond; no database write is on the path, and since this change the box's clean-up (and the next launch) happen after the answer.",
    "",
    "What changed (docs/decisions/034): after each run the bwrap backend sets the box's next sandbox up for the same request — launcher, cgroup join, namespaces, mounts — and lets it wait at bwrap's `--block-fd` gate; the next run of the same request (a Python Run of the same problem's limits, the next test of a submission) writes its stdin and opens the gate. A different request discards the waiting sandbox before it ever ran. The program is still a fresh process in a fresh sandbox under the same limits; the contract suite runs every case through the gate.",
    "",
  ];
  console.log(lines.join("\n"));
  if (write) {
    const load = (await Bun.file("/proc/loadavg").text()).split(" ")[0];
    writeSection(join(root, "docs", "benchmarks.md"), "## Python Run breakdown", ["## Python Run breakdown (scripts/bench-python-run.ts)", "", `Measured ${new Date().toISOString().slice(0, 10)} (2 cores, load ${load} at the end).`, "", ...lines].join("\n") + "\n");
    console.log("bench-python-run: wrote docs/benchmarks.md");
  }
} finally {
  for (const b of backends) await b.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
