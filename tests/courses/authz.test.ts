/**
 * The authorization matrix: every course route and procedure tried as each
 * role (owner, instructor, TA, student, a signed-in non-member, signed out,
 * and a site admin), asserting the status each gets. Writes that change the
 * world act on throwaway targets made fresh for each call, so every role
 * meets the same situation.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSandbox } from "../../isolate/index.ts";
import { appRouter } from "../../src/trpc/router.ts";
import { createCallerFactory } from "../../src/trpc/init.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { request, signUp } from "../api.ts";
import { RateLimiter } from "../../src/lib/rate-limit.ts";
import { judgeConfig, preparePch } from "../judge/fixtures.ts";
import { modernPackage, zipOf } from "../packages/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, trpcMutation, trpcQuery, world, type CourseApp, type Person, type World } from "./fixtures.ts";

type Role = "owner" | "instructor" | "ta" | "student" | "nonmember" | "anon" | "admin";
const ROLES: Role[] = ["owner", "instructor", "ta", "student", "nonmember", "anon", "admin"];

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let problemId: string;
let assignmentId: string;
let studentSubmission: string;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 230)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 230 });
  a.clock.set("2026-05-04T10:00:00Z");
  w = await world(a);
  problemId = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ courseId: w.courseId }) })).body._id;
  assignmentId = (await newAssignment()).id;
  const s = await request(a.app, "POST", `/api/assignments/${assignmentId}/submissions`, { token: w.student.token, body: { problemId, code: PY_ADD_ONE, language: "py" } });
  if (s.status !== 201) throw new Error(`student submission: ${s.status} ${JSON.stringify(s.body)}`);
  studentSubmission = s.body._id;
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

/** A fresh assignment open now (due 2026-06-01), made by the owner; `extra` adds fields (a time limit, pools). */
async function newAssignment(title = "Open now", extra: Record<string, unknown> = {}) {
  const r = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
    token: w.owner.token,
    body: { title, opensAt: "2026-05-01T00:00:00Z", dueAt: "2026-06-01T00:00:00Z", problems: [{ problemId }], ...extra },
  });
  if (r.status !== 201) throw new Error(`assignment: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string };
}

function who(role: Role): Person | null {
  if (role === "anon") return null;
  if (role === "nonmember") return w.outsider;
  return w[role];
}
const tok = (role: Role) => who(role)?.token;

let unique = 0;
const next = () => `${Date.now().toString(36)}${++unique}`;

/** Runs `call` as each role and returns the statuses. */
async function statuses(call: (role: Role) => Promise<number>): Promise<Record<Role, number>> {
  const out = {} as Record<Role, number>;
  for (const role of ROLES) out[role] = await call(role);
  return out;
}

/** Expected statuses: `ok` for the roles allowed, 403 for members who are not, 404 for non-members, 401 signed out. */
function matrix(ok: number, allowed: Role[], over: Partial<Record<Role, number>> = {}): Record<Role, number> {
  const out = {} as Record<Role, number>;
  for (const role of ROLES) {
    out[role] = allowed.includes(role) || role === "admin" ? ok : role === "anon" ? 401 : role === "nonmember" ? 404 : 403;
  }
  return { ...out, ...over };
}
const MEMBERS: Role[] = ["owner", "instructor", "ta", "student"];
const STAFF: Role[] = ["owner", "instructor", "ta"];
const TEACHERS: Role[] = ["owner", "instructor"];

const rest = (role: Role, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  request(a.app, method, path, { ...(tok(role) ? { token: tok(role) } : {}), ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) }).then((r) => r.status);

const createCaller = createCallerFactory(appRouter);
type Api = ReturnType<typeof createCaller>;

/**
 * Opens a subscription as each role (tRPC's own caller: the stream's first event is the answer) and returns
 * the statuses: 200 when the first event arrives (the stream is then closed), 401/403/404 from the error's code.
 */
async function subscriptionStatuses(open: (api: Api) => Promise<unknown>): Promise<Record<Role, number>> {
  const out = {} as Record<Role, number>;
  for (const r of ROLES) {
    const p = who(r);
    const user = p ? { ...(await request(a.app, "GET", "/api/auth/me", { token: p.token })).body.user, siteRole: r === "admin" ? "admin" : "user", canCreateCourses: false } : null;
    const ctx = { ...a.t.services, user, sessionId: user ? "s" : null, ip: "127.0.0.1", https: false, resHeaders: new Headers() };
    const controller = new AbortController();
    try {
      const stream = (await open(createCaller(ctx as never, { signal: controller.signal }))) as AsyncIterable<unknown>;
      const first = await stream[Symbol.asyncIterator]().next();
      out[r] = first.done ? 204 : 200;
    } catch (err) {
      const code = (err as { code?: string }).code;
      out[r] = code === "UNAUTHORIZED" ? 401 : code === "FORBIDDEN" ? 403 : code === "NOT_FOUND" ? 404 : 500;
    } finally {
      controller.abort();
    }
  }
  return out;
}

describe("courses", () => {
  test("GET /api/courses (mine): any signed-in user", async () => {
    expect(await statuses((r) => rest(r, "GET", "/api/courses"))).toEqual(matrix(200, [...MEMBERS, "nonmember"]));
  });

  test("POST /api/courses: those allowed to create courses (the owner here) and admins", async () => {
    expect(await statuses((r) => rest(r, "POST", "/api/courses", { title: "X", code: `X-${next()}` }))).toEqual(matrix(201, ["owner"], { nonmember: 403 }));
  });

  test("GET /api/courses/:id: members", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}`))).toEqual(matrix(200, MEMBERS));
  });

  test("PATCH /api/courses/:id: teachers", async () => {
    expect(await statuses((r) => rest(r, "PATCH", `/api/courses/${w.courseId}`, { term: `T${next()}` }))).toEqual(matrix(200, TEACHERS));
  });

  test("DELETE /api/courses/:id (archive): teachers; restored after each", async () => {
    expect(
      await statuses(async (r) => {
        const s = await rest(r, "DELETE", `/api/courses/${w.courseId}`);
        if (s === 200) await rest("admin", "PATCH", `/api/courses/${w.courseId}`, { archived: false });
        return s;
      }),
    ).toEqual(matrix(200, TEACHERS));
  });

  test("POST /api/courses/:id/invite: teachers", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/invite`, { action: "rotate" }))).toEqual(matrix(200, TEACHERS));
  });

  test("POST /api/courses/join: any signed-in user with the code (a non-member joins as a student)", async () => {
    const code = (await request(a.app, "GET", `/api/courses/${w.courseId}`, { token: w.owner.token })).body.inviteCode;
    const fresh = await signUp(a.app);
    expect(
      await statuses(async (r) => {
        const token = r === "nonmember" ? fresh.token : tok(r);
        return (await request(a.app, "POST", "/api/courses/join", { ...(token ? { token } : {}), body: { code } })).status;
      }),
    ).toEqual(matrix(200, [...MEMBERS, "nonmember"]));
    expect((await request(a.app, "POST", "/api/courses/join", { token: fresh.token, body: { code: "WRONG123" } })).status).toBe(404);
  });

  test("GET /api/courses/:id/members: staff", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/members`))).toEqual(matrix(200, STAFF));
  });

  test("POST /api/courses/:id/members (one, and {csv}): teachers", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/members`, { email: `m${next()}@example.com` }))).toEqual(matrix(201, TEACHERS));
    expect(await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/members`, { csv: `c${next()}@example.com,C,student` }))).toEqual(matrix(201, TEACHERS));
  });

  test("DELETE /api/courses/:id/members/:userId: teachers (a fresh member each time)", async () => {
    expect(
      await statuses(async (r) => {
        const m = await signUp(a.app);
        await request(a.app, "POST", `/api/courses/${w.courseId}/members`, { token: w.owner.token, body: { email: m.email } });
        return rest(r, "DELETE", `/api/courses/${w.courseId}/members/${m.user.id}`);
      }),
    ).toEqual(matrix(200, TEACHERS));
  });

  test("DELETE /api/courses/:id/invites/:email: teachers", async () => {
    expect(await statuses((r) => rest(r, "DELETE", `/api/courses/${w.courseId}/invites/nobody-${next()}@example.com`))).toEqual(matrix(200, TEACHERS));
  });

  test("GET /api/courses/:id/problems and /assignments: members", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/problems`))).toEqual(matrix(200, MEMBERS));
    expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/assignments`))).toEqual(matrix(200, MEMBERS));
  });

  test("POST /api/courses/:id/assignments: teachers", async () => {
    expect(
      await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/assignments`, { title: "A", opensAt: "2026-05-01T00:00:00Z", problems: [{ problemId }] })),
    ).toEqual(matrix(201, TEACHERS));
  });
});

describe("assignments", () => {
  test("GET /api/assignments/:id: members", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}`))).toEqual(matrix(200, MEMBERS));
  });

  test("PATCH /api/assignments/:id: teachers", async () => {
    expect(await statuses((r) => rest(r, "PATCH", `/api/assignments/${assignmentId}`, { description: next() }))).toEqual(matrix(200, TEACHERS));
  });

  test("DELETE /api/assignments/:id: teachers (a fresh assignment each time)", async () => {
    expect(await statuses(async (r) => rest(r, "DELETE", `/api/assignments/${(await newAssignment("Throwaway")).id}`))).toEqual(matrix(200, TEACHERS));
  });

  test("POST and DELETE /api/assignments/:id/extensions: staff", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/assignments/${assignmentId}/extensions`, { userId: w.student2.id, dueAt: "2026-06-02T00:00:00Z" }))).toEqual(
      matrix(201, STAFF),
    );
    expect(await statuses((r) => rest(r, "DELETE", `/api/assignments/${assignmentId}/extensions/${w.student2.id}`))).toEqual(matrix(200, STAFF));
  });

  test("GET /api/assignments/:id/grades: staff; as CSV and the zip of best submissions: teachers", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/grades`))).toEqual(matrix(200, STAFF));
    expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/grades?format=csv`))).toEqual(matrix(200, TEACHERS));
    expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/grades`, undefined, { accept: "text/csv" }))).toEqual(matrix(200, TEACHERS));
    expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/best-submissions.zip`))).toEqual(matrix(200, TEACHERS));
  });

  test("POST /api/assignments/:id/submissions: members (staff may always submit)", async () => {
    expect(
      await statuses((r) => rest(r, "POST", `/api/assignments/${assignmentId}/submissions?wait=false`, { problemId, code: PY_ADD_ONE, language: "py" })),
    ).toEqual(matrix(202, MEMBERS));
  });

  test("POST /api/assignments/:id/rejudge: staff", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/assignments/${assignmentId}/rejudge`, { submissionId: studentSubmission }))).toEqual(
      matrix(200, STAFF, { nonmember: 404 }),
    );
  });
});

describe("course problems and judging", () => {
  test("POST /api/problems into a course: teachers", async () => {
    expect(await statuses((r) => rest(r, "POST", "/api/problems", addOneProblem({ courseId: w.courseId, title: `P${next()}` })))).toEqual(matrix(201, TEACHERS));
  });

  test("GET /api/problems/:id of a course problem: members (signed out: 404, as for a non-member)", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/problems/${problemId}`))).toEqual(matrix(200, MEMBERS, { anon: 404 }));
  });

  test("PUT and DELETE /api/problems/:id of a course problem: teachers, whoever created it", async () => {
    expect(await statuses((r) => rest(r, "PUT", `/api/problems/${problemId}`, { constraints: `0 <= n <= ${1000 + unique++}` }))).toEqual(matrix(200, TEACHERS, { nonmember: 404 }));
    expect(
      await statuses(async (r) => {
        const p = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ courseId: w.courseId }) });
        return rest(r, "DELETE", `/api/problems/${p.body._id}`);
      }),
      // A fresh problem is in no opened assignment yet: students do not see it at all.
    ).toEqual(matrix(200, TEACHERS, { student: 404 }));
  });

  test("POST /api/submissions and /api/compiler on a course problem: members", async () => {
    expect(await statuses((r) => rest(r, "POST", "/api/submissions?wait=false", { problemId, code: PY_ADD_ONE, language: "py" }))).toEqual(matrix(202, MEMBERS));
    expect(await statuses((r) => rest(r, "POST", "/api/compiler", { problemId, code: PY_ADD_ONE, language: "py", input: "1\n" }))).toEqual(matrix(200, MEMBERS));
  });

  test("GET /api/submissions/:problemId (one's own history): any signed-in user", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/submissions/${problemId}`))).toEqual(matrix(200, [...MEMBERS, "nonmember"]));
  });

  test("POST /api/ai/ai-review of a course problem: members", async () => {
    expect(await statuses((r) => rest(r, "POST", "/api/ai/ai-review", { problemId, code: PY_ADD_ONE, language: "py" }))).toEqual(matrix(200, MEMBERS));
  });
});

describe("procedures without a REST door", () => {
  const q = (r: Role, path: string, input: unknown) => trpcQuery(a.app, tok(r) ?? null, path, input).then((x) => x.status);
  const m = (r: Role, path: string, input: unknown) => trpcMutation(a.app, tok(r) ?? null, path, input).then((x) => x.status);

  test("submissions.byId of a student's submission: its author and the course's staff", async () => {
    expect(await statuses((r) => q(r, "submissions.byId", { id: studentSubmission }))).toEqual(matrix(200, [...STAFF, "student"]));
    expect(await q("ta", "submissions.byId", { id: studentSubmission })).toBe(200);
    expect((await trpcQuery(a.app, w.student2.token, "submissions.byId", { id: studentSubmission })).status).toBe(404);
  });

  test("assignments.studentSubmissions: staff", async () => {
    expect(await statuses((r) => q(r, "assignments.studentSubmissions", { assignmentId, userId: w.student.id, problemId }))).toEqual(matrix(200, STAFF));
  });

  test("assignments.extensions: staff", async () => {
    expect(await statuses((r) => q(r, "assignments.extensions", { assignmentId }))).toEqual(matrix(200, STAFF));
  });

  test("problems.copyToCourse: only the problem's owner (or its course's teachers) take its hidden tests; another's public problem is refused to every teacher", async () => {
    const pub = await request(a.app, "POST", "/api/problems", { token: w.outsider.token, body: addOneProblem({ title: "Public" }) });
    expect(await statuses((r) => m(r, "problems.copyToCourse", { problemId: pub.body._id, courseId: w.courseId }))).toEqual(matrix(200, []));
    const refused = await trpcMutation(a.app, w.instructor.token, "problems.copyToCourse", { problemId: pub.body._id, courseId: w.courseId });
    expect(JSON.stringify(refused)).not.toContain("expectedOutput");
    expect(refused.error?.message ?? JSON.stringify(refused)).toContain("add the public problem to an assignment instead");
    // The instructor's own public problem: theirs to copy (the owner, who did not write it, may not).
    const own = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ title: "Mine" }) });
    expect(await statuses((r) => m(r, "problems.copyToCourse", { problemId: own.body._id, courseId: w.courseId }))).toEqual(matrix(200, ["instructor"]));
    // A course problem: its course's teachers copy it (here into the same course).
    expect(await statuses((r) => m(r, "problems.copyToCourse", { problemId, courseId: w.courseId }))).toEqual(matrix(200, TEACHERS));
  });

  test("ai.policy for a course problem: members", async () => {
    expect(await statuses((r) => q(r, "ai.policy", { problemId }))).toEqual(matrix(200, MEMBERS));
  });

  test("GET /api/admin/status, GET /api/admin/accounts, PATCH /api/admin/accounts/:id: site admins only", async () => {
    expect(await statuses((r) => rest(r, "GET", "/api/admin/status"))).toEqual(matrix(200, [], { nonmember: 403 }));
    expect(await statuses((r) => rest(r, "GET", "/api/admin/accounts"))).toEqual(matrix(200, [], { nonmember: 403 }));
    expect(await statuses((r) => rest(r, "PATCH", `/api/admin/accounts/${w.student2.id}`, { canCreateCourses: false }))).toEqual(matrix(200, [], { nonmember: 403 }));
  });

  test("admin.accounts and admin.setAccount: site admins only", async () => {
    expect(await statuses((r) => q(r, "admin.accounts", undefined))).toEqual(matrix(200, [], { nonmember: 403 }));
    expect(await statuses((r) => m(r, "admin.setAccount", { userId: w.student2.id, canCreateCourses: false }))).toEqual(matrix(200, [], { nonmember: 403 }));
  });

  test("assignments.gradebookUpdates (a subscription): staff; the first batch arrives, then the stream is closed", async () => {
    expect(await subscriptionStatuses((api) => api.assignments.gradebookUpdates({ id: assignmentId, version: -1 }))).toEqual(matrix(200, STAFF));
  });

  test("analytics.assignmentUpdates (who is stuck, live; its REST form is the one-off GET /api/assignments/:id/analytics): staff; the first event arrives, then the stream is closed", async () => {
    expect(await subscriptionStatuses((api) => api.analytics.assignmentUpdates({ id: assignmentId }))).toEqual(matrix(200, STAFF));
  });
});

describe("announcements and the problem edit form", () => {
  const q = (r: Role, path: string, input: unknown) => trpcQuery(a.app, tok(r) ?? null, path, input).then((x) => x.status);
  let original: RateLimiter;
  beforeAll(() => {
    // The per-course limit is its own test's (tests/notifications): lift it so every role meets the same answer.
    original = a.t.services.limiters.announcementsByCourse;
    a.t.services.limiters.announcementsByCourse = new RateLimiter({ limit: 1000, windowMs: 3_600_000 });
  });
  afterAll(async () => {
    a.t.services.limiters.announcementsByCourse = original;
    // Each post schedules its fan-out on a timer, which in-process requests never yield to: let them run while the database is open.
    await Bun.sleep(100);
  });
  const post = (token: string) =>
    request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token, body: { title: `Note ${next()}`, body: "Room 2." } }).then((r) => r.body.id as string);

  test("GET /api/courses/:id/announcements: members", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/announcements`))).toEqual(matrix(200, MEMBERS));
  });

  test("POST /api/courses/:id/announcements: staff (TAs too)", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/announcements`, { title: `Note ${next()}`, body: "Room 2." }))).toEqual(matrix(201, STAFF));
  });

  test("DELETE /api/courses/:id/announcements/:id: another's only by the owner (a fresh one by the owner each time); one's own by staff", async () => {
    expect(await statuses(async (r) => rest(r, "DELETE", `/api/courses/${w.courseId}/announcements/${await post(w.owner.token)}`))).toEqual(matrix(200, ["owner"]));
    expect(await statuses(async (r) => rest(r, "DELETE", `/api/courses/${w.courseId}/announcements/${await post(tok(r) ?? w.ta.token)}`))).toEqual(
      matrix(200, STAFF, { student: 404 }),
    );
  });

  test("problems.forEdit of a course problem: its course's teachers (the author among them)", async () => {
    expect(await statuses((r) => q(r, "problems.forEdit", { id: problemId }))).toEqual(matrix(200, TEACHERS));
  });
});

describe("campus sign-in and the LMS", () => {
  const q = (r: Role, path: string, input: unknown) => trpcQuery(a.app, tok(r) ?? null, path, input).then((x) => x.status);
  const m = (r: Role, path: string, input: unknown) => trpcMutation(a.app, tok(r) ?? null, path, input).then((x) => x.status);
  const platform = () => ({
    name: "LMS",
    issuer: "https://lms.example.edu",
    clientId: `client-${next()}`,
    deploymentIds: ["1"],
    authUrl: "https://lms.example.edu/auth",
    tokenUrl: "https://lms.example.edu/token",
    jwksUrl: "https://lms.example.edu/jwks",
  });

  test("auth.identities: any signed-in user (their own)", async () => {
    expect(await statuses((r) => q(r, "auth.identities", undefined))).toEqual(matrix(200, [...MEMBERS, "nonmember"]));
  });

  test("lti.platforms, addPlatform, removePlatform, rotateKey: site admins only", async () => {
    expect(await statuses((r) => q(r, "lti.platforms", undefined))).toEqual(matrix(200, [], { nonmember: 403 }));
    expect(await statuses((r) => m(r, "lti.addPlatform", platform()))).toEqual(matrix(200, [], { nonmember: 403 }));
    expect(await statuses((r) => m(r, "lti.removePlatform", { id: `gone${next()}` }))).toEqual(matrix(200, [], { nonmember: 403 }));
    expect(await statuses((r) => m(r, "lti.rotateKey", undefined))).toEqual(matrix(200, [], { nonmember: 403 }));
  });

  test("lti.courseStatus: staff; lti.syncRoster: teachers (this course has no LMS link: 404 once allowed)", async () => {
    expect(await statuses((r) => q(r, "lti.courseStatus", { courseId: w.courseId }))).toEqual(matrix(200, STAFF));
    expect(await statuses((r) => m(r, "lti.syncRoster", { courseId: w.courseId }))).toEqual(matrix(404, TEACHERS));
  });

  test("lti.deepLinkChoices and deepLinkRespond: only the instructor whose launch made the picker (an unknown one is 404 to everyone)", async () => {
    expect(await statuses((r) => q(r, "lti.deepLinkChoices", { id: "no-such-picker" }))).toEqual(matrix(404, [...MEMBERS, "nonmember"]));
    expect(await statuses((r) => m(r, "lti.deepLinkRespond", { id: "no-such-picker", assignmentId }))).toEqual(matrix(404, [...MEMBERS, "nonmember"]));
  });
});

describe("a course problem's package, verify and rejudge", () => {
  test("GET /api/problems/:id/package (hidden tests inside): teachers", async () => {
    expect(await statuses((r) => rest(r, "GET", `/api/problems/${problemId}/package`))).toEqual(matrix(200, TEACHERS));
  });

  test("POST and GET /api/problems/:id/verify: teachers (this problem has no example submissions: 400 once allowed)", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/problems/${problemId}/verify`))).toEqual(matrix(400, TEACHERS));
    expect(await statuses((r) => rest(r, "GET", `/api/problems/${problemId}/verify`))).toEqual(matrix(200, TEACHERS));
  });

  test("POST /api/problems/:id/rejudge and POST /api/submissions/:id/rejudge: staff", async () => {
    expect(await statuses((r) => rest(r, "POST", `/api/problems/${problemId}/rejudge`))).toEqual(matrix(200, STAFF));
    expect(await statuses((r) => rest(r, "POST", `/api/submissions/${studentSubmission}/rejudge`))).toEqual(matrix(200, STAFF));
  });

  test("POST /api/problems/import into the course: teachers", async () => {
    const zip = Buffer.from(zipOf(modernPackage()));
    expect(
      await statuses(async (r) => {
        const form = new FormData();
        form.set("package", new Blob([zip]), "p.zip");
        form.set("courseId", w.courseId);
        const res = await a.app.request("/api/problems/import", { method: "POST", headers: tok(r) ? { authorization: `Bearer ${tok(r)}` } : {}, body: form });
        return res.status;
      }),
    ).toEqual(matrix(201, TEACHERS));
  });
});

describe("another's public problem: linked, never read or exported", () => {
  test("GET /api/problems/:id/package and verify of a public problem: its owner only, whatever a teacher's course", async () => {
    const pub = await request(a.app, "POST", "/api/problems", { token: w.outsider.token, body: addOneProblem({ title: `Outsider's ${next()}` }) });
    const owner = (r: Role) => (r === "nonmember" ? 200 : r === "anon" ? 401 : 403);
    const expected = Object.fromEntries(ROLES.map((r) => [r, owner(r)]));
    expect(await statuses((r) => rest(r, "GET", `/api/problems/${pub.body._id}/package`))).toEqual(expected as Record<Role, number>);
    // Verify: the owner (no example submissions: 400); every teacher of every course refused.
    expect(await statuses((r) => rest(r, "POST", `/api/problems/${pub.body._id}/verify`))).toEqual({ ...expected, nonmember: 400 } as Record<Role, number>);
    // Linked into an assignment of the course, still none of the teachers' to read.
    const linked = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "Linked", opensAt: "2026-05-01T00:00:00Z", problems: [{ problemId: pub.body._id }] },
    });
    expect(linked.status).toBe(201);
    expect(await rest("owner", "GET", `/api/problems/${pub.body._id}/package`)).toBe(403);
    const seen = await request(a.app, "GET", `/api/problems/${pub.body._id}`, { token: w.owner.token });
    expect(seen.status).toBe(200);
    expect(seen.body.hiddenTestCases).toBeUndefined();
  });

  test("feedback of a student's submission (submissions.byId) and AI review naming the assignment: by role", async () => {
    const q = (r: Role, path: string, input: unknown) => trpcQuery(a.app, tok(r) ?? null, path, input).then((x) => x.status);
    expect(await statuses((r) => q(r, "submissions.byId", { id: studentSubmission }))).toEqual(matrix(200, [...STAFF, "student"]));
    expect(await statuses((r) => rest(r, "POST", "/api/ai/ai-review", { problemId, assignmentId, code: PY_ADD_ONE, language: "py" }))).toEqual(
      matrix(200, MEMBERS, { nonmember: 404 }),
    );
  });
});

describe("exams, grading, pools, late days and analytics (issue 37)", () => {
  let examId: string;
  let poolId: string;
  let secondId: string;
  /** The pool's two problems (in no other assignment). */
  let pool: { problemId: string; points: number; slot: number }[];
  /** The pool's problem the student was not given. */
  let notDrawn: string;
  /** A submission of the student with a released review (regrade requests are asked on it). */
  let released: string;
  const asOwner = (method: string, path: string, body?: unknown) => request(a.app, method, path, { token: w.owner.token, ...(body !== undefined ? { body } : {}) });
  const REVIEW = { itemIds: [], comments: [{ line: 1, text: "Reads the input once." }] };
  /** A fresh submission by the student to the assignment (queued, not waited for). */
  async function submit(): Promise<string> {
    const s = await request(a.app, "POST", `/api/assignments/${assignmentId}/submissions?wait=false`, { token: w.student.token, body: { problemId, code: PY_ADD_ONE, language: "py" } });
    if (s.status !== 202) throw new Error(`submission: ${s.status} ${JSON.stringify(s.body)}`);
    return s.body._id;
  }
  /** Answers the submission's open regrade request (if any) as the owner, so the next role meets none. */
  async function closeOpenRequest(submissionId: string) {
    const open = (await asOwner("GET", `/api/submissions/${submissionId}/review`)).body.regradeRequests.find((q: { status: string }) => q.status === "open");
    if (open) expect((await asOwner("PATCH", `/api/regrade-requests/${open.id}`, { status: "declined", answer: "Stays." })).status).toBe(200);
  }

  beforeAll(async () => {
    secondId = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ courseId: w.courseId, title: "Second" }) })).body._id;
    examId = (await newAssignment("Timed", { timeLimitMinutes: 90 })).id;
    const started = await request(a.app, "POST", `/api/assignments/${examId}/start`, { token: w.student.token, body: {} });
    if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
    const pooled = await Promise.all(["Pool A", "Pool B"].map((title) => asOwner("POST", "/api/problems", addOneProblem({ courseId: w.courseId, title }))));
    pool = pooled.map((p) => ({ problemId: p.body._id as string, points: 100, slot: 0 }));
    poolId = (await newAssignment("Pooled", { problems: pool })).id;
    const draws = (await asOwner("GET", `/api/assignments/${poolId}/pool-draws`)).body as { draws: { userId: string; problemId: string }[] }[];
    const given = draws[0]!.draws.find((d) => d.userId === w.student.id)!.problemId;
    notDrawn = pool.find((p) => p.problemId !== given)!.problemId;
    expect((await asOwner("PATCH", `/api/courses/${w.courseId}`, { lateDays: 30 })).status).toBe(200);
    released = await submit();
    expect((await asOwner("PUT", `/api/submissions/${released}/review`, { ...REVIEW, release: true })).status).toBe(200);
  }, 30_000);

  describe("exams", () => {
    test("POST /api/assignments/:id/start: the course's students (staff and site admins do not sit exams: 403); a fresh timed assignment each time", async () => {
      expect(await statuses(async (r) => rest(r, "POST", `/api/assignments/${(await newAssignment("Timed", { timeLimitMinutes: 90 })).id}/start`, {}))).toEqual(
        matrix(200, ["student"], { admin: 403 }),
      );
    });

    test("GET /api/assignments/:id/window (one's own window): members", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/assignments/${examId}/window`))).toEqual(matrix(200, MEMBERS));
    });

    test("GET /api/assignments/:id/access-log and POST /api/assignments/:id/release {userId}: staff", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/assignments/${examId}/access-log`))).toEqual(matrix(200, STAFF));
      expect(await statuses((r) => rest(r, "POST", `/api/assignments/${examId}/release`, { userId: w.student.id }))).toEqual(matrix(200, STAFF));
    });

    test("PUT /api/courses/:id/members/:userId {extraTimePercent, extraMinutes}: teachers (a fresh member each time); GET /api/courses/:id/extra-time: staff", async () => {
      expect(
        await statuses(async (r) => {
          const m = await signUp(a.app);
          expect((await asOwner("POST", `/api/courses/${w.courseId}/members`, { email: m.email })).status).toBe(201);
          return rest(r, "PUT", `/api/courses/${w.courseId}/members/${m.user.id}`, { extraTimePercent: 50, extraMinutes: 10 });
        }),
      ).toEqual(matrix(200, TEACHERS));
      expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/extra-time`))).toEqual(matrix(200, STAFF));
    });
  });

  describe("grading by people", () => {
    test("GET /api/assignments/:id/problems/:problemId/rubric: staff; PUT the same: teachers", async () => {
      const path = `/api/assignments/${assignmentId}/problems/${problemId}/rubric`;
      expect(await statuses((r) => rest(r, "GET", path))).toEqual(matrix(200, STAFF));
      expect(await statuses((r) => rest(r, "PUT", path, { mode: "add", items: [{ points: -5, description: "No comments" }] }))).toEqual(matrix(200, TEACHERS));
    });

    test("GET /api/submissions/:id/review: staff see a draft (its student is told there is none: 404); released, its student too (another student: 404)", async () => {
      const s = await submit();
      expect((await asOwner("PUT", `/api/submissions/${s}/review`, REVIEW)).status).toBe(200);
      expect(await statuses((r) => rest(r, "GET", `/api/submissions/${s}/review`))).toEqual(matrix(200, STAFF, { student: 404 }));
      expect((await asOwner("PUT", `/api/submissions/${s}/review`, { ...REVIEW, release: true })).status).toBe(200);
      expect(await statuses((r) => rest(r, "GET", `/api/submissions/${s}/review`))).toEqual(matrix(200, [...STAFF, "student"]));
      expect((await request(a.app, "GET", `/api/submissions/${s}/review`, { token: w.student2.token })).status).toBe(404);
    });

    // A student may submit SUBMIT_RATE_PER_MINUTE times a minute: the writes below share one submission, each role meeting the same draft.
    test("PUT /api/submissions/:id/review: staff grade (its student: 403); with release: teachers (taken back after each)", async () => {
      const s = await submit();
      expect((await asOwner("PUT", `/api/submissions/${s}/review`, REVIEW)).status).toBe(200);
      expect(await statuses((r) => rest(r, "PUT", `/api/submissions/${s}/review`, REVIEW))).toEqual(matrix(200, STAFF));
      expect(
        await statuses(async (r) => {
          const status = await rest(r, "PUT", `/api/submissions/${s}/review`, { ...REVIEW, release: true });
          if (status === 200) expect((await asOwner("PUT", `/api/submissions/${s}/review`, { ...REVIEW, release: false })).status).toBe(200);
          return status;
        }),
      ).toEqual(matrix(200, TEACHERS));
    });

    test("POST /api/assignments/:id/reviews/release: teachers (a draft waiting each time); GET /api/assignments/:id/reviews: staff; GET …/my-reviews: members", async () => {
      const s = await submit();
      expect(
        await statuses(async (r) => {
          expect((await asOwner("PUT", `/api/submissions/${s}/review`, { ...REVIEW, release: false })).status).toBe(200);
          return rest(r, "POST", `/api/assignments/${assignmentId}/reviews/release`, {});
        }),
      ).toEqual(matrix(200, TEACHERS));
      expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/reviews`))).toEqual(matrix(200, STAFF));
      expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/my-reviews`))).toEqual(matrix(200, MEMBERS));
    });

    test("GET and POST /api/courses/:id/comment-bank, DELETE /api/comment-bank/:id (a fresh comment each time): staff", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/comment-bank`))).toEqual(matrix(200, STAFF));
      expect(await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/comment-bank`, { text: `Off by one ${next()}` }))).toEqual(matrix(201, STAFF));
      expect(
        await statuses(async (r) => {
          const c = await asOwner("POST", `/api/courses/${w.courseId}/comment-bank`, { text: `Throwaway ${next()}` });
          return rest(r, "DELETE", `/api/comment-bank/${c.body.id}`);
        }),
      ).toEqual(matrix(200, STAFF));
    });

    test("POST /api/submissions/:id/regrade-requests: the submission's student only (staff and site admins: 403, another student: 404); each one answered before the next", async () => {
      expect(
        await statuses(async (r) => {
          const status = await rest(r, "POST", `/api/submissions/${released}/regrade-requests`, { reason: "Line 1 reads the input once." });
          await closeOpenRequest(released);
          return status;
        }),
      ).toEqual(matrix(201, ["student"], { admin: 403 }));
      expect((await request(a.app, "POST", `/api/submissions/${released}/regrade-requests`, { token: w.student2.token, body: { reason: "Mine?" } })).status).toBe(404);
    });

    test("GET /api/courses/:id/regrade-requests (the queue): staff", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/courses/${w.courseId}/regrade-requests?status=all`))).toEqual(matrix(200, STAFF));
    });

    test("PATCH /api/regrade-requests/:id: staff (a fresh request by the student each time)", async () => {
      expect(
        await statuses(async (r) => {
          const q = await request(a.app, "POST", `/api/submissions/${released}/regrade-requests`, { token: w.student.token, body: { reason: `Please ${next()}` } });
          expect(q.status).toBe(201);
          const status = await rest(r, "PATCH", `/api/regrade-requests/${q.body.id}`, { status: "declined", answer: "The grade stands." });
          await closeOpenRequest(released);
          return status;
        }),
      ).toEqual(matrix(200, STAFF));
    });
  });

  describe("pools and late days", () => {
    test("POST and PATCH assignments with a pool (problems sharing a slot): teachers", async () => {
      const problems = [{ problemId, points: 100, slot: 0 }, { problemId: secondId, points: 100, slot: 0 }];
      expect(await statuses((r) => rest(r, "POST", `/api/courses/${w.courseId}/assignments`, { title: "Pool", opensAt: "2026-05-01T00:00:00Z", problems }))).toEqual(
        matrix(201, TEACHERS),
      );
      // The same pool again: the draws stay as they were.
      expect(await statuses((r) => rest(r, "PATCH", `/api/assignments/${poolId}`, { problems: pool }))).toEqual(matrix(200, TEACHERS));
    });

    test("GET /api/assignments/:id/pool-draws: staff", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/assignments/${poolId}/pool-draws`))).toEqual(matrix(200, STAFF));
    });

    test("a pool's problem given to other students: the student neither reads it (404) nor submits it for the assignment (403); staff do both", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/problems/${notDrawn}`))).toEqual(matrix(200, STAFF, { student: 404, anon: 404 }));
      expect(await statuses((r) => rest(r, "POST", `/api/assignments/${poolId}/submissions?wait=false`, { problemId: notDrawn, code: PY_ADD_ONE, language: "py" }))).toEqual(
        matrix(202, STAFF),
      );
    });

    test("POST /api/assignments/:id/late-days {days}: the course's students only (staff: 403); a fresh assignment each time", async () => {
      // The site admin joined this course as a student (POST /api/courses/join above): a student's late days are theirs too.
      expect(await statuses(async (r) => rest(r, "POST", `/api/assignments/${(await newAssignment("Homework")).id}/late-days`, { days: 1 }))).toEqual(
        matrix(201, ["student"]),
      );
    });

    test("DELETE /api/assignments/:id/late-days/:userId: staff (the student spends a day on a fresh assignment before each)", async () => {
      expect(
        await statuses(async (r) => {
          const id = (await newAssignment("Homework")).id;
          expect((await request(a.app, "POST", `/api/assignments/${id}/late-days`, { token: w.student.token, body: { days: 1 } })).status).toBe(201);
          const status = await rest(r, "DELETE", `/api/assignments/${id}/late-days/${w.student.id}`);
          if (status !== 200) expect((await asOwner("DELETE", `/api/assignments/${id}/late-days/${w.student.id}`)).status).toBe(200);
          return status;
        }),
      ).toEqual(matrix(200, STAFF));
    });
  });

  describe("who is stuck", () => {
    test("GET /api/assignments/:id/analytics: staff (its live stream: analytics.assignmentUpdates, with the procedures above)", async () => {
      expect(await statuses((r) => rest(r, "GET", `/api/assignments/${assignmentId}/analytics`))).toEqual(matrix(200, STAFF));
    });
  });

  test("in an archived course every write above answers 403 COURSE_ARCHIVED to those allowed it (FORBIDDEN to the rest); its reads still work", async () => {
    const timed = (await newAssignment("Timed", { timeLimitMinutes: 90 })).id;
    const homework = (await newAssignment("Homework")).id;
    const spent = (await newAssignment("Homework")).id;
    expect((await request(a.app, "POST", `/api/assignments/${spent}/late-days`, { token: w.student.token, body: { days: 1 } })).status).toBe(201);
    const bank = (await asOwner("POST", `/api/courses/${w.courseId}/comment-bank`, { text: `Archived ${next()}` })).body.id;
    const q = (await request(a.app, "POST", `/api/submissions/${released}/regrade-requests`, { token: w.student.token, body: { reason: "Before the archive." } })).body.id;
    const ADMIN_STAFF: Role[] = [...STAFF, "admin"];
    const writes: [string, string, unknown, Role[]][] = [
      ["POST", `/api/assignments/${timed}/start`, {}, ["student"]],
      ["POST", `/api/assignments/${examId}/release`, { userId: w.student.id }, ADMIN_STAFF],
      ["PUT", `/api/courses/${w.courseId}/members/${w.student2.id}`, { extraMinutes: 5 }, [...TEACHERS, "admin"]],
      ["PUT", `/api/assignments/${assignmentId}/problems/${problemId}/rubric`, { mode: "add", items: [] }, [...TEACHERS, "admin"]],
      ["PUT", `/api/submissions/${released}/review`, REVIEW, ADMIN_STAFF],
      ["POST", `/api/assignments/${assignmentId}/reviews/release`, {}, [...TEACHERS, "admin"]],
      ["POST", `/api/courses/${w.courseId}/comment-bank`, { text: "Late" }, ADMIN_STAFF],
      ["DELETE", `/api/comment-bank/${bank}`, undefined, ADMIN_STAFF],
      ["POST", `/api/submissions/${released}/regrade-requests`, { reason: "Again." }, ["student"]],
      ["PATCH", `/api/regrade-requests/${q}`, { status: "declined", answer: "Archived." }, ADMIN_STAFF],
      // The site admin is a student of this course (it joined above): its late days are refused as the archive, not as a role.
      ["POST", `/api/assignments/${homework}/late-days`, { days: 1 }, ["student", "admin"]],
      ["DELETE", `/api/assignments/${spent}/late-days/${w.student.id}`, undefined, ADMIN_STAFF],
    ];
    const reads = [
      `/api/assignments/${examId}/window`,
      `/api/assignments/${examId}/access-log`,
      `/api/courses/${w.courseId}/extra-time`,
      `/api/assignments/${assignmentId}/problems/${problemId}/rubric`,
      `/api/submissions/${released}/review`,
      `/api/assignments/${assignmentId}/reviews`,
      `/api/courses/${w.courseId}/comment-bank`,
      `/api/courses/${w.courseId}/regrade-requests`,
      `/api/assignments/${poolId}/pool-draws`,
      `/api/assignments/${assignmentId}/analytics`,
    ];
    expect(await rest("owner", "DELETE", `/api/courses/${w.courseId}`)).toBe(200);
    try {
      for (const role of ["owner", "ta", "student", "admin"] as Role[]) {
        for (const [method, path, body, allowed] of writes) {
          const res = await request(a.app, method, path, { token: tok(role)!, ...(body !== undefined ? { body } : {}) });
          const code = allowed.includes(role) ? "COURSE_ARCHIVED" : "FORBIDDEN";
          expect({ role, method, path, status: res.status, code: res.body?.code }).toEqual({ role, method, path, status: 403, code });
        }
        // A student reads their own window and released review; the rest are staff's.
        for (const path of role === "student" ? reads.filter((p) => /\/(window|review)$/.test(p)) : reads) {
          const res = await request(a.app, "GET", path, { token: tok(role)! });
          expect({ role, path, status: res.status }).toEqual({ role, path, status: 200 });
        }
      }
    } finally {
      expect(await rest("owner", "PATCH", `/api/courses/${w.courseId}`, { archived: false })).toBe(200);
    }
    await closeOpenRequest(released);
  });
});

describe("an archived course is read-only for every write, whoever asks", () => {
  test("writes answer 403 COURSE_ARCHIVED (site admins included); reads still work; restoring it works", async () => {
    expect(await rest("owner", "DELETE", `/api/courses/${w.courseId}`)).toBe(200);
    try {
      const writes: [string, string, unknown][] = [
        ["PATCH", `/api/courses/${w.courseId}`, { term: "Late" }],
        ["POST", `/api/courses/${w.courseId}/invite`, { action: "rotate" }],
        ["POST", `/api/courses/${w.courseId}/members`, { email: `late${next()}@example.com` }],
        ["POST", `/api/courses/${w.courseId}/assignments`, { title: "Late", opensAt: "2026-05-01T00:00:00Z", problems: [{ problemId }] }],
        ["PATCH", `/api/assignments/${assignmentId}`, { description: "late" }],
        ["POST", `/api/assignments/${assignmentId}/extensions`, { userId: w.student2.id, dueAt: "2026-06-02T00:00:00Z" }],
        ["POST", `/api/assignments/${assignmentId}/rejudge`, { submissionId: studentSubmission }],
        ["POST", `/api/submissions/${studentSubmission}/rejudge`, undefined],
        ["POST", `/api/problems/${problemId}/rejudge`, undefined],
        ["PUT", `/api/problems/${problemId}`, { constraints: "late" }],
        ["POST", "/api/problems", addOneProblem({ courseId: w.courseId })],
        ["POST", `/api/assignments/${assignmentId}/submissions?wait=false`, { problemId, code: PY_ADD_ONE, language: "py" }],
      ];
      for (const role of ["owner", "ta", "admin"] as Role[]) {
        for (const [method, path, body] of writes) {
          const res = await request(a.app, method, path, { token: tok(role)!, ...(body !== undefined ? { body } : {}) });
          const allowedAtAll = !(role === "ta" && /members|invite|assignments$|PATCH|PUT|problems$/.test(`${method} ${path}`));
          if (allowedAtAll) expect({ role, method, path, status: res.status, code: res.body?.code }).toEqual({ role, method, path, status: 403, code: "COURSE_ARCHIVED" });
          else expect(res.status).toBe(403);
        }
      }
      const copy = await trpcMutation(a.app, w.owner.token, "problems.copyToCourse", { problemId, courseId: w.courseId });
      expect(copy.status).toBe(403);
      expect(await rest("ta", "GET", `/api/assignments/${assignmentId}/grades`)).toBe(200);
      expect(await rest("owner", "GET", `/api/problems/${problemId}/package`)).toBe(200);
      expect(await rest("student", "GET", `/api/courses/${w.courseId}`)).toBe(200);
    } finally {
      expect(await rest("owner", "PATCH", `/api/courses/${w.courseId}`, { archived: false })).toBe(200);
    }
    expect(await rest("owner", "PATCH", `/api/courses/${w.courseId}`, { term: "Back" })).toBe(200);
  });
});
