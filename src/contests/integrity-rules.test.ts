/**
 * A contest keeps its own rules (security review 2026-11-26, N4–N6, N8, N9,
 * N11–N13), through the real doors, the real sandbox and a clock the test sets:
 * - before the start the board names no problem for anyone but the jury (REST,
 *   the Contest API's scoreboard);
 * - registration codes are at least 8 characters (a random one when left out)
 *   and wrong guesses are limited per user and contest;
 * - a course TA is not a course contest's jury unless granted, and even then does not change it;
 * - a problem's author who is not the jury cannot change, delete or rejudge the
 *   problem while a contest that uses it is not finalized, nor ever requeue its
 *   contest submissions;
 * - a participant judges a running contest's problem only in it (practice and
 *   an assignment refused; Run on the sample stays);
 * - a live board stream follows a freeze the jury adds after it opened;
 * - an archived course's contest takes no writes;
 * - finalizing while frozen gives the public the frozen board's awards, the
 *   thawed board's after the unfreeze.
 * Tests run in order: each step moves the clock on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../context.ts";
import { sandboxOptions } from "../sandbox.ts";
import { request, signUp } from "../../tests/api.ts";
import { judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, type CourseApp, type World, world } from "../../tests/courses/fixtures.ts";

/**
 * ISOLATE_BOX_ID_START 5100 (boxes 5100–5119). The range this work was given, 6100–6199, cannot be used with
 * bwrap as root: a box's uid is 60000 + its id, and 66100 is past the kernel's overflow uid (65534).
 */
const BOX_OFFSET = 5100 - 3500;

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let server: ReturnType<typeof Bun.serve>;
/** A public problem by the instructor, who is not the public contest's jury. */
let authored: string;
/** A second public problem (the owner's). */
let second: string;
/** A public problem by someone outside the course, set in the course's contest. */
let strangers: string;
let stranger: Awaited<ReturnType<typeof signUp>>;
/** The public contest (the owner is its jury) and the course contest. */
let cup: { id: string; shortName: string };
let exam: { id: string; shortName: string };
let studentTeam: string;
let outsiderTeam: string;
/** The student's contest submission of `authored`, judged AC before the freeze. */
let studentSolve: string;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", { SANDBOX_ROOT: mkdtempSync("/tmp/oj-h1-rules-") }, BOX_OFFSET)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: BOX_OFFSET });
  a.clock.set("2026-07-01T08:00:00Z");
  w = await world(a);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: a.app.fetch, idleTimeout: 30 });
  const made = await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ title: "Authored Sum" }) });
  expect(made.status).toBe(201);
  authored = made.body._id;
  second = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Second Sum" }) })).body._id;
  stranger = await signUp(a.app);
  strangers = (await request(a.app, "POST", "/api/problems", { token: stranger.token, body: addOneProblem({ title: "Stranger Sum" }) })).body._id;
}, 120_000);

afterAll(async () => {
  server?.stop(true);
  await a?.close();
  await sandbox?.backend?.close();
});

const api = (method: string, path: string, token?: string, body?: unknown) => request(a.app, method, path, { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) });
const cellOf = (board: any, team: string, problem: string) => board.rows.find((r: any) => r.teamId === team)?.cells.find((c: any) => c.problemId === problem);
const awards = async (token?: string) => Object.fromEntries(((await api("GET", `/api/ccs/contests/${cup.id}/awards`, token)).body as any[]).map((x) => [x.id, x.team_ids]));

describe("before the start", () => {
  test("registration codes: at least 8 characters, a random one when left out (N13)", async () => {
    const body = (over: Record<string, unknown>) => ({
      title: "Rules Cup",
      shortName: "rules26",
      startsAt: "2026-07-01T09:00:00Z",
      durationMinutes: 60,
      scoring: "icpc",
      registration: "code",
      problems: [
        { problemId: authored, label: "A" },
        { problemId: second, label: "B" },
      ],
      ...over,
    });
    const short = await api("POST", "/api/contests", w.owner.token, body({ registrationCode: "abcd" }));
    expect([short.status, short.body.field]).toEqual([400, "registrationCode"]);
    const made = await api("POST", "/api/contests", w.owner.token, body({}));
    expect(made.status).toBe(201);
    cup = made.body;
    expect(made.body.registrationCode).toMatch(/^[0-9A-Z]{8,}$/);
    const code = made.body.registrationCode as string;
    const shortEdit = await api("PATCH", `/api/contests/${cup.id}`, w.owner.token, { registrationCode: "abc1234" });
    expect([shortEdit.status, shortEdit.body.field]).toEqual([400, "registrationCode"]);
    const student = await api("POST", `/api/contests/${cup.id}/register`, w.student.token, { teamName: "Students", code });
    expect(student.status).toBe(201);
    studentTeam = student.body.team.id;
    outsiderTeam = (await api("POST", `/api/contests/${cup.id}/register`, w.outsider.token, { teamName: "Outsiders", code })).body.team.id;
    expect(outsiderTeam).toBeString();
  });

  test("wrong registration codes: 10 per user and contest, then 429 (the right one too); another user is not held (N13)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await api("POST", `/api/contests/${cup.id}/register`, w.student2.token, { code: `WRONG${i}XYZ` })).status);
    expect(statuses).toEqual([...Array(10).fill(403), 429]);
    const code = (await api("GET", `/api/contests/${cup.id}`, w.owner.token)).body.registrationCode;
    const right = await api("POST", `/api/contests/${cup.id}/register`, w.student2.token, { code });
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
    // Right codes spend nothing: the first two registrants were never held; a third user is not held by the second's guesses.
    const third = await signUp(a.app);
    expect((await api("POST", `/api/contests/${cup.id}/register`, third.token, { teamName: "Thirds", code })).status).toBe(201);
  });

  test("the board names no problem for anyone but the jury: REST and the Contest API (N8)", async () => {
    for (const token of [undefined, w.outsider.token, w.student2.token]) {
      const board = await api("GET", `/api/contests/${cup.id}/scoreboard`, token);
      expect(board.status).toBe(200);
      expect(board.body.problems).toEqual([]);
      expect(board.body.rows.length).toBe(3);
      expect(board.body.rows.every((r: any) => r.cells.length === 0)).toBe(true);
      expect(JSON.stringify(board.body)).not.toContain(authored);
      expect(JSON.stringify(board.body)).not.toContain("Authored Sum");
      const ccs = await api("GET", `/api/ccs/contests/${cup.id}/scoreboard`, token);
      expect(ccs.status).toBe(200);
      expect(JSON.stringify(ccs.body)).not.toContain(authored);
    }
    const jury = await api("GET", `/api/contests/${cup.id}/scoreboard`, w.owner.token);
    expect(jury.body.problems.map((p: any) => p.title)).toEqual(["Authored Sum", "Second Sum"]);
  });

  test("a course TA is not the course contest's jury by default; granted, judges it but does not edit, delete, unfreeze or finalize it; a teacher does (N9)", async () => {
    const made = await api("POST", "/api/contests", w.owner.token, {
      title: "Exam",
      shortName: "exam26",
      startsAt: "2026-07-01T09:00:00Z",
      durationMinutes: 60,
      scoring: "icpc",
      courseId: w.courseId,
      problems: [
        { problemId: second, label: "A" },
        { problemId: strangers, label: "B" },
      ],
    });
    expect(made.status).toBe(201);
    exam = made.body;
    // Not granted: the TA watches as the public does (no submissions, no jury board).
    const watching = await api("GET", `/api/contests/${exam.id}`, w.ta.token);
    expect([watching.body.role, watching.body.mayChange]).toEqual(["public", false]);
    expect((await api("GET", `/api/contests/${exam.id}/submissions`, w.ta.token)).status).toBe(403);
    // A teacher grants the TA the jury role.
    expect((await api("POST", `/api/contests/${exam.id}/roles`, w.instructor.token, { email: w.ta.email, role: "jury" })).status).toBe(201);
    const ta = await api("GET", `/api/contests/${exam.id}`, w.ta.token);
    expect([ta.body.role, ta.body.mayChange]).toEqual(["jury", false]);
    expect((await api("GET", `/api/contests/${exam.id}`, w.instructor.token)).body.mayChange).toBe(true);
    expect((await api("PATCH", `/api/contests/${exam.id}`, w.ta.token, { startsAt: "2026-07-01T08:30:00Z" })).status).toBe(403);
    expect((await api("DELETE", `/api/contests/${exam.id}`, w.ta.token)).status).toBe(403);
    expect((await api("POST", `/api/contests/${exam.id}/unfreeze`, w.ta.token)).status).toBe(403);
    expect((await api("POST", `/api/contests/${exam.id}/finalize`, w.ta.token)).status).toBe(403);
    // Jury for judging: every submission, the jury's board.
    expect((await api("GET", `/api/contests/${exam.id}/submissions`, w.ta.token)).status).toBe(200);
    // A teacher changes it (finalizing before the end is the time rule's 400, not the role's 403).
    expect((await api("PATCH", `/api/contests/${exam.id}`, w.instructor.token, { title: "Final exam" })).status).toBe(200);
    expect((await api("POST", `/api/contests/${exam.id}/finalize`, w.instructor.token)).status).toBe(400);
    expect((await api("GET", `/api/contests/${exam.id}`, w.owner.token)).body.startsAt).toBe("2026-07-01T09:00:00.000Z");
  });

  test("an upcoming contest already holds its problems: the author (not its jury) may not change them (N4)", async () => {
    const edit = await api("PUT", `/api/problems/${authored}`, w.instructor.token, { timeLimitMs: 1500 });
    expect([edit.status, edit.body.contest]).toEqual([403, "rules26"]);
    expect(edit.body.message).toContain("rules26");
    // Held by a course's contest the author cannot see: refused without naming it (it does not exist for them).
    const outside = await api("PUT", `/api/problems/${strangers}`, stranger.token, { timeLimitMs: 1500 });
    expect([outside.status, outside.body.contest]).toEqual([403, undefined]);
    expect(outside.body.message).not.toContain("exam26");
    expect(outside.body.message).not.toContain("Exam");
  });
});

describe("while the contest runs", () => {
  test("the start gives the problems to the board", async () => {
    a.clock.set("2026-07-01T09:10:00Z");
    const board = await api("GET", `/api/contests/${cup.id}/scoreboard`);
    expect(board.body.problems.map((p: any) => p.label)).toEqual(["A", "B"]);
    expect(board.body.rows.every((r: any) => r.cells.length === 2)).toBe(true);
  });

  test("a participant's ordinary submission to the contest's problem is refused, naming the contest; Run on the sample and others' practice are not (N6)", async () => {
    const solve = await api("POST", `/api/contests/${cup.id}/submissions`, w.student.token, { problemId: authored, language: "py", code: PY_ADD_ONE });
    expect([solve.status, solve.body.verdict]).toEqual([201, "AC"]);
    studentSolve = solve.body._id;
    const practice = await api("POST", "/api/submissions", w.outsider.token, { problemId: authored, language: "py", code: PY_ADD_ONE });
    expect([practice.status, practice.body.contest]).toEqual([403, "rules26"]);
    // The course contest's students are its participants without registering: the course's problem there too.
    const courseStudent = await api("POST", "/api/submissions", w.student2.token, { problemId: second, language: "py", code: PY_ADD_ONE });
    expect([courseStudent.status, courseStudent.body.contest]).toEqual([403, "exam26"]);
    // Through an assignment of the course that has the problem: refused the same way.
    const assignment = await api("POST", `/api/courses/${w.courseId}/assignments`, w.owner.token, {
      title: "Practice",
      opensAt: "2026-06-01T00:00:00Z",
      dueAt: "2026-08-01T00:00:00Z",
      problems: [{ problemId: authored }],
    });
    expect(assignment.status).toBe(201);
    const viaAssignment = await api("POST", `/api/assignments/${assignment.body.id}/submissions`, w.student.token, { problemId: authored, language: "py", code: PY_ADD_ONE });
    expect([viaAssignment.status, viaAssignment.body.contest]).toEqual([403, "rules26"]);
    const run = await api("POST", "/api/compiler", w.outsider.token, { problemId: authored, language: "py", code: PY_ADD_ONE, input: "1\n", expectedOutput: "2\n" });
    expect([run.status, run.body.correct]).toEqual([200, true]);
    // Not a participant of rules26 (its jury is the owner; the admin is no team): practice as before.
    const other = await api("POST", "/api/submissions", w.admin.token, { problemId: authored, language: "py", code: PY_ADD_ONE });
    expect([other.status, other.body.verdict]).toEqual([201, "AC"]);
  });

  test("the author (not the jury) may not change the tests, delete, rejudge the problem or its contest submission; the jury's own door rejudges (N4)", async () => {
    const tests = [{ input: "5\n", expectedOutput: "7\n" }];
    const edit = await api("PUT", `/api/problems/${authored}`, w.instructor.token, { hiddenTestCases: tests });
    expect([edit.status, edit.body.contest]).toEqual([403, "rules26"]);
    expect((await api("POST", `/api/problems/${authored}/rejudge`, w.instructor.token)).status).toBe(403);
    expect((await api("POST", `/api/submissions/${studentSolve}/rejudge`, w.instructor.token)).status).toBe(403);
    expect((await api("DELETE", `/api/problems/${authored}`, w.instructor.token)).status).toBe(403);
    // The tests are as they were: the solve stands.
    const board = await api("GET", `/api/contests/${cup.id}/scoreboard`);
    expect(cellOf(board.body, studentTeam, authored)).toMatchObject({ solved: true });
    const jury = await api("POST", `/api/contests/${cup.id}/submissions/${studentSolve}/rejudge`, w.owner.token);
    expect([jury.status, jury.body.queued]).toEqual([200, true]);
    // The judge runs in this process: wait for the rejudge's verdict (the tests unchanged: AC again).
    const verdict = async () => (await api("GET", `/api/contests/${cup.id}/submissions`, w.owner.token)).body.find((s: any) => s.id === studentSolve)?.verdict;
    for (let i = 0; i < 600 && (await verdict()) !== "AC"; i++) await Bun.sleep(100);
    expect(await verdict()).toBe("AC");
  });
});

/** The live scoreboard over SSE (as the browser's subscription link reads it), signed out. */
function boardStream(contestId: string) {
  const controller = new AbortController();
  const input = encodeURIComponent(JSON.stringify({ id: contestId, version: -1 }));
  const boards: any[] = [];
  let board: any = null;
  const waiters: (() => void)[] = [];
  const done = (async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/trpc/contests.scoreboardUpdates?input=${input}`, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    const decoder = new TextDecoder();
    let buffer = "";
    let event = "message";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:") && event === "message") {
            const data = JSON.parse(line.slice(5).trim() || "null");
            if (data?.rows) {
              // Fold deltas into the board the viewer holds: what the viewer sees after each message.
              board = data.kind === "delta" ? { ...board, version: data.version, frozen: data.frozen, rows: foldRows(board.rows, data) } : data;
              boards.push(board);
              waiters.splice(0).forEach((wake) => wake());
            }
          } else if (line === "") event = "message";
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  })();
  return {
    boards,
    async until(ok: (b: any) => boolean): Promise<any> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const hit = boards.find(ok);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no such board among ${boards.length}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), Bun.sleep(200)]);
      }
    },
    async close() {
      controller.abort();
      await done.catch(() => {});
    },
  };
}

function foldRows(rows: any[], delta: any): any[] {
  const changed = new Map(delta.rows.map((r: any) => [r.teamId, r]));
  const byId = new Map(rows.map((r: any) => [r.teamId, changed.get(r.teamId) ?? r]));
  return delta.order.map(([id, rank]: [string, number]) => ({ ...(byId.get(id) as object), rank }));
}

describe("a freeze added while a stream is open (N11)", () => {
  test("the open stream follows the new rules: a solve after the freeze reaches it pending, never solved", async () => {
    a.clock.set("2026-07-01T09:45:00Z");
    const stream = boardStream(cup.id);
    try {
      await stream.until(() => true);
      const frozen = await api("PATCH", `/api/contests/${cup.id}`, w.owner.token, { freezeMinutes: 30 });
      expect([frozen.status, frozen.body.frozen]).toEqual([200, true]);
      for (const problemId of [authored, second]) {
        const r = await api("POST", `/api/contests/${cup.id}/submissions`, w.outsider.token, { problemId, language: "py", code: PY_ADD_ONE });
        expect(r.body.verdict).toBe("AC");
      }
      const rest = (await api("GET", `/api/contests/${cup.id}/scoreboard`)).body;
      expect(rest.frozen).toBe(true);
      expect(cellOf(rest, outsiderTeam, second)).toMatchObject({ solved: false, numPending: 1 });
      const seen = await stream.until((b) => b.version >= rest.version && cellOf(b, outsiderTeam, second)?.numPending === 1);
      expect(seen.frozen).toBe(true);
      expect(stream.boards.some((b) => cellOf(b, outsiderTeam, authored)?.solved || cellOf(b, outsiderTeam, second)?.solved)).toBe(false);
    } finally {
      await stream.close();
    }
  });
});

describe("an archived course's contest (N12)", () => {
  test("takes no submission, question or edit; it can still be read", async () => {
    expect((await api("DELETE", `/api/courses/${w.courseId}`, w.owner.token)).status).toBe(200);
    const submit = await api("POST", `/api/contests/${exam.id}/submissions`, w.student.token, { problemId: second, language: "py", code: PY_ADD_ONE });
    expect([submit.status, submit.body.code]).toEqual([403, "COURSE_ARCHIVED"]);
    const ask = await api("POST", `/api/contests/${exam.id}/clarifications`, w.student.token, { text: "Is n negative?" });
    expect([ask.status, ask.body.code]).toEqual([403, "COURSE_ARCHIVED"]);
    const edit = await api("PATCH", `/api/contests/${exam.id}`, w.owner.token, { title: "Moved" });
    expect([edit.status, edit.body.code]).toEqual([403, "COURSE_ARCHIVED"]);
    expect((await api("DELETE", `/api/contests/${exam.id}`, w.owner.token)).status).toBe(403);
    expect((await api("GET", `/api/contests/${exam.id}/scoreboard`, w.student.token)).status).toBe(200);
  });
});

describe("after the end", () => {
  test("finalized while frozen: the public gets the frozen board's awards, the jury the live board's (N5)", async () => {
    a.clock.set("2026-07-01T10:05:00Z");
    const fin = await api("POST", `/api/contests/${cup.id}/finalize`, w.owner.token);
    expect([fin.status, fin.body.frozen]).toEqual([200, true]);
    for (const token of [undefined, w.student2.token, w.student.token]) {
      const got = await awards(token);
      expect(got.winner).toEqual([studentTeam]);
      expect(got[`first-to-solve-${second}`]).toEqual([]);
    }
    const jury = await awards(w.owner.token);
    expect(jury.winner).toEqual([outsiderTeam]);
    expect(jury[`first-to-solve-${second}`]).toEqual([outsiderTeam]);
    const feed = await api("GET", `/api/ccs/contests/${cup.id}/event-feed?stream=false`);
    const events = String(feed.body).split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(events.some((e) => e.type === "awards")).toBe(true);
    expect(events.some((e) => e.type === "awards" && JSON.stringify(e.data).includes(outsiderTeam))).toBe(false);
  });

  test("the unfreeze gives everyone the thawed board's awards", async () => {
    expect((await api("POST", `/api/contests/${cup.id}/unfreeze`, w.owner.token)).status).toBe(200);
    for (const token of [undefined, w.owner.token]) {
      const got = await awards(token);
      expect(got.winner).toEqual([outsiderTeam]);
      expect(got[`first-to-solve-${second}`]).toEqual([outsiderTeam]);
    }
  });

  test("once finalized the author changes the problem again, but requeues none of the contest's submissions (N4)", async () => {
    const edit = await api("PUT", `/api/problems/${authored}`, w.instructor.token, { hiddenTestCases: [{ input: "5\n", expectedOutput: "7\n" }] });
    expect(edit.status).toBe(200);
    const single = await api("POST", `/api/submissions/${studentSolve}/rejudge`, w.instructor.token);
    expect(single.status).toBe(403);
    const all = await api("POST", `/api/problems/${authored}/rejudge`, w.instructor.token);
    expect(all.status).toBe(200);
    // The admin's practice submission only: the contest's two stay judged.
    expect(all.body.queued).toBe(1);
    const mine = (await api("GET", `/api/contests/${cup.id}/submissions`, w.owner.token)).body.filter((s: any) => s.problemId === authored);
    expect(mine.length).toBe(2);
    expect(mine.every((s: any) => s.status === "done" && s.verdict === "AC")).toBe(true);
  });

  test("the contest over, its participants practise its problems again (N6)", async () => {
    const practice = await api("POST", "/api/submissions", w.outsider.token, { problemId: second, language: "py", code: PY_ADD_ONE });
    expect([practice.status, practice.body.verdict]).toEqual([201, "AC"]);
  });
});
