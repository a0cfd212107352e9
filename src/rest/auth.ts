/** REST door for accounts: /api/auth/register, login, me, logout (the documented routes and payloads), providers, identities. */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.

export const authRoutes = new Hono<AppEnv>()
  .post("/register", async (c) => c.json(await call(c, async (api) => api.auth.register((await jsonBody(c)) as never))))
  .post("/login", async (c) => c.json(await call(c, async (api) => api.auth.login((await jsonBody(c)) as never))))
  .get("/me", async (c) => c.json(await call(c, (api) => api.auth.me())))
  .get("/providers", async (c) => c.json(await call(c, (api) => api.auth.providers())))
  .get("/identities", async (c) => c.json(await call(c, (api) => api.auth.identities())))
  .post("/logout", async (c) => c.json(await call(c, (api) => api.auth.logout())));
