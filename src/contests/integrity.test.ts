/**
 * What a contest must never give away, in one place, through the real doors,
 * the real sandbox and a clock the test sets:
 * - a course problem set in a public contest: its statement reaches the
 *   participants from the start (and everyone once it is over), never before,
 *   never a course student who did not register, never its hidden tests;
 * - no AI review for a participant while their contest runs (any problem);
 * - the freeze: a result after it reaches its own team and the jury only,
 *   through every door that could carry it (REST scoreboard, the live
 *   scoreboard stream over SSE, contest and problem submission lists, a
 *   submission read, the Contest API's judgements, runs, scoreboard and
 *   event feed).
 * Also checked elsewhere: the change log's audiences (./flow.test.ts), every
 * Contest API reader against the schemas (tests/contests/ccs-api.test.ts), and
 * a participant's browser traffic during the freeze (e2e/contests.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../context.ts";
import { sandboxOptions } from "../sandbox.ts";
import { request } from "../../tests/api.ts";
import { judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, trpcQuery, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { AI_OFF_IN_CONTEST } from "./guards.ts";
import { applyDelta, isDelta } from "./board-delta.ts";
import { findContest } from "./access.ts";

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let secret: string;
let open: string;
let contestId: string;
let innerTeam: string;
let frozenId: string;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 460)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 460 });
  a.clock.set("2026-06-01T08:00:00Z");
  w = await world(a);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: a.app.fetch, idleTimeout: 30 });
  // A course problem (its course's members see it only through an opened assignment) and a public one.
  const made = await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Secret Sum", courseId: w.courseId }) });
  expect(made.status).toBe(201);
  secret = made.body._id;
  open = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Open Sum" }) })).body._id;
  const contest = await request(a.app, "POST", "/api/contests", {
    token: w.owner.token,
    body: {
      title: "Integrity Cup",
      shortName: "integrity26",
      startsAt: "2026-06-01T09:00:00Z",
      durationMinutes: 60,
      freezeMinutes: 20,
      scoring: "icpc",
      registration: "open",
      problems: [
        { problemId: secret, label: "A" },
        { problemId: open, label: "B" },
      ],
    },
  });
  expect(contest.status).toBe(201);
  contestId = contest.body.id;
  expect((await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.outsider.token, body: { teamName: "Outer" } })).status).toBe(201);
  const inner = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.student.token, body: { teamName: "Inner" } });
  expect(inner.status).toBe(201);
  innerTeam = inner.body.team.id;
}, 60_000);

afterAll(async () => {
  server?.stop(true);
  await a?.close();
  await sandbox?.backend?.close();
});

const statement = (token?: string) => request(a.app, "GET", `/api/problems/${secret}`, token ? { token } : {});
const aiPolicy = async (token: string, problemId: string) => (await trpcQuery(a.app, token, "ai.policy", { problemId })).data;
const ccs = (path: string, token?: string) => request(a.app, "GET", `/api/ccs/contests/${contestId}${path}`, token ? { token } : {});
const cellOf = (board: any, team: string, problem: string) => board.rows.find((r: any) => r.teamId === team)?.cells.find((c: any) => c.problemId === problem);

describe("a course problem in a public contest", () => {
  test("before the start: hidden from the registered (404) and from course students; its course's staff see it", async () => {
    expect((await statement(w.outsider.token)).status).toBe(404);
    expect((await statement(w.student.token)).status).toBe(404);
    expect((await statement(w.student2.token)).status).toBe(404);
    expect((await statement(w.owner.token)).status).toBe(200);
    const run = await request(a.app, "POST", "/api/compiler", { token: w.outsider.token, body: { problemId: secret, language: "py", code: PY_ADD_ONE, input: "1\n", expectedOutput: "2\n" } });
    expect(run.status).toBe(404);
  });

  test("from the start: participants read the statement without hidden tests, run it on the sample and solve it; others still cannot", async () => {
    a.clock.set("2026-06-01T09:05:00Z");
    for (const token of [w.outsider.token, w.student.token]) {
      const r = await statement(token);
      expect(r.status).toBe(200);
      expect(r.body.title).toBe("Secret Sum");
      expect(r.body.hiddenTestCases).toBeUndefined();
      expect(JSON.stringify(r.body)).not.toContain("999");
    }
    expect((await statement(w.student2.token)).status).toBe(404);
    expect((await statement()).status).toBe(404);
    const run = await request(a.app, "POST", "/api/compiler", { token: w.outsider.token, body: { problemId: secret, language: "py", code: PY_ADD_ONE, input: "1\n", expectedOutput: "2\n" } });
    expect([run.status, run.body.correct]).toEqual([200, true]);
    const solved = await request(a.app, "POST", `/api/contests/${contestId}/submissions`, { token: w.outsider.token, body: { problemId: secret, language: "py", code: PY_ADD_ONE } });
    expect([solved.status, solved.body.verdict]).toEqual([201, "AC"]);
  });
});

describe("AI review during a contest", () => {
  test("off for a participant while the contest runs, for its problems, any other problem, or none; the others keep theirs", async () => {
    expect(await aiPolicy(w.outsider.token, open)).toEqual({ policy: "off", text: AI_OFF_IN_CONTEST });
    const review = await request(a.app, "POST", "/api/ai/ai-review", { token: w.outsider.token, body: { problemId: open, language: "py", code: PY_ADD_ONE } });
    expect([review.status, review.body.message]).toEqual([403, AI_OFF_IN_CONTEST]);
    const loose = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { language: "py", code: PY_ADD_ONE } });
    expect([loose.status, loose.body.message]).toEqual([403, AI_OFF_IN_CONTEST]);
    expect((await aiPolicy(w.student2.token, open)).policy).toBe("full");
    expect((await aiPolicy(w.owner.token, secret)).policy).toBe("full");
  });
});

/** The live scoreboard over SSE, as the browser's httpSubscriptionLink reads it: each board as it arrives. */
function boardStream(token?: string) {
  const controller = new AbortController();
  const input = encodeURIComponent(JSON.stringify({ id: contestId, version: -1 }));
  const boards: any[] = [];
  const waiters: (() => void)[] = [];
  const done = (async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/trpc/contests.scoreboardUpdates?input=${input}`, {
      headers: { accept: "text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: controller.signal,
    });
    if (!res.headers.get("content-type")?.includes("text/event-stream")) throw new Error(`not an event stream: ${res.status}`);
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
              boards.push(data);
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
    /** The first message received so far or next that satisfies `ok`, within 15 s. */
    async until(ok: (b: any) => boolean): Promise<any> {
      const deadline = Date.now() + 15_000;
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

describe("the freeze never leaks", () => {
  test("a solve after the freeze: the live stream shows it pending to the public and another team, solved to the jury and its own team", async () => {
    a.clock.set("2026-06-01T09:45:00Z");
    const streams = { public: boardStream(), other: boardStream(w.outsider.token), own: boardStream(w.student.token), jury: boardStream(w.owner.token) };
    try {
      for (const s of Object.values(streams)) await s.until(() => true);
      const r = await request(a.app, "POST", `/api/contests/${contestId}/submissions`, { token: w.student.token, body: { problemId: open, language: "py", code: PY_ADD_ONE } });
      expect(r.body.verdict).toBe("AC");
      frozenId = r.body._id;
      const juryBoard = await streams.jury.until((b) => cellOf(b, innerTeam, open)?.solved === true);
      expect(juryBoard.frozen).toBe(false);
      for (const who of ["public", "other", "own"] as const) {
        const b = await streams[who].until((x) => cellOf(x, innerTeam, open)?.numPending === 1);
        expect(b.frozen).toBe(true);
        // Nothing a frozen board carries may tell the result: not solved, no judged try, no time.
        expect(cellOf(b, innerTeam, open)).toMatchObject({ solved: false, numJudged: 0 });
      }
      for (const who of ["public", "other", "own"] as const) {
        expect(streams[who].boards.some((b) => cellOf(b, innerTeam, open)?.solved === true)).toBe(false);
      }
      // The stream is a whole board, then deltas: applied in order they give the board the REST door serves.
      for (const [who, token] of [["public", undefined], ["jury", w.owner.token]] as const) {
        const served = (await request(a.app, "GET", `/api/contests/${contestId}/scoreboard`, token ? { token } : {})).body;
        await streams[who].until((b) => b.version === served.version);
        const [whole, ...deltas] = streams[who].boards;
        expect(isDelta(whole)).toBe(false);
        expect(deltas.length).toBeGreaterThan(0);
        expect(deltas.every((d) => isDelta(d))).toBe(true);
        const folded = deltas.reduce((b, d) => applyDelta(b, d), whole);
        expect(folded).toEqual(served);
      }
    } finally {
      for (const s of Object.values(streams)) await s.close();
    }
  });

  test("a rebuilt board continues the versions: a viewer holding an older one gets the whole board, never a delta", async () => {
    const before = (await request(a.app, "GET", `/api/contests/${contestId}/scoreboard`)).body.version;
    a.t.services.contests.contestChanged(contestId);
    const after = (await request(a.app, "GET", `/api/contests/${contestId}/scoreboard`)).body;
    expect(after.version).toBeGreaterThan(before);
    const contest = (await findContest(a.t.services.db, contestId))!;
    const sent = await a.t.services.contests.boards.boardSince(contest, "public", a.clock(), before);
    expect(sent && isDelta(sent)).toBe(false);
    expect(sent?.version).toBe(after.version);
  });

  test("REST: the board, the contest's submissions, the problem's submissions and the submission itself", async () => {
    for (const token of [undefined, w.outsider.token]) {
      const b = (await request(a.app, "GET", `/api/contests/${contestId}/scoreboard`, token ? { token } : {})).body;
      expect(cellOf(b, innerTeam, open)).toMatchObject({ solved: false, numPending: 1 });
    }
    const others = await request(a.app, "GET", `/api/contests/${contestId}/submissions`, { token: w.outsider.token });
    expect(others.status).toBe(200);
    expect(JSON.stringify(others.body)).not.toContain(frozenId);
    const history = await request(a.app, "GET", `/api/submissions/${open}`, { token: w.outsider.token });
    expect(JSON.stringify(history.body)).not.toContain(frozenId);
    expect((await request(a.app, "GET", `/api/contests/${contestId}/submissions/${frozenId}`, { token: w.outsider.token })).status).toBe(404);
    // Its own team knows.
    const own = await request(a.app, "GET", `/api/contests/${contestId}/submissions`, { token: w.student.token });
    expect(own.body.find((s: any) => s.id === frozenId)?.verdict).toBe("AC");
  });

  test("the Contest API: judgements, runs, scoreboard and event feed carry no result to the public or another team", async () => {
    for (const token of [undefined, w.outsider.token]) {
      const judgements = await ccs("/judgements", token);
      expect(judgements.status).toBe(200);
      expect(judgements.body.some((j: any) => j.submission_id === frozenId)).toBe(false);
      const runs = await ccs("/runs", token);
      expect(JSON.stringify(runs.body)).not.toContain(frozenId);
      const board = await ccs("/scoreboard", token);
      const row = board.body.rows.find((r: any) => r.team_id === innerTeam);
      expect(row.problems.find((p: any) => p.problem_id === open)).toMatchObject({ solved: false, num_pending: 1, num_judged: 0 });
      const feed = await request(a.app, "GET", `/api/ccs/contests/${contestId}/event-feed?stream=false`, token ? { token } : {});
      const events = String(feed.body).split("\n").filter(Boolean).map((l) => JSON.parse(l));
      expect(events.some((e) => e.type === "submissions" && e.id === frozenId)).toBe(true);
      expect(events.some((e) => (e.type === "judgements" || e.type === "runs") && JSON.stringify(e.data).includes(frozenId))).toBe(false);
    }
    // The team and the jury have it.
    for (const token of [w.student.token, w.owner.token]) {
      expect((await ccs("/judgements", token)).body.some((j: any) => j.submission_id === frozenId && j.judgement_type_id === "AC")).toBe(true);
    }
  });
});

describe("after the end", () => {
  test("AI review is back; the problem's statement is readable by anyone, its hidden tests by no one new", async () => {
    a.clock.set("2026-06-01T10:00:00Z");
    expect((await aiPolicy(w.outsider.token, open)).policy).toBe("full");
    for (const token of [w.student2.token, undefined]) {
      const r = await statement(token);
      expect(r.status).toBe(200);
      expect(r.body.hiddenTestCases).toBeUndefined();
    }
    // Still not editable or exportable by a participant.
    expect((await request(a.app, "GET", `/api/problems/${secret}/package`, { token: w.outsider.token })).status).toBe(403);
  });
});
