/**
 * Judge hosts from the command line (src/judge-hosts/cli.ts):
 *
 *   bun run judge-hosts -- add NAME      make a host and print its token once
 *   bun run judge-hosts -- list          hosts, last seen, version
 *   bun run judge-hosts -- revoke NAME   refuse the host's next call
 */
import { judgeHostsCli } from "../src/judge-hosts/cli.ts";

process.exit(await judgeHostsCli(process.argv.slice(2)));
