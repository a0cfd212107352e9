/**
 * API benchmark: GET /api/problems with 1,000 problems in the
 * database, 50 concurrent connections, against a Hono route that returns a
 * constant JSON array of the same size (`c.json(array)`), in the same run and
 * process. Prints requests/second and p99 latency of both and their ratio,
 * and replaces the "API: problem list" section of docs/benchmarks.md.
 *
 * Two more rows for honesty: the same JSON pre-encoded once and sent as bytes
 * (the floor: what moving 0.9 MB per response costs here, since the list
 * route itself sends a pre-encoded body, src/lib/json.ts), and the list as
 * a caller who owns 10 of the problems (their hidden tests are read and
 * spliced in per request).
 *
 * The server runs in a child process (`--serve`), so the load generator (a
 * bounded fetch loop in this process) does not share its event loop. Loopback
 * only; every run is bounded by a request count and a time limit.
 *
 * What localising answers costs (the same server, every language against English only) is measured by
 * scripts/bench-api-locales.ts, which starts this file's server twice (`--serve`, ANSWER_LOCALES=all / en).
 *
 * Usage: bun scripts/bench-api.ts [--requests 4000] [--seconds 20] [--port 3190] [--no-write]
 * Targets: list throughput >= 40% of the constant route's; list p99 < 25 ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Hono } from "hono";
import { writeSection } from "./lib/bench-doc.ts";

const CONCURRENCY = 50;
/** Measured rounds; the routes alternate within each round. */
const ROUNDS = 3;
const PROBLEMS = 1000;
const root = resolve(import.meta.dir, "..");

const { values: args } = parseArgs({
  options: {
    serve: { type: "string" },
    port: { type: "string", default: "3190" },
    requests: { type: "string", default: "4000" },
    seconds: { type: "string", default: "20" },
    "no-write": { type: "boolean", default: false },
  },
});

if (args.serve) await serve(args.serve, Number(args.port));
else await main();

/** Child: a real app over a real database file with 1,000 problems, plus the constant baseline route. */
async function serve(dir: string, port: number): Promise<void> {
  const { loadConfig } = await import("../src/config.ts");
  const { openDatabase, migrateDatabase } = await import("../db/index.ts");
  const { buildServices } = await import("../src/context.ts");
  const { createLogger } = await import("../src/log.ts");
  const { createApp } = await import("../src/app.ts");
  const { createSession } = await import("../src/auth/session.ts");
  const schema = await import("../db/schema.ts");

  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DATABASE_URL: `file:${join(dir, "bench.db")}`,
    DATA_DIR: dir,
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0000",
    CLIENT_DIST: join(dir, "no-client"),
    // scripts/bench-api-locales.ts starts one server answering in every language and one pinned to English.
    ANSWER_LOCALES: process.env.ANSWER_LOCALES,
  });
  const { db } = await openDatabase(config.DATABASE_URL);
  await migrateDatabase(db);
  const services = buildServices({
    config,
    db,
    log: createLogger(config.LOG_LEVEL),
    sessionKey: new TextEncoder().encode(config.SESSION_SECRET!),
    sandbox: { backend: null, name: "none", reason: "benchmark" },
  });

  const [author] = await db
    .insert(schema.users)
    .values({ firstName: "Bench", lastName: "Author", email: "author@bench", emailNormalized: "author@bench", passwordHash: null })
    .returning();
  const [reader] = await db
    .insert(schema.users)
    .values({ firstName: "Bench", lastName: "Reader", email: "reader@bench", emailNormalized: "reader@bench", passwordHash: null })
    .returning();
  const [setter] = await db
    .insert(schema.users)
    .values({ firstName: "Bench", lastName: "Setter", email: "setter@bench", emailNormalized: "setter@bench", passwordHash: null })
    .returning();
  const difficulties = ["easy", "medium", "hard"] as const;
  // Statements of distinct text, so gzip sees what real statements give it rather than 1,000 copies of one
  // paragraph: words drawn by a fixed-seed generator from the seed problems' own statements.
  const { SEED_PROBLEMS } = await import("../db/seed/index.ts");
  const { Rng } = await import("../db/seed/rng.ts");
  const vocabulary = [...new Set(SEED_PROBLEMS.flatMap((p) => `${p.description} ${p.inputFormat} ${p.outputFormat}`.split(/\s+/)).filter(Boolean))];
  const rng = new Rng(20251121);
  const prose = (chars: number) => {
    const words: string[] = [];
    for (let n = 0; n < chars; n += words.at(-1)!.length + 1) words.push(vocabulary[rng.int(0, vocabulary.length - 1)]!);
    return words.join(" ");
  };
  for (let start = 0; start < PROBLEMS; start += 100) {
    const rows = Array.from({ length: 100 }, (_, k) => {
      const i = start + k;
      return {
        title: `Benchmark problem ${i + 1}: ${prose(35)}`,
        description: `Problem ${i + 1}. ${prose(240)}`,
        inputFormat: prose(75),
        outputFormat: prose(75),
        constraints: "1 <= n <= 100000; 0 <= m <= 200000; 0 <= w <= 10^9",
        sampleInput: "3 2\n1 2 5\n2 3 7\n",
        sampleOutput: "0 5 12\n",
        difficulty: difficulties[i % 3]!,
        // Every 100th problem is the setter's: 10 in all.
        userId: i % 100 === 0 ? setter!.id : author!.id,
      };
    });
    const inserted = await db.insert(schema.problems).values(rows).returning({ id: schema.problems.id });
    await db.insert(schema.testCases).values(
      inserted.flatMap((p) => Array.from({ length: 5 }, (_, ordinal) => ({ problemId: p.id, ordinal, input: `${ordinal}\n`, expectedOutput: `${ordinal}\n` }))),
    );
  }
  const session = await createSession(services, reader!.id);
  const setterSession = await createSession(services, setter!.id);

  const app = createApp(services);
  // The baseline: the same JSON document, held in memory, serialised per request exactly as c.json does.
  const listRes = await app.request("/api/problems", { headers: { authorization: `Bearer ${session.token}` } });
  const text = await listRes.text();
  const constant: unknown = JSON.parse(text);
  if (JSON.stringify(constant) !== text) throw new Error("the list's body is not JSON.stringify of its value");
  const encoded = new TextEncoder().encode(text);
  const outer = new Hono();
  outer.get("/bench/constant", (c) => c.json(constant));
  outer.get("/bench/constant-bytes", (c) => c.body(encoded, 200, { "content-type": "application/json" }));
  outer.route("/", app);
  Bun.serve({ port, hostname: "127.0.0.1", fetch: outer.fetch });
  console.log(`READY ${session.token} ${setterSession.token} ${encoded.length}`);
}

interface Measurement {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** `requests` GETs with CONCURRENCY workers, each awaiting its response body; stops early at `maxSeconds`. */
async function load(url: string, headers: Record<string, string>, requests: number, maxSeconds: number): Promise<Measurement> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const deadline = performance.now() + maxSeconds * 1000;
  const t0 = performance.now();
  const worker = async () => {
    while (issued < requests && performance.now() < deadline) {
      issued++;
      const start = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { requests: latencies.length, seconds, rps: latencies.length / seconds, p50Ms: pct(50), p99Ms: pct(99), errors };
}

async function main(): Promise<void> {
  const port = Number(args.port);
  const requests = Number(args.requests);
  const seconds = Number(args.seconds);
  const dir = mkdtempSync(join(tmpdir(), "oj-bench-api-"));
  const child = Bun.spawn(["bun", import.meta.path, "--serve", dir, "--port", String(port)], {
    cwd: root,
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const reader = child.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`server exited before READY: ${out}`);
      out += new TextDecoder().decode(value);
    }
    const [, token, setterToken, bytes] = out.trim().split(" ");
    const base = `http://127.0.0.1:${port}`;
    const auth = { authorization: `Bearer ${token}` };
    const setterAuth = { authorization: `Bearer ${setterToken}` };
    const loadAtStart = loadavg();
    const wireBytes = new Map<string, number>();
    console.log(`bench-api: ${PROBLEMS} problems, response ${bytes} bytes, ${CONCURRENCY} connections, ${requests} requests per run`);
    console.log(`bench-api: load average at start ${loadAtStart.map((x) => x.toFixed(2)).join(", ")}`);

    // The c.json baseline and the floor are never compressed; the list is measured both ways:
    // identity (like for like with the baselines) and gzip (what a browser asks for and gets).
    const identity = { "accept-encoding": "identity" };
    const gzip = { "accept-encoding": "gzip, deflate, br" };
    const routes = [
      { key: "constant", label: "constant JSON, `c.json(array)` (baseline)", url: `${base}/bench/constant`, headers: { ...auth, ...identity } },
      { key: "bytes", label: "constant JSON pre-encoded, `c.body(bytes)` (floor)", url: `${base}/bench/constant-bytes`, headers: { ...auth, ...identity } },
      { key: "list", label: "GET /api/problems, owns none, identity", url: `${base}/api/problems`, headers: { ...auth, ...identity } },
      { key: "gzip", label: "GET /api/problems, owns none, gzip", url: `${base}/api/problems`, headers: { ...auth, ...gzip } },
      { key: "owner", label: "GET /api/problems, owns 10 (never compressed)", url: `${base}/api/problems`, headers: { ...setterAuth, ...gzip } },
    ] as const;
    for (const r of routes) {
      const res = await fetch(r.url, { headers: r.headers, decompress: false } as RequestInit);
      const wire = (await res.arrayBuffer()).byteLength;
      const encoding = res.headers.get("content-encoding") ?? "identity";
      console.log(`bench-api: ${r.label}: ${res.status}, ${encoding}, ${wire} bytes on the wire`);
      if (res.status !== 200) throw new Error(`${r.label}: HTTP ${res.status}`);
      if ((r.key === "gzip") !== (encoding === "gzip")) throw new Error(`${r.label}: unexpected content-encoding ${encoding}`);
      wireBytes.set(r.key, wire);
    }
    // Warm every path (JIT, connection pool), then alternate two measured rounds.
    for (const r of routes) await load(r.url, r.headers, 300, 10);
    const runs = new Map<string, Measurement[]>(routes.map((r) => [r.key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of routes) runs.get(r.key)!.push(await load(r.url, r.headers, requests, seconds));
    }
    const loadAtEnd = loadavg();
    const errors = [...runs.values()].flat().reduce((s, m) => s + m.errors, 0);
    if (errors) throw new Error(`${errors} requests failed`);
    // Medians over the rounds: other work on these cores comes in bursts that a mean would smear over every row.
    const median = (ms: Measurement[], k: "rps" | "p99Ms" | "p50Ms") => {
      const xs = ms.map((m) => m[k]).sort((a, b) => a - b);
      return xs.length % 2 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
    };
    const stat = (key: string) => {
      const ms = runs.get(key)!;
      return { rps: median(ms, "rps"), p50: median(ms, "p50Ms"), p99: median(ms, "p99Ms") };
    };
    const c = stat("constant");
    const floor = stat("bytes");
    const l = stat("list");
    const o = stat("owner");
    const g = stat("gzip");
    const ratio = l.rps / c.rps;
    const fmt = (n: number) => n.toFixed(1);
    const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
    for (const r of routes) {
      const m = stat(r.key);
      console.log(`${r.label.padEnd(52)}: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms`);
    }
    console.log(
      `ratio: list ${pct(ratio)} of the c.json baseline (target >= 40%), ${pct(l.rps / floor.rps)} of the pre-encoded floor, ` +
        `gzip ${pct(g.rps / c.rps)}; list p99 ${fmt(l.p99)} ms identity, ${fmt(g.p99)} ms gzip (target < 25 ms)`,
    );
    console.log(`bench-api: load average at end ${loadAtEnd.map((x) => x.toFixed(2)).join(", ")}`);

    if (!args["no-write"]) {
      const cpu = cpus()[0]?.model ?? "unknown CPU";
      const ms = (rps: number) => fmt((CONCURRENCY / rps) * 1000);
      // How much longer the tail is than the mean, for a route that does nothing but send (Little's law gives the mean).
      const tail = floor.p99 / ((CONCURRENCY / floor.rps) * 1000);
      const needRps = CONCURRENCY / (0.025 / tail);
      const section = [
        "## API: problem list (scripts/bench-api.ts)",
        "",
        `GET /api/problems with ${PROBLEMS} problems (${bytes} bytes of JSON), ${CONCURRENCY} concurrent connections over ` +
          "loopback, against a Hono route returning the same JSON array from memory with `c.json` (the issue's baseline), " +
          "in the same run and server process. Load generator: a bounded fetch loop in a separate Bun process on the same " +
          `two cores; ${requests} requests per measured run, ${ROUNDS} alternating rounds after a warm-up, medians reported. ` +
          `Bytes on the wire: identity ${wireBytes.get("list")}, gzip ${wireBytes.get("gzip")} (statements are words drawn ` +
          "at random from the seed problems' statements, so they compress about as real text does, not as 1,000 copies).",
        "",
        "| route | requests/s | p50 (ms) | p99 (ms) |",
        "| --- | ---: | ---: | ---: |",
        ...routes.map((r) => {
          const m = stat(r.key);
          return `| ${r.label} | ${fmt(m.rps)} | ${fmt(m.p50)} | ${fmt(m.p99)} |`;
        }),
        "",
        `Throughput target (>= 40% of the \`c.json\` baseline): **${pct(ratio)}** like for like (identity), ` +
          `${pct(g.rps / c.rps)} with gzip; ${pct(l.rps / floor.rps)} of the pre-encoded floor; a caller owning 10 of ` +
          `the problems: ${pct(o.rps / c.rps)}. p99 target (< 25 ms): **${fmt(l.p99)} ms** identity, **${fmt(g.p99)} ms** gzip` +
          `${Math.min(l.p99, g.p99) < 25 ? "" : ": not met"}.`,
        "",
        "How: the public list is cached per problem revision (docs/decisions/024-problem-list-cache.md) and encoded " +
          "once per revision, as JSON bytes and as gzip (src/lib/json.ts); a token's signature is verified once per " +
          "process (src/auth/session.ts). A request then costs the session row read (one primary-key join), one " +
          "revision read and sending the bytes. That is why the list outruns the `c.json` baseline, which serialises " +
          "0.9 MB per request; the pre-encoded row is the fair floor for an uncompressed answer. An owner's list splices " +
          "their hidden tests into the cached bytes per request and is sent uncompressed.",
        "",
        `On p99: with ${CONCURRENCY} requests always in flight, mean latency = ${CONCURRENCY} / throughput (Little's law). ` +
          `In this run the tail is ${tail.toFixed(1)}× the mean even for the pre-encoded constant (mean ${ms(floor.rps)} ms, ` +
          `p99 ${fmt(floor.p99)} ms), so a p99 under 25 ms needs a mean under ${fmt(25 / tail)} ms: more than ` +
          `${Math.round(needRps)} responses per second, ${((needRps * Number(bytes)) / 1e9).toFixed(1)} GB/s of ` +
          `${(Number(bytes) / 1e6).toFixed(2)} MB bodies through loopback, from one server thread to a client on the same ` +
          `two cores. The most this machine moved here is the floor's ${fmt(floor.rps)} responses per second. ` +
          (Math.min(l.p99, g.p99) < 25
            ? "The p99 target was met in this run. "
            : floor.p99 >= 25
              ? "So at this concurrency the p99 target is out of reach here for any route that sends this body, the " +
                "constant included; it is a property of moving ~1 MB per response on two shared cores, not of the route. "
              : "The constant meets the p99 target and the list does not. ") +
          `The list's own work (session row, revision read, routing, the tRPC caller) costs ` +
          `${Math.max(0, 1e6 / l.rps - 1e6 / floor.rps).toFixed(0)} µs per request at saturation ` +
          `(${pct(l.rps / floor.rps)} of the floor's throughput).`,
        "",
        `Compression on loopback: gzip answers ${pct(g.rps / l.rps)} of the identity list's throughput, because the ` +
          "client inflates the whole body on the same two cores while the saved bytes only cross memory. It is kept " +
          `for real networks, where ${wireBytes.get("list")} → ${wireBytes.get("gzip")} bytes is the larger effect, and costs ` +
          "the server nothing per request (compressed once per revision).",
        "",
        `Load average (1, 5, 15 min) at start ${loadAtStart.map((x) => x.toFixed(2)).join(", ")}, at the end ` +
          `${loadAtEnd.map((x) => x.toFixed(2)).join(", ")}; the benchmark's own server and client keep about 2 busy` +
          `${loadAtStart[0]! > 1.5 ? ", and other work had been running just before the start (figures may be noisy)" : ""}.`,
        "",
        `Measured ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores (${cpu}), Bun ${Bun.version}. ` +
          "Reproduce: `bun scripts/bench-api.ts`.",
        "",
      ].join("\n");
      writeSection(join(root, "docs", "benchmarks.md"), "## API: problem list", section);
      console.log("bench-api: wrote docs/benchmarks.md");
    }
  } finally {
    child.kill();
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
