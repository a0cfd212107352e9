/**
 * Statements prepared once per database handle: drizzle then builds the SQL
 * text once instead of on every call (measured in scripts/bench-judge-hosts.ts,
 * where building queries was a tenth of the server's time per job).
 * @example const byHash = preparedPer((db) => db.select().from(t).where(eq(t.h, sql.placeholder("h"))).prepare());
 *          await byHash(db).execute({ h });
 */
import type { Database } from "./index.ts";

export function preparedPer<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let statement = cache.get(db);
    if (!statement) {
      statement = build(db);
      cache.set(db, statement);
    }
    return statement;
  };
}
