/** `bun run lti` registers, lists and removes platforms and rotates the tool's key; the JWKS follows the rotation. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase, openDatabase } from "../../db/index.ts";
import { publicJwks, signingKey } from "../../src/lti/keys.ts";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "oj-lti-cli-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? dir, DATABASE_URL: `file:${join(dir, "app.db")}`, DATA_DIR: dir, NODE_ENV: "test" };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lti(...args: string[]) {
  const r = Bun.spawnSync(["bun", "scripts/lti.ts", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("add, list, remove; bad input names the field; rotate-key keeps the old key published", async () => {
  const moodle = ["--name", "Moodle", "--issuer", "https://moodle.example.edu", "--client-id", "abc", "--deployment", "1", "--deployment", "2"];
  const urls = ["--auth-url", "https://moodle.example.edu/mod/lti/auth.php", "--token-url", "https://moodle.example.edu/mod/lti/token.php", "--jwks-url", "https://moodle.example.edu/mod/lti/certs.php"];
  const added = lti("add", ...moodle, ...urls);
  expect(added.code).toBe(0);
  expect(added.out).toContain("deployments 1, 2");
  const id = /\(id (\w+)\)/.exec(added.out)![1]!;
  expect(lti("list").out).toContain(`${id}\tMoodle\thttps://moodle.example.edu\tclient abc\tdeployments 1,2`);
  const bad = lti("add", ...moodle, "--auth-url", "http://moodle.example.edu/auth", "--token-url", "x", "--jwks-url", "https://x.example/k");
  expect(bad.code).toBe(1);
  expect(bad.err).toContain("authUrl: An https:// URL");
  expect(bad.err).toContain("tokenUrl: An https:// URL");
  expect(lti("nonsense").err).toContain("usage: bun run lti");

  const { db, client } = await openDatabase(env.DATABASE_URL);
  await migrateDatabase(db);
  const before = (await signingKey(db)).kid;
  const rotated = lti("rotate-key");
  expect(rotated.code).toBe(0);
  const after = (await signingKey(db)).kid;
  expect(after).not.toBe(before);
  expect(rotated.out).toContain(after);
  expect((await publicJwks(db)).keys.map((k) => k.kid)).toEqual([after, before]);
  client.close();

  expect(lti("remove", id).code).toBe(0);
  expect(lti("list").out).toContain("no platform registered");
  expect(lti("remove", id).code).toBe(1);
});
