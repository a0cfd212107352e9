/**
 * REST doors for site administration (site admins only), over the admin router:
 * GET /api/admin/status, GET /api/admin/accounts?q=&cursor=&limit= (one page: {accounts, nextCursor, total}), PATCH /api/admin/accounts/:id {siteRole?, canCreateCourses?},
 * POST /api/admin/accounts/:id/reset-link (a one-time password reset link), GET /api/admin/mail (the outbox).
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

export const adminRoutes = new Hono<AppEnv>()
  .get("/status", async (c) => c.json(await call(c, (api) => api.admin.status())))
  .get("/accounts", async (c) => {
    const { q, cursor, limit } = c.req.query();
    return c.json(await call(c, (api) => api.admin.accounts({ ...(q !== undefined ? { q } : {}), ...(cursor !== undefined ? { cursor } : {}), ...(limit !== undefined ? { limit } : {}) } as never)));
  })
  .post("/accounts/:id/reset-link", async (c) => c.json(await call(c, (api) => api.admin.resetLink({ userId: c.req.param("id") }))))
  .get("/mail", async (c) => c.json(await call(c, (api) => api.admin.mail())))
  .patch("/accounts/:id", async (c) => c.json(await call(c, async (api) => api.admin.setAccount({ ...(await jsonBody(c)), userId: c.req.param("id") } as never))));
