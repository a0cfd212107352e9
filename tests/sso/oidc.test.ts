/**
 * OpenID Connect sign-in against a real OpenID Provider (oidc-provider on
 * 127.0.0.1, tests/sso/oidc-peer.ts) and the real app on a real port: the
 * happy path, account rules (create, existing-only, linking), group → role
 * mapping, and every forged or replayed answer refused with no session.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { externalIdentities, sessions, ssoFlows, users } from "../../db/schema.ts";
import { createApp } from "../../src/app.ts";
import { forgetDiscovery } from "../../src/sso/oidc.ts";
import { request, signUp } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { Agent } from "./agent.ts";
import { startOidcPeer, type OidcPeer } from "./oidc-peer.ts";

let t: TestServices;
let peer: OidcPeer;
let app: ReturnType<typeof createApp>;
let server: ReturnType<typeof Bun.serve>;
let origin: string;

beforeAll(async () => {
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("starting", { status: 503 }) });
  origin = `http://127.0.0.1:${server.port}`;
  peer = await startOidcPeer(["campus", "trusting", "strict"].map((id) => `${origin}/api/auth/oidc/${id}/callback`));
  const provider = (id: string, extra: Record<string, string> = {}) => {
    const p = `OIDC_${id.toUpperCase()}`;
    return {
      [`${p}_ISSUER`]: peer.issuer,
      [`${p}_CLIENT_ID`]: peer.clientId,
      [`${p}_CLIENT_SECRET`]: peer.clientSecret,
      [`${p}_SCOPES`]: "openid email profile groups",
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`${p}_${k}`, v])),
    };
  };
  t = await createTestServices({
    env: {
      PUBLIC_URL: origin,
      OIDC_PROVIDERS: "campus,trusting,strict,down",
      ...provider("campus", { NAME: "Campus account", COURSE_CREATOR_WHEN: 'groups contains "staff"', ADMIN_WHEN: 'groups contains "judge-admins"' }),
      ...provider("trusting", { LINK_VERIFIED_EMAIL: "true" }),
      ...provider("strict", { EXISTING_ONLY: "true" }),
      OIDC_DOWN_ISSUER: "http://127.0.0.1:9",
      OIDC_DOWN_CLIENT_ID: "judge",
    },
  });
  app = createApp(t.services);
  server.reload({ fetch: (req, s) => app.fetch(req, s) });
  forgetDiscovery();
});
afterAll(async () => {
  server?.stop(true);
  await peer?.stop();
  t?.cleanup();
});

const host = () => new URL(origin).host;
const isCallback = (u: URL) => u.origin === origin && u.pathname.endsWith("/callback");

/** From the sign-in button to the provider's login form, the form posted, up to the redirect back to the judge. */
async function toCallback(agent: Agent, provider: string, login: string, start?: () => Promise<Response>): Promise<URL> {
  const first = start ? await start() : await agent.fetch(`${origin}/api/auth/oidc/${provider}/login`);
  expect(first.status).toBe(302);
  const { res: form, url: formUrl } = await agent.follow(new URL(first.headers.get("location")!));
  expect(form.status).toBe(200);
  const posted = await agent.submitForm(formUrl, await form.text(), { login, password: "any" });
  const { res, url } = await agent.follow(new URL(posted.headers.get("location")!, formUrl), isCallback);
  return new URL(res.headers.get("location")!, url);
}

async function sessionCount(): Promise<number> {
  const [row] = await t.services.db.select({ n: count() }).from(sessions);
  return row!.n;
}

/** Finishes at the callback; returns the response and the session token the client would adopt. */
async function finish(agent: Agent, callback: URL): Promise<{ res: Response; token: string | null; html: string }> {
  const res = await agent.fetch(callback);
  const html = res.status === 302 ? "" : await res.text();
  const cookie = agent.cookie(host(), "oj_session");
  if (res.status !== 302 || !cookie) return { res, token: null, html };
  const adopted = await agent.fetch(`${origin}/trpc/auth.adoptSession`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const body = (await adopted.json()) as { result: { data: { token: string } } };
  return { res, token: body.result.data.token, html };
}

async function me(token: string) {
  return (await request(app, "GET", "/api/auth/me", { token })).body.user as { id: string; email: string; firstName: string; lastName: string };
}

describe("OpenID Connect sign-in", () => {
  test("the provider list names the button; the login redirect carries PKCE S256, state, nonce and the scopes", async () => {
    const providers = await request(app, "GET", "/api/auth/providers");
    expect(providers.body.oidc[0]).toEqual({ id: "campus", name: "Campus account", loginUrl: "/api/auth/oidc/campus/login" });
    const agent = new Agent();
    const res = await agent.fetch(`${origin}/api/auth/oidc/campus/login?returnTo=/courses`);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location")!);
    expect(to.origin).toBe(peer.issuer);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(to.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(to.searchParams.get("state")).toBe(agent.cookie(host(), "oj_oidc_state")!);
    expect(to.searchParams.get("nonce")!.length).toBeGreaterThan(20);
    expect(to.searchParams.get("scope")).toBe("openid email profile groups");
    expect(to.searchParams.get("redirect_uri")).toBe(`${origin}/api/auth/oidc/campus/callback`);
    // The flow row keeps a hash of the state, never the state itself.
    const flows = await t.services.db.select().from(ssoFlows);
    expect(flows.some((f) => f.stateHash === to.searchParams.get("state"))).toBe(false);
  });

  test("a new student signs in without a password: account from the claims, linked by (issuer, sub), the same session as a password sign-in", async () => {
    peer.accounts.set("alice", { email: "alice@campus.example.edu", email_verified: true, given_name: "Alice", family_name: "Liddell" });
    const agent = new Agent();
    const callback = await toCallback(agent, "campus", "alice", () => agent.fetch(`${origin}/api/auth/oidc/campus/login?returnTo=/courses`));
    const { res, token } = await finish(agent, callback);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth/complete?next=%2Fcourses");
    expect(res.headers.getSetCookie().join("\n")).toMatch(/oj_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect(token).toBeTruthy();
    expect(await me(token!)).toMatchObject({ email: "alice@campus.example.edu", firstName: "Alice", lastName: "Liddell" });
    const [row] = await t.services.db.select().from(users).where(eq(users.email, "alice@campus.example.edu"));
    expect(row!.passwordHash).toBeNull();
    const ids = await t.services.db.select().from(externalIdentities).where(eq(externalIdentities.userId, row!.id));
    expect(ids).toMatchObject([{ provider: "oidc:campus", issuer: peer.issuer, subject: "alice" }]);
    expect(peer.tokenRequests.at(-1)).toEqual({ codeVerifier: true });
    // No password exists to sign in with.
    const pw = await request(app, "POST", "/api/auth/login", { body: { email: "alice@campus.example.edu", password: "anything-at-all" } });
    expect(pw.status).toBe(401);
    // The same identity again is the same account, even with a new email at the provider.
    peer.accounts.set("alice", { email: "alice.liddell@campus.example.edu", email_verified: true, given_name: "Alice", family_name: "Liddell" });
    const again = new Agent();
    const second = await finish(again, await toCallback(again, "campus", "alice"));
    expect((await me(second.token!)).id).toBe(row!.id);
    const identities = await request(app, "GET", "/api/auth/identities", { token: second.token! });
    expect(identities.body.identities).toMatchObject([{ provider: "oidc:campus", subject: "alice", email: "alice.liddell@campus.example.edu" }]);
  });

  test("groups map to roles at every sign-in: staff may create courses, judge-admins are admins, and leaving the group takes it back", async () => {
    peer.accounts.set("bob", { email: "bob@campus.example.edu", email_verified: true, given_name: "Bob", family_name: "Staff", groups: ["staff", "cs"] });
    peer.accounts.set("carol", { email: "carol@campus.example.edu", email_verified: true, groups: ["judge-admins"] });
    const a = new Agent();
    const bob = await finish(a, await toCallback(a, "campus", "bob"));
    const c = new Agent();
    const carol = await finish(c, await toCallback(c, "campus", "carol"));
    const role = async (email: string) =>
      (await t.services.db.select({ siteRole: users.siteRole, canCreateCourses: users.canCreateCourses }).from(users).where(eq(users.email, email)))[0];
    expect(await role("bob@campus.example.edu")).toEqual({ siteRole: "user", canCreateCourses: true });
    expect(await role("carol@campus.example.edu")).toEqual({ siteRole: "admin", canCreateCourses: false });
    // Bob may create a course now; a student may not.
    const course = await request(app, "POST", "/api/courses", { token: bob.token!, body: { code: "CS101-OIDC", title: "Intro" } });
    expect(course.status).toBe(201);
    peer.accounts.set("bob", { email: "bob@campus.example.edu", email_verified: true, groups: ["cs"] });
    const b2 = new Agent();
    await finish(b2, await toCallback(b2, "campus", "bob"));
    expect(await role("bob@campus.example.edu")).toEqual({ siteRole: "user", canCreateCourses: false });
    expect(carol.token).toBeTruthy();
  });

  test("an unlinked identity whose email has a local account is refused; signed in, the owner links it; then it signs in to that account", async () => {
    const local = await signUp(app, { email: "dana@campus.example.edu" });
    peer.accounts.set("dana", { email: "dana@campus.example.edu", email_verified: true });
    const before = await sessionCount();
    const stranger = new Agent();
    const refused = await finish(stranger, await toCallback(stranger, "campus", "dana"));
    expect(refused.res.status).toBe(409);
    expect(refused.html).toContain("An account with this email already exists. Sign in to it first");
    expect(refused.token).toBeNull();
    expect(await sessionCount()).toBe(before);
    expect(await t.services.db.select().from(externalIdentities).where(eq(externalIdentities.subject, "dana"))).toEqual([]);
    // Signed in with the password, Dana links the provider (a POST from the profile page).
    const owner = new Agent();
    owner.jar.set(host(), new Map([["oj_session", local.cookie.split("=")[1]!.split(";")[0]!]]));
    const callback = await toCallback(owner, "campus", "dana", () =>
      owner.fetch(`${origin}/api/auth/oidc/campus/link`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: "" }),
    );
    const linked = await finish(owner, callback);
    expect(linked.res.status).toBe(302);
    expect((await me(linked.token!)).id).toBe(local.user.id);
    const later = new Agent();
    expect((await me((await finish(later, await toCallback(later, "campus", "dana"))).token!)).id).toBe(local.user.id);
    // Linking needs a signed-in user: a link POST without one starts nothing.
    const anonymous = await new Agent().fetch(`${origin}/api/auth/oidc/campus/link`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(anonymous.status).toBe(401);
    // From another site, the link POST is refused before anything starts.
    const crossSite = await new Agent().fetch(`${origin}/api/auth/oidc/campus/link`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded", cookie: local.cookie },
      body: "",
    });
    expect(crossSite.status).toBe(403);
  });

  test("linking by a verified email only where the operator allows it, and never an unverified one; existing-only providers create no account", async () => {
    const erin = await signUp(app, { email: "erin@campus.example.edu" });
    peer.accounts.set("erin", { email: "erin@campus.example.edu", email_verified: true });
    const a = new Agent();
    const linked = await finish(a, await toCallback(a, "trusting", "erin"));
    expect((await me(linked.token!)).id).toBe(erin.user.id);
    await signUp(app, { email: "frank@campus.example.edu" });
    peer.accounts.set("frank", { email: "frank@campus.example.edu", email_verified: false });
    const b = new Agent();
    expect((await finish(b, await toCallback(b, "trusting", "frank"))).res.status).toBe(409);
    peer.accounts.set("gina", { email: "gina@campus.example.edu", email_verified: true });
    const c = new Agent();
    const strict = await finish(c, await toCallback(c, "strict", "gina"));
    expect(strict.res.status).toBe(403);
    expect(strict.html).toContain("There is no account here for this identity");
    expect(await t.services.db.select().from(users).where(eq(users.email, "gina@campus.example.edu"))).toEqual([]);
  });

  const forgeries: [string, NonNullable<OidcPeer["tamper"]>, RegExp][] = [
    ["a wrong issuer", { claims: { iss: "http://127.0.0.1:1/evil" } }, /iss/],
    ["a wrong audience", { claims: { aud: "another-client" } }, /aud/],
    ["a wrong nonce", { claims: { nonce: "not-the-nonce-we-sent" } }, /nonce/],
    ["an expired token", { claims: { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 } }, /exp|timestamp/],
    ["a signature by another key", { foreignKey: true }, /signature/i],
  ];
  for (const [what, tamper, reason] of forgeries) {
    test(`an ID token with ${what} is refused: an error page, no session`, async () => {
      peer.accounts.set("henry", { email: "henry@campus.example.edu", email_verified: true });
      const before = await sessionCount();
      const agent = new Agent();
      const callback = await toCallback(agent, "campus", "henry");
      peer.tamper = tamper;
      const { res, html, token } = await finish(agent, callback);
      expect(peer.tamper).toBeNull();
      expect(res.status).toBe(401);
      expect(html).toContain("failed verification");
      expect(html).toMatch(reason);
      expect(token).toBeNull();
      expect(agent.cookie(host(), "oj_session")).toBeUndefined();
      expect(await sessionCount()).toBe(before);
    });
  }

  test("the state must be this browser's, and a callback works once", async () => {
    peer.accounts.set("ivan", { email: "ivan@campus.example.edu", email_verified: true });
    const before = await sessionCount();
    // Another browser (no state cookie) brings the code: refused.
    const agent = new Agent();
    const callback = await toCallback(agent, "campus", "ivan");
    const other = await finish(new Agent(), callback);
    expect(other.res.status).toBe(400);
    expect(other.html).toContain("not started in this browser");
    // A changed state: refused.
    const a2 = new Agent();
    const cb2 = await toCallback(a2, "campus", "ivan");
    const forged = new URL(cb2);
    forged.searchParams.set("state", "forged-state");
    a2.jar.get(host())!.set("oj_oidc_state", "forged-state");
    expect((await finish(a2, forged)).res.status).toBe(400);
    // The real one works once; replayed (same cookie, same code), it is refused.
    const a3 = new Agent();
    const cb3 = await toCallback(a3, "campus", "ivan");
    const state = a3.cookie(host(), "oj_oidc_state")!;
    expect((await finish(a3, cb3)).res.status).toBe(302);
    const sessionsAfterOne = await sessionCount();
    a3.jar.get(host())!.set("oj_oidc_state", state);
    a3.jar.get(host())!.delete("oj_session");
    expect((await finish(a3, cb3)).res.status).toBe(400);
    expect(await sessionCount()).toBe(sessionsAfterOne);
    expect(sessionsAfterOne).toBe(before + 1);
  });

  test("a code redeemed without its PKCE verifier is refused by the provider: no session", async () => {
    peer.accounts.set("judy", { email: "judy@campus.example.edu", email_verified: true });
    const before = await sessionCount();
    const agent = new Agent();
    const callback = await toCallback(agent, "campus", "judy");
    await t.services.db.update(ssoFlows).set({ codeVerifier: "x".repeat(64) });
    const { res, html } = await finish(agent, callback);
    expect(res.status).toBe(401);
    expect(html).toContain("invalid_grant");
    expect(await sessionCount()).toBe(before);
  });

  test("an unreachable provider answers 503 with a message; an unknown provider 404", async () => {
    const down = await new Agent().fetch(`${origin}/api/auth/oidc/down/login`);
    expect(down.status).toBe(503);
    expect(await down.text()).toContain("cannot be reached right now");
    expect((await new Agent().fetch(`${origin}/api/auth/oidc/nope/login`)).status).toBe(404);
  });
});
