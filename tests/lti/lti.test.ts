/**
 * LTI 1.3 against a platform stand-in made of real parts (tests/lti/platform.ts:
 * oidc-provider for the launch and the tool's client-credentials tokens, a
 * Hono server for AGS, NRPS and the deep-link return), the real app on a real
 * port and the real sandbox: registration, launches as instructor, TA and
 * learner, deep linking, a grade arriving at the line item after an AC (with
 * retries), roster sync with paging, and forged or replayed launches refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { externalIdentities, ltiGradeOutbox, sessions } from "../../db/schema.ts";
import { setAccountByEmail } from "../../src/accounts/admin.ts";
import { createSandbox } from "../../isolate/index.ts";
import { CLAIM } from "../../src/lti/claims.ts";
import { fillOutbox, sendDue } from "../../src/lti/grades.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { request, signUp } from "../api.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, trpcMutation, trpcQuery, type CourseApp } from "../courses/fixtures.ts";
import { eventually, judgeConfig, preparePch } from "../judge/fixtures.ts";
import { Agent } from "../sso/agent.ts";
import { ROLE, startPlatform, type LaunchSpec, type Platform } from "./platform.ts";

let sandbox: SandboxSelection;
let a: CourseApp;
let server: ReturnType<typeof Bun.serve>;
let origin: string;
let platform: Platform;
let admin: { token: string };
let platformId: string;
let courseId: string;
let assignmentId: string;
let problemId: string;
let teacherToken: string;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 300)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 300 });
  a.clock.set("2026-03-01T12:00:00Z");
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, s) => a.app.fetch(req, s) });
  origin = `http://127.0.0.1:${server.port}`;
  platform = await startPlatform({ launchUrl: `${origin}/api/lti/launch`, jwksUrl: `${origin}/api/lti/jwks` });
  const signed = await signUp(a.app, { firstName: "Site", lastName: "Admin" });
  await setAccountByEmail(a.t.services.db, signed.email, { siteRole: "admin" });
  admin = { token: signed.token };
}, 60_000);

afterAll(async () => {
  server?.stop(true);
  await platform?.stop();
  await a?.close();
  await sandbox?.backend?.close();
});

async function sessionCount(): Promise<number> {
  const [row] = await a.t.services.db.select({ n: count() }).from(sessions);
  return row!.n;
}

/** As the LMS: the user signed in there opens the activity; the tool's login, the platform's form_post, the launch. */
async function launch(userId: string, hint: string, spec: LaunchSpec, agent = new Agent()) {
  platform.launches.set(hint, spec);
  await platform.signIn(agent, userId);
  const toPlatform = await agent.fetch(platform.loginUrl(`${origin}/api/lti/login`, userId, hint));
  expect(toPlatform.status).toBe(302);
  const authUrl = new URL(toPlatform.headers.get("location")!);
  const { res: formPage, url } = await agent.follow(authUrl);
  const html = await formPage.text();
  const idToken = /name="id_token" value="([^"]+)"/.exec(html)?.[1];
  const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
  if (!idToken || !state) throw new Error(`no form_post from the platform: ${formPage.status} ${html.slice(0, 400)}`);
  const res = await agent.submitForm(url, html, {});
  const location = res.headers.get("location") ?? "";
  // As /auth/complete does: the launch's session cookie is adopted (the URL carries no token).
  const token = location.startsWith("/auth/complete") ? await adopt(agent) : null;
  return { res, location, token, idToken, state, agent, authUrl, html: res.status === 302 ? "" : await res.text() };
}

/** The session token of the agent's session cookie, as the client's /auth/complete page gets it (auth.adoptSession). */
async function adopt(agent: Agent): Promise<string | null> {
  const res = await agent.fetch(`${origin}/trpc/auth.adoptSession`, { method: "POST", headers: { "content-type": "application/json", origin }, body: "{}" });
  if (res.status !== 200) return null;
  return ((await res.json()) as { result: { data: { token: string } } }).result.data.token;
}

const teacherSpec = (extra: Partial<LaunchSpec> = {}): LaunchSpec => ({ roles: [ROLE.instructor], contextId: "c1", contextTitle: "Algorithms (LMS)", resourceLinkId: "rl-home", ...extra });

describe("registering a platform", () => {
  test("only site admins register platforms; the JWKS shows the tool's public key only; the tool's URLs are given", async () => {
    const input = {
      name: "Test LMS",
      issuer: platform.issuer,
      clientId: platform.clientId,
      deploymentIds: [platform.deploymentId],
      authUrl: platform.authUrl,
      tokenUrl: platform.tokenUrl,
      jwksUrl: platform.jwksUrl,
    };
    const plain = await signUp(a.app);
    expect((await trpcMutation(a.app, plain.token, "lti.addPlatform", input)).status).toBe(403);
    const added = await trpcMutation(a.app, admin.token, "lti.addPlatform", input);
    expect(added.status).toBe(200);
    platformId = added.data.id;
    const again = await trpcMutation(a.app, admin.token, "lti.addPlatform", input);
    expect(again.status).toBe(400);
    expect(again.error.message).toContain("clientId: this issuer and client id are registered already");
    const bad = await trpcMutation(a.app, admin.token, "lti.addPlatform", { ...input, clientId: "other", tokenUrl: "http://lms.example.edu/token" });
    expect(bad.error.message).toContain("tokenUrl");
    const list = await trpcQuery(a.app, admin.token, "lti.platforms", undefined);
    expect(list.data.tool).toMatchObject({ loginUrl: "http://localhost/api/lti/login", jwksUrl: "http://localhost/api/lti/jwks" });
    const jwks = (await (await fetch(`${origin}/api/lti/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: list.data.tool.keyId });
    for (const secret of ["d", "p", "q", "dp", "dq", "qi"]) expect(jwks.keys[0]![secret]).toBeUndefined();
  });
});

describe("launches", () => {
  test("an instructor's first launch signs them in and creates the course linked to the LMS course, with them as owner", async () => {
    platform.users.set("lms-teacher", { email: "teacher@lms.example", given_name: "Tina", family_name: "Teacher" });
    const l = await launch("lms-teacher", "teach-1", teacherSpec());
    expect(l.res.status).toBe(302);
    expect(l.location).toMatch(/^\/auth\/complete\?next=%2Fcourses%2F[\w-]+$/);
    expect(l.token).toMatch(/^ey/);
    teacherToken = l.token!;
    const mine = await request(a.app, "GET", "/api/courses", { token: teacherToken });
    expect(mine.body.courses).toHaveLength(1);
    expect(mine.body.courses[0]).toMatchObject({ title: "Algorithms (LMS)", code: "C1", role: "owner" });
    courseId = mine.body.courses[0].id;
    const ids = await a.t.services.db.select().from(externalIdentities).where(eq(externalIdentities.subject, "lms-teacher"));
    expect(ids).toMatchObject([{ provider: `lti:${platformId}`, issuer: platform.issuer }]);
    // The session cookie came too.
    expect(l.agent.cookie(new URL(origin).host, "oj_session")).toBe(teacherToken);
  });

  test("deep linking: the instructor picks an assignment; the signed response reaches the platform with a resource link and a line item", async () => {
    const problem = await request(a.app, "POST", "/api/problems", { token: teacherToken, body: addOneProblem({ courseId }) });
    expect(problem.status).toBe(201);
    problemId = problem.body._id;
    const created = await request(a.app, "POST", `/api/courses/${courseId}/assignments`, {
      token: teacherToken,
      body: { title: "Week 1", opensAt: "2026-03-01T00:00:00Z", dueAt: "2026-03-20T00:00:00Z", problems: [{ problemId, points: 100 }] },
    });
    expect(created.status).toBe(201);
    assignmentId = created.body.id;
    const l = await launch("lms-teacher", "dl-1", teacherSpec({ messageType: "LtiDeepLinkingRequest" }));
    expect(l.res.status).toBe(302);
    const pickId = /next=%2Flti%2Fdeep-link%2F([\w-]+)/.exec(l.location)?.[1];
    expect(pickId).toBeTruthy();
    const choices = await trpcQuery(a.app, l.token, "lti.deepLinkChoices", { id: pickId });
    expect(choices.data.assignments).toEqual([{ id: assignmentId, title: "Week 1", points: 100 }]);
    // Someone else cannot use the picker.
    const other = await signUp(a.app);
    expect((await trpcQuery(a.app, other.token, "lti.deepLinkChoices", { id: pickId })).status).toBe(404);
    const answer = await trpcMutation(a.app, l.token, "lti.deepLinkRespond", { id: pickId, assignmentId });
    expect(answer.status).toBe(200);
    expect(answer.data.returnUrl).toBe(`${platform.services}/deep-link-return`);
    const posted = await fetch(answer.data.returnUrl, { method: "POST", body: new URLSearchParams({ JWT: answer.data.jwt }) });
    expect(posted.status).toBe(200);
    const dl = platform.deepLinks.at(-1)!;
    expect(dl[CLAIM.messageType]).toBe("LtiDeepLinkingResponse");
    expect(dl[CLAIM.deploymentId]).toBe(platform.deploymentId);
    expect(dl[CLAIM.deepLinkData]).toBe("platform-opaque-data");
    expect(dl[CLAIM.contentItems]).toEqual([
      { type: "ltiResourceLink", title: "Week 1", url: `http://localhost/api/lti/launch`, custom: { oj_assignment: assignmentId }, lineItem: { scoreMaximum: 100, label: "Week 1", resourceId: assignmentId } },
    ]);
    // Used once.
    expect((await trpcMutation(a.app, l.token, "lti.deepLinkRespond", { id: pickId, assignmentId })).status).toBe(404);
  });

  test("a learner launches straight into the linked assignment; an AC sends the grade to the line item", async () => {
    platform.users.set("lms-student-1", { email: "sam@lms.example", given_name: "Sam", family_name: "Student" });
    const lineItem = `${platform.services}/contexts/c1/lineitems/li-1`;
    const l = await launch("lms-student-1", "learn-1", { roles: [ROLE.learner], contextId: "c1", resourceLinkId: "rl-week1", custom: { oj_assignment: assignmentId }, lineItem });
    expect(l.location).toBe(`/auth/complete?next=${encodeURIComponent(`/assignments/${assignmentId}`)}`);
    const mine = await request(a.app, "GET", "/api/courses", { token: l.token! });
    expect(mine.body.courses.map((c: { id: string; role: string }) => [c.id, c.role])).toEqual([[courseId, "student"]]);
    const sub = await request(a.app, "POST", `/api/assignments/${assignmentId}/submissions`, { token: l.token!, body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect(sub.status).toBeLessThan(300);
    await eventually(async () => (await fillOutbox(a.t.services.db)) > 0, 30_000, 100);
    const { sent } = await sendDue(a.t.services.db);
    expect(sent).toBe(1);
    expect(platform.scores).toHaveLength(1);
    expect(platform.scores[0]).toMatchObject({
      lineItem,
      body: { userId: "lms-student-1", scoreGiven: 100, scoreMaximum: 100, activityProgress: "Completed", gradingProgress: "FullyGraded" },
    });
    expect(platform.scores[0]!.scopes).toContain("https://purl.imsglobal.org/spec/lti-ags/scope/score");
    // Canvas's rules: the client assertion's aud is the token URL; every call names the tool.
    expect(platform.assertionAudiences.at(-1)).toBe(platform.tokenUrl);
    expect(platform.userAgents.length).toBeGreaterThan(0);
    expect(platform.userAgents.every((ua) => ua.startsWith("online-judge-lti/"))).toBe(true);
    // Nothing new: nothing queued again.
    expect(await fillOutbox(a.t.services.db)).toBe(0);
  }, 60_000);

  test("a failing platform gets the grade later, with backoff; the instructor sees the failure meanwhile", async () => {
    platform.users.set("lms-student-2", { email: "ria@lms.example", given_name: "Ria" });
    const l = await launch("lms-student-2", "learn-2", { roles: [ROLE.learner], contextId: "c1", resourceLinkId: "rl-week1", custom: { oj_assignment: assignmentId } });
    await request(a.app, "POST", `/api/assignments/${assignmentId}/submissions`, { token: l.token!, body: { problemId, code: PY_ADD_ONE, language: "py" } });
    await eventually(async () => (await fillOutbox(a.t.services.db)) > 0, 30_000, 100);
    platform.failScores = 1;
    expect(await sendDue(a.t.services.db)).toEqual({ sent: 0, failed: 1 });
    const status = await trpcQuery(a.app, teacherToken, "lti.courseStatus", { courseId });
    const activity = status.data.activities.find((x: { resourceLinkId: string }) => x.resourceLinkId === "rl-week1");
    expect(activity).toMatchObject({ assignmentTitle: "Week 1", gradesToLms: true, failing: 1, sent: 1 });
    expect(activity.lastError).toContain("HTTP 500");
    // Not due again at once; after the backoff it goes.
    expect(await sendDue(a.t.services.db)).toEqual({ sent: 0, failed: 0 });
    const [row] = await a.t.services.db.select().from(ltiGradeOutbox).where(eq(ltiGradeOutbox.ltiUserId, "lms-student-2"));
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await sendDue(a.t.services.db, undefined, row!.nextAttemptAt.getTime() + 1)).toEqual({ sent: 1, failed: 0 });
    expect(platform.scores.at(-1)!.body).toMatchObject({ userId: "lms-student-2", scoreGiven: 100 });
    // A student may not see the course's LMS status.
    expect((await trpcQuery(a.app, l.token, "lti.courseStatus", { courseId })).status).toBe(403);
  }, 60_000);

  test("LTI roles become course roles: TeachingAssistant → ta; an institution instructor who is a learner here → student", async () => {
    platform.users.set("lms-ta", { email: "ta@lms.example" });
    platform.users.set("lms-prof-learning", { email: "prof@lms.example" });
    const ta = await launch("lms-ta", "ta-1", { roles: [ROLE.ta], contextId: "c1", resourceLinkId: "rl-home" });
    const prof = await launch("lms-prof-learning", "prof-1", { roles: [ROLE.institutionInstructor, ROLE.learner], contextId: "c1", resourceLinkId: "rl-home" });
    const roleOf = async (token: string) => (await request(a.app, "GET", "/api/courses", { token })).body.courses[0].role;
    expect(await roleOf(ta.token!)).toBe("ta");
    expect(await roleOf(prof.token!)).toBe("student");
  });

  test("a learner launching from an LMS course no instructor opened here is told so, with no course made", async () => {
    platform.users.set("lms-early", { email: "early@lms.example" });
    const l = await launch("lms-early", "early-1", { roles: [ROLE.learner], contextId: "c-new" });
    expect(l.res.status).toBe(403);
    expect(l.html).toContain("Your instructor has not opened this course here yet");
  });
});

/** Starts a real login, then posts `claims` (signed by the platform's key unless foreign) as the launch. */
async function forged(claims: (nonce: string) => Record<string, unknown>, opts: { foreignKey?: boolean } = {}) {
  platform.users.set("lms-victim", { email: "victim@lms.example" });
  const agent = new Agent();
  const toPlatform = await agent.fetch(platform.loginUrl(`${origin}/api/lti/login`, "lms-victim", "none"));
  const auth = new URL(toPlatform.headers.get("location")!);
  const nonce = auth.searchParams.get("nonce")!;
  const state = auth.searchParams.get("state")!;
  expect(auth.searchParams.get("response_mode")).toBe("form_post");
  expect(auth.searchParams.get("prompt")).toBe("none");
  expect(auth.searchParams.get("lti_message_hint")).toBe("none");
  const idToken = await platform.sign(claims(nonce), opts);
  const before = await sessionCount();
  const res = await agent.fetch(`${origin}/api/lti/launch`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ id_token: idToken, state }) });
  return { status: res.status, text: await res.text(), newSessions: (await sessionCount()) - before };
}
const now = () => Math.floor(Date.now() / 1000);
const good = (nonce: string): Record<string, unknown> => ({
  iss: platform.issuer,
  aud: platform.clientId,
  sub: "lms-victim",
  email: "victim@lms.example",
  iat: now(),
  exp: now() + 300,
  nonce,
  [CLAIM.messageType]: "LtiResourceLinkRequest",
  [CLAIM.version]: "1.3.0",
  [CLAIM.deploymentId]: platform.deploymentId,
  [CLAIM.roles]: [ROLE.learner],
  [CLAIM.context]: { id: "c1" },
  [CLAIM.resourceLink]: { id: "rl-home" },
});

describe("forged and replayed launches", () => {
  test("a replayed launch (the same id_token and state) is refused and makes no session", async () => {
    platform.users.set("lms-replay", { email: "replay@lms.example" });
    const l = await launch("lms-replay", "replay-1", { roles: [ROLE.learner], contextId: "c1" });
    expect(l.res.status).toBe(302);
    const before = await sessionCount();
    l.agent.jar.get(new URL(origin).host)!.set("oj_lti_state", l.state);
    const again = await l.agent.fetch(`${origin}/api/lti/launch`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ id_token: l.idToken, state: l.state }) });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("expired or was already used");
    expect(await sessionCount()).toBe(before);
  });

  test("the control: a well-formed token signed by the platform is accepted", async () => {
    expect(await forged(good)).toMatchObject({ status: 302, newSessions: 1 });
  });

  const cases: [string, (n: string) => Record<string, unknown>, { foreignKey?: boolean }, string][] = [
    ["a key the platform never published", good, { foreignKey: true }, "signature"],
    ["another issuer", (n) => ({ ...good(n), iss: "http://127.0.0.1:1/evil" }), {}, "iss"],
    ["another audience", (n) => ({ ...good(n), aud: "someone-else" }), {}, "aud"],
    ["several audiences without azp", (n) => ({ ...good(n), aud: [platform.clientId, "x"] }), {}, "azp"],
    ["an expired token", (n) => ({ ...good(n), exp: now() - 600, iat: now() - 900 }), {}, "exp"],
    ["a nonce it was not sent", (n) => ({ ...good(n), nonce: `${n}x` }), {}, "nonce"],
    ["an unregistered deployment", (n) => ({ ...good(n), [CLAIM.deploymentId]: "other-deployment" }), {}, "deployment other-deployment is not registered"],
    ["no LTI version", (n) => ({ ...good(n), [CLAIM.version]: undefined }), {}, "version"],
    ["no resource link on a resource link launch", (n) => ({ ...good(n), [CLAIM.resourceLink]: undefined }), {}, "resource_link"],
  ];
  for (const [what, claims, opts, reason] of cases) {
    test(`a launch with ${what} is refused`, async () => {
      const r = await forged(claims, opts);
      expect(r.status).toBe(401);
      expect(r.newSessions).toBe(0);
      expect(r.text).toContain("The LMS launch failed verification");
      expect(r.text).toContain(reason);
    });
  }

  test("the state must come back with this browser's cookie; without one (blocked in the iframe) the page offers a new window and signs nobody in", async () => {
    platform.users.set("lms-blocked", { email: "blocked@lms.example" });
    const agent = new Agent();
    platform.launches.set("blocked", { roles: [ROLE.learner], contextId: "c1" });
    await platform.signIn(agent, "lms-blocked");
    const toPlatform = await agent.fetch(platform.loginUrl(`${origin}/api/lti/login`, "lms-blocked", "blocked"));
    const { res: formPage, url } = await agent.follow(new URL(toPlatform.headers.get("location")!));
    const html = await formPage.text();
    agent.jar.get(new URL(origin).host)!.delete("oj_lti_state");
    const before = await sessionCount();
    const res = await agent.submitForm(url, html, {});
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Open the activity in a new window");
    expect(page).toContain("/api/lti/login?iss=");
    expect(await sessionCount()).toBe(before);
  });

  test("a login from an unregistered platform or without its parameters is refused", async () => {
    const unknown = await new Agent().fetch(`${origin}/api/lti/login?iss=${encodeURIComponent("https://unknown.example")}&login_hint=x&target_link_uri=${encodeURIComponent(origin)}`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("No LMS platform is registered here for https://unknown.example");
    const missing = await new Agent().fetch(`${origin}/api/lti/login?iss=x`);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("login_hint");
  });
});

describe("roster sync", () => {
  test("the instructor pulls the LMS roster (three pages) into the course: new accounts, roles from the LMS, inactive members left out", async () => {
    const local = await signUp(a.app, { email: "local.student@lms.example" });
    platform.members.set("c1", [
      { user_id: "lms-teacher", roles: [ROLE.instructor], status: "Active", email: "teacher@lms.example" },
      { user_id: "lms-new-ta", roles: [ROLE.ta], status: "Active", email: "newta@lms.example", given_name: "Nia", family_name: "Ta" },
      { user_id: "lms-new-1", roles: [ROLE.learner], status: "Active", email: "new1@lms.example", given_name: "Ned" },
      { user_id: "lms-local", roles: [ROLE.learner], status: "Active", email: "local.student@lms.example" },
      { user_id: "lms-gone", roles: [ROLE.learner], status: "Inactive", email: "gone@lms.example" },
    ]);
    platform.memberPagesServed = 0;
    const student = await trpcMutation(a.app, local.token, "lti.syncRoster", { courseId });
    expect(student.status).toBe(404);
    const r = await trpcMutation(a.app, teacherToken, "lti.syncRoster", { courseId });
    expect(r.status).toBe(200);
    // The local account whose email the LMS lists is not attached by email alone: skipped until its owner launches.
    expect(r.data).toEqual({ listed: 5, added: 2, updated: 0, unchanged: 1, skipped: 2 });
    expect(platform.memberPagesServed).toBe(3);
    const roster = await request(a.app, "GET", `/api/courses/${courseId}/members`, { token: teacherToken });
    const roleOf = (email: string) => roster.body.members.find((m: { email: string }) => m.email === email)?.role;
    expect([roleOf("newta@lms.example"), roleOf("new1@lms.example"), roleOf("local.student@lms.example"), roleOf("gone@lms.example"), roleOf("teacher@lms.example")]).toEqual([
      "ta",
      "student",
      undefined,
      undefined,
      "owner",
    ]);
    // Nor linked: linking needs its owner.
    expect(await a.t.services.db.select().from(externalIdentities).where(eq(externalIdentities.subject, "lms-local"))).toEqual([]);
  });
});

describe("an LMS is trusted only for what it vouches for", () => {
  test("a launch's email is not verified unless the platform is trusted with email: no staff invitation is taken up, no account linked by it", async () => {
    const owner = await signUp(a.app);
    await setAccountByEmail(a.t.services.db, owner.email, { canCreateCourses: true });
    const course = await request(a.app, "POST", "/api/courses", { token: owner.token, body: { title: "Other course", code: `OTHER-${Date.now().toString(36)}` } });
    expect(course.status).toBe(201);
    // A TA invitation waits for ta-invite@lms.example; an LMS user whose LMS email is that address launches.
    const invited = await request(a.app, "POST", `/api/courses/${course.body.id}/members`, { token: owner.token, body: { email: "ta-invite@lms.example", role: "ta" } });
    expect(invited.status).toBe(201);
    platform.users.set("lms-claims-ta", { email: "ta-invite@lms.example" });
    const l = await launch("lms-claims-ta", "claims-1", { roles: [ROLE.learner], contextId: "c1", resourceLinkId: "rl-home" });
    expect(l.res.status).toBe(302);
    const theirs = (await request(a.app, "GET", "/api/courses", { token: l.token! })).body.courses.map((c: { id: string; role: string }) => [c.id, c.role]);
    expect(theirs.find(([id]: [string]) => id === course.body.id)).toBeUndefined();
    // And an existing account with a launch's email is not taken over by it.
    const local = await signUp(a.app, { email: "owned@lms.example" });
    platform.users.set("lms-owned", { email: "owned@lms.example" });
    const taken = await launch("lms-owned", "owned-1", { roles: [ROLE.learner], contextId: "c1", resourceLinkId: "rl-home" });
    expect(taken.res.status).toBe(409);
    expect(taken.token).toBeNull();
    expect(local.user.id).toBeTruthy();
  });

  /** A launch whose well-formed claims are changed by `over` (signed by the platform). */
  const launchWith = (over: Record<string, unknown>) => forged((n) => ({ ...good(n), ...over }));

  test("URLs a launch names must be the platform's own (https, its site): a memberships URL, line item or return URL elsewhere refuses the launch", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["context_memberships_url", { [CLAIM.nrps]: { context_memberships_url: "http://169.254.169.254/latest/meta-data/", service_versions: ["2.0"] } }],
      ["context_memberships_url", { [CLAIM.nrps]: { context_memberships_url: "https://attacker.example/members", service_versions: ["2.0"] } }],
      ["lineitem", { [CLAIM.agsEndpoint]: { scope: [], lineitem: "https://attacker.example/lineitem" } }],
      [
        "deep_link_return_url",
        {
          [CLAIM.messageType]: "LtiDeepLinkingRequest",
          [CLAIM.resourceLink]: undefined,
          [CLAIM.roles]: [ROLE.instructor],
          [CLAIM.deepLinkingSettings]: { deep_link_return_url: "https://attacker.example/return", accept_types: ["ltiResourceLink"] },
        },
      ],
    ];
    for (const [claim, over] of cases) {
      const r = await launchWith(over);
      expect({ claim, status: r.status }).toEqual({ claim, status: 401 });
      expect(r.text).toContain(claim);
    }
    // The control: the platform's own URLs are fine.
    expect((await launchWith({})).status).toBe(302);
  });

  test("a roster page that links its next page elsewhere stops the sync with the reason; nothing is fetched there", async () => {
    const [ctx] = await a.t.services.db.select().from((await import("../../db/schema.ts")).ltiContexts).limit(1);
    const original = ctx!.membershipsUrl!;
    platform.members.set("c1", [{ user_id: "lms-teacher", roles: [ROLE.instructor], status: "Active", email: "teacher@lms.example" }]);
    platform.nextLinkOverride = "http://169.254.169.254/next";
    try {
      const r = await trpcMutation(a.app, teacherToken, "lti.syncRoster", { courseId });
      expect(r.status).toBe(503);
      expect(r.error.message).toContain("next page of the memberships: not https");
      platform.nextLinkOverride = "https://attacker.example/next";
      const elsewhere = await trpcMutation(a.app, teacherToken, "lti.syncRoster", { courseId });
      expect(elsewhere.error.message).toContain("next page of the memberships: not on the platform's own site");
    } finally {
      platform.nextLinkOverride = null;
    }
    expect(original).toContain("/memberships");
  });
});

