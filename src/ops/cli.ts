/**
 * The operator's commands, shared by the scripts (`bun run admin`, `bun run
 * backup`, `bun run restore`) and the single binary's subcommands. They use
 * the server's configuration (DATABASE_URL, DATA_DIR, ...).
 */
import { openDatabase, migrateDatabase } from "../../db/index.ts";
import { listAccounts, setAccountByEmail } from "../accounts/admin.ts";
import { resetLinkByEmail } from "../accounts/passwords.ts";
import { exitOnConfigError, loadConfig } from "../config.ts";
import { VERSION } from "../version.ts";
import { createBackup, restoreBackup, verifyBackup } from "./backup.ts";

const ADMIN_USAGE = "usage: bun run admin -- grant EMAIL | allow-courses EMAIL | revoke EMAIL | reset-link EMAIL | list";

/**
 * `admin grant|allow-courses|revoke|reset-link EMAIL | list` (see scripts/admin.ts). `reset-link` prints a one-time
 * password reset link (an hour; PUBLIC_URL's address, else http://localhost:PORT) for a site without mail.
 * @returns the exit code.
 */
export async function adminCli(argv: string[]): Promise<number> {
  const [command, email] = argv;
  const config = await exitOnConfigError(() => loadConfig(process.env));
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    if (command === "list") {
      let cursor: string | undefined;
      do {
        const page = await listAccounts(db, { id: "cli", siteRole: "admin" }, { limit: 200, ...(cursor ? { cursor } : {}) });
        for (const a of page.accounts) console.log(`${a.email}\t${a.siteRole}${a.canCreateCourses ? "\tmay create courses" : ""}`);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return 0;
    }
    if (command === "reset-link" && email) {
      const origin = config.sso.publicUrl?.origin ?? `http://localhost:${config.PORT}`;
      const link = await resetLinkByEmail(db, email, origin);
      if (!link) {
        console.error(`admin: no account with the email ${email}`);
        return 1;
      }
      console.log(`admin: a one-time password reset link for ${link.email}, valid until ${link.expiresAt}:\n${link.url}`);
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
      console.error(ADMIN_USAGE);
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


const BACKUP_USAGE = "usage: bun run backup -- PATH | bun run restore -- PATH | bun scripts/backup.ts verify PATH";

/**
 * `backup PATH | restore PATH | verify PATH` (see scripts/backup.ts).
 * @returns the exit code.
 */
export async function backupCli(argv: string[]): Promise<number> {
  const [command, path] = argv;
  if (!command || !path || !["backup", "restore", "verify"].includes(command)) {
    console.error(BACKUP_USAGE);
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
