/**
 * REST door for the account's e-mail address (decision 071), under /api/account/email:
 * GET / (status), POST / {newEmail, password?} (ask to change it), POST /confirm {token} (the new address's link),
 * POST /verify {token} (the verification link), POST /verification (send the verification link again).
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.

export const accountEmailRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await call(c, (api) => api.accountEmail.status())))
  .post("/", async (c) => c.json(await call(c, async (api) => api.accountEmail.change((await jsonBody(c)) as never))))
  .post("/confirm", async (c) => c.json(await call(c, async (api) => api.accountEmail.confirm((await jsonBody(c)) as never))))
  .post("/verify", async (c) => c.json(await call(c, async (api) => api.accountEmail.verify((await jsonBody(c)) as never))))
  .post("/verification", async (c) => c.json(await call(c, (api) => api.accountEmail.sendVerification())));
