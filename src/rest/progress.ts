/**
 * REST doors for progress (issue 35), over the progress router's procedures:
 * - GET /api/progress?tz=Europe/Berlin: the caller's progress (401 signed out; 400 naming `tz`);
 * - GET /api/users/:handle?tz=…: a public profile `{ handle, progress }` (404 when no such handle or private: the same answer).
 */
import { Hono } from "hono";
import { call, type AppEnv } from "./call.ts";

export const progressRoutes = new Hono<AppEnv>().get("/", async (c) => c.json(await call(c, (api) => api.progress.mine({ tz: c.req.query("tz") as string }))));

export const usersRoutes = new Hono<AppEnv>().get("/:handle", async (c) =>
  c.json(await call(c, (api) => api.progress.profile({ handle: c.req.param("handle"), tz: c.req.query("tz") as string }))),
);
