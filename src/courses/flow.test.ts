/**
 * The course workflow through the REST doors, the real sandbox and a clock
 * the test sets: roster by CSV and by code, course problems, an assignment
 * with a late window and a penalty, submissions before, during, late and
 * after the close, an extension, scores in the gradebook, feedback policies
 * in every response, AI policies, exports.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync, strFromU8 } from "fflate";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../context.ts";
import { sandboxOptions } from "../sandbox.ts";
import { request, signUp } from "../../tests/api.ts";
import { judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, PY_SAMPLE_ONLY, PY_SMALL_ONLY, trpcMutation, trpcQuery, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";

const HOUR = 3_600_000;
let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let problemId: string;
let seededCopyId: string;
let assignmentId: string;

const opensAt = "2026-03-02T09:00:00+01:00";
const dueAt = "2026-03-09T23:00:00+01:00";
const closesAt = "2026-03-10T23:00:00+01:00";

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 200)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 200 });
  a.clock.set("2026-03-01T12:00:00Z");
  w = await world(a);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

async function submit(token: string, code: string, opts: { assignment?: string; problem?: string } = {}) {
  const path = opts.assignment ? `/api/assignments/${opts.assignment}/submissions` : "/api/submissions";
  return request(a.app, "POST", path, { token, body: { problemId: opts.problem ?? problemId, code, language: "py" } });
}

describe("setting up a course", () => {
  test("a CSV roster adds existing accounts and invites new emails; the invited student joins on sign-up, with the invited role", async () => {
    const existing = await signUp(a.app, { firstName: "Existing" });
    const csv = `email,name,role\n${existing.email},Existing Student,student\nnew.student@example.com,New Student,\nnew.ta@example.com,New TA,ta\n`;
    const r = await request(a.app, "POST", `/api/courses/${w.courseId}/members`, { token: w.instructor.token, body: { csv } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ added: 1, updated: 0, invited: 2, unchanged: 0 });
    const newcomer = await signUp(a.app, { email: "New.Student@example.com" });
    const mine = await request(a.app, "GET", "/api/courses", { token: newcomer.token });
    expect(mine.body.courses.map((c: { id: string; role: string }) => [c.id, c.role])).toEqual([[w.courseId, "student"]]);
    // A password sign-up proves nothing about the email: a staff invitation waits.
    const taNewcomer = await signUp(a.app, { email: "new.ta@example.com" });
    expect((await request(a.app, "GET", "/api/courses", { token: taNewcomer.token })).body.courses).toEqual([]);
    const roster = await request(a.app, "GET", `/api/courses/${w.courseId}/members`, { token: w.ta.token });
    expect(roster.body.invites.map((i: { email: string }) => i.email)).toEqual(["new.ta@example.com"]);
  });

  test("a bad CSV row is refused naming its line and column, and nothing is applied", async () => {
    const before = await request(a.app, "GET", `/api/courses/${w.courseId}/members`, { token: w.owner.token });
    const r = await request(a.app, "POST", `/api/courses/${w.courseId}/members`, {
      token: w.owner.token,
      body: { csv: "ok.one@example.com,One,student\nnot-an-email,Two,student\n" },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("csv: line 2, email: Must be a valid email address");
    const after = await request(a.app, "GET", `/api/courses/${w.courseId}/members`, { token: w.owner.token });
    expect(after.body).toEqual(before.body);
    const badRole = await request(a.app, "POST", `/api/courses/${w.courseId}/members`, { token: w.owner.token, body: { csv: "x@example.com,X,professor\n" } });
    expect(badRole.body.message).toBe('csv: line 1, role: must be owner, instructor, ta or student, not "professor"');
  });

  test("course problems: created in the course or copied from the public list, hidden from the public list and from outsiders", async () => {
    const created = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ courseId: w.courseId }) });
    expect(created.status).toBe(201);
    problemId = created.body._id;
    const publicList = await request(a.app, "GET", "/api/problems", { token: w.instructor.token });
    expect(publicList.body.some((p: { _id: string }) => p._id === problemId)).toBe(false);
    // A public problem (the instructor's own here) copied into the course, hidden tests included.
    const pub = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ title: "Add One (public)" }) });
    const copy = await trpcMutation(a.app, w.instructor.token, "problems.copyToCourse", { problemId: pub.body._id, courseId: w.courseId });
    expect(copy.status).toBe(200);
    seededCopyId = copy.data._id;
    expect(copy.data).toMatchObject({ title: "Add One (public)", hiddenTestCount: 3 });
    expect(copy.data.hiddenTestCases).toHaveLength(3);
    expect((await request(a.app, "GET", "/api/problems", { token: w.student.token })).body.some((p: { _id: string }) => p._id === seededCopyId)).toBe(false);
    expect((await request(a.app, "GET", `/api/problems/${problemId}`, { token: w.outsider.token })).status).toBe(404);
    expect((await request(a.app, "GET", `/api/problems/${problemId}`)).status).toBe(404);
    // A student sees it only once an assignment with it opens.
    expect((await request(a.app, "GET", `/api/problems/${problemId}`, { token: w.student.token })).status).toBe(404);
    expect((await request(a.app, "GET", `/api/problems/${problemId}`, { token: w.ta.token })).status).toBe(200);
  });

  test("an assignment with a late window, 10% per started hour late, partial scoring, tests feedback and first-failure after the close", async () => {
    const r = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.instructor.token,
      body: {
        title: "Week 1",
        opensAt,
        dueAt,
        closesAt,
        latePenaltyPercent: 10,
        latePenaltyUnit: "hour",
        scoring: "partial",
        feedbackAfterClose: "first-failure",
        aiPolicy: "hints",
        problems: [{ problemId, points: 100 }, { problemId: seededCopyId, points: 50 }],
      },
    });
    expect(r.status).toBe(201);
    assignmentId = r.body.id;
    expect(r.body).toMatchObject({ feedback: "tests", state: "upcoming", totalPoints: 150 });
    const bad = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.instructor.token,
      body: { title: "Bad", opensAt, dueAt: "2026-03-01T00:00:00Z", problems: [{ problemId }] },
    });
    expect([bad.status, bad.body.field]).toEqual([400, "dueAt"]);
    const badDate = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.instructor.token,
      body: { title: "Bad", opensAt: "next monday", problems: [{ problemId }] },
    });
    expect([badDate.status, badDate.body.field]).toEqual([400, "opensAt"]);
  });
});

describe("deadlines", () => {
  test("before it opens: students see it is upcoming (no problems); submitting says when it opens", async () => {
    const list = await request(a.app, "GET", `/api/courses/${w.courseId}/assignments`, { token: w.student.token });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ state: "upcoming", problems: [] });
    const r = await submit(w.student.token, PY_ADD_ONE, { assignment: assignmentId });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("ASSIGNMENT_NOT_OPEN");
    expect(r.body.message).toBe("This assignment opens on 2026-03-02T08:00:00.000Z; submissions are accepted from then.");
  });

  test("a student's list of course problems is empty until an assignment with them opens", async () => {
    expect((await request(a.app, "GET", `/api/courses/${w.courseId}/problems`, { token: w.student.token })).body).toEqual([]);
    expect((await request(a.app, "GET", `/api/courses/${w.courseId}/problems`, { token: w.ta.token })).body.length).toBe(2);
  });

  test("open: a full solution scores 100; the plain door counts for the open assignment too", async () => {
    a.clock.set("2026-03-05T10:00:00Z");
    const r = await submit(w.student.token, PY_ADD_ONE);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ verdict: "AC", assignmentId, feedback: "tests" });
    const me = await request(a.app, "GET", `/api/assignments/${assignmentId}`, { token: w.student.token });
    expect(me.body.state).toBe("open");
    expect(me.body.myScore.problems[problemId]).toEqual({ score: 100, verdict: "AC", attempts: 1, late: false });
  });

  test("once it opens, the student's list holds its problems, without hidden tests", async () => {
    const list = (await request(a.app, "GET", `/api/courses/${w.courseId}/problems`, { token: w.student.token })).body as { _id: string; hiddenTestCases?: unknown }[];
    expect(list.map((p) => p._id).sort()).toEqual([problemId, seededCopyId].sort());
    expect(list.every((p) => p.hiddenTestCases === undefined)).toBe(true);
  });

  test("partial scoring runs every test: 2 of 3 hidden tests is 2/3 of the points; the tests level shows per-test rows but no hidden data", async () => {
    const r = await submit(w.student2.token, PY_SMALL_ONLY, { assignment: assignmentId });
    expect(r.status).toBe(201);
    expect(r.body.verdict).toBe("WA");
    expect(r.body.tests.map((t: { verdict: string }) => t.verdict)).toEqual(["AC", "AC", "AC", "WA"]);
    expect(r.body.firstFailure).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain("999");
    const g = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.ta.token });
    const cell = g.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student2.id && c.problemId === problemId);
    expect(cell).toMatchObject({ score: 66.67, verdict: "WA", attempts: 1, late: false });
  });

  test("late: 90 minutes after the due time costs two started hours (20%); the best score stands", async () => {
    a.clock.set(Date.parse(dueAt) + 90 * 60_000);
    const late = await submit(w.student2.token, PY_ADD_ONE, { assignment: assignmentId });
    expect(late.body.verdict).toBe("AC");
    const g = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.owner.token });
    const cell = g.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student2.id && c.problemId === problemId);
    expect(cell).toMatchObject({ score: 80, verdict: "AC", attempts: 2, late: true });
    // A late submission worse than the on-time one changes nothing for the first student.
    await submit(w.student.token, PY_SAMPLE_ONLY, { assignment: assignmentId });
    const g2 = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.owner.token });
    const first = g2.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student.id && c.problemId === problemId);
    expect(first).toMatchObject({ score: 100, attempts: 2, late: false });
  });

  test("after the close: 403 saying it closed; an extension opens it again for one student, penalised from their own due time", async () => {
    a.clock.set(Date.parse(closesAt) + HOUR);
    const closed = await submit(w.student2.token, PY_ADD_ONE, { assignment: assignmentId, problem: seededCopyId });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe("This assignment closed on 2026-03-10T22:00:00.000Z; submissions are no longer accepted.");
    const ext = await request(a.app, "POST", `/api/assignments/${assignmentId}/extensions`, {
      token: w.ta.token,
      body: { userId: w.student2.id, dueAt: "2026-03-12T23:00:00+01:00" },
    });
    expect(ext.status).toBe(201);
    expect(ext.body.closesAt).toBeNull();
    const ok = await submit(w.student2.token, PY_ADD_ONE, { assignment: assignmentId, problem: seededCopyId });
    expect(ok.status).toBe(201);
    const g = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.owner.token });
    const cell = g.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student2.id && c.problemId === seededCopyId);
    expect(cell).toMatchObject({ score: 50, late: false });
    // The extension also moved the penalty: the earlier late AC is now on time.
    const first = g.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student2.id && c.problemId === problemId);
    expect(first).toMatchObject({ score: 100, late: false });
    // Others stay closed.
    expect((await submit(w.student.token, PY_ADD_ONE, { assignment: assignmentId })).status).toBe(403);
  });

  test("after the close the fuller level is released: the first failing hidden test shows, cut to its excerpt", async () => {
    const history = await request(a.app, "GET", `/api/submissions/${problemId}`, { token: w.student.token });
    const wrong = history.body.find((s: { verdict: string }) => s.verdict === "WA");
    expect(wrong.feedback).toBe("first-failure");
    expect(wrong.firstFailure).toEqual({ test: 1, input: "5\n", expectedOutput: "6\n", actualOutput: "0\n" });
  });

  test("changing the penalty recomputes every score", async () => {
    const r = await request(a.app, "PATCH", `/api/assignments/${assignmentId}`, { token: w.instructor.token, body: { latePenaltyPercent: 50 } });
    expect(r.status).toBe(200);
    const g = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.owner.token });
    // The second student's late AC is on time under their extension: unchanged; nobody else was late.
    const cells = g.body.cells.filter((c: { problemId: string }) => c.problemId === problemId);
    expect(cells.map((c: { score: number }) => c.score).sort()).toEqual([100, 100]);
    await request(a.app, "DELETE", `/api/assignments/${assignmentId}/extensions/${w.student2.id}`, { token: w.ta.token });
    const g2 = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.owner.token });
    const back = g2.body.cells.find((c: { userId: string; problemId: string }) => c.userId === w.student2.id && c.problemId === problemId);
    // Without the extension: best of 66.67 on time and the AC two started hours late at 50% per hour (0).
    expect(back).toMatchObject({ score: 66.67, late: false });
  });
});

describe("feedback policy: verdict only", () => {
  let quiz: string;
  test("per-test rows beyond the sample and the counts are withheld in the answer, the history and the AI prompt", async () => {
    a.clock.set("2026-04-01T10:00:00Z");
    const r = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "Quiz", opensAt: "2026-04-01T09:00:00Z", dueAt: "2026-04-01T11:00:00Z", feedback: "verdict", aiPolicy: "off", problems: [{ problemId }] },
    });
    quiz = r.body.id;
    const s = await submit(w.student.token, PY_SMALL_ONLY, { assignment: quiz });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ verdict: "WA", feedback: "verdict", testsPassed: null, testsTotal: null });
    expect(s.body.tests.every((t: { isSample: boolean }) => t.isSample)).toBe(true);
    const history = await request(a.app, "GET", `/api/submissions/${problemId}`, { token: w.student.token });
    const mine = history.body.find((h: { _id: string }) => h._id === s.body._id);
    expect(mine.tests.length).toBe(1);
    // Staff read the same submission in full.
    const staff = await trpcQuery(a.app, w.ta.token, "assignments.studentSubmissions", { assignmentId: quiz, userId: w.student.id, problemId });
    const seen = staff.data[0];
    expect(seen.feedback).toBe("full");
    expect(seen.tests.length).toBe(4);
    expect(seen.firstFailure.input).toBe("999\n");
  });

  test("AI review is off during the quiz (403 with the policy's words) and its policy is stated", async () => {
    const r = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { code: PY_ADD_ONE, problemId, assignmentId: quiz } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("AI review is off for this assignment.");
    // Without naming the assignment, the strictest open policy of the problem applies.
    const plain = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { code: PY_ADD_ONE, problemId } });
    expect(plain.status).toBe(403);
    const staff = await request(a.app, "POST", "/api/ai/ai-review", { token: w.ta.token, body: { code: PY_ADD_ONE, problemId, assignmentId: quiz } });
    expect(staff.status).toBe(200);
  });
});

describe("exports and rejudge", () => {
  test("grades as CSV (Accept: text/csv or ?format=csv) for teachers, refused for TAs", async () => {
    const csv = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades?format=csv`, { token: w.instructor.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (csv.body as string).trim().split("\n");
    expect(lines[0]).toBe('student_id,email,name,Add One (100),Add One late,Add One (public) (50),Add One (public) late,total');
    expect(lines.some((l) => l.startsWith(`${w.student.id},${w.student.email},Student Test,100,,`))).toBe(true);
    const accept = await request(a.app, "GET", `/api/assignments/${assignmentId}/grades`, { token: w.instructor.token, headers: { accept: "text/csv" } });
    expect(accept.body).toBe(csv.body);
    expect((await request(a.app, "GET", `/api/assignments/${assignmentId}/grades?format=csv`, { token: w.ta.token })).status).toBe(403);
  });

  test("the gradebook travels gzipped when the client accepts it (REST and tRPC), its update stream never", async () => {
    const rest = await a.app.request(`/api/assignments/${assignmentId}/grades`, { headers: { authorization: `Bearer ${w.ta.token}`, "accept-encoding": "gzip" } });
    expect(rest.headers.get("content-encoding")).toBe("gzip");
    const body = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await rest.arrayBuffer()))));
    expect(body.cells.length).toBeGreaterThan(0);
    const input = encodeURIComponent(JSON.stringify({ 0: { id: assignmentId } }));
    const trpc = await a.app.request(`/trpc/assignments.gradebook?batch=1&input=${input}`, { headers: { authorization: `Bearer ${w.ta.token}`, "accept-encoding": "gzip" } });
    expect(trpc.headers.get("content-encoding")).toBe("gzip");
    const { isGradebookRead } = await import("../app.ts");
    expect(isGradebookRead("/trpc/assignments.gradebook")).toBe(true);
    expect(isGradebookRead("/trpc/problems.list,assignments.gradebook")).toBe(true);
    expect(isGradebookRead("/trpc/assignments.gradebookUpdates")).toBe(false);
  });

  test("best submissions as a zip of source files, one per student and problem", async () => {
    const res = await a.app.request(`/api/assignments/${assignmentId}/best-submissions.zip`, { headers: { authorization: `Bearer ${w.owner.token}` } });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names).toContain(`${w.student.email}/Add_One/main.py`);
    expect(strFromU8(files[`${w.student.email}/Add_One/main.py`]!)).toBe(PY_ADD_ONE);
  });

  test("a TA rejudges a submission: it is judged again and the previous verdict is kept", async () => {
    const history = await request(a.app, "GET", `/api/submissions/${problemId}`, { token: w.student.token });
    const target = history.body[0];
    const r = await request(a.app, "POST", `/api/assignments/${assignmentId}/rejudge`, { token: w.ta.token, body: { submissionId: target._id } });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("queued");
    const done = await trpcQuery(a.app, w.student.token, "submissions.wait", { id: target._id, timeoutMs: 30_000 });
    expect(done.data.verdict).toBe(target.verdict);
    expect(done.data.status).toBe("done");
    expect(done.data.previousVerdict).toBe(target.verdict);
    expect((await request(a.app, "POST", `/api/assignments/${assignmentId}/rejudge`, { token: w.student.token, body: { submissionId: target._id } })).status).toBe(403);
  });
});
