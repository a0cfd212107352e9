/**
 * Vite config for the React client. Root is `client/`, output `client/dist`
 * (served by the Bun server with an SPA fallback).
 *
 * Dev server: `bunx vite --config client/vite.config.ts` listens on
 * VITE_PORT (default 5173) and proxies `/api` and `/trpc` (SSE included) to
 * the Bun server at API_PROXY_TARGET (default http://localhost:3000), so one
 * URL serves the whole app with hot reload.
 *
 * Monaco is bundled from the local `monaco-editor` package (no CDN) and only
 * reached through the lazily loaded solving page; `initialChunkReport` prints
 * the gzipped size of what the landing/problems pages load up front.
 */
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { i18nCatalogPlugin } from "./i18n-catalog-plugin.ts";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const apiTarget = process.env.API_PROXY_TARGET || "http://localhost:3000";
const devPort = Number(process.env.VITE_PORT || 5173);

/** Budget for the initial JavaScript (entry chunk + its static imports), gzipped: what every page pays before its own code. */
const INITIAL_JS_BUDGET_KIB = 200;

/**
 * Prints the gzipped size of the entry chunk plus every chunk it imports
 * statically (what every page pays before any lazy route loads).
 */
function initialChunkReport(): Plugin {
  return {
    name: "initial-chunk-report",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { code: string; imports: string[]; isEntry: boolean }>();
      for (const [fileName, item] of Object.entries(bundle)) {
        if (item.type === "chunk") chunks.set(fileName, { code: item.code, imports: item.imports, isEntry: item.isEntry });
      }
      const seen = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        for (const dep of chunks.get(name)?.imports ?? []) visit(dep);
      };
      for (const [name, chunk] of chunks) if (chunk.isEntry) visit(name);
      let gzipBytes = 0;
      for (const name of seen) gzipBytes += gzipSync(chunks.get(name)!.code).length;
      const kib = gzipBytes / 1024;
      const verdict = kib <= INITIAL_JS_BUDGET_KIB ? "within" : "OVER";
      this.info(
        `initial JS (${[...seen].join(", ")}): ${kib.toFixed(1)} KiB gzipped, ${verdict} the ${INITIAL_JS_BUDGET_KIB} KiB budget`,
      );
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), i18nCatalogPlugin(), initialChunkReport()],
  resolve: {
    // monaco-editor's package exports map every subpath to a `.js` file, so its
    // stylesheets (codicons) are reached through this alias instead.
    alias: [{ find: /^monaco-editor-esm\/(.*)$/, replacement: `${fileURLToPath(new URL("../node_modules/monaco-editor/esm/vs/", import.meta.url))}$1` }],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Monaco's chunk is large by nature; it is loaded only on /solve/:id.
    chunkSizeWarningLimit: 4096,
  },
  worker: { format: "es" },
  server: {
    port: devPort,
    strictPort: true,
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false },
      "/trpc": { target: apiTarget, changeOrigin: false },
    },
  },
  preview: { port: devPort },
});
