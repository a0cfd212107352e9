/**
 * Site administration from the server's command line (the operator needs no
 * account to make the first admin):
 *
 *   bun run admin -- grant EMAIL          make the account a site admin (may do everything)
 *   bun run admin -- allow-courses EMAIL  let the account create courses
 *   bun run admin -- revoke EMAIL         back to a plain user (no admin, no course creation)
 *   bun run admin -- reset-link EMAIL     print a one-time password reset link (an hour) to hand over
 *   bun run admin -- list                 every account with its site role
 *
 * Uses the same configuration (DATABASE_URL, DATA_DIR, ...) as the server;
 * the account must exist (sign up first). Exit code 1 on a bad command or an unknown email.
 */
import { adminCli } from "../src/ops/cli.ts";

process.exit(await adminCli(process.argv.slice(2)));
