/**
 * Opens the libSQL database (embedded file or remote server) and applies the
 * generated migrations in `db/migrations/`.
 */
import { mkdirSync } from "node:fs";
import { databaseFiles, privateFiles } from "../src/lib/private-files.ts";
import { dirname, join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { sql } from "drizzle-orm";
import * as schema from "./schema.ts";

export type Database = LibSQLDatabase<typeof schema>;
export { schema };

export const MIGRATIONS_DIR = join(import.meta.dir, "migrations");
let migrationsFolder = MIGRATIONS_DIR;

/** Where migrations are read from: the single binary extracts its embedded ones and points here (src/release/). */
export function useMigrationsFrom(dir: string): void {
  migrationsFolder = dir;
}

/**
 * @param url        `file:./data/app.db`, `:memory:`, `libsql://…` or `http(s)://…`
 * @param authToken  for a remote libSQL server (sqld / Turso)
 * @returns the drizzle database and the raw client (close it on shutdown).
 * Creates the parent directory of a `file:` URL. WAL mode and a busy timeout
 * are set for embedded files so the web process and `bun run worker` can share one file.
 */
export async function openDatabase(url: string, authToken?: string): Promise<{ db: Database; client: Client }> {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    if (path && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  }
  // One connection for a database file: the client's pool opens more when calls overlap, and the PRAGMAs below
  // (busy_timeout, foreign_keys, synchronous) are per connection; with several, rows a call had just written
  // were intermittently missing from the next call's read (a submission 404 right after it was created).
  const client = createClient({ url, authToken, ...(url.startsWith("file:") ? { concurrency: 1 } : {}) });
  if (url.startsWith("file:")) {
    // The busy timeout first: setting the journal mode reads the file, and a reader can meet a lock
    // (another process checkpointing or recovering the WAL index) that, without a timeout, fails at once.
    await client.execute("PRAGMA busy_timeout = 5000");
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA foreign_keys = ON");
    await client.execute("PRAGMA synchronous = NORMAL");
    // Sessions, accounts and the LTI tool's private key are in it: the server's user only.
    const path = url.slice("file:".length);
    if (path && path !== ":memory:") privateFiles(...databaseFiles(path));
  }
  const db = drizzle(client, { schema });
  return { db, client };
}

/** Applies every pending migration; idempotent. @throws on a failed migration. */
export async function migrateDatabase(db: Database): Promise<void> {
  await migrate(db, { migrationsFolder });
}

/**
 * Whether the database answers a trivial query (`GET /api/health`).
 * @returns null when it does, else the error's text.
 */
export async function databaseProblem(db: Database): Promise<string | null> {
  try {
    await db.run(sql`select 1`);
    return null;
  } catch (err) {
    return String(err);
  }
}
