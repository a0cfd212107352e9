/**
 * LTI 1.3 in the browser, against the platform stand-in (tests/lti/platform.ts):
 * an instructor signed in to the "LMS" adds an activity through deep linking
 * (the picker's pick is form-posted back to the platform), and a learner's
 * launch drops them straight into the linked assignment, signed in by the
 * launch's session cookie; a link that carries someone else's token in its
 * fragment signs nobody in as them.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ROLE, startPlatform, type Platform } from "../tests/lti/platform.ts";
import { Agent } from "../tests/sso/agent.ts";
import { addOneProblem } from "../tests/courses/fixtures.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, ROOT, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3317;
const ORIGIN = `http://127.0.0.1:${PORT}`;
let server: TestServer;
let browser: Browser;
let platform: Platform;
const pages: WatchedPage[] = [];
let assignmentId: string;
let courseId: string;
let teacherToken: string;

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT, { PUBLIC_URL: ORIGIN, JUDGE_IN_PROCESS: "false" });
  platform = await startPlatform({ launchUrl: `${ORIGIN}/api/lti/launch`, jwksUrl: `${ORIGIN}/api/lti/jwks` });
  const add = Bun.spawnSync(
    ["bun", "scripts/lti.ts", "add", "--name", "Stand-in LMS", "--issuer", platform.issuer, "--client-id", platform.clientId, "--deployment", platform.deploymentId, "--auth-url", platform.authUrl, "--token-url", platform.tokenUrl, "--jwks-url", platform.jwksUrl],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: server.databaseUrl } },
  );
  if (add.exitCode !== 0) throw new Error(`lti add: ${add.stderr.toString()}`);
  // The instructor's first launch (no browser needed) creates the course; an assignment is made in it.
  platform.users.set("lms-teacher", { email: "teacher@lms.example", given_name: "Tina", family_name: "Teacher" });
  platform.users.set("lms-learner", { email: "leo@lms.example", given_name: "Leo", family_name: "Learner" });
  platform.launches.set("home", { roles: [ROLE.instructor], contextId: "algo", contextTitle: "Algorithms", resourceLinkId: "home" });
  const agent = new Agent();
  await platform.signIn(agent, "lms-teacher");
  const toPlatform = await agent.fetch(platform.loginUrl(`${ORIGIN}/api/lti/login`, "lms-teacher", "home"));
  const { res, url } = await agent.follow(new URL(toPlatform.headers.get("location")!));
  const launched = await agent.submitForm(url, await res.text(), {});
  if (!(launched.headers.get("location") ?? "").startsWith("/auth/complete")) throw new Error(`instructor launch: ${launched.status}`);
  const adopted = await agent.fetch(`${ORIGIN}/trpc/auth.adoptSession`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN }, body: "{}" });
  const token = ((await adopted.json()) as { result?: { data?: { token?: string } } }).result?.data?.token;
  if (!token) throw new Error(`instructor launch: no session (${adopted.status})`);
  teacherToken = token;
  const api = async (path: string, body: unknown) =>
    (await fetch(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json() as Promise<any>;
  const courses = (await (await fetch(`${ORIGIN}/api/courses`, { headers: { authorization: `Bearer ${token}` } })).json()) as { courses: { id: string }[] };
  courseId = courses.courses[0]!.id;
  const problem = await api("/api/problems", addOneProblem({ courseId }));
  const assignment = await api(`/api/courses/${courseId}/assignments`, { title: "Week 1", opensAt: "2026-01-01T00:00:00Z", dueAt: "2036-01-01T00:00:00Z", problems: [{ problemId: problem._id, points: 10 }] });
  assignmentId = assignment.id;
  browser = await launchBrowser();
}, 120_000);
afterEach(() => {
  for (const w of pages.splice(0)) {
    // The LMS's own pages are the journey's foreign origins (its login page asks a font CDN, blocked here).
    w.foreignRequests.splice(0, w.foreignRequests.length, ...w.foreignRequests.filter((u) => !u.startsWith(platform.issuer) && !u.startsWith(platform.services) && !u.startsWith("https://fonts.googleapis.com/")));
    w.errors.splice(0, w.errors.length, ...w.errors.filter((e) => !e.includes("net::ERR_FAILED")));
    expectCleanPages([w], w);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await platform?.stop();
});

/** A browser signed in to the LMS as `userId` (the platform's own login page). */
async function lmsUser(userId: string): Promise<Page> {
  const w = await openPage(browser, ORIGIN);
  pages.push(w);
  await w.context.route("https://fonts.googleapis.com/**", (route) => route.abort());
  const p = w.page;
  const start = new URL(platform.authUrl);
  for (const [k, v] of Object.entries({ client_id: platform.clientId, response_type: "id_token", response_mode: "form_post", scope: "openid", redirect_uri: `${ORIGIN}/api/lti/launch`, nonce: "n", state: "lms-session" })) start.searchParams.set(k, v);
  // The LMS's own sign-in; its form_post then lands on an expired launch here, which is fine.
  await p.goto(start.toString());
  await p.locator('input[name="login"]').fill(userId);
  await p.locator('input[name="password"]').fill("lms-password");
  await p.getByRole("button", { name: "Sign-in" }).click();
  await p.waitForURL(`${ORIGIN}/api/lti/launch`);
  w.errors.length = 0;
  return p;
}

test("an instructor adds an activity from the LMS: the deep-linking picker sends the signed pick back to the platform", async () => {
  platform.launches.set("add-activity", { messageType: "LtiDeepLinkingRequest", roles: [ROLE.instructor], contextId: "algo" });
  const p = await lmsUser("lms-teacher");
  await p.goto(platform.loginUrl(`${ORIGIN}/api/lti/login`, "lms-teacher", "add-activity"));
  await p.getByRole("heading", { name: "Add an activity to the LMS" }).waitFor();
  await p.getByRole("button", { name: "Add “Week 1”" }).click();
  await p.waitForURL(`${platform.services}/deep-link-return`);
  expect(await p.textContent("body")).toContain("Activity added");
  const items = platform.deepLinks.at(-1)!["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"] as { custom: Record<string, string> }[];
  expect(items[0]!.custom).toEqual({ oj_assignment: assignmentId });
}, 60_000);

test("a learner's launch drops them straight into the linked assignment, signed in by the launch's session cookie (no token in the URL)", async () => {
  platform.launches.set("week-1", { roles: [ROLE.learner], contextId: "algo", resourceLinkId: "week-1", custom: { oj_assignment: assignmentId } });
  const p = await lmsUser("lms-learner");
  const seen: string[] = [];
  p.on("framenavigated", (f) => seen.push(f.url()));
  await p.goto(platform.loginUrl(`${ORIGIN}/api/lti/login`, "lms-learner", "week-1"));
  await p.waitForURL(`${ORIGIN}/assignments/${assignmentId}`);
  await p.getByRole("heading", { name: "Week 1" }).waitFor();
  expect(await p.evaluate(() => localStorage.getItem("token"))).toMatch(/^ey/);
  expect(seen.some((u) => u.includes("#token") || u.includes("token="))).toBe(false);
}, 60_000);

test("a link to /auth/complete with another account's token in its fragment signs nobody in as that account", async () => {
  const p = await lmsUser("lms-learner");
  platform.launches.set("week-1b", { roles: [ROLE.learner], contextId: "algo", resourceLinkId: "week-1", custom: { oj_assignment: assignmentId } });
  await p.goto(platform.loginUrl(`${ORIGIN}/api/lti/login`, "lms-learner", "week-1b"));
  await p.waitForURL(`${ORIGIN}/assignments/${assignmentId}`);
  const me = async () =>
    p.evaluate(async () => {
      const res = await fetch("/api/auth/me", { headers: { authorization: `Bearer ${localStorage.getItem("token")}` } });
      return ((await res.json()) as { user?: { email?: string } }).user?.email ?? null;
    });
  expect(await me()).toBe("leo@lms.example");
  // The attacker's link: their own session token in the fragment.
  await p.goto(`${ORIGIN}/auth/complete?next=%2Fproblems#token=${teacherToken}`);
  await p.waitForURL(`${ORIGIN}/problems`);
  expect(await me()).toBe("leo@lms.example");
  expect(p.url()).not.toContain("#token");
}, 60_000);

test("on the course's settings the instructor sees the LMS link and pulls the roster from the LMS", async () => {
  platform.members.set("algo", [
    { user_id: "lms-teacher", roles: [ROLE.instructor], status: "Active", email: "teacher@lms.example" },
    { user_id: "lms-new-student", roles: [ROLE.learner], status: "Active", email: "nina@lms.example", given_name: "Nina" },
    { user_id: "lms-new-ta", roles: [ROLE.ta], status: "Active", email: "tom@lms.example", given_name: "Tom" },
  ]);
  const p = await lmsUser("lms-teacher");
  await p.goto(platform.loginUrl(`${ORIGIN}/api/lti/login`, "lms-teacher", "home"));
  await p.waitForURL(`${ORIGIN}/courses/${courseId}`);
  await p.goto(`/courses/${courseId}/settings`);
  await p.getByRole("heading", { name: "LMS" }).waitFor();
  expect(await p.getByText("Linked to Stand-in LMS course algo").count()).toBe(1);
  await p.getByRole("button", { name: "Sync roster from the LMS" }).click();
  await p.getByText("Roster synced: 3 in the LMS, 2 added, 0 changed, 1 unchanged, 0 skipped.").waitFor();
  await p.getByRole("cell", { name: /nina@lms\.example/ }).first().waitFor();
}, 60_000);
