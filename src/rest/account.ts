/**
 * REST door for one's own data: GET /api/account/export, a zip of everything of the signed-in
 * user's (src/account-data/export.ts), streamed as it is read; 401 signed out, 429 past five an hour.
 * DELETE /api/account {password} | {confirm} (+ {code}): erases the account (src/account-data/erase.ts,
 * tRPC `account.erase`); GET /api/account/erasure: what erasing asks of this account.
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";
import { AppError } from "../errors.ts";
import { exportAccountDataLimited } from "../account-data/export.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.
export const accountRoutes = new Hono<AppEnv>()
  .delete("/", async (c) => c.json(await call(c, async (api) => api.account.erase((await jsonBody(c)) as never))))
  .get("/erasure", async (c) => c.json(await call(c, (api) => api.account.erasure())))
  .get("/export", async (c) => {
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
