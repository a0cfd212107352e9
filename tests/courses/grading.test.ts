/**
 * Grading by people (issue 37 §4–5, decision 076) through the real parts: the
 * REST doors on the real app over a real libSQL file, the real sandbox judging
 * (boxes 4616–4623), and the LTI platform stand-in (tests/lti/platform.ts) on a
 * real port receiving grade passback. A rubric grade stays hidden from the
 * student, the gradebook, the CSV and the LMS until released; then it reaches
 * all of them; a regrade request is asked, queued, answered and notified; each
 * role may do exactly what COURSE_PERMISSIONS says.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { notifications } from "../../db/schema.ts";
import { setAccountByEmail } from "../../src/accounts/admin.ts";
import { createSandbox } from "../../isolate/index.ts";
import { fillOutbox, sendDue } from "../../src/lti/grades.ts";
import { noticeMail } from "../../src/notifications/mail.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { request, signUp } from "../api.ts";
import { addOneProblem, courseApp, trpcMutation, type CourseApp } from "./fixtures.ts";
import { eventually, judgeConfig, preparePch } from "../judge/fixtures.ts";
import { Agent } from "../sso/agent.ts";
import { ROLE, startPlatform, type LaunchSpec, type Platform } from "../lti/platform.ts";

/**
 * Boxes 4616–4623 (JUDGE_TEST_BOX_ID_START 3500 + 1116, eight of them): the e2e range of port 3327
 * (e2e/harness.ts), which belongs to this part and which e2e/grading.test.ts does not serve on. (The
 * range first given, 5588–5595, is past what bwrap allows: 60000 + id must stay below the overflow uid 65534.)
 */
const BOX_OFFSET = 1116;

let sandbox: SandboxSelection;
let a: CourseApp;
let server: ReturnType<typeof Bun.serve>;
let origin: string;
let platform: Platform;
let owner: string;
let ta: { token: string; email: string; id: string };
let student: string;
let studentId: string;
let other: { token: string; email: string };
let outsider: string;
let courseId: string;
let assignmentId: string;
let problemId: string;
let submissionId: string;
let items: { id: string; points: number; description: string }[];
const lineItem = () => `${platform.services}/contexts/g1/lineitems/li-grading`;

/** As the LMS: the user signed in there opens the activity (login, the platform's form_post, the launch); the session token. */
async function launch(userId: string, hint: string, spec: LaunchSpec): Promise<string> {
  const agent = new Agent();
  platform.launches.set(hint, spec);
  await platform.signIn(agent, userId);
  const toPlatform = await agent.fetch(platform.loginUrl(`${origin}/api/lti/login`, userId, hint));
  const { res: formPage, url } = await agent.follow(new URL(toPlatform.headers.get("location")!));
  const html = await formPage.text();
  const res = await agent.submitForm(url, html, {});
  expect(res.status).toBe(302);
  const adopted = await agent.fetch(`${origin}/trpc/auth.adoptSession`, { method: "POST", headers: { "content-type": "application/json", origin }, body: "{}" });
  return ((await adopted.json()) as { result: { data: { token: string } } }).result.data.token;
}

const api = (method: string, path: string, token: string, body?: unknown) => request(a.app, method, path, { token, ...(body === undefined ? {} : { body }) });
const cell = async () => {
  const g = await api("GET", `/api/assignments/${assignmentId}/grades`, owner);
  return g.body.cells.find((c: { userId: string }) => c.userId === studentId);
};
const csvRow = async () => {
  const r = await a.app.request(`/api/assignments/${assignmentId}/grades?format=csv`, { headers: { authorization: `Bearer ${owner}` } });
  return (await r.text()).split("\n").find((line) => line.startsWith(studentId));
};
const noticesOf = async (token: string) => (await api("GET", "/api/notifications", token)).body.items as { kind: string; payload: Record<string, string> }[];

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", { ISOLATE_BOX_ID_COUNT: "8" }, BOX_OFFSET)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: BOX_OFFSET });
  a.clock.set("2026-03-01T12:00:00Z");
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, s) => a.app.fetch(req, s) });
  origin = `http://127.0.0.1:${server.port}`;
  platform = await startPlatform({ launchUrl: `${origin}/api/lti/launch`, jwksUrl: `${origin}/api/lti/jwks` });
  const admin = await signUp(a.app, { firstName: "Site", lastName: "Admin" });
  await setAccountByEmail(a.t.services.db, admin.email, { siteRole: "admin" });
  const added = await trpcMutation(a.app, admin.token, "lti.addPlatform", {
    name: "Test LMS",
    issuer: platform.issuer,
    clientId: platform.clientId,
    deploymentIds: [platform.deploymentId],
    authUrl: platform.authUrl,
    tokenUrl: platform.tokenUrl,
    jwksUrl: platform.jwksUrl,
  });
  expect(added.status).toBe(200);
  // The instructor's first launch creates the course with them as owner.
  platform.users.set("g-teacher", { email: "teacher@grading.example", given_name: "Tina", family_name: "Teacher" });
  owner = await launch("g-teacher", "g-teach", { roles: [ROLE.instructor], contextId: "g1", contextTitle: "Grading (LMS)", resourceLinkId: "g-home" });
  courseId = (await api("GET", "/api/courses", owner)).body.courses[0].id;
  const problem = await api("POST", "/api/problems", owner, addOneProblem({ courseId, title: "Add one" }));
  expect(problem.status).toBe(201);
  problemId = problem.body._id;
  const created = await api("POST", `/api/courses/${courseId}/assignments`, owner, {
    title: "Week 1",
    opensAt: "2026-03-01T00:00:00Z",
    dueAt: "2026-03-20T00:00:00Z",
    problems: [{ problemId, points: 100 }],
  });
  expect(created.status).toBe(201);
  assignmentId = created.body.id;
  // The learner launches into the assignment's activity, whose line item gets the grades.
  platform.users.set("g-student", { email: "sam@grading.example", given_name: "Sam", family_name: "Student" });
  student = await launch("g-student", "g-learn", { roles: [ROLE.learner], contextId: "g1", resourceLinkId: "rl-grading", custom: { oj_assignment: assignmentId }, lineItem: lineItem() });
  studentId = (await api("GET", "/api/auth/me", student)).body.user?.id ?? (await api("GET", "/api/auth/me", student)).body.id;
  const t = await signUp(a.app, { firstName: "Tom", lastName: "Ta" });
  ta = { token: t.token, email: t.email, id: t.user.id };
  expect((await api("POST", `/api/courses/${courseId}/members`, owner, { email: ta.email, role: "ta" })).status).toBe(201);
  const o = await signUp(a.app, { firstName: "Olga", lastName: "Other" });
  other = { token: o.token, email: o.email };
  expect((await api("POST", `/api/courses/${courseId}/members`, owner, { email: other.email, role: "student" })).status).toBe(201);
  outsider = (await signUp(a.app)).token;
}, 120_000);

afterAll(async () => {
  server?.stop(true);
  await platform?.stop();
  await a?.close();
  await sandbox?.backend?.close();
});

describe("a judged submission and its grade at the LMS", () => {
  test("the student's AC reaches the gradebook and the line item (100 of 100)", async () => {
    const sub = await api("POST", `/api/assignments/${assignmentId}/submissions`, student, { problemId, code: "n = int(input())\nprint(n + 1)\n", language: "py" });
    expect(sub.status).toBe(201);
    expect(sub.body.verdict).toBe("AC");
    submissionId = sub.body.id ?? sub.body._id;
    await eventually(async () => (await fillOutbox(a.t.services.db)) > 0, 30_000, 100);
    expect((await sendDue(a.t.services.db)).sent).toBe(1);
    expect(platform.scores.at(-1)).toMatchObject({ lineItem: lineItem(), body: { userId: "g-student", scoreGiven: 100, scoreMaximum: 100 } });
    expect((await cell()).score).toBe(100);
  }, 60_000);
});

describe("rubrics", () => {
  test("teachers define the rubric; a TA and a student may not (403); bad input names the field (400)", async () => {
    const path = `/api/assignments/${assignmentId}/problems/${problemId}/rubric`;
    const body = { mode: "add", items: [{ points: -10, description: "Variables are not named" }, { points: 5, description: "Clear comments" }] };
    expect((await api("PUT", path, ta.token, body)).status).toBe(403);
    expect((await api("PUT", path, student, body)).status).toBe(403);
    expect((await api("GET", path, student)).status).toBe(403);
    expect((await api("PUT", path, outsider, body)).status).toBe(404);
    const bad = await api("PUT", path, owner, { mode: "sum", items: [{ points: "x", description: "" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("mode");
    const badItem = await api("PUT", path, owner, { mode: "add", items: [{ points: 1, description: "" }] });
    expect(badItem.body.field).toBe("items.0.description");
    const foreign = await api("PUT", path, owner, { mode: "add", items: [{ id: "not-an-item", points: 1, description: "x" }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.field).toBe("items.0.id");
    const saved = await api("PUT", path, owner, body);
    expect(saved.status).toBe(200);
    items = saved.body.items;
    expect(items.map((i) => i.points)).toEqual([-10, 5]);
    // Staff read it; editing keeps ids.
    const read = await api("GET", path, ta.token);
    expect(read.body).toMatchObject({ mode: "add", items });
  });
});

describe("a review stays hidden until released", () => {
  test("a TA picks items and comments on lines; the student, another student and an outsider see nothing; the grade goes nowhere", async () => {
    const path = `/api/submissions/${submissionId}/review`;
    const bad = await api("PUT", path, ta.token, { itemIds: [items[0]!.id], comments: [{ line: 99, text: "past the end" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("comments.0.line");
    const notMine = await api("PUT", path, ta.token, { itemIds: ["nope"], comments: [] });
    expect(notMine.body.field).toBe("itemIds.0");
    // A TA grades but does not release.
    expect((await api("PUT", path, ta.token, { itemIds: [items[0]!.id], comments: [], release: true })).status).toBe(403);
    expect((await api("PUT", path, student, { itemIds: [], comments: [] })).status).toBe(403);
    const saved = await api("PUT", path, ta.token, { itemIds: [items[0]!.id], comments: [{ line: 2, text: "Call it `count`, not `n`" }] });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ viewer: "staff", points: 90, judgePoints: 100, review: { releasedAt: null, comments: [{ line: 2, text: "Call it `count`, not `n`" }] } });
    const hidden = await api("GET", path, student);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe("REVIEW_NOT_FOUND");
    expect(hidden.body.message).toBe("No released review of this submission yet");
    expect((await api("GET", path, other.token)).status).toBe(404);
    expect((await api("GET", path, outsider)).status).toBe(404);
    // Not in the gradebook, the CSV or the LMS.
    expect((await cell()).score).toBe(100);
    expect(await csvRow()).toContain(",100,");
    expect(await fillOutbox(a.t.services.db)).toBe(0);
  });

  test("the comment bank: staff add and reuse; students may not read or change it", async () => {
    const path = `/api/courses/${courseId}/comment-bank`;
    expect((await api("POST", path, student, { text: "x" })).status).toBe(403);
    expect((await api("GET", path, student)).status).toBe(403);
    expect((await api("POST", path, ta.token, { text: " " })).body.field).toBe("text");
    const added = await api("POST", path, ta.token, { text: "Call it `count`, not `n`" });
    expect(added.status).toBe(201);
    const again = await api("POST", path, owner, { text: "Call it `count`, not `n`" });
    expect(again.body.id).toBe(added.body.id);
    const gone = await api("POST", path, owner, { text: "Temporary" });
    expect((await api("DELETE", `/api/comment-bank/${gone.body.id}`, student)).status).toBe(403);
    expect((await api("DELETE", `/api/comment-bank/${gone.body.id}`, ta.token)).status).toBe(200);
    expect((await api("GET", path, ta.token)).body.map((c: { text: string }) => c.text)).toEqual(["Call it `count`, not `n`"]);
  });

  test("released for the whole assignment: the student reads it with the line comment; gradebook, CSV and the LMS get 90", async () => {
    expect((await api("POST", `/api/assignments/${assignmentId}/reviews/release`, ta.token, {})).status).toBe(403);
    const released = await api("POST", `/api/assignments/${assignmentId}/reviews/release`, owner, {});
    expect(released.body).toEqual({ released: 1 });
    const seen = await api("GET", `/api/submissions/${submissionId}/review`, student);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ viewer: "student", points: 90, maxPoints: 100, rights: { grade: false, requestRegrade: true }, review: { itemIds: [items[0]!.id], comments: [{ line: 2 }] } });
    expect(seen.body.review.releasedAt).toBe("2026-03-01T12:00:00.000Z");
    expect((await api("GET", `/api/submissions/${submissionId}/review`, other.token)).status).toBe(404);
    expect((await cell())).toMatchObject({ score: 90, bestSubmissionId: submissionId });
    expect(await csvRow()).toContain(",90,");
    await eventually(async () => (await fillOutbox(a.t.services.db)) > 0, 10_000, 50);
    expect((await sendDue(a.t.services.db)).sent).toBe(1);
    expect(platform.scores.at(-1)).toMatchObject({ lineItem: lineItem(), body: { userId: "g-student", scoreGiven: 90, scoreMaximum: 100 } });
    expect((await noticesOf(student)).some((n) => n.kind === "grade-changed" && n.payload.score === "90")).toBe(true);
  });
});

describe("regrade requests", () => {
  let requestId: string;

  test("the student asks with a reason; staff cannot ask; a second open request is refused (409); staff are notified", async () => {
    const path = `/api/submissions/${submissionId}/regrade-requests`;
    expect((await api("POST", path, student, { reason: "  " })).body.field).toBe("reason");
    expect((await api("POST", path, ta.token, { reason: "x" })).status).toBe(403);
    expect((await api("POST", path, other.token, { reason: "x" })).status).toBe(404);
    const asked = await api("POST", path, student, { reason: "I named it on line 2 as asked in the statement." });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: "open", answer: null });
    requestId = asked.body.id;
    const twice = await api("POST", path, student, { reason: "again" });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe("REGRADE_ALREADY_OPEN");
    const staffNotice = (await noticesOf(ta.token)).find((n) => n.kind === "regrade-requested");
    expect(staffNotice?.payload).toMatchObject({ title: "Week 1", problem: "Add one", path: `/courses/${courseId}/regrades` });
    expect((await noticesOf(owner)).some((n) => n.kind === "regrade-requested")).toBe(true);
    expect((await noticesOf(other.token)).some((n) => n.kind === "regrade-requested")).toBe(false);
  });

  test("staff see the queue; students do not (403)", async () => {
    expect((await api("GET", `/api/courses/${courseId}/regrade-requests`, student)).status).toBe(403);
    const queue = await api("GET", `/api/courses/${courseId}/regrade-requests`, ta.token);
    expect(queue.body).toHaveLength(1);
    expect(queue.body[0]).toMatchObject({ id: requestId, status: "open", assignmentTitle: "Week 1", problemTitle: "Add one", student: { userId: studentId } });
    expect((await api("GET", `/api/courses/${courseId}/regrade-requests?status=declined`, ta.token)).body).toHaveLength(0);
    expect((await api("GET", `/api/courses/${courseId}/regrade-requests?status=maybe`, ta.token)).body.field).toBe("status");
  });

  test("an answer: the student may not give one; bad points name the field; accepted with 95 points reaches the gradebook, CSV and LMS; the student is told, by e-mail too", async () => {
    const path = `/api/regrade-requests/${requestId}`;
    expect((await api("PATCH", path, student, { status: "accepted", answer: "yes" })).status).toBe(403);
    expect((await api("PATCH", path, outsider, { status: "accepted", answer: "yes" })).status).toBe(404);
    expect((await api("PATCH", "/api/regrade-requests/nope", ta.token, { status: "accepted", answer: "yes" })).status).toBe(404);
    expect((await api("PATCH", path, ta.token, { status: "maybe", answer: "x" })).body.field).toBe("status");
    expect((await api("PATCH", path, ta.token, { status: "declined", answer: "no", points: 3 })).body.field).toBe("points");
    expect((await api("PATCH", path, ta.token, { status: "accepted", answer: "yes", points: 150 })).body.field).toBe("points");
    const answered = await api("PATCH", path, ta.token, { status: "accepted", answer: "Right: line 2 follows the statement.", points: 95 });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "accepted", points: 95, answer: "Right: line 2 follows the statement." });
    expect((await api("PATCH", path, owner, { status: "declined", answer: "no" })).status).toBe(409);
    expect((await cell()).score).toBe(95);
    expect(await csvRow()).toContain(",95,");
    await eventually(async () => (await fillOutbox(a.t.services.db)) > 0, 10_000, 50);
    expect((await sendDue(a.t.services.db)).sent).toBe(1);
    expect(platform.scores.at(-1)!.body).toMatchObject({ userId: "g-student", scoreGiven: 95 });
    const seen = await api("GET", `/api/submissions/${submissionId}/review`, student);
    expect(seen.body).toMatchObject({ points: 95, rights: { requestRegrade: true }, regradeRequests: [{ status: "accepted", answer: "Right: line 2 follows the statement." }] });
    const notice = (await noticesOf(student)).find((n) => n.kind === "regrade-answered");
    expect(notice?.payload).toMatchObject({ status: "accepted", path: `/submissions/${submissionId}/review` });
    // Marked for its e-mail (on by default for this kind); the mail pass composes it with staff's words and the link.
    const [row] = await a.t.services.db.select().from(notifications).where(and(eq(notifications.userId, studentId), eq(notifications.kind, "regrade-answered")));
    expect(row!.mailState).toBe("pending");
    const mail = noticeMail({ ...row!, firstName: "Sam" }, "en", "https://judge.example.edu", "https://judge.example.edu/unsub");
    expect(mail.subject).toBe("Your regrade request on Week 1 was answered");
    expect(mail.text).toContain("Your regrade request on Add one in Week 1 (Grading (LMS)) was accepted. The answer:");
    expect(mail.text).toContain("Right: line 2 follows the statement.");
    expect(mail.text).toContain(`https://judge.example.edu/submissions/${submissionId}/review`);
  });

  test("turned off by the student, a kind's notice is not made", async () => {
    const prefs = await api("PUT", "/api/notifications/preferences", student, { kinds: [{ kind: "regrade-answered", inApp: false, email: false }] });
    expect(prefs.status).toBe(200);
    const asked = await api("POST", `/api/submissions/${submissionId}/regrade-requests`, student, { reason: "One more point?" });
    expect(asked.status).toBe(201);
    expect((await api("PATCH", `/api/regrade-requests/${asked.body.id}`, owner, { status: "declined", answer: "No." })).status).toBe(200);
    expect((await noticesOf(student)).filter((n) => n.kind === "regrade-answered")).toHaveLength(1);
    expect((await cell()).score).toBe(95);
  });

  test("a release taken back hides the review again and the gradebook returns to the judge's score", async () => {
    const back = await api("PUT", `/api/submissions/${submissionId}/review`, owner, { itemIds: [items[0]!.id], comments: [], release: false });
    expect(back.status).toBe(200);
    expect((await api("GET", `/api/submissions/${submissionId}/review`, student)).status).toBe(404);
    expect((await api("POST", `/api/submissions/${submissionId}/regrade-requests`, student, { reason: "x" })).status).toBe(404);
    expect((await cell()).score).toBe(100);
  });
});
