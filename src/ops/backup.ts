/**
 * Online backup and restore of an embedded database and DATA_DIR.
 *
 * A backup is a folder: `app.db` written by SQLite's `VACUUM INTO` (a
 * consistent snapshot taken inside one read transaction, while the server
 * keeps writing: WAL mode), the top-level files of DATA_DIR that cannot be
 * rebuilt (the generated session secret, and any key a later feature keeps
 * there), and `manifest.json` (when, the app version, the files with their
 * SHA-256, and a few row counts). Left out on purpose: the precompiled header
 * and the compile cache (rebuilt on demand), the sandbox's boxes, and the
 * database's own -wal/-shm files (the snapshot already holds their content).
 *
 * Restore puts a backup back on a stopped server: it checks every file's hash
 * and the database's `PRAGMA integrity_check` first, then replaces the
 * database and the secrets. A running server (its lock in DATA_DIR, ./lock.ts)
 * makes it refuse.
 */
import { createHash } from "node:crypto";
import { privateDir, privateFiles } from "../lib/private-files.ts";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createClient } from "@libsql/client";
import type { Config } from "../config.ts";
import { lockHolder, SERVER_LOCK } from "./lock.ts";

export const MANIFEST = "manifest.json";
export const DB_FILE = "app.db";

export interface Manifest {
  format: 1;
  /** ISO 8601. */
  createdAt: string;
  appVersion: string;
  /** File name → SHA-256 hex, every file of the backup but the manifest. */
  files: Record<string, string>;
  /** Row counts at the snapshot, for a person's sanity check. */
  counts: { users: number; problems: number; submissions: number };
}

/** The database file of a `file:` DATABASE_URL, absolute. @throws Error for a remote database (back it up with its server's tools). */
export function databasePath(config: Pick<Config, "DATABASE_URL">): string {
  const url = config.DATABASE_URL;
  if (!url.startsWith("file:") || url === "file::memory:") {
    throw new Error(`backup works on an embedded database (DATABASE_URL=file:...); ${url.split(":")[0]}: databases are backed up by their own server`);
  }
  return resolve(url.slice("file:".length));
}

function sha256File(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Top-level files of DATA_DIR worth keeping: not the database, its journals, locks or anything rebuilt. */
function keptDataFiles(dataDir: string, dbPath: string): string[] {
  if (!existsSync(dataDir)) return [];
  const dbName = basename(dbPath);
  const skip = new Set([dbName, `${dbName}-wal`, `${dbName}-shm`, `${dbName}-journal`, SERVER_LOCK]);
  return readdirSync(dataDir).filter((name) => !skip.has(name) && !name.endsWith(".lock") && statSync(join(dataDir, name)).isFile());
}

/**
 * Writes a backup of the running (or stopped) product into `target` (created; must not exist or be empty).
 * @returns the manifest written.
 * @throws Error for a remote database, a non-empty target, or a failed VACUUM INTO.
 */
export async function createBackup(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">, target: string, appVersion: string): Promise<Manifest> {
  const dbPath = databasePath(config);
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty; back up into a new folder`);
  // Written into a temporary sibling first: a backup folder either is whole or does not exist.
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true, mode: 0o700 });
  try {
    const client = createClient({ url: `file:${dbPath}` });
    try {
      await client.execute("PRAGMA busy_timeout = 10000");
      await client.execute({ sql: "VACUUM INTO ?", args: [join(work, DB_FILE)] });
    } finally {
      client.close();
    }
    const counts = await countRows(join(work, DB_FILE));
    for (const name of keptDataFiles(resolve(config.DATA_DIR), dbPath)) copyFileSync(join(config.DATA_DIR, name), join(work, name));
    const files = Object.fromEntries(readdirSync(work).map((name) => [name, sha256File(join(work, name))]));
    const manifest: Manifest = { format: 1, createdAt: new Date().toISOString(), appVersion, files, counts };
    writeFileSync(join(work, MANIFEST), JSON.stringify(manifest, null, 2) + "\n", { mode: 0o600 });
    mkdirSync(dirname(dir), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return manifest;
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

async function countRows(dbFile: string): Promise<Manifest["counts"]> {
  const client = createClient({ url: `file:${dbFile}` });
  try {
    const one = async (table: string) => Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    return { users: await one("users"), problems: await one("problems"), submissions: await one("submissions") };
  } finally {
    client.close();
  }
}

/**
 * Checks a backup folder: the manifest, every file's hash, and the database's integrity.
 * @returns the manifest.
 * @throws Error saying what is wrong.
 */
export async function verifyBackup(source: string): Promise<Manifest> {
  const dir = resolve(source);
  const manifestPath = join(dir, MANIFEST);
  if (!existsSync(manifestPath)) throw new Error(`${dir} holds no ${MANIFEST}: not a backup`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  if (manifest.format !== 1 || !manifest.files?.[DB_FILE]) throw new Error(`${manifestPath}: unknown backup format`);
  for (const [name, hash] of Object.entries(manifest.files)) {
    const path = join(dir, name);
    if (!existsSync(path)) throw new Error(`${name} is missing from the backup`);
    if (sha256File(path) !== hash) throw new Error(`${name} does not match its hash in ${MANIFEST} (damaged backup)`);
  }
  const client = createClient({ url: `file:${join(dir, DB_FILE)}` });
  try {
    const result = (await client.execute("PRAGMA integrity_check")).rows[0]?.[0];
    if (result !== "ok") throw new Error(`the backup's database fails its integrity check: ${String(result)}`);
  } finally {
    client.close();
  }
  return manifest;
}

/**
 * Restores a backup onto a stopped server's DATABASE_URL and DATA_DIR. The
 * database and the kept files are replaced; everything else in DATA_DIR stays.
 * @throws Error when the server is running (its lock is held), or the backup fails verification.
 */
export async function restoreBackup(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">, source: string): Promise<Manifest> {
  const dataDir = resolve(config.DATA_DIR);
  const holder = lockHolder(join(dataDir, SERVER_LOCK));
  if (holder !== null) throw new Error(`a server (pid ${holder}) is running on ${dataDir}: stop it first, then restore`);
  const manifest = await verifyBackup(source);
  const dbPath = databasePath(config);
  mkdirSync(dirname(dbPath), { recursive: true });
  privateDir(dataDir);
  for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${dbPath}${suffix}`, { force: true });
  copyFileSync(join(source, DB_FILE), `${dbPath}.restoring`);
  privateFiles(`${dbPath}.restoring`);
  renameSync(`${dbPath}.restoring`, dbPath);
  for (const name of Object.keys(manifest.files)) {
    if (name === DB_FILE) continue;
    copyFileSync(join(source, name), join(dataDir, name));
    // The kept files are secrets (the session key): owner-only, as they were made.
    privateFiles(join(dataDir, name));
  }
  return manifest;
}

/** Backups of a BACKUP_DIR, newest first: folders named backup-YYYYMMDDTHHMMSSZ with a manifest. */
export function listBackups(backupDir: string): { name: string; path: string; createdAt: string }[] {
  if (!existsSync(backupDir)) return [];
  return readdirSync(backupDir)
    .filter((n) => /^backup-\d{8}T\d{6}Z$/.test(n) && existsSync(join(backupDir, n, MANIFEST)))
    .sort()
    .reverse()
    .map((name) => ({ name, path: join(backupDir, name), createdAt: (JSON.parse(readFileSync(join(backupDir, name, MANIFEST), "utf8")) as Manifest).createdAt }));
}

/** The folder name of a scheduled backup taken at `at`. */
export function scheduledName(at: Date): string {
  return `backup-${at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`;
}

/**
 * The command that takes a backup in a child process: the single binary's
 * `backup` subcommand, or `bun scripts/backup.ts backup` from a checkout.
 * A child, because libSQL's local calls are synchronous: a VACUUM INTO in the
 * server's own process would hold its event loop (no request answered, no
 * judging) for as long as the snapshot takes.
 */
export function backupCommand(target: string): string[] {
  const binary = import.meta.path.includes("$bunfs");
  return binary ? [process.execPath, "backup", target] : [process.execPath, join(import.meta.dir, "..", "..", "scripts", "backup.ts"), "backup", target];
}

/**
 * Takes one backup of a running server in a child process (backupCommand),
 * with the server's environment plus `env` (its DATABASE_URL and DATA_DIR).
 * @throws Error with the child's message when it fails.
 */
export async function backupInChild(target: string, env: Record<string, string>): Promise<void> {
  const child = Bun.spawn(backupCommand(target), { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(stderr.trim() || `backup exited with ${code}`);
}

/**
 * Takes one scheduled backup into `backupDir` (in a child process when
 * `inChild`, as the server does) and keeps the newest `keep`.
 * @returns the new backup's path.
 */
export async function scheduledBackup(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
  backupDir: string,
  keep: number,
  appVersion: string,
  now = new Date(),
  opts: { inChild?: boolean } = {},
): Promise<string> {
  const path = join(backupDir, scheduledName(now));
  if (opts.inChild) await backupInChild(path, { DATABASE_URL: config.DATABASE_URL, DATA_DIR: config.DATA_DIR });
  else await createBackup(config, path, appVersion);
  for (const old of listBackups(backupDir).slice(keep)) rmSync(old.path, { recursive: true, force: true });
  return path;
}
