/**
 * A whole ICPC contest through the REST doors, the real sandbox and a clock
 * the test sets: creation and its refusals, registration with a code and a
 * shared team, submitting before/during/after, penalties and ranks, the
 * freeze (participants and the public see pending; the jury sees the
 * result; a team sees its own), clarifications, the unfreeze; and who may
 * do what (the matrix of roles).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../context.ts";
import { sandboxOptions } from "../sandbox.ts";
import { request } from "../../tests/api.ts";
import { judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { readEvents, type FeedReader } from "./feed.ts";

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let problemA: string;
let problemB: string;
let contestId: string;
let teamId: string;
let loneTeamId: string;
let frozenSubmissionId: string;

const PY_WRONG = "print(0)\n";
const PY_ADD_TWO = "print(int(input()) + 2)\n";

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 420)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 420 });
  a.clock.set("2026-05-01T08:00:00Z");
  w = await world(a);
  problemA = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Add One" }) })).body._id;
  const addTwo = addOneProblem({
    title: "Add Two",
    sampleOutput: "3\n",
    hiddenTestCases: [
      { input: "5\n", expectedOutput: "7\n" },
      { input: "40\n", expectedOutput: "42\n" },
    ],
  });
  problemB = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addTwo })).body._id;
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

const body = () => ({
  title: "Spring Qualifier",
  shortName: "spring26",
  startsAt: "2026-05-01T09:00:00Z",
  durationMinutes: 120,
  freezeMinutes: 30,
  scoring: "icpc",
  registration: "code",
  registrationCode: "open-sesame",
  problems: [
    { problemId: problemA, label: "A", color: "#ff0000" },
    { problemId: problemB, label: "B" },
  ],
});

const submit = (token: string, problemId: string, code: string) =>
  request(a.app, "POST", `/api/contests/${contestId}/submissions`, { token, body: { problemId, language: "py", code } });
const board = (token?: string) => request(a.app, "GET", `/api/contests/${contestId}/scoreboard`, token ? { token } : {});
const rowOf = (b: any, team: string) => b.rows.find((r: any) => r.teamId === team);
const cell = (b: any, team: string, problem: string) => rowOf(b, team).cells.find((c: any) => c.problemId === problem);
/** The events of the contest's change log a reader may see, of one type and object. */
const logged = async (reader: FeedReader, type: string, id: string) =>
  (await readEvents(a.t.services.db, contestId, reader, 0)).lines.filter((l) => l.type === type && l.id === id);

describe("creating a contest", () => {
  test("a user without the right to create courses is refused; bad fields are named", async () => {
    expect((await request(a.app, "POST", "/api/contests", { token: w.outsider.token, body: body() })).status).toBe(403);
    const late = await request(a.app, "POST", "/api/contests", { token: w.owner.token, body: { ...body(), freezeMinutes: 121 } });
    expect([late.status, late.body.field]).toEqual([400, "freezeMinutes"]);
    const twice = await request(a.app, "POST", "/api/contests", { token: w.owner.token, body: { ...body(), problems: [{ problemId: problemA, label: "A" }, { problemId: problemB, label: "a" }] } });
    expect([twice.status, twice.body.field]).toEqual([400, "problems.1.label"]);
    const missing = await request(a.app, "POST", "/api/contests", { token: w.owner.token, body: { ...body(), problems: [{ problemId: "nope", label: "A" }] } });
    expect([missing.status, missing.body.field]).toEqual([404, "problems.0.problemId"]);
  });

  test("the owner creates it (201) and is its jury; the short name is taken afterwards", async () => {
    const r = await request(a.app, "POST", "/api/contests", { token: w.owner.token, body: body() });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ shortName: "spring26", role: "jury", phase: "upcoming", endsAt: "2026-05-01T11:00:00.000Z", freezesAt: "2026-05-01T10:30:00.000Z" });
    expect(r.body.problems.map((p: any) => p.label)).toEqual(["A", "B"]);
    contestId = r.body.id;
    const again = await request(a.app, "POST", "/api/contests", { token: w.owner.token, body: body() });
    expect([again.status, again.body.code]).toEqual([409, "CONTEST_NAME_TAKEN"]);
    expect((await request(a.app, "GET", "/api/contests/spring26")).body.id).toBe(contestId);
  });
});

describe("registration", () => {
  test("a wrong code is refused; the right one registers a team whose code a teammate joins with", async () => {
    const wrong = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.student.token, body: { teamName: "Tigers", code: "nope" } });
    expect([wrong.status, wrong.body.code, wrong.body.field]).toEqual([403, "CONTEST_CODE_WRONG", "code"]);
    const ok = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.student.token, body: { teamName: "Tigers", organization: "Uni A", code: "open-sesame" } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ role: "participant", team: { name: "Tigers", organization: "Uni A" } });
    teamId = ok.body.team.id;
    const join = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.student2.token, body: { teamCode: ok.body.team.joinCode } });
    expect(join.body.team.id).toBe(teamId);
    expect(join.body.team.members.length).toBe(2);
    const again = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.student.token, body: { teamName: "Other", code: "open-sesame" } });
    expect([again.status, again.body.code]).toEqual([409, "CONTEST_ALREADY_REGISTERED"]);
    const taken = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.outsider.token, body: { teamName: "tigers", code: "open-sesame" } });
    expect([taken.status, taken.body.code]).toEqual([409, "CONTEST_TEAM_NAME_TAKEN"]);
    loneTeamId = (await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: w.outsider.token, body: { teamName: "Lone", code: "open-sesame" } })).body.team.id;
  });

  test("before the start: participants see no problems and may not submit (403 naming the opening)", async () => {
    const view = await request(a.app, "GET", `/api/contests/${contestId}`, { token: w.student.token });
    expect(view.body.problems).toEqual([]);
    const early = await submit(w.student.token, problemA, PY_ADD_ONE);
    expect([early.status, early.body.code]).toEqual([403, "CONTEST_NOT_STARTED"]);
    expect(early.body.message).toContain("2026-05-01T09:00:00.000Z");
  });
});

describe("during the contest", () => {
  test("a rejection then an AC cost minutes + 20; equal rows share a rank (listed by name); first to solve is marked", async () => {
    a.clock.set("2026-05-01T09:10:00Z");
    const wa = await submit(w.student.token, problemA, PY_WRONG);
    expect([wa.status, wa.body.verdict]).toEqual([201, "WA"]);
    a.clock.set("2026-05-01T09:25:10Z");
    expect((await submit(w.student2.token, problemA, PY_ADD_ONE)).body.verdict).toBe("AC");
    a.clock.set("2026-05-01T09:45:00Z");
    expect((await submit(w.outsider.token, problemA, PY_ADD_ONE)).body.verdict).toBe("AC");
    const b = (await board()).body;
    // Tigers: WA at 9:10, AC at 25:10 → 25 + 20 = 45; Lone: AC at 45:00 → 45. A tie.
    expect(rowOf(b, teamId)).toMatchObject({ rank: 1, numSolved: 1, penaltyMinutes: 25 + 20 });
    expect(rowOf(b, loneTeamId)).toMatchObject({ rank: 1, numSolved: 1, penaltyMinutes: 45 });
    expect(b.rows.map((r: any) => b.teams[r.teamId].name)).toEqual(["Lone", "Tigers"]);
    expect(cell(b, teamId, problemA)).toMatchObject({ numJudged: 2, solved: true, firstToSolve: true });
    expect(cell(b, loneTeamId, problemA).firstToSolve).toBe(false);
    // The team shares its submissions: both members see both.
    const mine = await request(a.app, "GET", `/api/contests/${contestId}/submissions`, { token: w.student.token });
    expect(mine.body.map((s: any) => s.verdict)).toEqual(["AC", "WA"]);
  });

  test("a problem not in the contest is refused naming problemId", async () => {
    const other = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Elsewhere" }) })).body._id;
    const r = await submit(w.student.token, other, PY_ADD_ONE);
    expect([r.status, r.body.code, r.body.field]).toEqual([404, "CONTEST_PROBLEM_NOT_FOUND", "problemId"]);
  });

  test("clarifications: a team asks; the jury answers to all; other teams see only the answer", async () => {
    const q = await request(a.app, "POST", `/api/contests/${contestId}/clarifications`, { token: w.student.token, body: { problemId: problemA, text: "Is n negative?" } });
    expect(q.status).toBe(201);
    expect((await request(a.app, "GET", `/api/contests/${contestId}/clarifications`, { token: w.outsider.token })).body).toEqual([]);
    const queue = await request(a.app, "GET", `/api/contests/${contestId}/clarifications`, { token: w.owner.token });
    expect(queue.body.map((c: any) => [c.text, c.answered, c.fromTeamName])).toEqual([["Is n negative?", false, "Tigers"]]);
    const ans = await request(a.app, "POST", `/api/contests/${contestId}/clarifications`, { token: w.owner.token, body: { replyToId: q.body.id, text: "No.", toAll: true } });
    expect(ans.body).toMatchObject({ toTeamId: null, replyToId: q.body.id, problemId: problemA });
    expect((await request(a.app, "GET", `/api/contests/${contestId}/clarifications`, { token: w.outsider.token })).body.map((c: any) => c.text)).toEqual(["No."]);
    expect((await request(a.app, "GET", `/api/contests/${contestId}/clarifications`, { token: w.student2.token })).body.map((c: any) => c.text)).toEqual(["Is n negative?", "No."]);
    expect((await request(a.app, "POST", `/api/contests/${contestId}/clarifications`, { token: w.outsider.token, body: { text: "hi", toAll: true } })).status).toBe(403);
    // The asking team hears of the answer (src/notifications); a participant who did not ask does not.
    const notices = (token: string) => request(a.app, "GET", "/api/notifications", { token }).then((r) => r.body.items.filter((n: any) => n.kind === "clarification-answered"));
    expect(await notices(w.student.token)).toMatchObject([{ contestId, clarificationId: q.body.id, payload: { body: "No." } }]);
    expect(await notices(w.outsider.token)).toEqual([]);
  });
});

describe("the freeze", () => {
  test("a solve during the freeze is pending for the public and other teams, live for the jury, known to its own team", async () => {
    a.clock.set("2026-05-01T10:40:00Z");
    const r = await submit(w.student.token, problemB, PY_ADD_TWO);
    expect(r.body.verdict).toBe("AC");
    frozenSubmissionId = r.body._id;
    for (const viewer of [undefined, w.outsider.token, w.student.token]) {
      const b = (await board(viewer)).body;
      expect(b.frozen).toBe(true);
      expect(cell(b, teamId, problemB)).toMatchObject({ solved: false, numPending: 1, numJudged: 0 });
      expect(rowOf(b, teamId).numSolved).toBe(1);
    }
    const live = (await board(w.owner.token)).body;
    expect(live.frozen).toBe(false);
    expect(rowOf(live, teamId)).toMatchObject({ rank: 1, numSolved: 2 });
    const own = await request(a.app, "GET", `/api/contests/${contestId}/submissions`, { token: w.student2.token });
    expect(own.body[0]).toMatchObject({ id: frozenSubmissionId, verdict: "AC" });
    // Another team cannot read it at all.
    expect((await request(a.app, "GET", `/api/contests/${contestId}/submissions/${frozenSubmissionId}`, { token: w.outsider.token })).status).toBe(404);
    expect((await request(a.app, "GET", `/api/contests/${contestId}/submissions/${frozenSubmissionId}`, { token: w.student2.token })).body.code).toBe(PY_ADD_TWO);
  });

  test("the change log: the frozen judgement is the team's and the jury's only; the submission itself is public, without its files", async () => {
    expect(await logged({ kind: "public" }, "judgements", frozenSubmissionId)).toEqual([]);
    expect(await logged({ kind: "team", teamId: loneTeamId }, "judgements", frozenSubmissionId)).toEqual([]);
    expect((await logged({ kind: "team", teamId }, "judgements", frozenSubmissionId)).map((l: any) => l.data.judgement_type_id)).toEqual(["AC"]);
    expect((await logged({ kind: "jury" }, "judgements", frozenSubmissionId)).length).toBe(1);
    const sub = await logged({ kind: "public" }, "submissions", frozenSubmissionId);
    expect(sub.length).toBe(1);
    expect((sub[0]!.data as any).files).toBeUndefined();
    // The start released the problems to everyone (the first reader after it wrote that, once).
    expect((await logged({ kind: "public" }, "problems", problemA)).length).toBe(1);
  });

  test("after the end: submitting is refused (403 naming the end); only the jury unfreezes; then everyone sees the result", async () => {
    a.clock.set("2026-05-01T11:00:00Z");
    const late = await submit(w.outsider.token, problemB, PY_ADD_TWO);
    expect([late.status, late.body.code]).toEqual([403, "CONTEST_OVER"]);
    expect((await board()).body.frozen).toBe(true);
    expect((await request(a.app, "POST", `/api/contests/${contestId}/unfreeze`, { token: w.student.token })).status).toBe(403);
    const done = await request(a.app, "POST", `/api/contests/${contestId}/unfreeze`, { token: w.owner.token });
    expect([done.status, done.body.frozen]).toEqual([200, false]);
    const b = (await board()).body;
    expect(b.frozen).toBe(false);
    expect(rowOf(b, teamId)).toMatchObject({ rank: 1, numSolved: 2, penaltyMinutes: 45 + 100 });
  });
});

describe("after the unfreeze", () => {
  test("the change log releases the frozen judgement to everyone but the jury (who had it)", async () => {
    expect((await logged({ kind: "public" }, "judgements", frozenSubmissionId)).map((l: any) => l.data.judgement_type_id)).toEqual(["AC"]);
    expect((await logged({ kind: "team", teamId: loneTeamId }, "judgements", frozenSubmissionId)).length).toBe(1);
    expect((await logged({ kind: "jury" }, "judgements", frozenSubmissionId)).length).toBe(1);
  });
});

describe("who may do what (contest roles)", () => {
  test("jury, participant, other participant, non-participant, signed out and admin against each door", async () => {
    const people = { jury: w.owner.token, participant: w.student.token, other: w.outsider.token, nonParticipant: w.ta.token, signedOut: undefined, admin: w.admin.token };
    const tries: [string, string, string, unknown, Record<keyof typeof people, number>][] = [
      ["view", "GET", "", undefined, { jury: 200, participant: 200, other: 200, nonParticipant: 200, signedOut: 200, admin: 200 }],
      ["scoreboard", "GET", "/scoreboard", undefined, { jury: 200, participant: 200, other: 200, nonParticipant: 200, signedOut: 200, admin: 200 }],
      ["submissions", "GET", "/submissions", undefined, { jury: 200, participant: 200, other: 200, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["a team's code", "GET", `/submissions/${frozenSubmissionId}`, undefined, { jury: 200, participant: 200, other: 404, nonParticipant: 404, signedOut: 401, admin: 200 }],
      ["clarifications", "GET", "/clarifications", undefined, { jury: 200, participant: 200, other: 200, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["edit", "PATCH", "", { title: "Renamed" }, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["finalize", "POST", "/finalize", undefined, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["unfreeze", "POST", "/unfreeze", undefined, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      // Over: registering is closed to the public; participants are told they are in; the jury may not take part.
      ["register", "POST", "/register", { teamName: "Late" }, { jury: 403, participant: 409, other: 409, nonParticipant: 403, signedOut: 401, admin: 403 }],
      // Over: participants are refused naming the end; the jury may still submit (off the scoreboard).
      ["submit", "POST", "/submissions", { problemId: "", language: "py", code: PY_ADD_ONE }, { jury: 201, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 201 }],
      ["ask", "POST", "/clarifications", { text: "Still there?" }, { jury: 201, participant: 201, other: 201, nonParticipant: 403, signedOut: 401, admin: 201 }],
      // The jury's tools.
      ["balloons", "GET", "/balloons", undefined, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["mark a balloon", "POST", "/balloons", { teamId, problemId: problemA, delivered: false }, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["reveal", "GET", "/reveal?step=0", undefined, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["rejudge", "POST", `/submissions/${frozenSubmissionId}/rejudge`, undefined, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      // Exam rules (decision 081): this contest asks for no entry, so a participant's is 400 naming id; nobody has entered to release.
      ["enter", "POST", "/enter", {}, { jury: 403, participant: 400, other: 400, nonParticipant: 403, signedOut: 401, admin: 403 }],
      ["access log", "GET", "/access-log", undefined, { jury: 200, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 200 }],
      ["release", "POST", "/release", { userId: "0".repeat(21) }, { jury: 404, participant: 403, other: 403, nonParticipant: 403, signedOut: 401, admin: 404 }],
    ];
    const got: Record<string, Record<string, number>> = {};
    const want: Record<string, Record<string, number>> = {};
    for (const [name, method, path, reqBodyOf, expected] of tries) {
      const reqBody = name === "submit" ? { ...(reqBodyOf as object), problemId: problemA } : reqBodyOf;
      got[name] = {};
      want[name] = expected;
      for (const [who, token] of Object.entries(people)) {
        const r = await request(a.app, method, `/api/contests/${contestId}${path}`, { token, body: reqBody });
        got[name]![who] = r.status;
      }
    }
    expect(got).toEqual(want);
  });
});

describe("bounds and deletion", () => {
  test("a participant's questions are limited (429 with Retry-After); the jury's answers are not", async () => {
    let last = { status: 0, headers: new Headers() };
    for (let i = 0; i < 40 && last.status !== 429; i++) {
      last = await request(a.app, "POST", `/api/contests/${contestId}/clarifications`, { token: w.student2.token, body: { text: `q${i}` } });
    }
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    const answer = await request(a.app, "POST", `/api/contests/${contestId}/clarifications`, { token: w.owner.token, body: { text: "Announcement", toAll: true } });
    expect(answer.status).toBe(201);
  });

  test("only the jury deletes; a deleted contest is gone from every door", async () => {
    expect((await request(a.app, "DELETE", `/api/contests/${contestId}`, { token: w.student.token })).status).toBe(403);
    expect((await request(a.app, "DELETE", `/api/contests/${contestId}`)).status).toBe(401);
    expect((await request(a.app, "DELETE", `/api/contests/${contestId}`, { token: w.owner.token })).status).toBe(200);
    expect((await request(a.app, "GET", `/api/contests/${contestId}`, { token: w.owner.token })).status).toBe(404);
    expect((await request(a.app, "GET", `/api/contests/${contestId}/scoreboard`)).status).toBe(404);
    expect((await request(a.app, "GET", "/api/contests")).body.map((c: any) => c.id)).not.toContain(contestId);
  });
});
