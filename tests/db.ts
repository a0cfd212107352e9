/** Test helper: a fresh, migrated libSQL file per call (a real database, never shared). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase, openDatabase, type Database } from "../db/index.ts";

/**
 * @returns the database, its `file:` URL, its directory, and `cleanup()` that closes and deletes it.
 */
export async function createTestDb(): Promise<{ db: Database; url: string; dir: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "oj-test-"));
  const url = `file:${join(dir, "test.db")}`;
  const { db, client } = await openDatabase(url);
  await migrateDatabase(db);
  return {
    db,
    url,
    dir,
    cleanup() {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
