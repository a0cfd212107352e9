/**
 * Contest roles (decision 053; security review 2026-11-26, N9): through the
 * real doors, a real libSQL file, the real sandbox and a clock the test sets:
 * - only the contest's owners grant and revoke, by e-mail address (an unknown
 *   address 404 naming `email`, a role outside the list 400 naming `role`,
 *   a participant made jury 409 naming `email`);
 *   a granted jury member grants nothing;
 * - a granted jury member judges: every submission, rejudges, answers, the
 *   live board during the freeze, the contest's problems while it holds them;
 *   but does not change the contest;
 * - a balloon runner reads and marks the balloon list only, the freeze's
 *   solves left out;
 * - in a course contest a teacher grants, a TA does not; a granted outsider
 *   reaches the contest and sees it listed;
 * - revoked, a role is gone at the next request, and at a live board
 *   stream's next push; an open Contest API event feed ends.
 * Tests run in order: each step moves the clock on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../context.ts";
import { sandboxOptions } from "../sandbox.ts";
import { request, signUp } from "../../tests/api.ts";
import { judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, type CourseApp, type World, world } from "../../tests/courses/fixtures.ts";

/** Boxes 1100–1119 (this work's range is 1100–1127). */
const BOX_OFFSET = 1100 - 3500;

let sandbox: SandboxSelection;
const sandboxRoot = mkdtempSync("/tmp/oj-roles-");
let a: CourseApp;
let w: World;
let server: ReturnType<typeof Bun.serve>;
type Person = Awaited<ReturnType<typeof signUp>>;
/** A signed-up user the owner makes jury; another made balloon runner. */
let helper: Person;
let runner: Person;
/** Problems of the contest: A the owner's, B the instructor's (who is not the contest's jury). */
let probA: string;
let probB: string;
let cup: { id: string; shortName: string };
let team: string;
let solveA: string;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", { SANDBOX_ROOT: sandboxRoot }, BOX_OFFSET)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: BOX_OFFSET });
  a.clock.set("2026-07-01T08:00:00Z");
  w = await world(a);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: a.app.fetch, idleTimeout: 30 });
  helper = await signUp(a.app, { firstName: "Helper" });
  runner = await signUp(a.app, { firstName: "Runner" });
  probA = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Owner Sum" }) })).body._id;
  probB = (await request(a.app, "POST", "/api/problems", { token: w.instructor.token, body: addOneProblem({ title: "Instructor Sum" }) })).body._id;
  const made = await request(a.app, "POST", "/api/contests", {
    token: w.owner.token,
    body: {
      title: "Roles Cup",
      shortName: "roles26",
      startsAt: "2026-07-01T09:00:00Z",
      durationMinutes: 120,
      freezeMinutes: 60,
      scoring: "icpc",
      registration: "open",
      problems: [
        { problemId: probA, label: "A", color: "#ff0000" },
        { problemId: probB, label: "B", color: "#00ff00" },
      ],
    },
  });
  expect(made.status).toBe(201);
  cup = made.body;
  team = (await request(a.app, "POST", `/api/contests/${cup.id}/register`, { token: w.outsider.token, body: { teamName: "Outsiders" } })).body.team.id;
}, 120_000);

afterAll(async () => {
  server?.stop(true);
  await a?.close();
  await sandbox?.backend?.close();
  // Removed only when nothing is mounted under it any more (a bind mount's source must never be deleted through it).
  if (!readFileSync("/proc/self/mounts", "utf8").includes(sandboxRoot)) rmSync(sandboxRoot, { recursive: true, force: true });
});

const api = (method: string, path: string, token?: string, body?: unknown) => request(a.app, method, path, { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) });
const cellOf = (board: any, teamId: string, problem: string) => board.rows.find((r: any) => r.teamId === teamId)?.cells.find((c: any) => c.problemId === problem);
const roles = () => `/api/contests/${cup.id}/roles`;

describe("granting", () => {
  test("only the contest's owners grant, by e-mail address; unknown address 404 naming email; a role outside the list 400 naming role", async () => {
    expect((await api("GET", `/api/contests/${cup.id}`, helper.token)).body.role).toBe("public");
    expect((await api("POST", roles(), undefined, { email: helper.email, role: "jury" })).status).toBe(401);
    for (const token of [helper.token, w.outsider.token, w.instructor.token]) {
      expect((await api("POST", roles(), token, { email: helper.email, role: "jury" })).status).toBe(403);
      expect((await api("GET", roles(), token)).status).toBe(403);
    }
    const unknown = await api("POST", roles(), w.owner.token, { email: "nobody-here@example.com", role: "jury" });
    expect([unknown.status, unknown.body.field]).toEqual([404, "email"]);
    const badRole = await api("POST", roles(), w.owner.token, { email: helper.email, role: "judge" });
    expect([badRole.status, badRole.body.field]).toEqual([400, "role"]);
    const badEmail = await api("POST", roles(), w.owner.token, { email: "not an address", role: "jury" });
    expect([badEmail.status, badEmail.body.field]).toEqual([400, "email"]);

    // A team's member cannot be the jury.
    const participant = await api("POST", roles(), w.owner.token, { email: w.outsider.email, role: "jury" });
    expect([participant.status, participant.body.field]).toEqual([409, "email"]);

    const granted = await api("POST", roles(), w.owner.token, { email: helper.email.toUpperCase(), role: "jury" });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ userId: helper.user.id, role: "jury", grantedBy: w.owner.id });
    expect((await api("POST", roles(), w.owner.token, { email: helper.email, role: "jury" })).status).toBe(201);
    // A site admin is an owner of every contest.
    expect((await api("POST", roles(), w.admin.token, { email: runner.email, role: "balloon" })).status).toBe(201);
    const list = await api("GET", roles(), w.owner.token);
    expect(list.body.map((r: any) => [r.email, r.role]).sort()).toEqual([[helper.email, "jury"], [runner.email, "balloon"]].sort());

    const view = await api("GET", `/api/contests/${cup.id}`, helper.token);
    expect([view.body.role, view.body.mayChange]).toEqual(["jury", false]);
    expect((await api("GET", `/api/contests/${cup.id}`, runner.token)).body.role).toBe("balloon");
  });

  test("a granted jury member grants and revokes nothing, and does not change the contest", async () => {
    const another = await signUp(a.app);
    expect((await api("POST", roles(), helper.token, { email: another.email, role: "jury" })).status).toBe(403);
    expect((await api("POST", roles(), helper.token, { email: another.email, role: "balloon" })).status).toBe(403);
    expect((await api("DELETE", `${roles()}/${runner.user.id}/balloon`, helper.token)).status).toBe(403);
    expect((await api("GET", roles(), helper.token)).status).toBe(403);
    expect((await api("PATCH", `/api/contests/${cup.id}`, helper.token, { title: "Taken" })).status).toBe(403);
    expect((await api("DELETE", `/api/contests/${cup.id}`, helper.token)).status).toBe(403);
    expect((await api("GET", roles(), runner.token)).status).toBe(403);
  });
});

describe("while the contest runs", () => {
  test("a granted jury member reads every submission, rejudges and answers a question", async () => {
    a.clock.set("2026-07-01T09:10:00Z");
    const solve = await api("POST", `/api/contests/${cup.id}/submissions`, w.outsider.token, { problemId: probA, language: "py", code: PY_ADD_ONE });
    expect(solve.body.verdict).toBe("AC");
    solveA = solve.body._id;
    const all = await api("GET", `/api/contests/${cup.id}/submissions`, helper.token);
    expect([all.status, all.body.map((s: any) => s.id)]).toEqual([200, [solveA]]);
    expect((await api("GET", `/api/contests/${cup.id}/submissions/${solveA}`, helper.token)).body.code).toBe(PY_ADD_ONE);
    expect((await api("POST", `/api/contests/${cup.id}/submissions/${solveA}/rejudge`, helper.token)).status).toBe(200);
    const verdict = async () => (await api("GET", `/api/contests/${cup.id}/submissions`, helper.token)).body.find((s: any) => s.id === solveA)?.verdict;
    for (let i = 0; i < 600 && (await verdict()) !== "AC"; i++) await Bun.sleep(100);
    expect(await verdict()).toBe("AC");

    const q = await api("POST", `/api/contests/${cup.id}/clarifications`, w.outsider.token, { text: "Is n ever negative?" });
    expect(q.status).toBe(201);
    const answer = await api("POST", `/api/contests/${cup.id}/clarifications`, helper.token, { text: "No.", replyToId: q.body.id });
    expect(answer.status).toBe(201);
    const seen = (await api("GET", `/api/contests/${cup.id}/clarifications`, w.outsider.token)).body;
    expect(seen.some((c: any) => c.text === "No." && c.replyToId === q.body.id)).toBe(true);
  });

  test("the problem's author who is not the jury may not change it while the contest holds it; granted jury, they may", async () => {
    const change = () => api("PUT", `/api/problems/${probB}`, w.instructor.token, { timeLimitMs: 1500 });
    expect((await change()).status).toBe(403);
    expect((await api("POST", roles(), w.owner.token, { email: w.instructor.email, role: "jury" })).status).toBe(201);
    expect((await change()).status).toBe(200);
    expect((await api("DELETE", `${roles()}/${w.instructor.id}/jury`, w.owner.token)).status).toBe(200);
    expect((await change()).status).toBe(403);
  });

  test("during the freeze the jury member sees the live board; the balloon runner's list leaves out what the freeze hides", async () => {
    a.clock.set("2026-07-01T10:20:00Z");
    const late = await api("POST", `/api/contests/${cup.id}/submissions`, w.outsider.token, { problemId: probB, language: "py", code: PY_ADD_ONE });
    expect(late.body.verdict).toBe("AC");
    const live = await api("GET", `/api/contests/${cup.id}/scoreboard`, helper.token);
    expect(cellOf(live.body, team, probB)).toMatchObject({ solved: true });
    const pub = await api("GET", `/api/contests/${cup.id}/scoreboard`, runner.token);
    expect(cellOf(pub.body, team, probB)).toMatchObject({ solved: false, numPending: 1 });

    const juryList = await api("GET", `/api/contests/${cup.id}/balloons`, helper.token);
    expect(juryList.body.map((b: any) => b.label)).toEqual(["A", "B"]);
    const runnerList = await api("GET", `/api/contests/${cup.id}/balloons`, runner.token);
    expect([runnerList.status, runnerList.body.map((b: any) => b.label)]).toEqual([200, ["A"]]);
    const mark = await api("POST", `/api/contests/${cup.id}/balloons`, runner.token, { teamId: team, problemId: probA, delivered: true });
    expect([mark.status, mark.body.delivered]).toEqual([200, true]);
    expect((await api("GET", `/api/contests/${cup.id}/balloons`, runner.token)).body[0].deliveredAt).toBeString();
  });

  test("a balloon runner reads nothing else of the jury's", async () => {
    expect((await api("GET", `/api/contests/${cup.id}/submissions`, runner.token)).status).toBe(403);
    expect((await api("GET", `/api/contests/${cup.id}/submissions/${solveA}`, runner.token)).status).toBe(404);
    expect((await api("POST", `/api/contests/${cup.id}/submissions/${solveA}/rejudge`, runner.token)).status).toBe(403);
    expect((await api("GET", `/api/contests/${cup.id}/clarifications`, runner.token)).status).toBe(403);
    expect((await api("POST", `/api/contests/${cup.id}/clarifications`, runner.token, { text: "hi", toAll: true })).status).toBe(403);
    expect((await api("GET", `/api/ccs/contests/${cup.id}/accounts`, runner.token)).status).toBe(403);
    expect((await api("GET", `/api/ccs/contests/${cup.id}/account`, runner.token)).body.type).toBe("staff");
    const accounts = (await api("GET", `/api/ccs/contests/${cup.id}/accounts`, helper.token)).body as any[];
    expect(accounts.find((x) => x.id === helper.user.id)?.type).toBe("judge");
    expect(accounts.find((x) => x.id === runner.user.id)?.type).toBe("staff");
  });
});

describe("a course contest", () => {
  test("a teacher grants, a TA does not; a granted outsider reaches the contest and sees it listed; revoked, it does not exist for them", async () => {
    const made = await api("POST", "/api/contests", w.owner.token, {
      title: "Course Cup",
      shortName: "course-roles26",
      courseId: w.courseId,
      startsAt: "2026-07-02T09:00:00Z",
      durationMinutes: 60,
      scoring: "icpc",
      problems: [{ problemId: probA, label: "A" }],
    });
    expect(made.status).toBe(201);
    const path = `/api/contests/${made.body.id}`;
    const judgeFromOutside = await signUp(a.app, { firstName: "Visiting" });
    expect((await api("GET", path, judgeFromOutside.token)).status).toBe(404);
    expect((await api("POST", `${path}/roles`, w.ta.token, { email: judgeFromOutside.email, role: "jury" })).status).toBe(403);
    expect((await api("GET", path, w.ta.token)).body.role).toBe("public"); // a TA judges only by a grant
    const student = await api("POST", `${path}/roles`, w.instructor.token, { email: w.student.email, role: "jury" });
    expect([student.status, student.body.field]).toEqual([409, "email"]);
    expect((await api("POST", `${path}/roles`, w.instructor.token, { email: judgeFromOutside.email, role: "jury" })).status).toBe(201);
    expect((await api("GET", path, judgeFromOutside.token)).body.role).toBe("jury");
    expect((await api("GET", "/api/contests", judgeFromOutside.token)).body.map((c: any) => c.shortName)).toContain("course-roles26");
    expect((await api("GET", `${path}/submissions`, judgeFromOutside.token)).status).toBe(200);
    expect((await api("DELETE", `${path}/roles/${judgeFromOutside.user.id}/jury`, w.instructor.token)).status).toBe(200);
    expect((await api("GET", path, judgeFromOutside.token)).status).toBe(404);
    expect((await api("GET", "/api/contests", judgeFromOutside.token)).body.map((c: any) => c.shortName)).not.toContain("course-roles26");
  });
});

describe("revoking", () => {
  test("revoked, the jury member is the public again at the next request, their open board stream turns public at its next push, their Contest API feed ends", async () => {
    const stream = boardStream(cup.id, helper.token);
    const feed = await fetch(`http://127.0.0.1:${server.port}/api/ccs/contests/${cup.id}/event-feed`, { headers: { authorization: `Bearer ${helper.token}` } });
    expect(feed.status).toBe(200);
    // The jury's feed: read it to its end (it ends when the role is revoked) in the background.
    const feedText = new Response(feed.body).text();
    try {
      await stream.until((b) => cellOf(b, team, probB)?.solved === true);
      const gone = await api("DELETE", `${roles()}/${helper.user.id}/jury`, w.owner.token);
      expect(gone.status).toBe(200);
      await stream.until((b) => cellOf(b, team, probB)?.solved === false && cellOf(b, team, probB)?.numPending === 1);
      const ended = await Promise.race([feedText.then(() => true), Bun.sleep(10_000).then(() => false)]);
      expect(ended).toBe(true);
      expect(await feedText).toContain('"type":"judgements"');
    } finally {
      await stream.close();
    }
    expect((await api("GET", `/api/contests/${cup.id}`, helper.token)).body.role).toBe("public");
    expect((await api("GET", `/api/contests/${cup.id}/submissions`, helper.token)).status).toBe(403);
    expect((await api("POST", `/api/contests/${cup.id}/submissions/${solveA}/rejudge`, helper.token)).status).toBe(403);
    expect((await api("POST", `/api/contests/${cup.id}/clarifications`, helper.token, { text: "x", toAll: true })).status).toBe(403);
    expect((await api("GET", `/api/contests/${cup.id}/balloons`, helper.token)).status).toBe(403);
    expect(cellOf((await api("GET", `/api/contests/${cup.id}/scoreboard`, helper.token)).body, team, probB)).toMatchObject({ solved: false });

    expect((await api("DELETE", `${roles()}/${runner.user.id}/balloon`, w.owner.token)).status).toBe(200);
    expect((await api("GET", `/api/contests/${cup.id}/balloons`, runner.token)).status).toBe(403);
    const again = await api("DELETE", `${roles()}/${runner.user.id}/balloon`, w.owner.token);
    expect([again.status, again.body.field]).toEqual([404, "userId"]);
    const bad = await api("DELETE", `${roles()}/${runner.user.id}/referee`, w.owner.token);
    expect([bad.status, bad.body.field]).toEqual([400, "role"]);
    expect((await api("GET", roles(), w.owner.token)).body).toEqual([]);
  }, 60_000);
});

/** The live scoreboard over SSE (as the browser's subscription link reads it), folding deltas. */
function boardStream(contestId: string, token: string) {
  const controller = new AbortController();
  const input = encodeURIComponent(JSON.stringify({ id: contestId, version: -1 }));
  const boards: any[] = [];
  let board: any = null;
  const done = (async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/trpc/contests.scoreboardUpdates?input=${input}`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
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
              board = data.kind === "delta" ? { ...board, version: data.version, frozen: data.frozen, rows: foldRows(board.rows, data) } : data;
              boards.push(board);
            }
          } else if (line === "") event = "message";
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  })();
  return {
    async until(ok: (b: any) => boolean): Promise<any> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const hit = boards.find(ok);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no such board among ${boards.length}`);
        await Bun.sleep(100);
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
