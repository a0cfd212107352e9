/**
 * What the interface languages cost the first paint (issue 34's goal: the
 * client's JavaScript for first paint grows by at most 5 % in English,
 * against the same build with one locale) → the "Client: what the
 * interface languages cost the first paint" section of docs/benchmarks.md.
 *
 * Builds, in the same run, three clients (production, `vite build`) and
 * compares the JavaScript every page loads before its first paint (the
 * scripts client/dist/index.html names: theme.js, the entry chunk and its
 * static imports), gzipped (level 9) and raw, and every script the build
 * makes:
 *  - as shipped (this checkout);
 *  - the same commit with one locale: every catalogue but English deleted
 *    (client/src/i18n/catalog/<ns>/<locale>.json), so no locale loader is
 *    emitted (the baseline of the goal);
 *  - the commit before the interface languages (REF, default d297fd6), where
 *    every word was written in the code: what moving them into catalogues cost.
 * The other two are built in temporary git worktrees sharing node_modules.
 *
 * Usage: bun scripts/bench-i18n-size.ts [--ref d297fd6] [--write]
 */
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { writeSection } from "./lib/bench-doc.ts";

const ROOT = join(import.meta.dir, "..");
const { values: args } = parseArgs({ options: { ref: { type: "string", default: "d297fd6" }, write: { type: "boolean", default: false } } });

function run(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} in ${cwd}: exit ${p.exitCode}\n${p.stderr.toString()}${p.stdout.toString()}`);
  return p.stdout.toString();
}

interface Sizes {
  firstPaintGzip: number;
  firstPaintRaw: number;
  files: number;
  allGzip: number;
}

function measure(dist: string): Sizes {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const scripts = [...html.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  let firstPaintGzip = 0;
  let firstPaintRaw = 0;
  for (const s of new Set(scripts)) {
    const code = readFileSync(join(dist, s));
    firstPaintRaw += code.length;
    firstPaintGzip += gzipSync(code, { level: 9 }).length;
  }
  const assets = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".js"));
  const allGzip = assets.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, "assets", f)), { level: 9 }).length, 0);
  return { firstPaintGzip, firstPaintRaw, files: assets.length, allGzip };
}

function build(dir: string): Sizes {
  run(["bunx", "vite", "build", "--config", "client/vite.config.ts"], dir, { NODE_ENV: "production" });
  return measure(join(dir, "client", "dist"));
}

/** A temporary worktree of `commit` sharing this checkout's node_modules; `prepare` edits it before the build. */
function inWorktree(name: string, commit: string, prepare: (dir: string) => void): Sizes {
  const dir = `/tmp/bench-i18n-${name}`;
  if (existsSync(dir)) run(["git", "worktree", "remove", "--force", dir], ROOT);
  run(["git", "worktree", "add", "--detach", dir, commit], ROOT);
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    prepare(dir);
    return build(dir);
  } finally {
    run(["git", "worktree", "remove", "--force", dir], ROOT);
    rmSync(dir, { recursive: true, force: true });
  }
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${(((a - b) / b) * 100).toFixed(1)} %`;

const head = run(["git", "rev-parse", "--short", "HEAD"], ROOT).trim();
const shipped = build(ROOT);
const oneLocale = inWorktree("one", "HEAD", (dir) => {
  const catalog = join(dir, "client", "src", "i18n", "catalog");
  for (const ns of readdirSync(catalog)) for (const f of readdirSync(join(catalog, ns))) if (f.endsWith(".json") && f !== "en.json") unlinkSync(join(catalog, ns, f));
});
const before = inWorktree("ref", args.ref!, () => {});

const growth = (shipped.firstPaintGzip - oneLocale.firstPaintGzip) / oneLocale.firstPaintGzip;
const section = [
  "## Client: what the interface languages cost the first paint (scripts/bench-i18n-size.ts)",
  "",
  `Production builds made in the same run; JavaScript every page loads before its first paint (theme.js, the entry chunk and its static imports, as client/dist/index.html names them), gzipped at level 9. Commit ${head}; the one-locale build is the same commit with every catalogue but English deleted; the reference is ${args.ref}, the last commit before the interface languages.`,
  "",
  "| build | first paint, gzip | first paint, raw | every script, gzip | scripts |",
  "| --- | ---: | ---: | ---: | ---: |",
  `| as shipped (ten locales) | ${kib(shipped.firstPaintGzip)} | ${kib(shipped.firstPaintRaw)} | ${kib(shipped.allGzip)} | ${shipped.files} |`,
  `| baseline: the same build with one locale | ${kib(oneLocale.firstPaintGzip)} | ${kib(oneLocale.firstPaintRaw)} | ${kib(oneLocale.allGzip)} | ${oneLocale.files} |`,
  `| before the interface languages (${args.ref}) | ${kib(before.firstPaintGzip)} | ${kib(before.firstPaintRaw)} | ${kib(before.allGzip)} | ${before.files} |`,
  "",
  `Ten locales against one: first paint **${pct(shipped.firstPaintGzip, oneLocale.firstPaintGzip)}** (goal ≤ +5 %: ${growth <= 0.05 ? "met" : "not met"}); English users download no other locale (each is a chunk fetched only when chosen). Against the build before the interface languages: ${pct(shipped.firstPaintGzip, before.firstPaintGzip)}, everything the entry gained since then: Lingui's runtime, the locale choice and language menu, the words of the header, footer and kit moving from the code into the common catalogue with their keys, and the solving page's early request (decision 062).`,
  "",
  `Measured ${new Date().toISOString().slice(0, 10)}, Bun ${Bun.version}. Reproduce: \`bun scripts/bench-i18n-size.ts --write\` (it rebuilds client/dist).`,
  "",
].join("\n");
console.log(section);
if (args.write) writeSection(join(ROOT, "docs", "benchmarks.md"), "## Client: what the interface languages cost the first paint", section);
