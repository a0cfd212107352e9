/**
 * `bun run start`: the production server. Builds the client first when
 * CLIENT_DIST has no index.html (and CLIENT_DIST is the build's own output,
 * client/dist), then starts src/server.ts in this process.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { exitOnConfigError, loadConfig } from "../src/config.ts";
import { main } from "../src/server.ts";

const root = resolve(import.meta.dir, "..");
const config = await exitOnConfigError(() => loadConfig(process.env));

const dist = resolve(config.CLIENT_DIST);
if (!existsSync(join(dist, "index.html"))) {
  if (dist === join(root, "client", "dist")) {
    console.log("start: no client build found; building it (bun run build)");
    const build = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) {
      console.error(`start: the client build failed (exit ${build.exitCode})`);
      process.exit(1);
    }
  } else {
    console.warn(`start: CLIENT_DIST=${config.CLIENT_DIST} has no index.html; only the API will answer`);
  }
}

// The same start-up as `bun src/server.ts`: a ConfigError from start-up (e.g. AI_PROVIDER) ends with one clean message.
await main(process.env);
