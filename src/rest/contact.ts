/** REST door for the contact form: POST /api/contact → 201 `{ message }`. */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.

export const contactRoutes = new Hono<AppEnv>().post("/", async (c) =>
  c.json(await call(c, async (api) => api.contact.send((await jsonBody(c)) as never)), 201),
);
