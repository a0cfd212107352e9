/**
 * Online backup and restore with the real processes: a server judges a
 * stream of submissions while `bun run backup` copies it; the backup is
 * restored into a new data folder, a new server starts on it, and every
 * submission acknowledged (judged) before the backup began is there with its
 * verdict, and sign-in still works (the session secret came along). Restore
 * refuses while a server holds the data, and refuses a damaged backup.
 * Ports 3160-3169 are this suite's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { listBackups, scheduledBackup, scheduledName } from "../../src/ops/backup.ts";

const root = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-backup-"));
chmodSync(work, 0o755);
const procs: Subprocess[] = [];
afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

function envFor(dir: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/root",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "app.db")}`,
    CLIENT_DIST: join(dir, "no-client"),
    SANDBOX: "bwrap",
    // Beside the data folder, not inside it (DATA_DIR is owner-only; box users must reach their boxes).
    SANDBOX_ROOT: `${dir}-boxes`,
    ISOLATE_BOX_ID_START: String(3960 + (port % 10) * 4),
    ISOLATE_BOX_ID_COUNT: "4",
    SUBMIT_RATE_PER_MINUTE: "600",
    LOG_LEVEL: "warn",
  };
}

async function startServer(dir: string, port: number): Promise<Subprocess> {
  const proc = Bun.spawn(["bun", "src/server.ts"], { cwd: root, env: envFor(dir, port), stdout: "pipe", stderr: "pipe" });
  procs.push(proc);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return proc;
    } catch {
      await Bun.sleep(200);
    }
  }
  throw new Error("server not healthy");
}

async function stop(proc: Subprocess) {
  proc.kill("SIGTERM");
  await proc.exited;
}

function cli(args: string[], dir: string) {
  const r = Bun.spawnSync(["bun", "scripts/backup.ts", ...args], { cwd: root, env: envFor(dir, 0) });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

const json = (body: unknown, token?: string) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

const dataA = join(work, "a");
const dataB = join(work, "b");
const backupPath = join(work, "backup-1");
const USER = { firstName: "Bea", lastName: "Backup", email: "bea@example.com", password: "restore-me-please" };
let judgedBefore: { id: string; verdict: string }[] = [];

describe("online backup while judging, restore, and a server on the copy", () => {
  beforeAll(async () => {
    const server = await startServer(dataA, 3160);
    const base = "http://127.0.0.1:3160";
    await fetch(`${base}/api/auth/register`, json(USER));
    const { token } = (await (await fetch(`${base}/api/auth/login`, json({ email: USER.email, password: USER.password }))).json()) as { token: string };
    const problems = (await (await fetch(`${base}/api/problems`, { headers: { authorization: `Bearer ${token}` } })).json()) as { _id: string; title: string }[];
    const sum = problems.find((p) => p.title === "Sum of Two Numbers")!;
    // A stream of submissions, some judged before the backup and some still coming in during it.
    const codes = ["a,b=map(int,input().split())\nprint(a+b)\n", "a,b=map(int,input().split())\nprint(a-b)\n"];
    for (let i = 0; i < 6; i++) {
      const r = (await (await fetch(`${base}/api/submissions`, json({ problemId: sum._id, language: "py", code: codes[i % 2] + `# ${i}\n` }, token))).json()) as { _id: string; verdict: string };
      judgedBefore.push({ id: r._id, verdict: r.verdict });
    }
    let streaming = true;
    const stream = (async () => {
      let i = 0;
      while (streaming) await fetch(`${base}/api/submissions?wait=false`, json({ problemId: sum._id, language: "py", code: codes[i % 2] + `# during ${i++}\n` }, token));
    })();
    await Bun.sleep(300);
    const backup = cli(["backup", backupPath], dataA);
    streaming = false;
    await stream;
    expect(backup.err).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.out).toContain(`backup: backed up into ${backupPath}`);
    // Restoring over a running server is refused.
    const refused = cli(["restore", backupPath], dataA);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("is running on");
    await stop(server);
  }, 120_000);

  test("the backup holds the database snapshot, the session secret and a manifest; no rebuildable files", () => {
    const manifest = JSON.parse(readFileSync(join(backupPath, "manifest.json"), "utf8"));
    expect(Object.keys(manifest.files).sort()).toEqual(["app.db", "session-secret"]);
    expect(manifest.counts.submissions).toBeGreaterThanOrEqual(6);
    expect(existsSync(join(backupPath, "pch"))).toBe(false);
  });

  test("restored into a new data folder, a new server has every submission judged before the backup, with its verdict, and sign-in works", async () => {
    const restored = cli(["restore", backupPath], dataB);
    expect(restored.err).toBe("");
    expect(restored.code).toBe(0);
    // Restored owner-only: the data folder, the database and the session secret (another local user reads none).
    const { readdirSync, statSync } = await import("node:fs");
    expect((statSync(dataB).mode & 0o777).toString(8)).toBe("700");
    for (const name of readdirSync(dataB).filter((n) => statSync(join(dataB, n)).isFile())) {
      expect([name, (statSync(join(dataB, name)).mode & 0o777).toString(8)]).toEqual([name, "600"]);
    }
    const server = await startServer(dataB, 3161);
    try {
      const base = "http://127.0.0.1:3161";
      const login = await fetch(`${base}/api/auth/login`, json({ email: USER.email, password: USER.password }));
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      for (const s of judgedBefore) {
        const r = await fetch(`${base}/trpc/submissions.byId?input=${encodeURIComponent(JSON.stringify({ id: s.id }))}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await r.json()) as { result: { data: { verdict: string; status: string } } };
        expect([s.id, body.result.data.status, body.result.data.verdict]).toEqual([s.id, "done", s.verdict]);
      }
      expect(judgedBefore.map((s) => s.verdict).sort()).toEqual(["AC", "AC", "AC", "WA", "WA", "WA"]);
    } finally {
      await stop(server);
    }
  }, 60_000);

  test("a damaged backup is refused before anything is replaced", () => {
    appendFileSync(join(backupPath, "session-secret"), "x");
    const r = cli(["restore", backupPath], join(work, "c"));
    expect(r.code).toBe(1);
    expect(r.err).toContain("session-secret does not match its hash");
    expect(existsSync(join(work, "c", "app.db"))).toBe(false);
  });

  test("scheduled backups are named by time and only the newest BACKUP_KEEP stay", async () => {
    const dir = join(work, "scheduled");
    const config = { DATABASE_URL: `file:${join(dataB, "app.db")}`, DATA_DIR: dataB };
    for (let i = 0; i < 4; i++) await scheduledBackup(config, dir, 2, "test", new Date(Date.UTC(2026, 0, 1, i)));
    expect(listBackups(dir).map((b) => b.name)).toEqual([scheduledName(new Date(Date.UTC(2026, 0, 1, 3))), scheduledName(new Date(Date.UTC(2026, 0, 1, 2)))]);
    expect(scheduledName(new Date(Date.UTC(2026, 0, 1, 3)))).toBe("backup-20260101T030000Z");
  });

  test("the server's scheduled backups run in a child process (its event loop stays free) and land whole", async () => {
    const dir = join(work, "scheduled-child");
    const config = { DATABASE_URL: `file:${join(dataB, "app.db")}`, DATA_DIR: dataB };
    const path = await scheduledBackup(config, dir, 3, "test", new Date(Date.UTC(2026, 0, 2)), { inChild: true });
    expect(JSON.parse(readFileSync(join(path, "manifest.json"), "utf8")).counts.submissions).toBeGreaterThanOrEqual(6);
    await expect(scheduledBackup({ DATABASE_URL: "file::memory:", DATA_DIR: dataB }, dir, 3, "test", new Date(), { inChild: true })).rejects.toThrow("embedded database");
  }, 30_000);
});
