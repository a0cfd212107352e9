/**
 * Exams through the REST doors (issue 37 §1–2), with the real app over a real libSQL file, the real sandbox
 * (boxes 1580–1587, see BOXES) and a clock the test sets: a timed window from Start with per-student extra time, and each
 * access rule (address ranges through the real client address, Safe Exam Browser, the proctor's password, one
 * session, lock-down) refusing with a 4xx that names it, and the staff's view of who started and who was refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { assignments } from "../../db/schema.ts";
import { createApp } from "../../src/app.ts";
import { createAiService } from "../../src/ai/service.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { sebHash } from "../../src/courses/exam/rules.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { request, signUp } from "../api.ts";
import { judgeConfig, preparePch, silentLog } from "../judge/fixtures.ts";
import { addOneProblem, PY_ADD_ONE, testClock, world, type CourseApp, type World } from "./fixtures.ts";

// The task's boxes are 5580–5587, but under bwrap as root a box's uid is 60000 + its id, and 65580 is past the
// kernel's overflow uid: the same eight boxes 4000 lower, 1580–1587 (said in the report).
const BOXES = { ISOLATE_BOX_ID_START: "1580", ISOLATE_BOX_ID_COUNT: "8" };
const BOX_OFFSET = 0;
const KEY = "a".repeat(64);
const LAB = "10.1.2.3";

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let t: TestServices;
let examId: string;
let homeworkId: string;
let problemId: string;
let otherProblemId: string;
let third: { token: string; id: string; email: string; password: string };

/** An exam request as a lab machine in Safe Exam Browser sends it (address and SEB header), overridable. */
function inLab(method: string, path: string, token: string, opts: { peer?: string; seb?: string | null; body?: unknown; headers?: Record<string, string> } = {}) {
  const seb = opts.seb === undefined ? sebHash(`http://localhost${path}`, KEY) : opts.seb;
  return request(a.app, method, path, { token, peer: opts.peer ?? LAB, body: opts.body, headers: { ...(seb ? { "x-safeexambrowser-configkeyhash": seb } : {}), ...opts.headers } });
}

beforeAll(async () => {
  await preparePch();
  const config = judgeConfig("file::memory:", BOXES, BOX_OFFSET);
  sandbox = await createSandbox(sandboxOptions(config), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  const clock = testClock("2026-03-02T08:00:00Z");
  const env = Object.fromEntries(
    Object.entries(config)
      .filter(([k]) => ["SANDBOX", "SANDBOX_ROOT", "ISOLATE_BOX_ID_START", "ISOLATE_BOX_ID_COUNT", "SANDBOX_POOL_SIZE"].includes(k))
      .map(([k, v]) => [k, String(v)]),
  );
  t = await createTestServices({ env, clock, sandbox });
  const judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox, cacheDir: join(t.dir, "cache"), pollMs: 50, now: clock });
  t.services.judge = judge;
  await judge.start();
  t.services.ai = createAiService({ config: t.config, db: t.services.db, log: silentLog, sandbox: sandbox.backend, now: clock });
  a = {
    app: createApp(t.services),
    t,
    judge,
    clock,
    async close() {
      await judge.stop();
      t.cleanup();
    },
  };
  w = await world(a);
  const s = await signUp(a.app, { firstName: "Third" });
  third = { token: s.token, id: s.user.id, email: s.email, password: s.password };
  await request(a.app, "POST", "/api/courses/join", { token: third.token, body: { code: w.inviteCode } });
  const p = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ courseId: w.courseId }) });
  if (p.status !== 201) throw new Error(`problem: ${p.status} ${JSON.stringify(p.body)}`);
  problemId = p.body._id;
  const other = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ courseId: w.courseId, title: "Practice" }) });
  otherProblemId = other.body._id;
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

describe("setting an exam up", () => {
  test("staff set a timed window and the access rules; bad ranges and keys are refused naming the field", async () => {
    const body = {
      title: "Midterm",
      opensAt: "2026-03-02T09:00:00Z",
      dueAt: "2026-03-02T12:00:00Z",
      problems: [{ problemId, points: 100 }],
      timeLimitMinutes: 90,
      accessCidrs: ["10.1.0.0/16", "2001:db8::/48"],
      sebConfigKeys: [KEY],
      proctorPassword: "lab-42",
      oneSession: true,
      lockDown: true,
    };
    const bad = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, { token: w.instructor.token, body: { ...body, accessCidrs: ["10.1.0.0/33"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("accessCidrs.0");
    const badKey = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, { token: w.instructor.token, body: { ...body, sebConfigKeys: ["xyz"] } });
    expect(badKey.body.field).toBe("sebConfigKeys.0");
    const r = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, { token: w.instructor.token, body });
    expect(r.status).toBe(201);
    examId = r.body.id;
    expect(r.body.exam).toEqual({
      timeLimitMinutes: 90,
      needsStart: true,
      passwordRequired: true,
      sebRequired: true,
      addressRestricted: true,
      oneSession: true,
      lockDown: true,
      accessCidrs: ["10.1.0.0/16", "2001:db8::/48"],
      sebConfigKeyCount: 1,
    });
    // The password is stored hashed (argon2id, as account passwords), never as typed.
    const [row] = await t.services.db.select({ h: assignments.proctorPasswordHash }).from(assignments).where(eq(assignments.id, examId));
    expect(row!.h).toStartWith("$argon2id$");
    const hw = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.instructor.token,
      body: { title: "Homework", opensAt: "2026-03-01T00:00:00Z", dueAt: "2026-03-05T12:00:00Z", problems: [{ problemId: otherProblemId, points: 10 }] },
    });
    homeworkId = hw.body.id;
  });

  test("extra time is set by the roster's teachers (PUT …/members/:userId), not by TAs or for non-members", async () => {
    const put = (token: string, userId: string, body: unknown) => request(a.app, "PUT", `/api/courses/${w.courseId}/members/${userId}`, { token, body });
    expect((await put(w.ta.token, w.student2.id, { extraTimePercent: 50 })).status).toBe(403);
    expect((await put(w.instructor.token, w.outsider.id, { extraTimePercent: 50 })).status).toBe(404);
    const tooMuch = await put(w.instructor.token, w.student2.id, { extraTimePercent: 301 });
    expect([tooMuch.status, tooMuch.body.field]).toEqual([400, "extraTimePercent"]);
    const ok = await put(w.instructor.token, w.student2.id, { extraTimePercent: 50 });
    expect(ok.body).toEqual({ userId: w.student2.id, extraTimePercent: 50, extraMinutes: 0 });
    expect((await put(w.instructor.token, third.id, { extraMinutes: 30 })).body).toEqual({ userId: third.id, extraTimePercent: 0, extraMinutes: 30 });
    const all = await request(a.app, "GET", `/api/courses/${w.courseId}/extra-time`, { token: w.ta.token });
    expect(all.body[w.student2.id]).toEqual({ extraTimePercent: 50, extraMinutes: 0 });
  });
});

describe("the access rules, each refusal naming its rule", () => {
  test("address: outside the ranges (IPv4 or IPv6) refused; a forged X-Forwarded-For from an untrusted peer does not count", async () => {
    a.clock.set("2026-03-02T09:05:00Z");
    const out = await inLab("GET", `/api/assignments/${examId}`, w.student.token, { peer: "192.0.2.9" });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe("EXAM_ADDRESS_REFUSED");
    expect(out.body.rule).toBe("address");
    expect(out.body.message).toContain("address");
    const forged = await inLab("GET", `/api/assignments/${examId}`, w.student.token, { peer: "192.0.2.9", headers: { "x-forwarded-for": LAB } });
    expect(forged.body.code).toBe("EXAM_ADDRESS_REFUSED");
    expect((await inLab("GET", `/api/assignments/${examId}`, w.student.token, { peer: "2001:db9::1" })).body.code).toBe("EXAM_ADDRESS_REFUSED");
    expect((await inLab("GET", `/api/assignments/${examId}`, w.student.token, { peer: "2001:db8::5" })).status).toBe(200);
    expect((await inLab("GET", `/api/assignments/${examId}`, w.student.token, { peer: `::ffff:${LAB}` })).status).toBe(200);
    // Staff are not held (they watch from their office).
    expect((await request(a.app, "GET", `/api/assignments/${examId}`, { token: w.ta.token, peer: "192.0.2.9" })).status).toBe(200);
  });

  test("Safe Exam Browser: no header, or a hash for another URL or key, refused", async () => {
    const none = await inLab("GET", `/api/assignments/${examId}`, w.student.token, { seb: null });
    expect([none.status, none.body.code, none.body.rule]).toEqual([403, "EXAM_SEB_REQUIRED", "seb"]);
    const otherUrl = await inLab("GET", `/api/assignments/${examId}`, w.student.token, { seb: sebHash(`http://localhost/api/assignments/other`, KEY) });
    expect(otherUrl.body.code).toBe("EXAM_SEB_REQUIRED");
    const otherKey = await inLab("GET", `/api/assignments/${examId}`, w.student.token, { seb: sebHash(`http://localhost/api/assignments/${examId}`, "b".repeat(64)) });
    expect(otherKey.body.code).toBe("EXAM_SEB_REQUIRED");
  });

  test("before Start the problems are hidden and a submission is refused (rule start)", async () => {
    const r = await inLab("GET", `/api/assignments/${examId}`, w.student.token);
    expect(r.body.problems).toEqual([]);
    const sub = await inLab("POST", `/api/assignments/${examId}/submissions?wait=false`, w.student.token, { body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect([sub.status, sub.body.code, sub.body.rule]).toEqual([403, "EXAM_NOT_STARTED", "start"]);
  });

  test("proctor's password: Start without it or with a wrong one refused; with it the window opens", async () => {
    const none = await inLab("POST", `/api/assignments/${examId}/start`, w.student.token, { body: {} });
    expect([none.status, none.body.code, none.body.rule]).toEqual([403, "EXAM_PASSWORD_WRONG", "password"]);
    expect((await inLab("POST", `/api/assignments/${examId}/start`, w.student.token, { body: { password: "lab-41" } })).body.code).toBe("EXAM_PASSWORD_WRONG");
    const ok = await inLab("POST", `/api/assignments/${examId}/start`, w.student.token, { body: { password: "lab-42" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ state: "open", startedAt: "2026-03-02T09:05:00.000Z", endsAt: "2026-03-02T10:35:00.000Z" });
    expect((await inLab("GET", `/api/assignments/${examId}`, w.student.token)).body.problems.map((p: { problemId: string }) => p.problemId)).toEqual([problemId]);
  });

  test("extra time: 50 % gives 135 minutes; 30 minutes give 120; the close moves with them", async () => {
    const s2 = await inLab("POST", `/api/assignments/${examId}/start`, w.student2.token, { body: { password: "lab-42" } });
    expect(s2.body).toMatchObject({ endsAt: "2026-03-02T11:20:00.000Z", extraTimePercent: 50, close: "2026-03-02T12:45:00.000Z" });
    a.clock.set("2026-03-02T11:30:00Z");
    // Third starts late: 120 minutes would end at 13:30, so the window ends at their close (12:00 + 30 minutes).
    const s3 = await inLab("POST", `/api/assignments/${examId}/start`, third.token, { body: { password: "lab-42" } });
    expect(s3.body).toMatchObject({ startedAt: "2026-03-02T11:30:00.000Z", endsAt: "2026-03-02T12:30:00.000Z" });
    a.clock.set("2026-03-02T09:10:00Z");
  });

  test("lock-down: during the window, practice, other problems, other courses' lists and AI review are refused", async () => {
    const practice = await request(a.app, "POST", "/api/submissions?wait=false", { token: w.student.token, peer: LAB, body: { problemId: otherProblemId, code: PY_ADD_ONE, language: "py" } });
    expect([practice.status, practice.body.code, practice.body.rule]).toEqual([403, "EXAM_LOCKED_DOWN", "lockdown"]);
    expect((await request(a.app, "GET", `/api/problems/${otherProblemId}`, { token: w.student.token })).body.code).toBe("EXAM_LOCKED_DOWN");
    expect((await request(a.app, "GET", "/api/courses", { token: w.student.token })).body.code).toBe("EXAM_LOCKED_DOWN");
    expect((await request(a.app, "GET", `/api/assignments/${homeworkId}`, { token: w.student.token })).body.code).toBe("EXAM_LOCKED_DOWN");
    const ai = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect(ai.body.code).toBe("EXAM_LOCKED_DOWN");
    // The exam's own problem is readable and judged.
    expect((await request(a.app, "GET", `/api/problems/${problemId}`, { token: w.student.token })).status).toBe(200);
    const sub = await inLab("POST", `/api/assignments/${examId}/submissions`, w.student.token, { body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect(sub.status).toBe(201);
    expect(sub.body.verdict).toBe("AC");
    // A student not in an exam is not held.
    expect((await request(a.app, "GET", `/api/problems/${otherProblemId}`, { token: w.outsider.token })).status).not.toBe(403);
  }, 60_000);

  test("one session: a second session is refused, and a new sign-in too, until staff release it", async () => {
    const other = await request(a.app, "POST", "/api/auth/login", { body: { email: third.email, password: third.password } });
    // Third's window (started 11:30) is not open at 09:10: they may sign in; w.student's is open.
    expect(other.status).toBe(200);
    const login = await signInAgain(w.student.email);
    expect([login.status, login.body.code, login.body.rule]).toEqual([403, "EXAM_OTHER_SESSION", "session"]);
    const release = await request(a.app, "POST", `/api/assignments/${examId}/release`, { token: w.ta.token, body: { userId: w.student.id } });
    expect(release.body).toEqual({ released: true });
    const again = await signInAgain(w.student.email);
    expect(again.status).toBe(200);
    // The new session now holds the window; the old one is refused.
    expect((await inLab("GET", `/api/assignments/${examId}`, again.body.token)).status).toBe(200);
    const old = await inLab("GET", `/api/assignments/${examId}`, w.student.token);
    expect([old.status, old.body.code]).toEqual([403, "EXAM_OTHER_SESSION"]);
    w.student.token = again.body.token;
  });

  test("after the window a submission is refused with 403 naming the time; the 50 % student is still inside", async () => {
    a.clock.set("2026-03-02T10:36:00Z");
    const late = await inLab("POST", `/api/assignments/${examId}/submissions?wait=false`, w.student.token, { body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect([late.status, late.body.code, late.body.rule, late.body.endedAt]).toEqual([403, "EXAM_WINDOW_OVER", "window", "2026-03-02T10:35:00.000Z"]);
    expect(late.body.message).toContain("2026-03-02T10:35:00.000Z");
    const inside = await inLab("POST", `/api/assignments/${examId}/submissions?wait=false`, w.student2.token, { body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect(inside.status).toBe(202);
    a.clock.set("2026-03-02T11:21:00Z");
    const over = await inLab("POST", `/api/assignments/${examId}/submissions?wait=false`, w.student2.token, { body: { problemId, code: PY_ADD_ONE, language: "py" } });
    expect(over.body.endedAt).toBe("2026-03-02T11:20:00.000Z");
    // Out of the window the lock-down is over too.
    expect((await request(a.app, "GET", "/api/courses", { token: w.student.token })).status).toBe(200);
  });

  test("after the exam, extra minutes move an ordinary deadline; a percentage does not", async () => {
    const hw = (token: string) => request(a.app, "GET", `/api/assignments/${homeworkId}`, { token });
    expect((await hw(third.token)).body.window.dueAt).toBe("2026-03-05T12:30:00.000Z");
    expect((await hw(w.student2.token)).body.window.dueAt).toBe("2026-03-05T12:00:00.000Z");
    expect((await hw(w.student.token)).body.window.dueAt).toBe("2026-03-05T12:00:00.000Z");
  });

  test("staff see who started, from which address, and who was refused by which rule; students may not", async () => {
    expect((await request(a.app, "GET", `/api/assignments/${examId}/access-log`, { token: w.student2.token, peer: LAB })).status).toBe(403);
    const r = await request(a.app, "GET", `/api/assignments/${examId}/access-log`, { token: w.ta.token });
    expect(r.status).toBe(200);
    const started = r.body.starts.find((s: { userId: string }) => s.userId === w.student.id);
    expect(started).toMatchObject({ ip: LAB, startedAt: "2026-03-02T09:05:00.000Z", endsAt: "2026-03-02T10:35:00.000Z" });
    const events = new Set(r.body.log.filter((l: { userId: string }) => l.userId === w.student.id).map((l: { event: string }) => l.event));
    for (const e of ["address", "seb", "start", "password", "started", "lockdown", "session", "released", "window"]) expect(events).toContain(e);
    const refusedFrom = r.body.log.filter((l: { event: string; userId: string }) => l.event === "address" && l.userId === w.student.id).map((l: { ip: string }) => l.ip);
    expect(refusedFrom).toContain("192.0.2.9");
    expect(refusedFrom).toContain("2001:db9::1");
  });
});

describe("contests", () => {
  test("a contest's address range and SEB keys hold its participants on every read; the jury is not held", async () => {
    a.clock.set("2026-03-03T08:00:00Z");
    const c = await request(a.app, "POST", "/api/contests", {
      token: w.instructor.token,
      body: {
        title: "Lab contest",
        shortName: `lab${Date.now() % 100000}`,
        startsAt: "2026-03-03T09:00:00Z",
        durationMinutes: 120,
        scoring: "icpc",
        courseId: w.courseId,
        problems: [{ problemId, label: "A" }],
        accessCidrs: ["10.1.0.0/16"],
        sebConfigKeys: [KEY],
      },
    });
    expect(c.status).toBe(201);
    const path = `/api/contests/${c.body.id}`;
    const out = await inLab("GET", path, w.student2.token, { peer: "192.0.2.9" });
    expect([out.status, out.body.code]).toEqual([403, "EXAM_ADDRESS_REFUSED"]);
    expect((await inLab("GET", path, w.student2.token, { seb: null })).body.code).toBe("EXAM_SEB_REQUIRED");
    expect((await inLab("GET", path, w.student2.token)).status).toBe(200);
    expect((await request(a.app, "GET", path, { token: w.instructor.token, peer: "192.0.2.9" })).status).toBe(200);
    // The Contest API door holds the same rules.
    const ccs = await request(a.app, "GET", `/api/ccs/contests/${c.body.id}`, { token: w.student2.token, peer: "192.0.2.9" });
    expect(ccs.status).toBe(403);
    expect(JSON.stringify(ccs.body)).toContain("Exam rule (address)");
    expect((await request(a.app, "GET", `/api/ccs/contests/${c.body.id}`, { token: w.instructor.token, peer: "192.0.2.9" })).status).toBe(200);
  });
});

describe("contests: a proctor's password, one session and lock-down, from each participant's entry", () => {
  let contestId: string;
  let path: string;
  const submit = (token: string) => request(a.app, "POST", `${path}/submissions?wait=false`, { token, body: { problemId, code: PY_ADD_ONE, language: "py" } });

  test("the jury sets them; a participant sees which apply, and before the start may not enter", async () => {
    a.clock.set("2026-03-04T08:00:00Z");
    const c = await request(a.app, "POST", "/api/contests", {
      token: w.instructor.token,
      body: {
        title: "Hall contest",
        shortName: `hall${Date.now() % 100000}`,
        startsAt: "2026-03-04T09:00:00Z",
        durationMinutes: 120,
        scoring: "icpc",
        courseId: w.courseId,
        problems: [{ problemId, label: "A" }],
        proctorPassword: "hall-7",
        oneSession: true,
        lockDown: true,
      },
    });
    expect(c.status).toBe(201);
    contestId = c.body.id;
    path = `/api/contests/${contestId}`;
    expect(c.body.exam).toMatchObject({ needsEntry: true, passwordRequired: true, oneSession: true, lockDown: true, enteredAt: null, accessCidrs: [] });
    const seen = await request(a.app, "GET", path, { token: w.student2.token });
    expect(seen.body.exam).toMatchObject({ needsEntry: true, passwordRequired: true, enteredAt: null, accessCidrs: null });
    const early = await request(a.app, "POST", `${path}/enter`, { token: w.student2.token, body: { password: "hall-7" } });
    expect([early.status, early.body.code]).toEqual([403, "CONTEST_NOT_STARTED"]);
    // Bad input names its field; the jury does not enter.
    const long = await request(a.app, "POST", `${path}/enter`, { token: w.student2.token, body: { password: "x".repeat(201) } });
    expect([long.status, long.body.field]).toEqual([400, "password"]);
    expect((await request(a.app, "POST", `${path}/enter`, { token: w.instructor.token, body: {} })).status).toBe(403);
  });

  test("after the start, without an entry the problems stay hidden and a submission is refused naming the rule", async () => {
    a.clock.set("2026-03-04T09:05:00Z");
    expect((await request(a.app, "GET", path, { token: w.student2.token })).body.problems).toEqual([]);
    const s = await submit(w.student2.token);
    expect([s.status, s.body.code, s.body.rule]).toEqual([403, "EXAM_NOT_ENTERED", "start"]);
    // Not entered: not locked down either.
    expect((await request(a.app, "GET", "/api/courses", { token: w.student2.token })).status).toBe(200);
  });

  test("the proctor's password is asked at entry; then the problems show and submissions are taken", async () => {
    const none = await request(a.app, "POST", `${path}/enter`, { token: w.student2.token, body: {} });
    expect([none.status, none.body.code, none.body.rule]).toEqual([403, "EXAM_PASSWORD_WRONG", "password"]);
    expect((await request(a.app, "POST", `${path}/enter`, { token: w.student2.token, body: { password: "hall-8" } })).body.code).toBe("EXAM_PASSWORD_WRONG");
    const ok = await request(a.app, "POST", `${path}/enter`, { token: w.student2.token, peer: LAB, body: { password: "hall-7" } });
    expect(ok.status).toBe(200);
    expect(ok.body.enteredAt).toBe("2026-03-04T09:05:00.000Z");
    // Entering again inside the window answers the same entry.
    expect((await request(a.app, "POST", `${path}/enter`, { token: w.student2.token, body: { password: "hall-7" } })).body.enteredAt).toBe("2026-03-04T09:05:00.000Z");
    expect((await request(a.app, "GET", path, { token: w.student2.token })).body.problems.map((p: { label: string }) => p.label)).toEqual(["A"]);
    expect((await submit(w.student2.token)).status).toBe(202);
  });

  test("lock-down: during the entered window only the contest's own pages and problems answer", async () => {
    const practice = await request(a.app, "GET", `/api/problems/${otherProblemId}`, { token: w.student2.token });
    expect([practice.status, practice.body.code, practice.body.rule, practice.body.contestId]).toEqual([403, "EXAM_LOCKED_DOWN", "lockdown", contestId]);
    expect((await request(a.app, "GET", "/api/courses", { token: w.student2.token })).body.code).toBe("EXAM_LOCKED_DOWN");
    expect((await request(a.app, "GET", `/api/assignments/${homeworkId}`, { token: w.student2.token })).body.code).toBe("EXAM_LOCKED_DOWN");
    expect((await request(a.app, "GET", `/api/problems/${problemId}`, { token: w.student2.token })).status).toBe(200);
    expect((await request(a.app, "GET", `${path}/scoreboard`, { token: w.student2.token })).status).toBe(200);
    expect((await request(a.app, "GET", `${path}/clarifications`, { token: w.student2.token })).status).toBe(200);
    // The short name is the contest too.
    const byName = await request(a.app, "GET", `/api/contests/${(await request(a.app, "GET", path, { token: w.instructor.token })).body.shortName}`, { token: w.student2.token });
    expect(byName.status).toBe(200);
    // A participant who has not entered is not held.
    expect((await request(a.app, "GET", "/api/courses", { token: third.token })).status).toBe(200);
  });

  test("one session: a second sign-in and the old session after a release are refused; the jury releases", async () => {
    const again = await signInAgain(w.student2.email);
    expect([again.status, again.body.code, again.body.rule]).toEqual([403, "EXAM_OTHER_SESSION", "session"]);
    const byStudent = await request(a.app, "POST", `${path}/release`, { token: third.token, body: { userId: w.student2.id } });
    expect(byStudent.status).toBe(403);
    const nobody = await request(a.app, "POST", `${path}/release`, { token: w.instructor.token, body: { userId: third.id } });
    expect([nobody.status, nobody.body.code, nobody.body.field]).toEqual([404, "CONTEST_ENTRY_NOT_FOUND", "userId"]);
    expect((await request(a.app, "POST", `${path}/release`, { token: w.instructor.token, body: { userId: w.student2.id } })).body).toEqual({ released: true });
    const fresh = await signInAgain(w.student2.email);
    expect(fresh.status).toBe(200);
    expect((await request(a.app, "GET", path, { token: fresh.body.token })).status).toBe(200);
    const old = await request(a.app, "GET", path, { token: w.student2.token });
    expect([old.status, old.body.code, old.body.rule]).toEqual([403, "EXAM_OTHER_SESSION", "session"]);
    w.student2.token = fresh.body.token;
  });

  test("the jury sees who entered from where and who was refused by which rule; after the end nothing holds", async () => {
    expect((await request(a.app, "GET", `${path}/access-log`, { token: w.student2.token })).status).toBe(403);
    const r = await request(a.app, "GET", `${path}/access-log`, { token: w.instructor.token });
    expect(r.status).toBe(200);
    expect(r.body.starts).toEqual([
      { userId: w.student2.id, name: expect.any(String), email: w.student2.email, startedAt: "2026-03-04T09:05:00.000Z", ip: LAB, endsAt: "2026-03-04T11:00:00.000Z", sessionBound: true },
    ]);
    const events = new Set(r.body.log.filter((l: { userId: string }) => l.userId === w.student2.id).map((l: { event: string }) => l.event));
    for (const e of ["start", "password", "started", "lockdown", "session", "released"]) expect(events).toContain(e);
    a.clock.set("2026-03-04T11:01:00Z");
    expect((await request(a.app, "GET", "/api/courses", { token: w.student2.token })).status).toBe(200);
    expect((await signInAgain(w.student2.email)).status).toBe(200);
    const over = await request(a.app, "POST", `${path}/enter`, { token: third.token, body: { password: "hall-7" } });
    expect([over.status, over.body.code]).toEqual([403, "CONTEST_OVER"]);
  });

  test("a contest without these rules asks for no entry (400 naming id)", async () => {
    const plain = await request(a.app, "POST", "/api/contests", {
      token: w.instructor.token,
      body: { title: "Plain", shortName: `plain${Date.now() % 100000}`, startsAt: "2026-03-04T12:00:00Z", durationMinutes: 60, scoring: "icpc", courseId: w.courseId, problems: [{ problemId: otherProblemId, label: "A" }] },
    });
    expect(plain.body.exam.needsEntry).toBe(false);
    const r = await request(a.app, "POST", `/api/contests/${plain.body.id}/enter`, { token: w.student2.token, body: {} });
    expect([r.status, r.body.field]).toEqual([400, "id"]);
  });
});

async function signInAgain(email: string) {
  // world()'s accounts use signUp's default password.
  return request(a.app, "POST", "/api/auth/login", { body: { email, password: third.password } });
}
