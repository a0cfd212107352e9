/**
 * Site administration from the server's command line (the operator needs no
 * account to make the first admin):
 *
 *   bun run admin -- grant EMAIL          make the account a site admin (may do everything)
 *   bun run admin -- allow-courses EMAIL  let the account create courses
 *   bun run admin -- revoke EMAIL         back to a plain user (no admin, no course creation)
 *   bun run admin -- list                 every account with its site role
 *
 * Uses the same configuration (DATABASE_URL, DATA_DIR, ...) as the server;
 * the account must exist (sign up first). Exit code 1 on a bad command or an unknown email.
 */
import { openDatabase, migrateDatabase } from "../db/index.ts";
import { listAccounts, setAccountByEmail } from "../src/accounts/admin.ts";
import { exitOnConfigError, loadConfig } from "../src/config.ts";

const USAGE = "usage: bun run admin -- grant EMAIL | allow-courses EMAIL | revoke EMAIL | list";

async function main(argv: string[]): Promise<number> {
  const [command, email] = argv;
  const config = await exitOnConfigError(() => loadConfig(process.env));
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    if (command === "list") {
      for (const a of await listAccounts(db, { id: "cli", siteRole: "admin" })) {
        console.log(`${a.email}\t${a.siteRole}${a.canCreateCourses ? "\tmay create courses" : ""}`);
      }
      return 0;
    }
    const change =
      command === "grant"
        ? ({ siteRole: "admin" } as const)
        : command === "allow-courses"
          ? ({ canCreateCourses: true } as const)
          : command === "revoke"
            ? ({ siteRole: "user", canCreateCourses: false } as const)
            : null;
    if (!change || !email) {
      console.error(USAGE);
      return 1;
    }
    const account = await setAccountByEmail(db, email, change);
    if (!account) {
      console.error(`admin: no account with the email ${email} (sign up first, then run this again)`);
      return 1;
    }
    console.log(`admin: ${account.email} is now ${account.siteRole === "admin" ? "a site admin" : "a plain user"}${account.canCreateCourses ? " and may create courses" : ""}`);
    return 0;
  } finally {
    client.close();
  }
}

process.exit(await main(process.argv.slice(2)));
