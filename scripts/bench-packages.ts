/**
 * Problem packages → the "Problem packages" section of docs/benchmarks.md.
 * For now the checker: time per MiB of output for the Kattis default output
 * validator (src/judge/default-validator.ts) against the `tokens` checker on
 * the same text, interleaved in one loop (target: within 1.5×). Package import
 * and verify times join this section when those land (issue 12).
 * Usage: bun scripts/bench-packages.ts [--write] [--mib 4] [--rounds 15]
 */
import { join } from "node:path";
import { check } from "../src/judge/checker.ts";
import { percentile, writeSection } from "./lib/bench-doc.ts";

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const write = process.argv.includes("--write");
const mib = arg("--mib", 4);
const rounds = arg("--rounds", 15);

/** Deterministic text of about `bytes`: lines of integers and words, or of floats. */
function makeOutput(bytes: number, kind: "mixed" | "floats"): string {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line =
      kind === "mixed"
        ? `${next() % 1000000} ${["yes", "no", "Possible", "IMPOSSIBLE"][next() % 4]} ${next() % 97}\n`
        : `${(next() / 2147483648).toFixed(9)} ${(next() % 100000) / 7}\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join("");
}

const cases = [
  { label: `${mib} MiB of integers and words, no flags`, text: makeOutput(mib * 1024 * 1024, "mixed"), flags: "" },
  { label: `${mib} MiB of floats, \`float_tolerance 1e-6\``, text: makeOutput(mib * 1024 * 1024, "floats"), flags: "float_tolerance 1e-6" },
];
const rows: string[] = [];
let worst = 0;
for (const c of cases) {
  const t = { tokens: [] as number[], kattis: [] as number[] };
  for (let i = 0; i < rounds + 2; i++) {
    for (const name of (i % 2 ? ["tokens", "kattis"] : ["kattis", "tokens"]) as ("tokens" | "kattis")[]) {
      const s = performance.now();
      const r = check(name, c.text, c.text, c.flags);
      const ms = performance.now() - s;
      if (!r.ok) throw new Error(`${name} rejected identical text`);
      if (i >= 2) t[name].push(ms);
    }
  }
  const k = percentile(t.kattis, 50) / mib;
  const b = percentile(t.tokens, 50) / mib;
  worst = Math.max(worst, k / b);
  rows.push(`| ${c.label} | ${k.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(k / b).toFixed(2)}× |`);
}
const lines = [
  `Checker time per MiB of output (output identical to the answer, so every token is compared), medians of ${rounds} interleaved rounds:`,
  "",
  "| output | Kattis default validator (`kattis`) | `tokens` checker (baseline) | ratio |",
  "| --- | --- | --- | --- |",
  ...rows,
  "",
  `Target: the default validator within 1.5× of \`tokens\`: ${worst <= 1.5 ? "met" : "missed"} (worst ${worst.toFixed(2)}×). The default validator walks the text once by character codes (C's whitespace set, ASCII case folding) instead of splitting it with a regular expression; with a float tolerance every answer token that is a number is also parsed, as problemtools does.`,
  "",
  "Package import and verify times: not measured yet (issue 12's import and verify are still to come).",
  "",
];
console.log(lines.join("\n"));
if (write) {
  writeSection(join(import.meta.dir, "..", "docs", "benchmarks.md"), "## Problem packages", ["## Problem packages (scripts/bench-packages.ts)", "", `Measured ${new Date().toISOString().slice(0, 10)} on this machine (2 cores).`, "", ...lines].join("\n") + "\n");
  console.log("bench-packages: wrote docs/benchmarks.md");
}
