/** GET /api/health: liveness plus the database and sandbox state. */
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import pkg from "../../package.json" with { type: "json" };
import type { AppEnv } from "./call.ts";

/** The server's version, from package.json. */
export const VERSION: string = pkg.version;

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { db, sandbox, log } = c.get("services");
  let dbOk = true;
  try {
    await db.run(sql`select 1`);
  } catch (err) {
    dbOk = false;
    log.error("health: database check failed", { error: String(err) });
  }
  const body = { status: dbOk ? "ok" : "error", version: VERSION, db: dbOk ? "ok" : "error", sandbox: sandbox.name };
  return c.json(body, dbOk ? 200 : 503);
});
