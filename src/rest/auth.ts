/**
 * REST door for accounts: /api/auth/register, login, me, logout (the documented routes and payloads), providers,
 * identities; passwords: POST /api/auth/password {currentPassword, newPassword}, POST /api/auth/password/forgot
 * {email} (202), POST /api/auth/password/reset {token, password}; PUT /api/auth/locale {locale} (the interface language).
 * Two-factor sign-in and sessions: POST /api/auth/login/two-factor {ticket, code}; GET /api/auth/sessions,
 * DELETE /api/auth/sessions/:id, DELETE /api/auth/sessions (every other one); GET /api/auth/two-factor,
 * POST /api/auth/two-factor/setup, POST /api/auth/two-factor/confirm {code}, POST /api/auth/two-factor/disable
 * {password} or {code}, POST /api/auth/two-factor/recovery-codes {code}.
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
  .post("/logout", async (c) => c.json(await call(c, (api) => api.auth.logout())))
  .post("/login/two-factor", async (c) => c.json(await call(c, async (api) => api.auth.loginTwoFactor((await jsonBody(c)) as never))))
  .get("/sessions", async (c) => c.json(await call(c, (api) => api.sessions.list())))
  .delete("/sessions", async (c) => c.json(await call(c, (api) => api.sessions.endOthers())))
  .delete("/sessions/:id", async (c) => c.json(await call(c, (api) => api.sessions.end({ id: c.req.param("id") }))))
  .get("/two-factor", async (c) => c.json(await call(c, (api) => api.twoFactor.status())))
  .post("/two-factor/setup", async (c) => c.json(await call(c, (api) => api.twoFactor.start())))
  .post("/two-factor/confirm", async (c) => c.json(await call(c, async (api) => api.twoFactor.confirm((await jsonBody(c)) as never))))
  .post("/two-factor/disable", async (c) => c.json(await call(c, async (api) => api.twoFactor.disable((await jsonBody(c)) as never))))
  .post("/two-factor/recovery-codes", async (c) => c.json(await call(c, async (api) => api.twoFactor.renewRecoveryCodes((await jsonBody(c)) as never))));
