/**
 * The server's own data is for its own user only: DATA_DIR (the generated
 * secrets, the compile cache, backups' work folders) 0700, the database file
 * and its WAL/SHM 0600, whatever the umask (Debian's is 022: world-readable).
 * The LTI tool's private key and every session live in the database, so
 * another local user on the server reads neither.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";

/** Creates `dir` (and parents) if missing, and makes `dir` itself owner-only (0700). */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Makes each existing file owner-only (0600); missing ones are skipped. */
export function privateFiles(...paths: string[]): void {
  for (const p of paths) if (existsSync(p)) chmodSync(p, 0o600);
}

/** The files of an embedded libSQL database at `path`: the database, its WAL and shared-memory index. */
export function databaseFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`];
}
