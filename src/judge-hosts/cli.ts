/**
 * `bun run judge-hosts -- add NAME | list | revoke NAME` with the server's
 * configuration (DATABASE_URL, ...). `add` prints the host's token once.
 */
import { migrateDatabase, openDatabase } from "../../db/index.ts";
import { exitOnConfigError, loadConfig } from "../config.ts";
import { addHost, listHosts, revokeHost } from "./hosts.ts";

export const JUDGE_HOSTS_USAGE = "usage: bun run judge-hosts -- add NAME [--capacity N] | list | revoke NAME";

/** @returns the exit code. */
export async function judgeHostsCli(argv: string[]): Promise<number> {
  const [command, name, ...rest] = argv;
  const capacityAt = rest.indexOf("--capacity");
  const capacity = capacityAt >= 0 ? Number(rest[capacityAt + 1]) : 4;
  if (!(command === "list" || ((command === "add" || command === "revoke") && name))) {
    console.error(JUDGE_HOSTS_USAGE);
    return 1;
  }
  const config = await exitOnConfigError(() => loadConfig(process.env));
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    if (command === "add") {
      const { token } = await addHost(db, name!, capacity);
      console.log(`judge-hosts: added ${name} (holds at most ${capacity} jobs at once; start its worker with SANDBOX_POOL_SIZE=${capacity}). Its token (shown only now; keep it in a file readable by the judge host's service only):`);
      console.log(token);
      return 0;
    }
    if (command === "revoke") {
      if (!(await revokeHost(db, name!))) {
        console.error(`judge-hosts: no host named ${name} (or it is revoked already)`);
        return 1;
      }
      console.log(`judge-hosts: revoked ${name}: its next call is refused`);
      return 0;
    }
    const hosts = await listHosts(db);
    if (!hosts.length) console.log("judge-hosts: none (add one with: bun run judge-hosts -- add NAME)");
    for (const h of hosts) console.log(`${h.name}\t${h.revoked ? "revoked" : "active"}\tlast seen ${h.lastSeenAt ?? "never"}\t${h.jobsInHand} jobs in hand\t${h.version ?? ""}`);
    return 0;
  } catch (err) {
    console.error(`judge-hosts: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    client.close();
  }
}
