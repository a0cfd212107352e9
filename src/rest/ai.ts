/**
 * REST door for the AI review: POST /api/ai/ai-review `{code, language?, problemId?, force?}`
 * (signed in) → 200 `{ data: { review } }` with the whole markdown review, plus
 * `provider`, `model` and `cached` beside `review`. It calls the same procedure
 * as the client (`ai.review`); errors are the catalogue's (400 empty or too
 * large code, 401, 404, 429 with Retry-After, 502, 504). A client that
 * disconnects aborts the provider call through the request's signal.
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

export const aiRoutes = new Hono<AppEnv>().post("/ai-review", async (c) => {
  // A client that disconnects aborts the model call (and is not charged for it).
  const result = await call(c, async (api) => api.ai.review((await jsonBody(c)) as never), { signal: c.req.raw.signal });
  return c.json({ data: result });
});
