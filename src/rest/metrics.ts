/**
 * GET /metrics: the Prometheus exposition (src/ops/metrics.ts). Open to
 * requests from this machine itself (a Prometheus or node exporter on the
 * same host: `fromThisMachine` in src/context.ts), and to others only with
 * `Authorization: Bearer <METRICS_TOKEN>`; 404 otherwise, so its existence is
 * not advertised. A reverse proxy on the same host does not make its clients
 * local: with TRUST_PROXY their forwarded address decides, without it a
 * forwarded request (X-Forwarded-For, Forwarded, X-Real-IP, Via) is not local.
 */
import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { fromThisMachine } from "../context.ts";
import { scrape } from "../ops/metrics.ts";
import type { AppEnv } from "./call.ts";

export { isLoopback } from "../lib/proxies.ts";

function tokenMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice("Bearer ".length).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export const metricsRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { config } = c.get("services");
  if (!fromThisMachine(c, config) && !tokenMatches(c.req.header("authorization"), config.METRICS_TOKEN)) {
    return c.json({ error: "Not found", message: "Not found", code: "NOT_FOUND" }, 404);
  }
  const { text, contentType } = await scrape();
  return c.body(text, 200, { "content-type": contentType });
});
