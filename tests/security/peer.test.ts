/**
 * The server knows who its peer is (real sockets, Bun.serve on loopback):
 * X-Forwarded-* count only with TRUST_PROXY and only from a peer in
 * TRUSTED_PROXIES; a proxy on the same host does not make its clients
 * "loopback" for /metrics; rate limits key on the real client; HOST defaults
 * to loopback behind a proxy.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createTestServices, type TestServices } from "../services.ts";

const servers: { stop(force?: boolean): void }[] = [];
const services: TestServices[] = [];
afterAll(() => {
  for (const s of servers) s.stop(true);
  for (const t of services) t.cleanup();
});

/** A real server (socket peer 127.0.0.1 for every request from these tests) with these settings; contact messages 5 per address (the default is 30). */
async function serve(env: Record<string, string>): Promise<string> {
  const t = await createTestServices({ env: { METRICS_TOKEN: "metrics-token-0123456789", RATE_LIMIT_CONTACT_PER_ADDRESS: "5/10m", ...env } });
  services.push(t);
  const app = createApp(t.services);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, s) => app.fetch(req, s) });
  servers.push(server);
  return `http://127.0.0.1:${server.port}`;
}

const message = { name: "Ann", email: "ann@example.com", subject: "Hello", message: "A question about the judge." };
const contact = (base: string, headers: Record<string, string>) =>
  fetch(`${base}/api/contact`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(message) }).then((r) => r.status);

describe("X-Forwarded-For counts only from a trusted proxy", () => {
  test("with TRUST_PROXY, a peer outside TRUSTED_PROXIES cannot pick its address: every request is its own, and the limit holds", async () => {
    const base = await serve({ TRUST_PROXY: "true", TRUSTED_PROXIES: "10.9.0.0/16" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await contact(base, { "x-forwarded-for": `203.0.113.${i + 1}` }));
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  test("from a trusted proxy (loopback, the default), the forwarded client is the key: other clients are not limited together", async () => {
    const base = await serve({ TRUST_PROXY: "true" });
    for (let i = 0; i < 5; i++) expect(await contact(base, { "x-forwarded-for": "203.0.113.7" })).toBe(201);
    expect(await contact(base, { "x-forwarded-for": "203.0.113.7" })).toBe(429);
    // The client's own left-hand entries do not help it: the proxy's appended address decides.
    expect(await contact(base, { "x-forwarded-for": "198.51.100.1, 203.0.113.7" })).toBe(429);
    expect(await contact(base, { "x-forwarded-for": "203.0.113.8" })).toBe(201);
  });
});

describe("/metrics and 'loopback'", () => {
  const metrics = (base: string, headers: Record<string, string> = {}) => fetch(`${base}/metrics`, { headers }).then((r) => r.status);

  test("without TRUST_PROXY, a forwarded request from a proxy on this host is not local (404); the host's own scraper still is", async () => {
    const base = await serve({});
    expect(await metrics(base)).toBe(200);
    const forwarded: Record<string, string>[] = [{ "x-forwarded-for": "203.0.113.9" }, { forwarded: "for=203.0.113.9" }, { "x-real-ip": "203.0.113.9" }, { via: "1.1 nginx" }];
    for (const h of forwarded) {
      expect(await metrics(base, h)).toBe(404);
    }
    expect(await metrics(base, { "x-forwarded-for": "203.0.113.9", authorization: "Bearer metrics-token-0123456789" })).toBe(200);
  });

  test("with TRUST_PROXY, the forwarded client decides: a remote client behind the local proxy is not local, even naming 127.0.0.1 itself", async () => {
    const base = await serve({ TRUST_PROXY: "true" });
    expect(await metrics(base, { "x-forwarded-for": "203.0.113.9" })).toBe(404);
    expect(await metrics(base, { "x-forwarded-for": "127.0.0.1, 203.0.113.9" })).toBe(404);
    expect(await metrics(base, { "x-forwarded-for": "127.0.0.1" })).toBe(200);
  });

  test("X-Forwarded-Proto makes a Secure cookie only from a trusted proxy", async () => {
    const trusted = await serve({ TRUST_PROXY: "true" });
    const untrusted = await serve({ TRUST_PROXY: "true", TRUSTED_PROXIES: "10.9.0.0/16" });
    const cookieOf = async (base: string) => {
      const email = `p${Math.random().toString(36).slice(2)}@example.com`;
      const json = { "content-type": "application/json", "x-forwarded-proto": "https" };
      await fetch(`${base}/api/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ firstName: "P", lastName: "Q", email, password: "hunter2hunter2" }) });
      const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password: "hunter2hunter2" }) });
      const cookies = res.headers.getSetCookie().join("\n");
      expect(cookies).toContain("oj_session=");
      return cookies;
    };
    expect(await cookieOf(trusted)).toContain("; Secure");
    expect(await cookieOf(untrusted)).not.toContain("; Secure");
  });
});

test("HOST defaults to loopback when TRUST_PROXY is set, to every address otherwise; a bad TRUSTED_PROXIES names the variable", () => {
  expect(loadConfig({ TRUST_PROXY: "true" }).HOST).toBe("127.0.0.1");
  expect(loadConfig({}).HOST).toBe("0.0.0.0");
  expect(loadConfig({ TRUST_PROXY: "true", HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
  expect(() => loadConfig({ TRUSTED_PROXIES: "not-an-address" })).toThrow('TRUSTED_PROXIES: "not-an-address" is not an address or CIDR');
});
