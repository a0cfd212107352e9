/**
 * Online backup and restore from the command line (src/ops/backup.ts):
 *
 *   bun run backup -- PATH    a consistent copy of the database (VACUUM INTO) and DATA_DIR's secrets into PATH,
 *                             while the server keeps serving and judging
 *   bun run restore -- PATH   checks the backup, then puts it back (the server must be stopped)
 *   bun scripts/backup.ts verify PATH
 *
 * Uses the server's configuration (DATABASE_URL, DATA_DIR). Exit code 1 with one line saying why on failure.
 */
import { createBackup, restoreBackup, verifyBackup } from "../src/ops/backup.ts";
import { exitOnConfigError, loadConfig } from "../src/config.ts";
import { VERSION } from "../src/rest/health.ts";

const USAGE = "usage: bun run backup -- PATH | bun run restore -- PATH | bun scripts/backup.ts verify PATH";

async function main(argv: string[]): Promise<number> {
  const [command, path] = argv;
  if (!command || !path || !["backup", "restore", "verify"].includes(command)) {
    console.error(USAGE);
    return 1;
  }
  const config = await exitOnConfigError(() => loadConfig(process.env));
  try {
    const started = performance.now();
    const m =
      command === "backup" ? await createBackup(config, path, VERSION) : command === "restore" ? await restoreBackup(config, path) : await verifyBackup(path);
    const what = command === "backup" ? "backed up into" : command === "restore" ? "restored from" : "verified";
    console.log(
      `${command}: ${what} ${path} in ${Math.round(performance.now() - started)} ms (${m.counts.users} users, ${m.counts.problems} problems, ${m.counts.submissions} submissions; taken ${m.createdAt})`,
    );
    return 0;
  } catch (err) {
    console.error(`${command}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

process.exit(await main(process.argv.slice(2)));
