/**
 * Secrets and browser hardening: the database and DATA_DIR are owner-only;
 * every HTML page carries a Content-Security-Policy with no inline script and
 * framing only by registered LMS platforms on the LTI pages; CSV exports
 * cannot smuggle a formula into a spreadsheet; LDAP filters keep `$` patterns
 * as text; plain ldap:// to another machine is refused; joining by invite code
 * is rate-limited.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/index.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { spreadsheetSafe } from "../../src/courses/gradebook.ts";
import { addPlatform } from "../../src/lti/registry.ts";
import { userFilter } from "../../src/sso/ldap.ts";
import { privateDir } from "../../src/lib/private-files.ts";
import { request, signUp } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";

const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-hardening-"));
let t: TestServices;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const dist = join(work, "dist");
  mkdirSync(dist);
  writeFileSync(join(dist, "index.html"), '<!doctype html><html><head><script src="/theme.js"></script></head><body><div id="root"></div></body></html>');
  t = await createTestServices({ env: { CLIENT_DIST: dist } });
  app = createApp(t.services);
});
afterAll(() => {
  t?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("owner-only data", () => {
  test("DATA_DIR is 0700 and the database with its WAL and shared memory 0600, whatever the umask", async () => {
    const old = process.umask(0o022);
    try {
      const dir = join(work, "data");
      privateDir(dir);
      const { client } = await openDatabase(`file:${join(dir, "app.db")}`);
      await client.execute("CREATE TABLE IF NOT EXISTS t (x)");
      client.close();
      expect(mode(dir)).toBe("700");
      expect(mode(join(dir, "app.db"))).toBe("600");
      // Opened again (an upgrade from a world-readable file): tightened too.
      const { chmodSync } = await import("node:fs");
      chmodSync(join(dir, "app.db"), 0o644);
      const again = await openDatabase(`file:${join(dir, "app.db")}`);
      again.client.close();
      expect(mode(join(dir, "app.db"))).toBe("600");
    } finally {
      process.umask(old);
    }
  });
});

describe("Content-Security-Policy on every page", () => {
  const csp = async (path: string, headers: Record<string, string> = {}) => (await app.request(path, { headers })).headers.get("content-security-policy") ?? "";

  test("the client's pages: scripts only from this origin and never inline, images from this origin, no framing", async () => {
    const policy = await csp("/problems");
    const directive = (name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";
    expect(directive("script-src")).toBe("script-src 'self'");
    expect(directive("img-src")).toBe("img-src 'self' data: blob:");
    expect(directive("connect-src")).toBe("connect-src 'self'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    // The built client has no inline script to allow (the dark-mode script is /theme.js).
    const index = readFileSync(join(ROOT, "client", "index.html"), "utf8");
    expect([...index.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)]).toEqual([]);
  });

  test("framing: only registered LMS platforms, only on the pages an LMS opens (or any page loaded into its frame); none without a platform", async () => {
    expect(await csp("/auth/complete")).toContain("frame-ancestors 'none'");
    await addPlatform(t.services.db, {
      name: "Canvas",
      issuer: "https://canvas.instructure.com",
      clientId: "c-1",
      deploymentIds: ["1"],
      authUrl: "https://sso.canvaslms.com/api/lti/authorize_redirect",
      tokenUrl: "https://sso.canvaslms.com/login/oauth2/token",
      jwksUrl: "https://sso.canvaslms.com/api/lti/security/jwks",
      trustEmail: false,
    });
    const lms = "frame-ancestors https://*.canvaslms.com https://*.instructure.com https://canvaslms.com https://instructure.com";
    expect(await csp("/auth/complete?next=%2Fproblems")).toContain(lms);
    expect(await csp("/lti/deep-link/x")).toContain(lms);
    expect(await csp("/assignments/x", { "sec-fetch-dest": "iframe" })).toContain(lms);
    expect(await csp("/problems")).toContain("frame-ancestors 'none'");
    // The deep-linking page posts its answer back to the LMS.
    expect(await csp("/lti/deep-link/x")).toContain("form-action 'self' https://*.canvaslms.com");
    // The server's own HTML answers (sign-in errors) carry it too.
    expect(await csp("/api/auth/oidc/nobody/login")).toContain("script-src 'self'");
  });
});

describe("exports, filters and settings", () => {
  test("CSV cells a spreadsheet would run as a formula get a leading quote; numbers and names stay", () => {
    expect(["=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "Ada", "12.5", ""].map(spreadsheetSafe)).toEqual([
      "'=HYPERLINK(\"http://x\")",
      "'+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      "Ada",
      "12.5",
      "",
    ]);
  });

  test("a username is put into the LDAP filter as escaped text: $ replacement patterns and filter characters stay text", () => {
    const template = "(&(objectClass=person)(uid={username}))";
    expect(userFilter(template, "$`")).toBe("(&(objectClass=person)(uid=$`))");
    expect(userFilter(template, "$&")).toBe("(&(objectClass=person)(uid=$&))");
    expect(userFilter(template, "$'")).toBe("(&(objectClass=person)(uid=$'))");
    expect(userFilter(template, "*)(uid=*")).toBe("(&(objectClass=person)(uid=\\2a\\29\\28uid=\\2a))");
  });

  test("plain ldap:// to another machine is refused at start (ldaps://, StartTLS, or this machine only)", () => {
    const ldap = { LDAP_PROVIDERS: "dir", LDAP_DIR_BASE_DN: "dc=example,dc=edu" };
    expect(() => loadConfig({ ...ldap, LDAP_DIR_URL: "ldap://ldap.example.edu" })).toThrow("LDAP_DIR_URL: plain ldap:// to another machine would send passwords in the clear");
    expect(loadConfig({ ...ldap, LDAP_DIR_URL: "ldap://ldap.example.edu", LDAP_DIR_STARTTLS: "true" }).sso.ldap[0]!.startTls).toBe(true);
    expect(loadConfig({ ...ldap, LDAP_DIR_URL: "ldaps://ldap.example.edu" }).sso.ldap).toHaveLength(1);
    expect(loadConfig({ ...ldap, LDAP_DIR_URL: "ldap://127.0.0.1:3890" }).sso.ldap).toHaveLength(1);
  });

  test("joining by invite code: 10 tries per 10 minutes per user, then 429 with Retry-After", async () => {
    const me = await signUp(app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await request(app, "POST", "/api/courses/join", { token: me.token, body: { code: `WRONG${i}XY` } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(statuses[10]).toBe(429);
  });
});
