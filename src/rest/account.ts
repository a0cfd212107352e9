/**
 * REST door for one's own data: GET /api/account/export, a zip of everything of the signed-in
 * user's (src/account-data/export.ts), streamed as it is read; 401 signed out, 429 past five an hour.
 */
import { Hono } from "hono";
import { call, type AppEnv } from "./call.ts";
import { AppError } from "../errors.ts";
import { exportAccountDataLimited } from "../account-data/export.ts";

export const accountRoutes = new Hono<AppEnv>().get("/export", async (c) => {
  // A binary answer: the door calls the domain itself (tRPC answers JSON), with the same session check.
  const stream = await call(c, (_api, ctx) => {
    if (!ctx.user) throw new AppError("UNAUTHENTICATED");
    return exportAccountDataLimited(ctx.db, ctx.limiters.exportsByUser, ctx.user.id, ctx.now());
  });
  const day = new Date().toISOString().slice(0, 10);
  return c.body(stream, 200, {
    "content-type": "application/zip",
    "content-disposition": `attachment; filename="codearena-data-${day}.zip"`,
    "cache-control": "no-store",
  });
});
