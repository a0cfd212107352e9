/**
 * The single binary's main (`bun run release` builds it with `bun build
 * --compile`; scripts/release.ts generates the entry that embeds the built
 * client and the migrations and calls this). Subcommands:
 *
 *   oj                        start the server (the default; config from the environment, data in ./data or DATA_DIR)
 *   oj backup PATH | restore PATH | verify PATH
 *   oj admin grant EMAIL | allow-courses EMAIL | revoke EMAIL | list
 *   oj version
 *
 * Migrations run at every start, from the embedded files (extracted into
 * DATA_DIR/.migrations/<version>), so upgrading is replacing the binary.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { useMigrationsFrom } from "../../db/index.ts";
import { exitOnConfigError, loadConfig } from "../config.ts";
import { adminCli, backupCli } from "../ops/cli.ts";
import { VERSION } from "../version.ts";
import { main as serve } from "../server.ts";
import { useEmbeddedClient } from "../static.ts";

export interface Embedded {
  /** URL path → embedded file path. */
  client: ReadonlyMap<string, string>;
  /** Migration file name relative to the migrations folder (`0000_x.sql`, `meta/_journal.json`) → embedded file path. */
  migrations: ReadonlyMap<string, string>;
}

const USAGE = "usage: oj [serve] | backup PATH | restore PATH | verify PATH | admin grant|allow-courses|revoke EMAIL | admin list | version";

/** Writes the embedded migrations where drizzle's migrator reads them. @returns the folder. */
async function extractMigrations(embedded: Embedded, dataDir: string): Promise<string> {
  const dir = resolve(dataDir, ".migrations", VERSION);
  for (const [name, file] of embedded.migrations) {
    const target = join(dir, name);
    mkdirSync(join(target, ".."), { recursive: true });
    writeFileSync(target, await Bun.file(file).text());
  }
  return dir;
}

/** Runs a subcommand. @returns the exit code (serve keeps the process running and returns null). */
export async function runBinary(argv: string[], embedded: Embedded): Promise<number | null> {
  const [command = "serve", ...rest] = argv;
  if (command === "version" || command === "--version") {
    console.log(VERSION);
    return 0;
  }
  if (command === "help" || command === "--help") {
    console.log(USAGE);
    return 0;
  }
  const config = await exitOnConfigError(() => loadConfig(process.env));
  useMigrationsFrom(await extractMigrations(embedded, config.DATA_DIR));
  useEmbeddedClient(embedded.client);
  if (command === "serve") {
    await serve();
    return null;
  }
  // The package import's child process (src/packages/input.ts starts it; not for people).
  if (command === "import-worker") {
    (await import("../packages/import-worker.ts")).serveImportJobs();
    return null;
  }
  if (command === "backup" || command === "restore" || command === "verify") return backupCli([command, ...rest]);
  if (command === "admin") return adminCli(rest);
  console.error(USAGE);
  return 1;
}
