/**
 * REST doors for site administration (site admins only), over the admin router:
 * GET /api/admin/status, GET /api/admin/accounts, PATCH /api/admin/accounts/:id {siteRole?, canCreateCourses?}.
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

export const adminRoutes = new Hono<AppEnv>()
  .get("/status", async (c) => c.json(await call(c, (api) => api.admin.status())))
  .get("/accounts", async (c) => c.json(await call(c, (api) => api.admin.accounts())))
  .patch("/accounts/:id", async (c) => c.json(await call(c, async (api) => api.admin.setAccount({ ...(await jsonBody(c)), userId: c.req.param("id") } as never))));
