/**
 * The built client's budget (200 KiB of initial JavaScript, gzipped): what the landing and problems
 * pages load up front (the entry chunk and every chunk it imports statically,
 * i.e. index.html's module script and modulepreload links) is at most
 * 200 KiB gzipped and holds no Monaco; Monaco sits in a lazy chunk of its own.
 */
import { beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureClientBuilt, ROOT } from "./harness.ts";

const DIST = join(ROOT, "client", "dist");
const BUDGET_BYTES = 200 * 1024;
/** Strings found in Monaco's editor core and nowhere else in our app. */
const MONACO_MARKERS = ["MonacoEnvironment", "monaco-editor-background"];

let html = "";
beforeAll(() => {
  ensureClientBuilt();
  html = readFileSync(join(DIST, "index.html"), "utf8");
}, 120_000);

function initialScripts(): string[] {
  const srcs = [...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]!);
  return [...srcs, ...preloads];
}

test("initial JavaScript is at most 200 KiB gzipped and contains no Monaco", () => {
  const files = initialScripts();
  expect(files.length).toBeGreaterThan(0);
  let gzipped = 0;
  for (const file of files) {
    const code = readFileSync(join(DIST, file.replace(/^\//, "")));
    gzipped += Bun.gzipSync(code).length;
    const text = code.toString("utf8");
    for (const marker of MONACO_MARKERS) expect(text.includes(marker)).toBe(false);
  }
  console.log(`initial JS: ${files.join(", ")} = ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
  expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
});

test("Monaco is bundled locally in a lazy chunk and its worker ships with it", () => {
  const assets = readdirSync(join(DIST, "assets"));
  const initial = new Set(initialScripts().map((f) => f.replace(/^\/assets\//, "")));
  const monacoChunks = assets.filter(
    (f) => f.endsWith(".js") && MONACO_MARKERS.some((m) => readFileSync(join(DIST, "assets", f), "utf8").includes(m)),
  );
  expect(monacoChunks.length).toBeGreaterThan(0);
  for (const chunk of monacoChunks) expect(initial.has(chunk)).toBe(false);
  expect(assets.some((f) => /^editor\.worker-.*\.js$/.test(f))).toBe(true);
  expect(assets.some((f) => /^codicon-.*\.ttf$/.test(f))).toBe(true);
});
