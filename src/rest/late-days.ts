/**
 * REST doors for pools and late days (issue 37 §3, §6), over the pools router:
 * - GET /api/assignments/:id/pool-draws: each pool and which problem each student was given (staff)
 * - POST /api/assignments/:id/late-days {days}: a student spends late days (201, their balance)
 * - DELETE /api/assignments/:id/late-days/:userId?days=N: staff refund N (default all) days
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

export const lateDaysRoutes = new Hono<AppEnv>()
  .get("/:id/pool-draws", async (c) => c.json(await call(c, (api) => api.pools.draws({ assignmentId: c.req.param("id") }))))
  .post("/:id/late-days", async (c) =>
    c.json(await call(c, async (api) => api.pools.spendLateDays({ ...(await jsonBody(c)), assignmentId: c.req.param("id") } as never)), 201),
  )
  .delete("/:id/late-days/:userId", async (c) => {
    const days = c.req.query("days");
    return c.json(
      await call(c, (api) =>
        api.pools.refundLateDays({ assignmentId: c.req.param("id"), userId: c.req.param("userId"), ...(days !== undefined ? { days: /^\d+$/.test(days) ? Number(days) : (days as never) } : {}) }),
      ),
    );
  });
