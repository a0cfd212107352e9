/**
 * What localising the server's answers costs (issue 34's goal: "a server
 * answer's localisation costs at most 2 % of the API benchmark's throughput,
 * measured against the same build with one locale").
 *
 * The same build runs twice, side by side, each a child process of
 * scripts/bench-api.ts (`--serve`: a real app over a real database file with
 * the same 1,000 problems): one with ANSWER_LOCALES=all (each request's
 * Accept-Language picks the language of its messages) and one with
 * ANSWER_LOCALES=en (English whatever the request asks: one locale, the
 * header never read). Every request carries a German browser's
 * Accept-Language, so the first server does all of its localising work and the
 * second none. Three answers:
 *
 * - GET /api/problems (the API benchmark's route; a success with no text to
 *   translate: the cost is finding the request's language);
 * - GET /api/problems/<unknown id>: a 404 whose message is the catalogue's German;
 * - GET /api/problems/<65 characters>: a 400 whose validation message is
 *   formatted from the ICU catalogue ("id: Höchstens 64 Zeichen").
 *
 * The two servers alternate within each round (ABBA across rounds, so a drift
 * in the machine's load falls on both), medians over the rounds are reported,
 * and the cost is 1 − (throughput with every language ÷ throughput with one).
 * On two shared cores a difference under a few percent is within the noise of
 * one run, so the localising work is also timed alone, in this process, per
 * answer, and set against a request's whole time.
 *
 * Usage: bun scripts/bench-api-locales.ts [--requests 4000] [--rounds 6] [--seconds 20] [--port 3192] [--no-write]
 * Loopback only; every run is bounded by a request count and a time limit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { median, writeSection } from "./lib/bench-doc.ts";
import { localizedErrorMessage, requestLocale } from "../src/i18n/messages.ts";
import { issueMessage } from "../src/i18n/validation.ts";
import { ERRORS } from "../src/errors.ts";
import { idField } from "../src/lib/fields.ts";

const CONCURRENCY = 50;
const ACCEPT_LANGUAGE = "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7";
const root = resolve(import.meta.dir, "..");

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3192" },
    requests: { type: "string", default: "4000" },
    rounds: { type: "string", default: "6" },
    seconds: { type: "string", default: "20" },
    "no-write": { type: "boolean", default: false },
  },
});

interface Server {
  locales: "all" | "en";
  base: string;
  token: string;
  child: ReturnType<typeof Bun.spawn>;
  dir: string;
}

/** Starts scripts/bench-api.ts's server with ANSWER_LOCALES=`locales`; resolves when it prints READY. */
async function start(locales: "all" | "en", port: number): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), `oj-bench-locales-${locales}-`));
  const child = Bun.spawn(["bun", join(root, "scripts", "bench-api.ts"), "--serve", dir, "--port", String(port)], {
    cwd: root,
    env: { ...process.env, ANSWER_LOCALES: locales },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server (${locales}) exited before READY: ${out}`);
    out += new TextDecoder().decode(value);
  }
  const [, token] = out.trim().split(" ");
  return { locales, base: `http://127.0.0.1:${port}`, token: token!, child, dir };
}

/** `requests` GETs from CONCURRENCY workers, each awaiting its body; stops early at `maxSeconds`. @returns requests per second. */
async function load(url: string, headers: Record<string, string>, status: number, requests: number, maxSeconds: number): Promise<number> {
  let issued = 0;
  let done = 0;
  let wrong = 0;
  const deadline = performance.now() + maxSeconds * 1000;
  const t0 = performance.now();
  const worker = async () => {
    while (issued < requests && performance.now() < deadline) {
      issued++;
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== status) wrong++;
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (wrong) throw new Error(`${url}: ${wrong} answers were not ${status}`);
  return done / ((performance.now() - t0) / 1000);
}

/** Mean time of `fn` over enough calls to take ~200 ms, in nanoseconds. */
function timeAlone(fn: () => unknown): number {
  for (let i = 0; i < 10_000; i++) fn();
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 200) {
    for (let i = 0; i < 1000; i++) fn();
    calls += 1000;
  }
  return ((performance.now() - t0) * 1e6) / calls;
}

const port = Number(args.port);
const requests = Number(args.requests);
const rounds = Number(args.rounds);
const seconds = Number(args.seconds);
const loadAtStart = loadavg();
console.log(`bench-api-locales: load average at start ${loadAtStart.map((x) => x.toFixed(2)).join(", ")}`);
const servers = await Promise.all([start("all", port), start("en", port + 1)]);
try {
  const routes = [
    { key: "list", label: "GET /api/problems (200, 1,000 problems)", path: "/api/problems", status: 200, requests },
    { key: "notFound", label: "GET /api/problems/:unknown (404, catalogue message)", path: "/api/problems/no-such-problem", status: 404, requests: requests * 5 },
    { key: "invalid", label: "GET /api/problems/:65 characters (400, ICU validation message)", path: `/api/problems/${"x".repeat(65)}`, status: 400, requests: requests * 5 },
  ] as const;
  const headersOf = (s: Server) => ({ authorization: `Bearer ${s.token}`, "accept-language": ACCEPT_LANGUAGE, "accept-encoding": "identity" });
  // Each server answers as configured: German with every language, English with one.
  for (const r of routes.slice(1)) {
    const [de, en] = await Promise.all(servers.map(async (s) => ((await (await fetch(s.base + r.path, { headers: headersOf(s) })).json()) as { message: string }).message));
    console.log(`bench-api-locales: ${r.path.slice(0, 40)}: all → "${de}", en → "${en}"`);
    if (de === en) throw new Error(`${r.path}: the same message from both servers`);
  }
  const messages = new Map<string, string>();
  for (const s of servers) messages.set(s.locales, ((await (await fetch(`${s.base}${routes[2].path}`, { headers: headersOf(s) })).json()) as { message: string }).message);
  for (const s of servers) for (const r of routes) await load(s.base + r.path, headersOf(s), r.status, Math.min(r.requests, 1500), 10);

  const rps = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const r of routes) {
      for (const s of order) {
        const key = `${r.key}/${s.locales}`;
        rps.set(key, [...(rps.get(key) ?? []), await load(s.base + r.path, headersOf(s), r.status, r.requests, seconds)]);
      }
    }
    console.log(`bench-api-locales: round ${round + 1}/${rounds} done`);
  }
  const loadAtEnd = loadavg();

  // The localising work alone, per answer, in this process (the same functions the servers call).
  const tooLong = idField().safeParse("x".repeat(65));
  const issue = tooLong.success ? undefined : tooLong.error.issues[0]!;
  if (!issue) throw new Error("idField accepted 65 characters");
  const alone = {
    list: timeAlone(() => requestLocale(ACCEPT_LANGUAGE)),
    notFound: timeAlone(() => localizedErrorMessage("PROBLEM_NOT_FOUND", ERRORS.PROBLEM_NOT_FOUND.message, requestLocale(ACCEPT_LANGUAGE))),
    invalid: timeAlone(() => issueMessage(issue, requestLocale(ACCEPT_LANGUAGE))),
  };

  const fmt = (n: number) => n.toFixed(1);
  const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
  /** A small share with two significant digits: 0.0011 %. */
  const share = (n: number) => `${(n * 100).toPrecision(2)} %`;
  const rows = routes.map((r) => {
    const all = rps.get(`${r.key}/all`)!;
    const en = rps.get(`${r.key}/en`)!;
    const paired = all.map((x, i) => 1 - x / en[i]!);
    const aloneNs = alone[r.key];
    const requestNs = 1e9 / median(all);
    return { r, all: median(all), en: median(en), cost: 1 - median(all) / median(en), pairedCost: median(paired), spread: [Math.min(...paired), Math.max(...paired)], aloneNs, aloneShare: aloneNs / requestNs };
  });
  for (const x of rows) {
    console.log(
      `${x.r.label.padEnd(62)}: every language ${fmt(x.all)} req/s, English only ${fmt(x.en)} req/s, cost ${pct(x.cost)} ` +
        `(paired rounds: median ${pct(x.pairedCost)}, ${pct(x.spread[0]!)} to ${pct(x.spread[1]!)}); the localising alone ${fmt(x.aloneNs)} ns = ${share(x.aloneShare)} of a request`,
    );
  }
  console.log(`bench-api-locales: load average at end ${loadAtEnd.map((x) => x.toFixed(2)).join(", ")}`);

  if (!args["no-write"]) {
    const list = rows[0]!;
    const met = Math.max(list.cost, list.pairedCost) <= 0.02;
    const section = [
      "## API: what localising answers costs (scripts/bench-api-locales.ts)",
      "",
      "The same build twice, side by side, in one run: scripts/bench-api.ts's server (1,000 problems, a real database " +
        "file) with `ANSWER_LOCALES=all` (each request's Accept-Language picks its messages' language) and with " +
        "`ANSWER_LOCALES=en` (English whatever the request asks: one locale, the header never read). Every request carries " +
        `a German browser's \`Accept-Language: ${ACCEPT_LANGUAGE}\`, so the first server does all its localising and the second ` +
        `none (checked at the start: the 400 reads "${messages.get("all")}" from the first and "${messages.get("en")}" from the ` +
        `second). ${CONCURRENCY} concurrent connections over loopback, ${rounds} rounds alternating the two servers (ABBA), ` +
        `${requests} requests per run for the list and ${requests * 5} for the small answers; medians.`,
      "",
      "| answer | every language (req/s) | English only (req/s) | cost | paired rounds: median (min to max) | localising alone per answer |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map(
        (x) =>
          `| ${x.r.label} | ${fmt(x.all)} | ${fmt(x.en)} | ${pct(x.cost)} | ${pct(x.pairedCost)} (${pct(x.spread[0]!)} to ${pct(x.spread[1]!)}) | ` +
          `${fmt(x.aloneNs)} ns (${share(x.aloneShare)} of the request) |`,
      ),
      "",
      `Goal (the API benchmark's route, at most 2 % of its throughput): **${pct(list.cost)}** (paired median ${pct(list.pairedCost)})` +
        `${met ? ": met" : ": not met in this run"}. A negative cost is noise: the two servers differ by nothing else, and on two ` +
        "shared cores runs of the same server differ by a few percent. The last column is the bound that noise cannot blur: " +
        "the localising work of one answer timed alone (the Accept-Language lookup, which is cached per header value; the " +
        "catalogue's message for a code; an ICU validation message with a locale-formatted number), as a share of one " +
        "request's time at the measured throughput.",
      "",
      `Load average (1, 5, 15 min) at start ${loadAtStart.map((x) => x.toFixed(2)).join(", ")}, at the end ` +
        `${loadAtEnd.map((x) => x.toFixed(2)).join(", ")}. Measured ${new Date().toISOString().slice(0, 10)} on ` +
        `${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), Bun ${Bun.version}. Reproduce: \`bun scripts/bench-api-locales.ts\`.`,
      "",
    ].join("\n");
    writeSection(join(root, "docs", "benchmarks.md"), "## API: what localising answers costs", section);
    console.log("bench-api-locales: wrote docs/benchmarks.md");
  }
} finally {
  for (const s of servers) {
    s.child.kill();
    await s.child.exited;
    rmSync(s.dir, { recursive: true, force: true });
  }
}
