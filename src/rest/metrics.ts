/**
 * GET /metrics: the Prometheus exposition (src/ops/metrics.ts). Open to
 * loopback peers (a Prometheus or node exporter on the same host), and to
 * others only with `Authorization: Bearer <METRICS_TOKEN>`; 404 otherwise, so
 * its existence is not advertised. Behind a reverse proxy on the same host,
 * set TRUST_PROXY: the peer is then the forwarded client, not the proxy.
 */
import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { clientIp } from "../context.ts";
import { scrape } from "../ops/metrics.ts";
import type { AppEnv } from "./call.ts";

/** Whether an address is loopback (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopback(ip: string): boolean {
  return ip === "::1" || /^127\.\d+\.\d+\.\d+$/.test(ip) || /^::ffff:127\.\d+\.\d+\.\d+$/i.test(ip);
}

function tokenMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice("Bearer ".length).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export const metricsRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { config } = c.get("services");
  if (!isLoopback(clientIp(c, config.TRUST_PROXY)) && !tokenMatches(c.req.header("authorization"), config.METRICS_TOKEN)) {
    return c.json({ error: "Not found", message: "Not found", code: "NOT_FOUND" }, 404);
  }
  const { text, contentType } = await scrape();
  return c.body(text, 200, { "content-type": contentType });
});
