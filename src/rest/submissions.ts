/**
 * REST door for the submission history: GET /api/submissions/:problemId (the route the product documents),
 * and POST /api/submissions/:id/rejudge.
 * POST /api/submissions (create and judge) lives in src/rest/judge.ts.
 */
import { Hono } from "hono";
import { call, type AppEnv } from "./call.ts";

export const submissionsRoutes = new Hono<AppEnv>()
  .get("/:problemId", async (c) => c.json(await call(c, (api) => api.submissions.list({ problemId: c.req.param("problemId") }))))
  .post("/:id/rejudge", async (c) => c.json(await call(c, (api) => api.submissions.rejudge({ id: c.req.param("id") }))));
