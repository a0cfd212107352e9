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
import { backupCli } from "../src/ops/cli.ts";

process.exit(await backupCli(process.argv.slice(2)));
