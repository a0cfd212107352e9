/**
 * Problem packages → the "Problem packages" section of docs/benchmarks.md:
 * - import: a package of 100 tests and 20 example submissions, zipped, read
 *   (unzip, problem.yaml, data, statement) and stored as a problem in a libSQL
 *   file; baseline: creating the same problem from its already-built input;
 * - verify: its 20 submissions (C++, Java, Python; AC, WA, TLE) judged on the
 *   100 tests in this machine's sandbox (bwrap, one box);
 * - the checker: time per MiB of output for the Kattis default output validator
 *   (src/judge/default-validator.ts) against the `tokens` checker on the same
 *   text, interleaved (target: within 1.5×).
 * Usage: bun scripts/bench-packages.ts [--write] [--mib 4] [--rounds 15] [--no-verify]
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { newId } from "../db/ids.ts";
import { users } from "../db/schema.ts";
import { createBwrapBackend } from "../isolate/backends/bwrap.ts";
import { check } from "../src/judge/checker.ts";
import { filesFromZip } from "../src/packages/files.ts";
import { readPackage } from "../src/packages/format.ts";
import { DEFAULT_CEILINGS } from "../src/problems/ceilings.ts";
import { importPackage, problemFromPackage } from "../src/packages/import.ts";
import { verifyPackage } from "../src/packages/verify.ts";
import { createProblem } from "../src/problems/store.ts";
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

const packageLines: string[] = [];
{
  const dir = mkdtempSync(join(tmpdir(), "oj-bench-pkg-"));
  chmodSync(dir, 0o755);
  try {
    const enc = (x: string) => new TextEncoder().encode(x);
    const files: Record<string, Uint8Array> = {
      "problem.yaml": enc("problem_format_version: 2025-09\nname: Sum Lines\nlimits:\n  time_limit: 1\n"),
      "statement/problem.en.md": enc("Sum each line's numbers.\n\n## Input\n\nLines of integers.\n\n## Output\n\nOne sum per line.\n"),
    };
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let t = 0; t < 100; t++) {
      const rows = Array.from({ length: 200 }, () => Array.from({ length: 5 }, () => rnd() % 1000));
      const group = t === 0 ? "sample" : "secret";
      files[`data/${group}/${String(t).padStart(3, "0")}.in`] = enc(rows.map((r) => r.join(" ")).join("\n") + "\n");
      files[`data/${group}/${String(t).padStart(3, "0")}.ans`] = enc(rows.map((r) => r.reduce((a, b) => a + b, 0)).join("\n") + "\n");
    }
    const py = "import sys\nfor line in sys.stdin:\n    print(sum(map(int, line.split())))\n";
    const cpp = "#include <bits/stdc++.h>\nint main(){ std::string l; while (std::getline(std::cin, l)) { std::istringstream s(l); long long x, t = 0; while (s >> x) t += x; std::cout << t << '\\n'; } }\n";
    const java = "import java.io.*;\npublic class Sums { public static void main(String[] a) throws IOException { BufferedReader r = new BufferedReader(new InputStreamReader(System.in)); String l; StringBuilder o = new StringBuilder(); while ((l = r.readLine()) != null) { long t = 0; for (String x : l.trim().split(\" +\")) if (!x.isEmpty()) t += Long.parseLong(x); o.append(t).append('\\n'); } System.out.print(o); } }\n";
    for (let i = 0; i < 10; i++) files[`submissions/accepted/py${i}.py`] = enc(`${py}# ${i}\n`);
    for (let i = 0; i < 4; i++) files[`submissions/accepted/c${i}.cpp`] = enc(`${cpp}// ${i}\n`);
    files["submissions/accepted/Sums.java"] = enc(java);
    for (let i = 0; i < 4; i++) files[`submissions/wrong_answer/w${i}.py`] = enc(`import sys\nfor line in sys.stdin:\n    print(sum(map(int, line.split())) + ${i + 1})\n`);
    files["submissions/time_limit_exceeded/spin.py"] = enc("while True: pass\n");
    const zip = zipSync(files);
    const { db, client } = await openDatabase(`file:${join(dir, "bench.db")}`);
    await migrateDatabase(db);
    const userId = newId();
    await db.insert(users).values({ id: userId, firstName: "B", lastName: "P", email: "b@p", emailNormalized: "b@p" });
    const imp: number[] = [];
    const base: number[] = [];
    let pkg = await readPackage(filesFromZip(zip));
    for (let i = 0; i < 7; i++) {
      let t0 = performance.now();
      pkg = await readPackage(filesFromZip(zip));
      await importPackage(db, userId, pkg);
      if (i >= 2) imp.push(performance.now() - t0);
      const { input } = problemFromPackage(pkg);
      t0 = performance.now();
      await createProblem(db, userId, input, DEFAULT_CEILINGS);
      if (i >= 2) base.push(performance.now() - t0);
    }
    client.close();
    const mib = (zip.length / (1024 * 1024)).toFixed(2);
    packageLines.push(
      `Package: 100 tests (200 lines of 5 integers each) and 20 example submissions (10 Python, 4 C++, 1 Java accepted; 4 wrong answers; 1 time limit exceeded), a ${mib} MiB zip.`,
      "",
      "| step | median | baseline (same run) | ratio |",
      "| --- | --- | --- | --- |",
      `| import: unzip, read, store the problem (libSQL file) | ${percentile(imp, 50).toFixed(1)} ms | storing the same problem from its built input ${percentile(base, 50).toFixed(1)} ms | ${(percentile(imp, 50) / percentile(base, 50)).toFixed(1)}× |`,
    );
    if (!process.argv.includes("--no-verify")) {
      const backend = await createBwrapBackend({ root: join(dir, "boxes"), boxIdStart: 3720, boxIdCount: 2, poolSize: 1 });
      try {
        const t0 = performance.now();
        const report = await verifyPackage(backend, pkg);
        const ms = performance.now() - t0;
        const runs = report.rows.reduce((n, r) => n + (r.verdict === "AC" ? 100 : 1), 0);
        packageLines.push(
          `| verify: 20 submissions × 100 tests in one box (${report.ok ? "all as expected" : "NOT all as expected"}; C++ compiled without the precompiled header) | ${(ms / 1000).toFixed(1)} s | | about ${(ms / runs).toFixed(1)} ms per test run, compiles and the 1.5 s TLE included |`,
        );
      } finally {
        await backend.close();
      }
    }
    packageLines.push("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  ...packageLines,
];
console.log(lines.join("\n"));
if (write) {
  writeSection(join(import.meta.dir, "..", "docs", "benchmarks.md"), "## Problem packages", ["## Problem packages (scripts/bench-packages.ts)", "", `Measured ${new Date().toISOString().slice(0, 10)} on this machine (2 cores).`, "", ...lines].join("\n") + "\n");
  console.log("bench-packages: wrote docs/benchmarks.md");
}
