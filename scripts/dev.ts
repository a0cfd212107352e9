/**
 * `bun run dev`: the server with --watch plus the Vite dev server with hot
 * reload, behind one URL. Vite listens on PORT (default 3000) and proxies /api
 * and /trpc (SSE included) to the Bun server on PORT + 1 (client/vite.config.ts
 * reads VITE_PORT and API_PROXY_TARGET). Open http://localhost:PORT.
 * Ctrl-C stops both.
 */
import { resolve } from "node:path";
import { exitOnConfigError, loadConfig } from "../src/config.ts";

const root = resolve(import.meta.dir, "..");
const config = await exitOnConfigError(() => loadConfig(process.env));

const webPort = config.PORT;
const apiPort = config.PORT + 1;
const env = { ...process.env };

const api = Bun.spawn(["bun", "--watch", "src/server.ts"], {
  cwd: root,
  env: { ...env, PORT: String(apiPort), HOST: "127.0.0.1" },
  stdout: "inherit",
  stderr: "inherit",
});
const web = Bun.spawn(["bunx", "vite", "--config", "client/vite.config.ts"], {
  cwd: root,
  env: { ...env, VITE_PORT: String(webPort), API_PROXY_TARGET: `http://127.0.0.1:${apiPort}` },
  stdout: "inherit",
  stderr: "inherit",
});
console.log(`dev: open http://localhost:${webPort} (Vite with hot reload; API on :${apiPort}, restarted on change)`);

let stopping = false;
const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  api.kill();
  web.kill();
  process.exit(code);
};
process.once("SIGINT", () => stop(0));
process.once("SIGTERM", () => stop(0));
// If either child dies, stop the other rather than leave half a dev setup running.
api.exited.then((code) => stop(code ?? 1));
web.exited.then((code) => stop(code ?? 1));
