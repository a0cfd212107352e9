/**
 * Similarity benchmark → the "Similarity" section of docs/benchmarks.md.
 *
 * 1,000 synthetic C++ submissions of about 150 lines (scripts/lib/similarity-corpus.ts):
 * 980 independent programs and 20 planted copies of 20 of them, each copy
 * renamed, reordered, re-commented and re-indented, with dead code and a
 * `for` loop written as a `while` loop. The engine (src/similarity/engine.ts,
 * as the report's worker runs it) compares all 499,500 pairs, with the
 * language's boilerplate as the template:
 * 1. the whole analysis against tokenizing alone, in the same run (a ratio);
 * 2. memory: the process's resident size before and after;
 * 3. accuracy: every planted copy's rank among all pairs, and the gap between
 *    the weakest planted copy and the most similar independent pair;
 * 4. tuning: the same for other k-gram lengths and windows.
 *
 * Targets: 1,000 submissions in ≤ 20 s on two cores; every planted copy in
 * the top pairs (ranks 1..20).
 *
 * Usage: bun scripts/bench-similarity.ts [--write]
 */
import { join } from "node:path";
import { LANGUAGES } from "../isolate/languages/index.ts";
import { analyse, DEFAULT_ENGINE, type EngineOptions, type Program } from "../src/similarity/engine.ts";
import { GRAMMARS } from "../src/similarity/grammars.ts";
import { suggestThreshold } from "../src/similarity/threshold.ts";
import { parserFor, tokenizeWith } from "../src/similarity/tokenizer.ts";
import { ms, writeSection } from "./lib/bench-doc.ts";
import { disguise, randomProgram, render } from "./lib/similarity-corpus.ts";

const TOTAL = 1000;
const PLANTED = 20;
const write = process.argv.includes("--write");

const programs: Program[] = [];
const planted = new Map<string, string>(); // copy id → original id
for (let i = 0; i < TOTAL - PLANTED; i++) programs.push({ id: `s${i}`, language: "cpp", code: render(randomProgram(i)), past: false });
for (let c = 0; c < PLANTED; c++) {
  const original = c * 37;
  programs.push({ id: `copy${c}`, language: "cpp", code: render(randomProgram(original), disguise(c)), past: false });
  planted.set(`copy${c}`, `s${original}`);
}
const lines = programs.map((p) => p.code.split("\n").length);
const meanLines = lines.reduce((a, b) => a + b, 0) / lines.length;
const templates = [{ language: "cpp" as const, code: LANGUAGES.cpp.boilerplate }];

// Baseline: tokenizing alone (the parser warmed up first, as in the real run).
const parser = await parserFor(GRAMMARS.cpp!);
tokenizeWith(parser, programs[0]!.code);
let t = performance.now();
let tokens = 0;
for (const p of programs) tokens += tokenizeWith(parser, p.code).tokens.length;
const tokenizeMs = performance.now() - t;

interface Run {
  options: EngineOptions;
  ms: number;
  rssBeforeMib: number;
  rssAfterMib: number;
  ranks: number[];
  weakestCopy: number;
  strongestIndependent: number;
  threshold: number;
  pairs: number;
}

async function run(options: EngineOptions): Promise<Run> {
  Bun.gc(true);
  const rssBeforeMib = process.memoryUsage().rss / 1048576;
  const started = performance.now();
  const a = await analyse(programs, templates, { ...options, pairsKept: 1000 });
  const took = performance.now() - started;
  const rssAfterMib = process.memoryUsage().rss / 1048576;
  const isPlanted = (l: string, r: string) => planted.get(r) === l || planted.get(l) === r;
  const ranks = a.pairs.flatMap((p, i) => (isPlanted(p.left, p.right) ? [i + 1] : []));
  const copies = a.pairs.filter((p) => isPlanted(p.left, p.right));
  const independent = a.pairs.find((p) => !isPlanted(p.left, p.right));
  return {
    options,
    ms: took,
    rssBeforeMib,
    rssAfterMib,
    ranks,
    weakestCopy: Math.min(...copies.map((p) => p.similarity)),
    strongestIndependent: independent?.similarity ?? 0,
    threshold: suggestThreshold(a.fine),
    pairs: a.pairsTotal,
  };
}

const runs: Run[] = [];
for (const [k, w] of [[DEFAULT_ENGINE.kgramLength, DEFAULT_ENGINE.windowLength], [15, 10], [31, 25]] as const) {
  const r = await run({ ...DEFAULT_ENGINE, kgramLength: k, windowLength: w });
  runs.push(r);
  console.log(`k=${k} w=${w}: ${ms(r.ms)}, planted ranks ${r.ranks.join(",")}, weakest copy ${r.weakestCopy.toFixed(3)}, strongest independent ${r.strongestIndependent.toFixed(3)}, threshold ${r.threshold.toFixed(3)}, rss ${r.rssBeforeMib.toFixed(0)} → ${r.rssAfterMib.toFixed(0)} MiB`);
}
const main = runs[0]!;
console.log(`tokenizing alone: ${ms(tokenizeMs)} (${tokens} tokens); analysis ${(main.ms / tokenizeMs).toFixed(1)}× that`);

const allFound = main.ranks.length === PLANTED && Math.max(...main.ranks) <= PLANTED;
const table = runs
  .map((r) => `| ${r.options.kgramLength} | ${r.options.windowLength} | ${(r.ms / 1000).toFixed(1)} s | ${r.ranks.length === PLANTED ? `1–${Math.max(...r.ranks)}` : `${r.ranks.length} of ${PLANTED} kept`} | ${r.weakestCopy.toFixed(3)} | ${r.strongestIndependent.toFixed(3)} | ${(r.weakestCopy - r.strongestIndependent).toFixed(3)} | ${r.threshold.toFixed(3)} |`)
  .join("\n");
const section = `## Similarity

\`bun scripts/bench-similarity.ts --write\` (${new Date().toISOString().slice(0, 10)}, this machine: 2 cores). ${TOTAL} synthetic C++ submissions of ${meanLines.toFixed(0)} lines on average
(scripts/lib/similarity-corpus.ts): ${TOTAL - PLANTED} independent programs and ${PLANTED} planted copies, each renamed,
reordered, re-commented and re-indented, with dead code and a \`for\` loop written as a \`while\` loop; the C++
boilerplate is the template. ${main.pairs.toLocaleString("en")} pairs compared.

| measure | value | baseline (same run) | ratio |
| --- | --- | --- | --- |
| whole analysis (k = ${main.options.kgramLength}, window ${main.options.windowLength}) | ${(main.ms / 1000).toFixed(1)} s | tokenizing alone: ${(tokenizeMs / 1000).toFixed(1)} s (${tokens.toLocaleString("en")} tokens) | ${(main.ms / tokenizeMs).toFixed(1)}× |
| resident memory | ${main.rssAfterMib.toFixed(0)} MiB after | ${main.rssBeforeMib.toFixed(0)} MiB before | +${(main.rssAfterMib - main.rssBeforeMib).toFixed(0)} MiB |
| planted copies' ranks | ${main.ranks.join(", ")} | ranks 1–${PLANTED} | ${allFound ? "all on top" : "NOT all on top"} |

Target: ≤ 20 s for 1,000 submissions on two cores (${main.ms <= 20_000 ? "met" : "missed"}); every planted copy in the top pairs (${allFound ? "met" : "missed"}).
A report runs this in a worker (src/similarity/worker.ts), so the server keeps answering meanwhile.

Tuning, same corpus (the gap: weakest planted copy minus most similar independent pair; Dolos's suggested threshold):

| k-gram | window | time | planted ranks | weakest copy | strongest independent | gap | threshold |
| --- | --- | --- | --- | --- | --- | --- | --- |
${table}

Kept: Dolos's defaults (k = 23, window 17). Every setting tried puts all copies on top. Shorter k-grams match
more idioms between independent programs (the strongest independent pair rises); on this corpus longer ones
separated a little better, but its statements are long and regular and its copies are edited in a handful of
places, where a real disguised copy is edited every few lines and loses more of its long k-grams. The defaults
are what Dolos's published accuracy was measured with, and the accuracy tests on programs written here
(src/similarity/engine.test.ts) pass with them; change them only with real submissions as evidence.

Two costs found and fixed while building this (decision 042): dolos-core's Pair for every pair took 28.5 s at
1,020 programs (now a merge of sorted fingerprint ids per pair, Pair only for the pairs kept: 5.4 s), and its
index, given the max share up front, re-ignored a popular fingerprint for every further file (9.8 s to index;
applied once after adding the files: 1.7 s).
`;
console.log(section);
if (write) writeSection(join(import.meta.dir, "..", "docs", "benchmarks.md"), "## Similarity", section);
