/**
 * REST doors for topic tags, over the tags router (README "REST API"):
 * GET /api/tags (the vocabulary), GET /api/tags/resolve?word=dp, GET /api/tags/usage (admins),
 * POST /api/tags {slug, name} (201), PATCH /api/tags/:slug {name},
 * POST /api/tags/:slug/synonyms {synonym} (201), DELETE /api/tags/:slug/synonyms/:synonym,
 * POST /api/tags/:slug/merge {into}, DELETE /api/tags/:slug. Curation: site admins only (403).
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them; the path wins over the body.
export const tagsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await call(c, (api) => api.tags.list())))
  .get("/resolve", async (c) => c.json(await call(c, (api) => api.tags.resolve({ word: c.req.query("word") } as never))))
  .get("/usage", async (c) => c.json(await call(c, (api) => api.tags.usage())))
  .post("/", async (c) => c.json(await call(c, async (api) => api.tags.create((await jsonBody(c)) as never)), 201))
  .patch("/:slug", async (c) => c.json(await call(c, async (api) => api.tags.rename({ ...(await jsonBody(c)), slug: c.req.param("slug") } as never))))
  .post("/:slug/synonyms", async (c) => c.json(await call(c, async (api) => api.tags.addSynonym({ ...(await jsonBody(c)), slug: c.req.param("slug") } as never)), 201))
  .delete("/:slug/synonyms/:synonym", async (c) => c.json(await call(c, (api) => api.tags.removeSynonym({ slug: c.req.param("slug"), synonym: c.req.param("synonym") }))))
  .post("/:slug/merge", async (c) => c.json(await call(c, async (api) => api.tags.merge({ ...(await jsonBody(c)), slug: c.req.param("slug") } as never))))
  .delete("/:slug", async (c) => c.json(await call(c, (api) => api.tags.delete({ slug: c.req.param("slug") }))));
