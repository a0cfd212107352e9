/**
 * REST door for problems: list, create (201), byId, update, delete (the documented /api/problems routes).
 * Body fields `_id`, `user`, `__v` and unknown keys are stripped by the
 * procedures' zod inputs; the path's id always wins over a body `id`.
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";
import { sendJson } from "../lib/json.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.

export const problemsRoutes = new Hono<AppEnv>()
  // sendJson: the shared public list is serialised once per change, not per request (src/lib/json.ts).
  .get("/", async (c) => sendJson(c, await call(c, (api) => api.problems.list())))
  .post("/", async (c) => c.json(await call(c, async (api) => api.problems.create((await jsonBody(c)) as never)), 201))
  .get("/:id", async (c) => c.json(await call(c, (api) => api.problems.byId({ id: c.req.param("id") }))))
  .put("/:id", async (c) =>
    c.json(await call(c, async (api) => api.problems.update({ ...(await jsonBody(c)), id: c.req.param("id") } as never))),
  )
  .delete("/:id", async (c) => c.json(await call(c, (api) => api.problems.delete({ id: c.req.param("id") }))));
