/**
 * The ICPC Contest API at /api/ccs/ through the real app, judge and sandbox,
 * with a clock the test sets: every endpoint and every event type of the
 * feed validated against the 2023-06 schemas (./ccs-schemas.ts) as the jury,
 * a team and the public see them; HTTP Basic with an account's email and
 * password; 404s and the bad `since_token` 400; reconnection; live events and
 * keep-alive newlines; the freeze never leaking to the public (scoreboard,
 * judgements, runs, the feed) and released at the unfreeze; `end_of_updates`
 * last.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strFromU8, unzipSync } from "fflate";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { openContest } from "../../src/contests/ccs/api.ts";
import { eventFeed } from "../../src/contests/ccs/event-feed.ts";
import { contestDeps } from "../../src/trpc/routers/contests.ts";
import { request } from "../api.ts";
import { eventually, judgeConfig, preparePch } from "../judge/fixtures.ts";
import { addOneProblem, courseApp, PY_ADD_ONE, world, type CourseApp, type World } from "../courses/fixtures.ts";
import { explain, OBJECT_SCHEMAS } from "./ccs-schemas.ts";

const BOX = 440;
const PASSWORD = "correct horse battery";
let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let problemA: string;
let problemB: string;
let tigers: string;
let lions: string;
let frozenSubmission: string;

const basic = (email: string, password = PASSWORD) => ({ authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}` });
const get = (path: string, headers: Record<string, string> = {}) => request(a.app, "GET", `/api/ccs${path}`, { headers });
const jury = () => basic(w.owner.email);
const tigersAuth = () => basic(w.student.email);
const lionsAuth = () => basic(w.student2.email);

/** Asserts `body` is valid for the schema `name`, naming the first errors otherwise. */
function valid(name: string, body: unknown): void {
  expect(explain(name, body)).toBe("valid");
}

/** The whole feed as the reader sees it now (`stream=false`), each line parsed. */
async function feed(headers: Record<string, string> = {}, since?: string): Promise<any[]> {
  const q = since === undefined ? "?stream=false" : `?stream=false&since_token=${since}`;
  const res = await a.app.request(`/api/ccs/contests/ccs26/event-feed${q}`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson");
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** Every event validates, and the feed's type set. */
function validEvents(events: any[]): Set<string> {
  for (const e of events) valid("event", e);
  return new Set(events.map((e) => e.type));
}

const submit = async (token: string, problemId: string, code: string) => {
  const r = await request(a.app, "POST", "/api/contests/ccs26/submissions", { token, body: { problemId, language: "py", code } });
  expect(r.status).toBe(201);
  // The answer comes once the verdict is stored; the judged hook logs the judgement right after.
  await eventually(async () => (await get(`/contests/ccs26/judgements/${r.body._id}`, jury())).status === 200);
  return r.body._id as string;
};

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, BOX)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: BOX });
  a.clock.set("2026-06-01T08:00:00Z");
  w = await world(a);
  problemA = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Add One" }) })).body._id;
  problemB = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ title: "Add One Again" }) })).body._id;
  const made = await request(a.app, "POST", "/api/contests", {
    token: w.owner.token,
    body: {
      title: "Contest API Cup",
      shortName: "ccs26",
      startsAt: "2026-06-01T09:00:00Z",
      durationMinutes: 120,
      freezeMinutes: 30,
      scoring: "icpc",
      registration: "open",
      problems: [
        { problemId: problemA, label: "A", color: "#ff0000" },
        { problemId: problemB, label: "B" },
      ],
    },
  });
  expect(made.status).toBe(201);
  tigers = (await request(a.app, "POST", "/api/contests/ccs26/register", { token: w.student.token, body: { teamName: "Tigers", organization: "Uni A" } })).body.team.id;
  lions = (await request(a.app, "POST", "/api/contests/ccs26/register", { token: w.student2.token, body: { teamName: "Lions", organization: "Uni B" } })).body.team.id;
}, 60_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
});

describe("before the start", () => {
  test("API information, contests and the contest validate; unknown ones are 404 in the spec's error shape", async () => {
    const info = await get("/");
    valid("api", info.body);
    expect(info.body.version).toBe("2023-06");
    expect(info.headers.get("access-control-allow-origin")).toBe("*");
    const list = await get("/contests");
    valid("contests", list.body);
    expect(list.body.map((c: any) => c.id)).toContain("ccs26");
    const one = await get("/contests/ccs26");
    valid("contest", one.body);
    expect(one.body).toMatchObject({ id: "ccs26", start_time: "2026-06-01T09:00:00.000+00:00", duration: "2:00:00.000", scoreboard_freeze_duration: "0:30:00.000", scoreboard_type: "pass-fail", penalty_time: 20 });
    for (const path of ["/contests/nope", "/contests/ccs26/problems/nope", "/contests/ccs26/teams/nope", "/contests/ccs26/nonsense"]) {
      const r = await get(path, jury());
      expect(r.status).toBe(404);
      valid("error", r.body);
      expect(r.body.code).toBe(404);
    }
  });

  test("problems are the jury's only until the start", async () => {
    expect((await get("/contests/ccs26/problems")).body).toEqual([]);
    expect((await get("/contests/ccs26/problems", tigersAuth())).body).toEqual([]);
    const forJury = await get("/contests/ccs26/problems", jury());
    valid("problems[]", forJury.body);
    expect(forJury.body.map((p: any) => [p.label, p.rgb])).toEqual([
      ["A", "#ff0000"],
      ["B", null],
    ]);
  });

  test("HTTP Basic: a wrong password is a 401 with a Basic challenge; accounts are the jury's", async () => {
    const wrong = await get("/contests/ccs26/accounts", basic(w.owner.email, "wrong password"));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain("Basic");
    valid("error", wrong.body);
    expect((await get("/contests/ccs26/accounts")).status).toBe(401);
    expect((await get("/contests/ccs26/accounts", tigersAuth())).status).toBe(403);
    const accounts = await get("/contests/ccs26/accounts", jury());
    expect(accounts.status).toBe(200);
    valid("accounts[]", accounts.body);
    expect(accounts.body.find((x: any) => x.username === w.student.email)).toMatchObject({ type: "team", team_id: tigers });
    expect(accounts.body.find((x: any) => x.username === w.owner.email)).toMatchObject({ type: "judge" });
    // The session's bearer token works as well.
    expect((await request(a.app, "GET", "/api/ccs/contests/ccs26/accounts", { token: w.owner.token })).status).toBe(200);
  });

  test("account: the caller's own (team, judge); 404 signed out", async () => {
    const mine = await get("/contests/ccs26/account", tigersAuth());
    valid("account", mine.body);
    expect(mine.body).toMatchObject({ type: "team", team_id: tigers, username: w.student.email });
    expect((await get("/contests/ccs26/account", jury())).body.type).toBe("judge");
    expect((await get("/contests/ccs26/account")).status).toBe(404);
  });

  test("access lists what each reader sees: files and accounts are not the public's", async () => {
    const pub = await get("/contests/ccs26/access");
    valid("access", pub.body);
    const types = (b: any) => b.endpoints.map((e: any) => e.type);
    expect(types(pub.body)).not.toContain("accounts");
    expect(pub.body.endpoints.find((e: any) => e.type === "submissions").properties).not.toContain("files");
    const forJury = await get("/contests/ccs26/access", jury());
    valid("access", forJury.body);
    expect(types(forJury.body)).toContain("accounts");
  });
});

describe("during the contest and its freeze", () => {
  test("submissions are judged; the public sees judgements and runs before the freeze", async () => {
    a.clock.set("2026-06-01T09:10:00Z");
    await submit(w.student.token, problemA, PY_ADD_ONE);
    a.clock.set("2026-06-01T09:20:00Z");
    await submit(w.student2.token, problemA, "print(0)\n");
    const judgements = await get("/contests/ccs26/judgements");
    valid("judgements[]", judgements.body);
    expect(judgements.body.map((j: any) => j.judgement_type_id).sort()).toEqual(["AC", "WA"]);
    const runs = await get("/contests/ccs26/runs");
    valid("runs[]", runs.body);
    expect(runs.body.length).toBeGreaterThan(0);
    const problems = await get("/contests/ccs26/problems");
    valid("problems[]", problems.body);
    expect(problems.body.length).toBe(2);
  });

  test("a submission during the freeze: its result is the team's and the jury's, not the public's", async () => {
    a.clock.set("2026-06-01T10:40:00Z");
    frozenSubmission = await submit(w.student2.token, problemA, PY_ADD_ONE);
    const judgementOf = async (headers: Record<string, string>) => (await get("/contests/ccs26/judgements", headers)).body.find((j: any) => j.submission_id === frozenSubmission);
    expect(await judgementOf({})).toBeUndefined();
    expect(await judgementOf(tigersAuth())).toBeUndefined();
    expect((await judgementOf(lionsAuth())).judgement_type_id).toBe("AC");
    expect((await judgementOf(jury())).judgement_type_id).toBe("AC");
    expect((await get(`/contests/ccs26/judgements/${frozenSubmission}`)).status).toBe(404);
    expect((await get("/contests/ccs26/runs")).body.some((r: any) => r.judgement_id === frozenSubmission)).toBe(false);
    // The submission itself is public (without its files).
    const sub = await get(`/contests/ccs26/submissions/${frozenSubmission}`);
    valid("submissions/id", sub.body);
    expect(sub.body.files).toBeUndefined();

    const pubBoard = await get("/contests/ccs26/scoreboard");
    valid("scoreboard", pubBoard.body);
    const cellOf = (b: any, team: string) => b.rows.find((r: any) => r.team_id === team).problems.find((p: any) => p.problem_id === problemA);
    expect(cellOf(pubBoard.body, lions)).toEqual({ problem_id: problemA, num_judged: 1, num_pending: 1, solved: false });
    expect(pubBoard.body.state.frozen).toBe("2026-06-01T10:30:00.000+00:00");
    const juryBoard = await get("/contests/ccs26/scoreboard", jury());
    valid("scoreboard", juryBoard.body);
    expect(cellOf(juryBoard.body, lions)).toMatchObject({ num_judged: 2, num_pending: 0, solved: true, time: 100 });
    expect(juryBoard.body.rows.find((r: any) => r.team_id === lions).score).toEqual({ num_solved: 1, total_time: 120 });

    const pubFeed = await feed();
    expect(pubFeed.some((e) => e.type === "judgements" && e.data?.submission_id === frozenSubmission)).toBe(false);
    expect(pubFeed.some((e) => e.type === "runs" && e.data?.judgement_id === frozenSubmission)).toBe(false);
    expect(pubFeed.some((e) => e.type === "submissions" && e.id === frozenSubmission)).toBe(true);
    expect((await feed(lionsAuth())).some((e) => e.type === "judgements" && e.id === frozenSubmission)).toBe(true);
    expect((await feed(tigersAuth())).some((e) => e.type === "judgements" && e.id === frozenSubmission)).toBe(false);
  });

  test("files: a zip with the source at its root, for the jury and the team only", async () => {
    const res = await a.app.request(`/api/ccs/contests/ccs26/submissions/${frozenSubmission}/files`, { headers: jury() });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/zip"]);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.values(files).map((f) => strFromU8(f))).toEqual([PY_ADD_ONE]);
    expect((await a.app.request(`/api/ccs/contests/ccs26/submissions/${frozenSubmission}/files`, { headers: lionsAuth() })).status).toBe(200);
    expect((await a.app.request(`/api/ccs/contests/ccs26/submissions/${frozenSubmission}/files`, { headers: tigersAuth() })).status).toBe(404);
    expect((await a.app.request(`/api/ccs/contests/ccs26/submissions/${frozenSubmission}/files`)).status).toBe(404);
    const listed = await get("/contests/ccs26/submissions", jury());
    valid("submissions[]", listed.body);
    expect(listed.body.every((s: any) => s.files?.[0]?.href === `contests/ccs26/submissions/${s.id}/files`)).toBe(true);
  });

  test("clarifications: a team's question and the answer to it are theirs; an announcement is everyone's; filters by ID properties", async () => {
    const q = await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.student.token, body: { problemId: problemA, text: "Is n ever negative?" } });
    expect(q.status).toBe(201);
    await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.owner.token, body: { replyToId: q.body.id, text: "No." } });
    await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.owner.token, body: { toAll: true, text: "Thirty minutes left." } });
    const pub = await get("/contests/ccs26/clarifications");
    valid("clarifications[]", pub.body);
    expect(pub.body.map((c: any) => c.text)).toEqual(["Thirty minutes left."]);
    const mine = await get("/contests/ccs26/clarifications", tigersAuth());
    expect(mine.body.map((c: any) => c.text)).toEqual(["Is n ever negative?", "No.", "Thirty minutes left."]);
    expect((await get("/contests/ccs26/clarifications", lionsAuth())).body.length).toBe(1);
    const toTigers = await get(`/contests/ccs26/clarifications?to_team_id=${tigers}`, jury());
    expect(toTigers.body.map((c: any) => c.text)).toEqual(["No."]);
    const toNobody = await get("/contests/ccs26/clarifications?to_team_id=", jury());
    expect(toNobody.body.map((c: any) => c.text)).toEqual(["Is n ever negative?", "Thirty minutes left."]);
    const byTeam = await get(`/contests/ccs26/submissions?team_id=${lions}`);
    expect(byTeam.body.length).toBe(2);
    expect(byTeam.body.every((s: any) => s.team_id === lions)).toBe(true);
  });

  test("every collection and object validates for every reader", async () => {
    for (const headers of [{}, tigersAuth(), jury()]) {
      for (const type of ["judgement-types", "languages", "problems", "groups", "organizations", "teams", "submissions", "judgements", "runs", "clarifications", "awards"]) {
        const r = await get(`/contests/ccs26/${type}`, headers);
        expect(r.status).toBe(200);
        valid(`${type}[]`, r.body);
        for (const o of r.body.slice(0, 3)) {
          const one = await get(`/contests/ccs26/${type}/${o.id}`, headers);
          valid(`${type}/id`, one.body);
          expect(one.body).toEqual(o);
        }
      }
      valid("state", (await get("/contests/ccs26/state", headers)).body);
      valid("scoreboard", (await get("/contests/ccs26/scoreboard", headers)).body);
    }
    expect((await get("/contests/ccs26/languages")).body.map((l: any) => l.id)).toContain("python3");
    expect((await get("/contests/ccs26/organizations")).body.map((o: any) => o.name).sort()).toEqual(["Uni A", "Uni B"]);
    const teams = (await get("/contests/ccs26/teams")).body;
    const orgs = new Set((await get("/contests/ccs26/organizations")).body.map((o: any) => o.id));
    expect(teams.every((t: any) => orgs.has(t.organization_id))).toBe(true);
  });
});

describe("the event feed", () => {
  test("since_token resumes after the token; a token the feed never sent or not a number is a 400", async () => {
    const all = await feed(jury());
    expect(all.length).toBeGreaterThan(10);
    const at = all[5].token;
    expect(await feed(jury(), at)).toEqual(all.slice(6));
    for (const bad of ["abc", "-1", "99999999"]) {
      const r = await a.app.request(`/api/ccs/contests/ccs26/event-feed?since_token=${bad}`, { headers: jury() });
      expect(r.status).toBe(400);
      valid("error", await r.json());
    }
  });

  test("live: an event reaches a connected client; a quiet feed sends keep-alive newlines", async () => {
    const controller = new AbortController();
    const res = await a.app.request("/api/ccs/contests/ccs26/event-feed", { headers: jury(), signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const q = await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.student2.token, body: { text: "Can we use a second monitor?" } });
    while (!text.includes(q.body.id)) text += decoder.decode((await reader.read()).value);
    const line = text.split("\n").find((l) => l.includes(q.body.id))!;
    valid("event", JSON.parse(line));
    controller.abort();
    await reader.cancel().catch(() => {});

    const deps = contestDeps({ ...a.t.services, user: null } as never);
    const caller = await openContest(deps, null, "ccs26");
    const stop = new AbortController();
    const chunks: string[] = [];
    for await (const chunk of eventFeed(deps, caller, Number.MAX_SAFE_INTEGER, { follow: true, keepAliveMs: 30, signal: stop.signal })) {
      chunks.push(chunk);
      if (chunks.length === 2) stop.abort();
    }
    expect(chunks).toEqual(["\n", "\n"]);
  });
});

describe("after the end", () => {
  test("the unfreeze releases the hidden judgement to everyone; finalize announces awards and ends the updates", async () => {
    a.clock.set("2026-06-01T11:05:00Z");
    expect((await get("/contests/ccs26/state")).body.ended).toBe("2026-06-01T11:00:00.000+00:00");
    expect((await get("/contests/ccs26/judgements")).body.some((j: any) => j.submission_id === frozenSubmission)).toBe(false);
    // The jury's reveal: the frozen board, then the one hidden result.
    const r0 = await request(a.app, "GET", "/api/contests/ccs26/reveal?step=0", { token: w.owner.token });
    expect([r0.status, r0.body.total, r0.body.revealed]).toEqual([200, 1, null]);
    const r1 = await request(a.app, "GET", "/api/contests/ccs26/reveal?step=1", { token: w.owner.token });
    expect(r1.body.revealed).toEqual({ teamId: lions, problemId: problemA });
    expect(r1.body.rows.find((r: any) => r.teamId === lions).numSolved).toBe(1);
    expect((await request(a.app, "GET", "/api/contests/ccs26/reveal?step=0", { token: w.student.token })).status).toBe(403);
    const balloons = await request(a.app, "GET", "/api/contests/ccs26/balloons", { token: w.owner.token });
    expect(balloons.body.map((b: any) => b.teamName)).toEqual(["Tigers", "Lions"]);
    expect((await request(a.app, "POST", "/api/contests/ccs26/unfreeze", { token: w.owner.token })).status).toBe(200);
    const released = await get(`/contests/ccs26/judgements/${frozenSubmission}`);
    valid("judgements/id", released.body);
    expect(released.body.judgement_type_id).toBe("AC");
    const board = await get("/contests/ccs26/scoreboard");
    expect(board.body.rows.find((r: any) => r.team_id === lions).score).toEqual({ num_solved: 1, total_time: 120 });
    expect(board.body.state.thawed).not.toBeNull();

    a.clock.set("2026-06-01T11:10:00Z");
    expect((await request(a.app, "POST", "/api/contests/ccs26/finalize", { token: w.owner.token })).status).toBe(200);
    const awards = await get("/contests/ccs26/awards");
    valid("awards[]", awards.body);
    expect(awards.body.find((x: any) => x.id === "winner").team_ids).toEqual([tigers]);
    expect(awards.body.find((x: any) => x.id === `first-to-solve-${problemA}`).team_ids).toEqual([tigers]);

    const state = await get("/contests/ccs26/state");
    valid("state", state.body);
    const s = state.body;
    const order = [s.started, s.frozen, s.ended, s.thawed, s.end_of_updates].map((t: string) => Date.parse(t));
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(Date.parse(s.finalized)).toBeLessThan(Date.parse(s.end_of_updates));

    for (const headers of [{}, lionsAuth(), jury()]) {
      const events = await feed(headers);
      const types = validEvents(events);
      const last = events[events.length - 1];
      expect([last.type, last.data.end_of_updates]).toEqual(["state", s.end_of_updates]);
      // Every event type this server sends, in every reader's feed (accounts are not part of the feed here).
      for (const t of Object.keys(OBJECT_SCHEMAS).filter((t) => !["groups", "accounts"].includes(t))) expect(types).toContain(t);
      expect(events.some((e) => e.type === "judgements" && e.id === frozenSubmission && e.data.judgement_type_id === "AC")).toBe(true);
    }
  });
});
