/**
 * Sign-in by a trusted proxy's header, on real sockets (the peer address is
 * the socket's): counted from a trusted proxy, ignored and logged once from
 * anyone else (X-Forwarded-For cannot fake the peer), accounts created with
 * names, email and groups from headers, the session the same as a password's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions, users } from "../../db/schema.ts";
import { createUser, hashPassword } from "../../src/accounts/user.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { Logger } from "../../src/log.ts";
import { request } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";

const warnings: string[] = [];
const log: Logger = { debug() {}, info() {}, error() {}, warn: (m) => void warnings.push(m) };
const headerEnv = {
  TRUSTED_HEADER: "X-Remote-User",
  TRUSTED_HEADER_EMAIL: "X-Remote-Email",
  TRUSTED_HEADER_FIRST_NAME: "X-Remote-Given",
  TRUSTED_HEADER_LAST_NAME: "X-Remote-Family",
  TRUSTED_HEADER_GROUPS: "X-Remote-Groups",
  TRUSTED_HEADER_COURSE_CREATOR_WHEN: 'groups contains "faculty"',
};
let trusting: TestServices;
let distrusting: TestServices;
const servers: ReturnType<typeof Bun.serve>[] = [];

function serve(t: TestServices): string {
  const app = createApp(t.services);
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => app.fetch(req, srv) });
  servers.push(s);
  return `http://127.0.0.1:${s.port}`;
}

beforeAll(async () => {
  trusting = await createTestServices({ env: { ...headerEnv, TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1/32, ::1/128" }, log });
  // Trusts only 10.9/16 (and honours X-Forwarded-For for client addresses): a request from 127.0.0.1 is not its proxy's.
  distrusting = await createTestServices({ env: { ...headerEnv, TRUSTED_PROXIES: "10.9.0.0/16", TRUST_PROXY: "true" }, log });
});
afterAll(() => {
  for (const s of servers) s.stop(true);
  trusting?.cleanup();
  distrusting?.cleanup();
});

const headers = { "X-Remote-User": "jdoe", "X-Remote-Email": "jdoe@campus.example", "X-Remote-Given": "Jane", "X-Remote-Family": "Doe", "X-Remote-Groups": "faculty;cs" };

describe("trusted proxy header", () => {
  test("from a trusted proxy: an account is made from the headers and the browser gets the session cookie", async () => {
    const base = serve(trusting);
    const res = await fetch(`${base}/api/auth/header?returnTo=/courses`, { headers, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth/complete?next=%2Fcourses");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("oj_session="))!;
    expect(cookie).toContain("HttpOnly");
    const me = await fetch(`${base}/api/auth/me`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(((await me.json()) as { user: unknown }).user).toMatchObject({ firstName: "Jane", lastName: "Doe", email: "jdoe@campus.example" });
    const [row] = await trusting.services.db.select().from(users).where(eq(users.email, "jdoe@campus.example"));
    expect(row).toMatchObject({ passwordHash: null, canCreateCourses: true });
    // The same user again is the same account.
    const again = await fetch(`${base}/api/auth/header`, { headers, redirect: "manual" });
    expect(again.status).toBe(302);
    expect(await trusting.services.db.select().from(users).where(eq(users.email, "jdoe@campus.example"))).toHaveLength(1);
    // No header: no session.
    const none = await fetch(`${base}/api/auth/header`, { redirect: "manual" });
    expect(none.status).toBe(401);
  });

  test("the return path is kept with its query and checked by src/lib/return-path.ts: a hostile one ends on /problems", async () => {
    const base = serve(trusting);
    const to = async (returnTo: string) =>
      (await fetch(`${base}/api/auth/header?returnTo=${encodeURIComponent(returnTo)}`, { headers, redirect: "manual" })).headers.get("location");
    expect(await to("/join/AB12CD?from=mail")).toBe(`/auth/complete?next=${encodeURIComponent("/join/AB12CD?from=mail")}`);
    for (const hostile of ["https://evil.example/", "//evil.example", "/\\evil.example", "/%2F%2Fevil.example", "/api/auth/logout", "/%09/evil.example", "javascript:alert(1)"]) {
      expect(await to(hostile)).toBe("/auth/complete?next=%2Fproblems");
    }
  });

  test("from anyone else the header is ignored (X-Forwarded-For does not help), no account or session is made, and it is logged once", async () => {
    const base = serve(distrusting);
    warnings.length = 0;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/api/auth/header`, { headers: { ...headers, "X-Forwarded-For": "10.9.0.5" }, redirect: "manual" });
      expect(res.status).toBe(401);
      expect(res.headers.getSetCookie().some((c) => c.startsWith("oj_session="))).toBe(false);
      expect(await res.text()).toContain("not available from here");
    }
    expect(await distrusting.services.db.select().from(users)).toEqual([]);
    expect(await distrusting.services.db.select().from(sessions)).toEqual([]);
    expect(warnings.filter((w) => w.includes("X-Remote-User ignored"))).toHaveLength(1);
    expect(warnings[0]).toContain("127.0.0.1 is not in TRUSTED_PROXIES (10.9.0.0/16)");
    // And the header authenticates nothing else: API calls with it stay anonymous.
    const me = await fetch(`${base}/api/auth/me`, { headers });
    expect(me.status).toBe(401);
  });

  test("the sign-in page learns that a proxy signs people in; without TRUSTED_HEADER the route does not exist", async () => {
    const t = await createTestServices();
    try {
      const app = createApp(t.services);
      expect((await request(app, "GET", "/api/auth/providers")).body.trustedHeader).toBeNull();
      const page = await app.request("/api/auth/header", { headers });
      expect(page.status).toBe(404);
    } finally {
      t.cleanup();
    }
    const withHeader = createApp(trusting.services);
    expect((await request(withHeader, "GET", "/api/auth/providers")).body.trustedHeader).toEqual({ loginUrl: "/api/auth/header" });
  });

  test("settings are checked at start and name the variable", () => {
    expect(() => loadConfig({ TRUSTED_HEADER: "X-Remote-User", TRUSTED_HEADER_EMAIL_DOMAIN: "campus.example" })).toThrow("TRUSTED_PROXIES: required");
    expect(() => loadConfig({ TRUSTED_HEADER: "X-Remote-User", TRUSTED_PROXIES: "10.0.0.0/33", TRUSTED_HEADER_EMAIL_DOMAIN: "x.example" })).toThrow('TRUSTED_PROXIES: "10.0.0.0/33"');
    expect(() => loadConfig({ TRUSTED_HEADER: "X-Remote-User", TRUSTED_PROXIES: "127.0.0.1" })).toThrow("TRUSTED_HEADER_EMAIL");
    expect(() => loadConfig({ OIDC_PROVIDERS: "campus", OIDC_CAMPUS_ISSUER: "http://idp.example.edu", OIDC_CAMPUS_CLIENT_ID: "x" })).toThrow("OIDC_CAMPUS_ISSUER: must be https");
    expect(() => loadConfig({ OIDC_PROVIDERS: "campus", OIDC_CAMPUS_ISSUER: "https://idp.example.edu" })).toThrow("OIDC_CAMPUS_CLIENT_ID: required");
    expect(() => loadConfig({ OIDC_PROVIDERS: "Campus!" })).toThrow("OIDC_PROVIDERS:");
    expect(() =>
      loadConfig({ OIDC_PROVIDERS: "campus", OIDC_CAMPUS_ISSUER: "https://idp.example.edu", OIDC_CAMPUS_CLIENT_ID: "x", OIDC_CAMPUS_ADMIN_WHEN: "groups has staff" }),
    ).toThrow("OIDC_CAMPUS_ADMIN_WHEN: expected NAME contains");
    expect(() => loadConfig({ LDAP_PROVIDERS: "dir", LDAP_DIR_URL: "http://x", LDAP_DIR_BASE_DN: "dc=x" })).toThrow("LDAP_DIR_URL: must start with ldap:// or ldaps://");
    expect(() => loadConfig({ LOCAL_SIGNUP: "maybe" })).toThrow("LOCAL_SIGNUP: expected true or false");
  });

  test("LOCAL_SIGNUP=false closes password sign-up with a message; existing accounts still sign in", async () => {
    const t = await createTestServices({ env: { LOCAL_SIGNUP: "false" } });
    try {
      const app = createApp(t.services);
      const res = await request(app, "POST", "/api/auth/register", { body: { firstName: "A", lastName: "B", email: "a@b.example", password: "password-123" } });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain("Sign-up with a password is turned off here");
      expect((await request(app, "GET", "/api/auth/providers")).body.localSignup).toBe(false);
      await createUser(t.services.db, { firstName: "Old", lastName: "Account", email: "old@b.example", passwordHash: await hashPassword("password-123") });
      expect((await request(app, "POST", "/api/auth/login", { body: { email: "old@b.example", password: "password-123" } })).status).toBe(200);
    } finally {
      t.cleanup();
    }
  });
});

describe("which headers count for the email", () => {
  test("TRUSTED_HEADER_EMAIL_DOMAIN never rewrites an address that already has a domain; the email header, when named, is the only source", async () => {
    const { headerEmail } = await import("../../src/sso/trusted-header.ts");
    const none = () => null;
    const domainOnly = { emailHeader: null, emailDomain: "campus.example" };
    expect(headerEmail(domainOnly, "jdoe", none)).toBe("jdoe@campus.example");
    expect(headerEmail(domainOnly, "alice@elsewhere.example", none)).toBeNull();
    expect(headerEmail(domainOnly, "jdoe@Campus.Example", none)).toBe("jdoe@Campus.Example");
    // With an email header named, a request without it has no email (no domain fallback the client could choose).
    const both = { emailHeader: "X-Remote-Email", emailDomain: "campus.example" };
    expect(headerEmail(both, "jdoe", none)).toBeNull();
    expect(headerEmail(both, "jdoe", (h) => (h === "X-Remote-Email" ? " jane@campus.example " : null))).toBe("jane@campus.example");
  });
});
