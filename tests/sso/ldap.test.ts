/**
 * LDAP sign-in against a real directory (Debian's slapd, tests/sso/ldap-peer.ts):
 * bind and search, names, email and groups read, group → role, wrong password
 * and unknown user the same 401, injection through the username, StartTLS
 * and LDAPS, and a directory that is down or refuses the service account (503).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { externalIdentities, users } from "../../db/schema.ts";
import { createApp } from "../../src/app.ts";
import { AppError } from "../../src/errors.ts";
import { ldapAuthenticate } from "../../src/sso/ldap.ts";
import { request } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { LDAP_BASE, LDAP_SERVICE_DN, LDAP_SERVICE_PASSWORD, startLdapPeer, type LdapPeer } from "./ldap-peer.ts";

let t: TestServices;
let peer: LdapPeer;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  peer = await startLdapPeer([
    { uid: "alice", givenName: "Alice", sn: "Student", mail: "alice@campus.example", password: "alice-pw" },
    { uid: "albert", givenName: "Albert", sn: "Student", mail: "albert@campus.example", password: "albert-pw" },
    { uid: "sam", givenName: "Sam", sn: "Staff", mail: "sam@campus.example", password: "sam-pw", groups: ["staff"] },
    { uid: "tess", givenName: "Tess", sn: "Tls", mail: "tess@campus.example", password: "tess-pw" },
    { uid: "lara", givenName: "Lara", sn: "Ldaps", mail: "lara@campus.example", password: "lara-pw" },
  ]);
  const directory = (id: string, extra: Record<string, string>) =>
    Object.fromEntries(
      Object.entries({
        BIND_DN: LDAP_SERVICE_DN,
        BIND_PASSWORD: LDAP_SERVICE_PASSWORD,
        BASE_DN: `ou=people,${LDAP_BASE}`,
        GROUP_BASE_DN: `ou=groups,${LDAP_BASE}`,
        ...extra,
      }).map(([k, v]) => [`LDAP_${id.toUpperCase()}_${k}`, v]),
    );
  t = await createTestServices({
    env: {
      LDAP_PROVIDERS: "campus,starttls,ldaps,untrusted,down,badservice",
      ...directory("campus", { URL: peer.url, NAME: "Campus directory", COURSE_CREATOR_WHEN: 'groups contains "staff"' }),
      ...directory("starttls", { URL: peer.url, STARTTLS: "true", CA_FILE: peer.caFile }),
      ...directory("ldaps", { URL: peer.ldapsUrl, CA_FILE: peer.caFile }),
      ...directory("untrusted", { URL: peer.ldapsUrl, TIMEOUT_MS: "2000" }),
      ...directory("down", { URL: "ldap://127.0.0.1:9", TIMEOUT_MS: "2000" }),
      ...directory("badservice", { URL: peer.url, BIND_PASSWORD: "not-the-password" }),
    },
  });
  app = createApp(t.services);
}, 60_000);
afterAll(async () => {
  await peer?.stop();
  t?.cleanup();
});

const login = (provider: string, username: string, password: string) => request(app, "POST", "/api/auth/login", { body: { provider, email: username, password } });

describe("LDAP sign-in", () => {
  test("the sign-in form's chooser lists the directories", async () => {
    const res = await request(app, "GET", "/api/auth/providers");
    expect(res.body.ldap[0]).toEqual({ id: "campus", name: "Campus directory" });
  });

  test("a student signs in by uid or mail without ever making a password here; the entry's names and email make the account", async () => {
    const res = await login("campus", "alice", "alice-pw");
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ firstName: "Alice", lastName: "Student", email: "alice@campus.example" });
    expect(res.headers.get("set-cookie")).toContain("oj_session=");
    const me = await request(app, "GET", "/api/auth/me", { token: res.body.token });
    expect(me.body.user.email).toBe("alice@campus.example");
    const byMail = await login("campus", "alice@campus.example", "alice-pw");
    expect(byMail.body.user.id).toBe(res.body.user.id);
    const [row] = await t.services.db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(row!.passwordHash).toBeNull();
    const [identity] = await t.services.db.select().from(externalIdentities).where(eq(externalIdentities.userId, row!.id));
    // Keyed by the entry's entryUUID, not its email or DN.
    expect(identity).toMatchObject({ provider: "ldap:campus", issuer: "ldap:campus" });
    expect(identity!.subject).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  test("a staff group member may create courses; a student may not", async () => {
    const sam = await login("campus", "sam", "sam-pw");
    const alice = await login("campus", "alice", "alice-pw");
    const [s] = await t.services.db.select().from(users).where(eq(users.id, sam.body.user.id));
    const [a] = await t.services.db.select().from(users).where(eq(users.id, alice.body.user.id));
    expect([s!.canCreateCourses, a!.canCreateCourses]).toEqual([true, false]);
  });

  test("a wrong password and an unknown user are the same 401", async () => {
    const wrong = await login("campus", "alice", "nope");
    const unknown = await login("campus", "nobody", "nope");
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  test("the username cannot change the search filter: wildcards and parentheses are escaped", async () => {
    // Unescaped, `alic*` would match alice alone (and sign her in), `al*` alice and albert, and `alice)(uid=*` would widen the filter.
    for (const username of ["alic*", "*lice", "al*", "*", "alice)(uid=*", "alice)(|(uid=*", "*)(objectClass=*", "alice\\2a", "alice\u0000"]) {
      const res = await login("campus", username, "alice-pw");
      expect(res.status, username).toBe(401);
    }
    // An empty password would be an anonymous bind, which a directory accepts: refused before it.
    const provider = t.config.sso.ldap.find((p) => p.id === "campus")!;
    await expect(ldapAuthenticate(provider, "alice", "")).rejects.toMatchObject({ kind: "INVALID_CREDENTIALS" });
  });

  test("StartTLS and LDAPS with the campus CA sign in; LDAPS with an untrusted certificate does not", async () => {
    // Each configured directory is its own issuer: other people than the plain-LDAP tests' (whose emails are taken).
    expect((await login("starttls", "tess", "tess-pw")).status).toBe(200);
    expect((await login("ldaps", "lara", "lara-pw")).status).toBe(200);
    const untrusted = await login("untrusted", "lara", "lara-pw");
    expect(untrusted.status).toBe(503);
  });

  test("a directory that is down, or refuses the service account, answers 503 with a message, never 500", async () => {
    const down = await login("down", "alice", "alice-pw");
    expect(down.status).toBe(503);
    expect(down.body.message).toContain("cannot be reached right now");
    const bad = await login("badservice", "alice", "alice-pw");
    expect(bad.status).toBe(503);
    const unknownProvider = await login("nope", "alice", "alice-pw");
    expect(unknownProvider).toMatchObject({ status: 404, body: { field: "provider" } });
  });

  test("failed attempts are throttled per directory user like password sign-ins", async () => {
    let last = 0;
    for (let i = 0; i < 6; i++) last = (await login("campus", "albert", "wrong")).status;
    expect(last).toBe(429);
    expect(AppError).toBeDefined();
  });
});
