/**
 * REST doors for similarity reports, over the similarity router's procedures:
 * - POST /api/assignments/:id/similarity and POST /api/contests/:id/similarity
 *   {problemId?, pick?: "best"|"last", against?: "none"|"past", crossLanguage?, starterCode?: [{language, code}],
 *   kgramLength?, windowLength?, maxShare?} → 202 {reportId, status, reused}
 * - GET /api/assignments/:id/similarity and GET /api/contests/:id/similarity: the scope's reports
 * - GET /api/similarity/:reportId: status, progress, pairs, clusters, histogram, threshold
 * - GET /api/similarity/:reportId/pairs.csv: the pairs as CSV
 * - GET /api/similarity/:reportId/pairs/:pairId: the two programs and their fragments
 * - PUT /api/similarity/:reportId/pairs/:pairId/mark {status: "reviewed"|"dismissed"|"flagged"|null, note?}
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

/** The two scope doors, mounted under /api/assignments and /api/contests. */
export function similarityScopeRoutes(kind: "assignment" | "contest") {
  return new Hono<AppEnv>()
    .post("/:id/similarity", async (c) =>
      c.json(await call(c, async (api) => api.similarity.request({ ...(await jsonBody(c)), scope: { kind, id: c.req.param("id") } } as never)), 202),
    )
    .get("/:id/similarity", async (c) => c.json(await call(c, (api) => api.similarity.list({ kind, id: c.req.param("id") }))));
}

export const similarityRoutes = new Hono<AppEnv>()
  .get("/:reportId", async (c) => c.json(await call(c, (api) => api.similarity.byId({ reportId: c.req.param("reportId") }))))
  .get("/:reportId/pairs.csv", async (c) => {
    const reportId = c.req.param("reportId");
    const { csv } = await call(c, (api) => api.similarity.csv({ reportId }));
    return c.body(csv, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="similarity-${reportId}.csv"` });
  })
  .get("/:reportId/pairs/:pairId", async (c) => c.json(await call(c, (api) => api.similarity.pair({ reportId: c.req.param("reportId"), pairId: c.req.param("pairId") }))))
  .put("/:reportId/pairs/:pairId/mark", async (c) =>
    c.json(await call(c, async (api) => api.similarity.mark({ ...(await jsonBody(c)), reportId: c.req.param("reportId"), pairId: c.req.param("pairId") } as never))),
  );
