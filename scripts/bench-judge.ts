/**
 * Judge benchmark, through the real sandbox, database and queue:
 *
 * (a) Run latency: POST /api/compiler (in-process `app.request`, so HTTP
 *     parsing, auth, the compile cache lookup, compile and run are all in)
 *     for hello world in cpp, java and py, median of 10, each with distinct
 *     code (a comment) so every run compiles. Baseline in the same run: the
 *     same compile and run commands (the language records' argv, the same
 *     precompiled header) spawned directly, outside the sandbox. For Python
 *     the baseline is the run alone (`python3 -B -I main.py` parses and runs
 *     the file in one interpreter start), because that is all a bare judge
 *     needs for a program that compiles — and all the judge does for one
 *     (src/judge/run.ts, compileAndRun); the separate syntax check +
 *     run is measured too and reported beside it.
 * (b) Throughput: 60 distinct C++ submissions of 10 tests each (sample + 9
 *     hidden), submitted at once by 6 users, judged by the in-process
 *     consumer with SANDBOX_POOL_SIZE boxes: submissions judged per minute.
 * (c) Resubmission: a fresh C++ submission, then the identical code again
 *     (compile cache hit); median over 5 pairs of submit-to-verdict time.
 *
 * Replaces the "## Judge (scripts/bench-judge.ts)" section of docs/benchmarks.md (other sections stay).
 * Usage: bun scripts/bench-judge.ts [--no-write] [--runs 10]
 * Targets: Run latency ≤ 1.3 × baseline per language; throughput ≥ 60/min.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { createSandbox } from "../isolate/index.ts";
import { getLanguage, type LanguageId } from "../isolate/languages/index.ts";
import { PCH_MOUNT } from "../isolate/types.ts";
import { runOptions } from "../src/judge/compile.ts";
import { RUN_PROVES_COMPILE } from "../src/judge/run.ts";
import { runProgram } from "../isolate/exec.ts";
import { ensurePch, pchDir } from "../isolate/pch.ts";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { buildServices } from "../src/context.ts";
import { JudgeService } from "../src/judge/service.ts";
import { createLogger } from "../src/log.ts";
import { problems, submissions, testCases, users } from "../db/schema.ts";
import { inArray } from "drizzle-orm";
import { sandboxOptions } from "../src/sandbox.ts";
import { median, writeSection } from "./lib/bench-doc.ts";
import { createSubmission } from "../src/submissions/create.ts";
import { waitForVerdict } from "../src/submissions/watch.ts";

const root = resolve(import.meta.dir, "..");
const { values: args } = parseArgs({
  options: { "no-write": { type: "boolean", default: false }, runs: { type: "string", default: "10" } },
});
const RUNS = Number(args.runs);
const loadAtStart = loadavg().map((x) => x.toFixed(1)).join(" / ");

const HELLO: Record<"cpp" | "java" | "py", (tag: string) => string> = {
  cpp: (tag) => `#include <bits/stdc++.h>\nint main() { std::cout << "Hello, World!" << std::endl; }\n// ${tag}\n`,
  java: (tag) => `public class Main {\n  public static void main(String[] a) { System.out.println("Hello, World!"); }\n}\n// ${tag}\n`,
  py: (tag) => `print("Hello, World!")\n# ${tag}\n`,
};


const dir = mkdtempSync(join(tmpdir(), "oj-bench-judge-"));
const dataDir = join(dir, "data");
const boxesDir = mkdtempSync(join(tmpdir(), "oj-bench-boxes-"));
const config = loadConfig({
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  DATABASE_URL: `file:${join(dir, "bench.db")}`,
  DATA_DIR: dataDir,
  SANDBOX: "auto",
  // Its own directory: box roots must sit under directories other users can search.
  SANDBOX_ROOT: boxesDir,
  ISOLATE_BOX_ID_START: "3580",
  ISOLATE_BOX_ID_COUNT: "10",
  SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0000",
  CLIENT_DIST: join(dir, "no-client"),
  RUN_RATE_PER_MINUTE: "100000",
  SUBMIT_RATE_PER_MINUTE: "100000",
  RUNS_IN_FLIGHT_PER_USER: "4",
});
const log = createLogger("warn");

try {
  await ensurePch(dataDir);
  const { db, client } = await openDatabase(config.DATABASE_URL);
  await migrateDatabase(db);
  const sandbox = await createSandbox(sandboxOptions(config), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`no sandbox: ${sandbox.reason}`);
  const judge = await JudgeService.create({ config, db, log, sandbox, pollMs: 50 });
  const services = buildServices({ config, db, log, sessionKey: new TextEncoder().encode(config.SESSION_SECRET!), sandbox, judge });
  const app = createApp(services);

  // A signed-in user for /api/compiler.
  const email = `bench-${Date.now()}@example.com`;
  await app.request("/api/auth/register", post({ firstName: "Bench", lastName: "User", email, password: "bench password 1" }));
  const login = await (await app.request("/api/auth/login", post({ email, password: "bench password 1" }))).json();
  const token = login.token as string;

  // (a) Run latency vs bare compile-and-run.
  const pyBoxMs: number[] = [];
  /** Acquire a box, run `code` (its source as the artifact) as Run would, release; ms. */
  const boxRun = async (lang: LanguageId, code: string): Promise<number> => {
    const t0 = performance.now();
    const box = await sandbox.backend!.acquire();
    try {
      const source = { name: getLanguage(lang).sourceFileName(code), content: new TextEncoder().encode(code), mode: 0o644 };
      const r = await runProgram(box, lang, { entry: source.name, artifacts: [source], stdin: "", ...runOptions(lang, 2000, 262144) });
      if (r.stdout !== "Hello, World!\n") throw new Error(`box run ${lang}: ${r.status} ${r.stderr}`);
    } finally {
      await sandbox.backend!.release(box);
    }
    return performance.now() - t0;
  };
  const latency: { lang: LanguageId; sandboxMs: number; bareMs: number; cachedMs: number; bareCheckMs: number | null }[] = [];
  for (const lang of ["cpp", "java", "py"] as const) {
    const sandboxed: number[] = [];
    const bare: number[] = [];
    const bareCheck: number[] = [];
    const cached: number[] = [];
    const runOnly = RUN_PROVES_COMPILE.has(lang);
    for (let i = 0; i < RUNS + 1; i++) {
      const code = HELLO[lang](`${crypto.randomUUID()}`);
      const sandboxRun = async () => {
        const t0 = performance.now();
        const res = await app.request("/api/compiler", post({ language: lang, code, input: "" }, token));
        const body = await res.json();
        const ms = performance.now() - t0;
        if (res.status !== 200 || body.output !== "Hello, World!\n") throw new Error(`run ${lang}: ${res.status} ${JSON.stringify(body)}`);
        return ms;
      };
      const bareRuns = async () => ({
        bareMs: await bareCompileAndRun(lang, code, { compile: !runOnly }),
        bareCheckMs: runOnly ? await bareCompileAndRun(lang, code, { compile: true }) : null,
      });
      // Alternate which side goes first, so neither always pays for the other's after-effects.
      // Python: the same program run in a box directly (acquire, run, release; no HTTP, no cache), next to the Run.
      let ms: number;
      let boxMs: number | null = null;
      let bareSide: Awaited<ReturnType<typeof bareRuns>>;
      if (i % 2 === 0) {
        ms = await sandboxRun();
        if (runOnly) boxMs = await boxRun(lang, code);
        bareSide = await bareRuns();
      } else {
        bareSide = await bareRuns();
        if (runOnly) boxMs = await boxRun(lang, code);
        ms = await sandboxRun();
      }
      const t1 = performance.now();
      await app.request("/api/compiler", post({ language: lang, code, input: "" }, token));
      const cachedMs = performance.now() - t1;
      // The first iteration warms page caches for both sides; it is not counted.
      if (i === 0) continue;
      if (boxMs !== null) pyBoxMs.push(boxMs);
      sandboxed.push(ms);
      bare.push(bareSide.bareMs);
      if (bareSide.bareCheckMs !== null) bareCheck.push(bareSide.bareCheckMs);
      cached.push(cachedMs);
    }
    const bareCheckMs = bareCheck.length ? median(bareCheck) : null;
    latency.push({ lang, sandboxMs: median(sandboxed), bareMs: median(bare), cachedMs: median(cached), bareCheckMs });
    if (runOnly) console.log(`bench-judge: ${lang} run in a box directly ${median(pyBoxMs).toFixed(0)} ms`);
    console.log(
      `bench-judge: run ${lang}: sandbox ${median(sandboxed).toFixed(0)} ms, bare ${median(bare).toFixed(0)} ms${
        bareCheckMs === null ? "" : ` (check + run ${bareCheckMs.toFixed(0)} ms)`
      }, cached ${median(cached).toFixed(0)} ms`,
    );
  }

  // (b) Throughput: 60 distinct C++ submissions × 10 tests, 6 users, at once.
  const [owner] = await db.insert(users).values({ firstName: "B", lastName: "B", email: "o@b", emailNormalized: "o@b" }).returning();
  const [problem] = await db
    .insert(problems)
    .values({
      title: "Sum",
      description: "d",
      inputFormat: "i",
      outputFormat: "o",
      constraints: "c",
      sampleInput: "1 2\n",
      sampleOutput: "3\n",
      difficulty: "easy",
      userId: owner!.id,
    })
    .returning();
  await db.insert(testCases).values(
    Array.from({ length: 9 }, (_, i) => ({ problemId: problem!.id, ordinal: i, input: `${i} ${i * 7}\n`, expectedOutput: `${i * 8}\n` })),
  );
  const benchUsers = await db
    .insert(users)
    .values(Array.from({ length: 6 }, (_, i) => ({ firstName: `U${i}`, lastName: "B", email: `u${i}@b`, emailNormalized: `u${i}@b` })))
    .returning();
  const sumCode = (tag: string) =>
    `#include <bits/stdc++.h>\nusing namespace std;\nint main() { long long a, b; cin >> a >> b; cout << a + b << "\\n"; }\n// ${tag}\n`;
  await judge.start();
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: 60 }, (_, i) => createSubmission(judge.submissions, benchUsers[i % 6]!.id, { problemId: problem!.id, language: "cpp", code: sumCode(`t${i}-${crypto.randomUUID()}`) })),
  );
  const all = ids.map((x) => x.id);
  for (;;) {
    const rows = await db.select({ status: submissions.status, verdict: submissions.verdict }).from(submissions).where(inArray(submissions.id, all));
    if (rows.every((r) => r.status === "done")) {
      const bad = rows.filter((r) => r.verdict !== "AC");
      if (bad.length) throw new Error(`throughput: ${bad.length} submissions not AC: ${JSON.stringify(bad.slice(0, 3))}`);
      break;
    }
    await Bun.sleep(50);
  }
  const throughputSeconds = (performance.now() - t0) / 1000;
  const perMinute = (60 / throughputSeconds) * 60;
  console.log(`bench-judge: 60 submissions × 10 tests in ${throughputSeconds.toFixed(1)} s = ${perMinute.toFixed(0)} per minute`);

  // (c) Resubmission of identical code: cache hit vs fresh compile.
  const fresh: number[] = [];
  const again: number[] = [];
  const user0 = benchUsers[0]!.id;
  const judgedIn = async (code: string) => {
    const s = performance.now();
    const { id } = await createSubmission(judge.submissions, user0, { problemId: problem!.id, language: "cpp", code });
    const done = await waitForVerdict(judge.submissions, user0, id, 120_000);
    if (done.verdict !== "AC") throw new Error(`resubmission: ${done.verdict}`);
    return performance.now() - s;
  };
  for (let i = 0; i < 5; i++) {
    const code = sumCode(`re-${crypto.randomUUID()}`);
    fresh.push(await judgedIn(code));
    again.push(await judgedIn(code));
  }
  const freshMs = median(fresh);
  const againMs = median(again);
  console.log(`bench-judge: resubmission ${freshMs.toFixed(0)} ms fresh, ${againMs.toFixed(0)} ms identical (cache)`);

  await judge.stop();
  await sandbox.backend.close();
  client.close();

  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const rows = latency
    .map((l) => {
      const ratio = l.sandboxMs / l.bareMs;
      const baseline = l.bareCheckMs === null ? "compile + run" : "run only";
      return `| ${l.lang} | ${l.sandboxMs.toFixed(0)} ms | ${l.bareMs.toFixed(0)} ms (${baseline}) | ${ratio.toFixed(2)}× | ${ratio <= 1.3 ? "met" : "missed"} | ${l.cachedMs.toFixed(0)} ms |`;
    })
    .join("\n");
  const py = latency.find((l) => l.lang === "py")!;
  const serverWork = "HTTP, session check, rate limits, compile-cache lookup; the cache write happens after the answer";
  const serverMs = py.sandboxMs - median(pyBoxMs);
  const serverShare =
    serverMs >= 2
      ? `the other ${serverMs.toFixed(0)} ms are the server's own work (${serverWork}) and noise.`
      : `the Run is within noise of that (${serverMs.toFixed(0)} ms apart): the server's own work (${serverWork}) is small next to the sandbox start.`;
  const section = `## Judge (scripts/bench-judge.ts)

\`bun scripts/bench-judge.ts\` — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpu}, Bun ${Bun.version}, sandbox: ${sandbox.name}, pool ${config.SANDBOX_POOL_SIZE}. Load average at start ${loadAtStart}, at the end ${loadavg().map((x) => x.toFixed(1)).join(" / ")} (other work shares these cores; figures are noisy).

**(a) Run latency** — POST /api/compiler, hello world, median of ${RUNS}, every run with distinct code (compiles). Baseline: the same compile and run commands (same flags, same precompiled header) spawned directly outside the sandbox, in the same run, interleaved (which side goes first alternates). Target: ≤ 1.3 × baseline.

| language | Run (sandbox) | bare baseline | ratio | target | Run again, same code (cache hit) |
|---|---|---|---|---|---|
${rows}

Python's baseline is the run alone: \`python3 -B -I main.py\` parses the whole file and runs it in one interpreter start, which is all a bare judge needs for code that compiles, and all this judge does for a fresh Python Run since compileAndRun (src/judge/run.ts): one sandbox start, the syntax check only when the run failed with empty stdout (to tell CE from RE exactly). Against a bare syntax check + run (two interpreter starts, ${py.bareCheckMs?.toFixed(0)} ms) the ratio would be ${(py.sandboxMs / (py.bareCheckMs ?? py.bareMs)).toFixed(2)}×; that flatters the judge, so it is not the target's baseline. What remains above the bare run is one sandbox start: the same hello world run in a box directly (acquire, run, release; no HTTP, no cache), interleaved with the Runs, takes ${median(pyBoxMs).toFixed(0)} ms; ${serverShare} The sandbox's set-up is off the Run's path when the box's previous run was the same request: each box launches its next sandbox in advance (docs/decisions/034); "Python Run breakdown" below measures that against the set-up on the run's path, with and without pauses between Runs.

**(b) Throughput** — 60 distinct C++ submissions × 10 tests (sample + 9 hidden), submitted at once by 6 users: all judged AC in ${throughputSeconds.toFixed(1)} s = **${perMinute.toFixed(0)} submissions per minute** (target ≥ 60).

**(c) Resubmission of identical code** — submit-to-verdict, median of 5 pairs: ${freshMs.toFixed(0)} ms fresh, ${againMs.toFixed(0)} ms for the identical resubmission (compile cache hit): **${(freshMs - againMs).toFixed(0)} ms saved (${(((freshMs - againMs) / freshMs) * 100).toFixed(0)}%)**.
`;
  console.log(section);
  if (!args["no-write"]) {
    writeSection(join(root, "docs", "benchmarks.md"), "## Judge (scripts/bench-judge.ts)", section);
    console.log("bench-judge: wrote docs/benchmarks.md");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(boxesDir, { recursive: true, force: true });
}

function post(body: unknown, token?: string): RequestInit {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  return { method: "POST", headers, body: JSON.stringify(body) };
}

/**
 * The language's own compile and run argv, spawned directly in a temp directory; returns ms.
 * `compile: false` skips the compile step (Python: the interpreter compiles the file itself).
 */
async function bareCompileAndRun(lang: LanguageId, code: string, opts: { compile: boolean }): Promise<number> {
  const language = getLanguage(lang);
  const work = mkdtempSync(join(tmpdir(), "oj-bench-bare-"));
  try {
    const source = language.sourceFileName(code);
    writeFileSync(join(work, source), code);
    const env = { PATH: "/usr/bin:/bin", HOME: work, ...language.env };
    const t0 = performance.now();
    const compileArgv = language.compileArgv(source, []).map((a) => (a === `-I${PCH_MOUNT}` ? `-I${pchDir(dataDir)}` : a));
    if (opts.compile) {
      const c = Bun.spawn(compileArgv, { cwd: work, env, stdout: "pipe", stderr: "pipe" });
      if ((await c.exited) !== 0) throw new Error(`bare compile ${lang} failed: ${await new Response(c.stderr).text()}`);
    }
    const { argv } = language.runCommand(source, {
      cpuTimeLimitMs: 2000,
      wallTimeLimitMs: 5000,
      memoryLimitKib: 262144,
      processLimit: 16,
      outputLimitBytes: 1 << 20,
      fileSizeLimitKib: 1024,
    });
    const r = Bun.spawn(argv, { cwd: work, env, stdout: "pipe", stderr: "pipe" });
    const out = await new Response(r.stdout).text();
    await r.exited;
    const ms = performance.now() - t0;
    if (out !== "Hello, World!\n") throw new Error(`bare run ${lang}: ${JSON.stringify(out)}`);
    return ms;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

