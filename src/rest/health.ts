/**
 * GET /api/health: liveness plus the database and sandbox state:
 * `{status, version, db, sandbox: "isolate"|"bwrap"|..., sandboxMode: the backend's description
 * (e.g. "isolate 1.10.1, cgroup mode (cgroup v1: ...)") or null}`.
 */
import { Hono } from "hono";
import { databaseProblem } from "../../db/index.ts";
import { VERSION } from "../version.ts";
import type { AppEnv } from "./call.ts";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { db, sandbox, log } = c.get("services");
  const problem = await databaseProblem(db);
  const dbOk = problem === null;
  if (!dbOk) log.error("health: database check failed", { error: problem });
  const body = { status: dbOk ? "ok" : "error", version: VERSION, db: dbOk ? "ok" : "error", sandbox: sandbox.name, sandboxMode: sandbox.backend?.description ?? null };
  return c.json(body, dbOk ? 200 : 503);
});
