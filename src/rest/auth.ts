/**
 * REST door for accounts: /api/auth/register, login, me, logout (the documented routes and payloads), providers,
 * identities; passwords: POST /api/auth/password {currentPassword, newPassword}, POST /api/auth/password/forgot
 * {email} (202), POST /api/auth/password/reset {token, password}; PUT /api/auth/locale {locale} (the interface language).
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.

export const authRoutes = new Hono<AppEnv>()
  .post("/register", async (c) => c.json(await call(c, async (api) => api.auth.register((await jsonBody(c)) as never))))
  .post("/login", async (c) => c.json(await call(c, async (api) => api.auth.login((await jsonBody(c)) as never))))
  .get("/me", async (c) => c.json(await call(c, (api) => api.auth.me())))
  .get("/providers", async (c) => c.json(await call(c, (api) => api.auth.providers())))
  .get("/identities", async (c) => c.json(await call(c, (api) => api.auth.identities())))
  .put("/locale", async (c) => c.json(await call(c, async (api) => api.auth.setLocale((await jsonBody(c)) as never))))
  .post("/password", async (c) => c.json(await call(c, async (api) => api.auth.changePassword((await jsonBody(c)) as never))))
  .post("/password/forgot", async (c) => c.json(await call(c, async (api) => api.auth.forgotPassword((await jsonBody(c)) as never)), 202))
  .post("/password/reset", async (c) => c.json(await call(c, async (api) => api.auth.resetPassword((await jsonBody(c)) as never))))
  .post("/logout", async (c) => c.json(await call(c, (api) => api.auth.logout())));
