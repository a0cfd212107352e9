/**
 * Judge hosts and their tokens (src/judge-hosts): the CLI an operator uses
 * (token printed once, stored hashed), authentication of a token, revocation,
 * and the admin status report listing hosts without their tokens.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { migrateDatabase, openDatabase } from "../../db/index.ts";
import { authenticateHost, HOST_TOKEN_PREFIX, listHosts } from "../../src/judge-hosts/hosts.ts";

const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-hosts-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const url = `file:${join(work, "hosts.db")}`;
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", NODE_ENV: "test", DATABASE_URL: url, DATA_DIR: join(work, "data") };

async function cli(...args: string[]) {
  const p = Bun.spawn(["bun", "scripts/judge-hosts.ts", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, out, err };
}

describe("bun run judge-hosts", () => {
  test("add prints the token once and stores only its hash; list shows hosts; revoke refuses the token from then on", async () => {
    const added = await cli("add", "judge-1");
    expect(added.code).toBe(0);
    const token = added.out.trim().split("\n").pop()!;
    expect(token.startsWith(HOST_TOKEN_PREFIX)).toBe(true);
    expect(token.length).toBeGreaterThan(40);
    expect((await cli("add", "judge-1")).err).toContain("a host named judge-1 exists already");
    expect((await cli("add", "Bad Name")).code).toBe(1);

    const raw = createClient({ url });
    try {
      const rows = await raw.execute("select name, token_hash from judge_hosts");
      expect(rows.rows).toHaveLength(1);
      expect(JSON.stringify(rows.rows)).not.toContain(token);
      expect(String(rows.rows[0]!.token_hash)).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      raw.close();
    }

    const { db, client } = await openDatabase(url);
    try {
      await migrateDatabase(db);
      expect(await authenticateHost(db, token, "1.2.3")).toMatchObject({ name: "judge-1" });
      expect(await authenticateHost(db, `${token}x`)).toBeNull();
      expect(await authenticateHost(db, "eyJhbGciOiJIUzI1NiJ9.not.a.host")).toBeNull();
      const [h] = await listHosts(db);
      expect(h).toMatchObject({ name: "judge-1", revoked: false, version: "1.2.3", jobsInHand: 0 });
      expect(h!.lastSeenAt).not.toBeNull();

      const list = await cli("list");
      expect(list.out).toContain("judge-1\tactive\tlast seen ");
      expect(list.out).toContain("\t0 jobs in hand\t");
      expect(list.out).not.toContain(token);
      expect((await cli("revoke", "judge-1")).code).toBe(0);
      expect(await authenticateHost(db, token)).toBeNull();
      expect((await cli("revoke", "judge-1")).err).toContain("no host named judge-1 (or it is revoked already)");
      expect((await cli("list")).out).toContain("judge-1\trevoked");
    } finally {
      client.close();
    }
    expect((await cli("frobnicate")).err).toContain("usage: bun run judge-hosts");
  });
});
