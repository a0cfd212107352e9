/**
 * The ICPC Contest API at /api/ccs/ through the real app, judge and sandbox,
 * with a clock the test sets. Every endpoint and every event type of the feed
 * is validated against the specification's own JSON schemas (./ccs-schemas.ts:
 * the vendored ccs-specs `json-schema/` folders, strict properties as the
 * checker inserts them) for both releases the server speaks: one database and
 * one contest, read through two apps, one with the default settings (2023-06)
 * and one with CCS_API_VERSION=2026-01; as the jury, a team and the public.
 * Also: the checker's error cases (404s, `since_id` 400s), `since_token`
 * reconnection and its 400s, objects logged by an older server repaired on
 * read, a score (IOI) contest's shapes, HTTP Basic, live events and keep-alive
 * newlines, the freeze never leaking to the public and released at the
 * unfreeze, `end_of_updates` last.
 *
 * Sandbox: box ids 5200-5219 (see BOX), boxes under /tmp/oj-h2-*.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import type { Hono } from "hono";
import { createSandbox } from "../../isolate/index.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig, ConfigError } from "../../src/config.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { openContest } from "../../src/contests/ccs/api.ts";
import { eventFeed } from "../../src/contests/ccs/event-feed.ts";
import { appendEvents } from "../../src/contests/feed.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { createAiService } from "../../src/ai/service.ts";
import { contestDeps } from "../../src/trpc/routers/contests.ts";
import { request } from "../api.ts";
import { createTestServices } from "../services.ts";
import { eventually, judgeConfig, preparePch, silentLog } from "../judge/fixtures.ts";
import { addOneProblem, PY_ADD_ONE, testClock, world, type CourseApp, type World } from "../courses/fixtures.ts";
import { loadSpec, RELEASES, schemaDir, SERVED_EVENT_TYPES, SPECS_DIR, type Release, type Spec } from "./ccs-schemas.ts";

/**
 * JUDGE_TEST_BOX_ID_START (3500) + 1700: box ids 5200-5219. This suite was given 6200-6299, which
 * no sandbox here can use (bwrap's box uid 60000 + id must stay under the overflow uid 65534; the
 * isolate test builds have 4000 boxes), so it takes that range less 1000.
 */
const BOX = 1700;
const PASSWORD = "correct horse battery";
const sandboxRoot = mkdtempSync("/tmp/oj-h2-");
let sandbox: SandboxSelection;
let a: CourseApp;
/** The app per release: the same services, CCS_API_VERSION unset (2023-06) and 2026-01. */
const apps = {} as Record<Release, Hono<any>>;
let w: World;
let problemA: string;
let problemB: string;
let tigers: string;
let lions: string;
let frozenSubmission: string;

const missing = RELEASES.filter((r) => schemaDir(r) === null);
if (missing.length) console.warn(`ccs-api.test.ts: no ccs-specs schemas for ${missing.join(", ")} under ${SPECS_DIR}; schema validation of those releases is skipped`);
const specs = Object.fromEntries(RELEASES.filter((r) => !missing.includes(r)).map((r) => [r, loadSpec(r)])) as Partial<Record<Release, Spec>>;

const basic = (email: string, password = PASSWORD) => ({ authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}` });
const jury = () => basic(w.owner.email);
const tigersAuth = () => basic(w.student.email);
const lionsAuth = () => basic(w.student2.email);

/** GET from one release's app. */
const getIn = (release: Release, path: string, headers: Record<string, string> = {}) => request(apps[release], "GET", `/api/ccs${path}`, { headers });
/** GET from the default (2023-06) app. */
const get = (path: string, headers: Record<string, string> = {}) => getIn("2023-06", path, headers);

/** Asserts `body` is valid for the release's `<schema>.json` (skipped, as announced, without the schemas). */
function valid(release: Release, schema: string, body: unknown): void {
  const spec = specs[release];
  if (spec) expect(spec.explain(schema, body)).toBe("valid");
}

/**
 * GETs `path` from both releases' apps and validates each answer against its
 * release's `<schema>.json`. @returns the bodies by release.
 */
async function checked(path: string, schema: string, headers: Record<string, string> = {}): Promise<Record<Release, any>> {
  const out = {} as Record<Release, any>;
  for (const release of RELEASES) {
    const r = await getIn(release, path, headers);
    expect([path, release, r.status]).toEqual([path, release, 200]);
    valid(release, schema, r.body);
    out[release] = r.body;
  }
  return out;
}

/** The whole feed as the reader sees it now (`stream=false`), each line parsed. */
async function feedIn(release: Release, headers: Record<string, string> = {}, query = ""): Promise<any[]> {
  const res = await apps[release].request(`/api/ccs/contests/ccs26/event-feed?stream=false${query}`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson");
  return (await res.text())
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}
const feed = (headers: Record<string, string> = {}, since?: string) => feedIn("2023-06", headers, since === undefined ? "" : `&since_token=${since}`);

/** Every line of both releases' feeds validates (the event schema and its type's object schema). @returns the 2023-06 feed and its type set. */
async function validFeeds(headers: Record<string, string> = {}): Promise<{ events: any[]; types: Set<string> }> {
  let events: any[] = [];
  for (const release of RELEASES) {
    const lines = await feedIn(release, headers);
    const spec = specs[release];
    if (spec) {
      // As the checker reads it (the NDJSON as one array), then line by line against each type's own schema.
      expect(spec.explain("event-feed-array", lines)).toBe("valid");
      for (const e of lines) expect(spec.explainEvent(e)).toBe("valid");
    }
    if (release === "2023-06") events = lines;
  }
  return { events, types: new Set(events.map((e) => e.type)) };
}

/** A 4xx/5xx in the spec's error shape: `{ code: <the status>, message }`. */
function specError(r: { status: number; body: any }, status: number): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ code: status, message: expect.any(String) });
}

const submit = async (contest: string, token: string, problemId: string, code: string) => {
  const r = await request(a.app, "POST", `/api/contests/${contest}/submissions`, { token, body: { problemId, language: "py", code } });
  expect(r.status).toBe(201);
  // The answer comes once the verdict is stored; the judged hook logs the judgement right after.
  await eventually(async () => (await get(`/contests/${contest}/judgements/${r.body._id}`, jury())).status === 200);
  return r.body._id as string;
};

beforeAll(async () => {
  await preparePch();
  const sandboxEnv = { SANDBOX_ROOT: sandboxRoot };
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", sandboxEnv, BOX)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  const judgeEnv = judgeConfig("file::memory:", sandboxEnv, BOX);
  const env = Object.fromEntries(
    (["SANDBOX", "SANDBOX_ROOT", "ISOLATE_BOX_ID_START", "ISOLATE_BOX_ID_COUNT", "SANDBOX_POOL_SIZE"] as const).map((k) => [k, String(judgeEnv[k])]),
  );
  const clock = testClock("2026-06-01T08:00:00Z");
  const t = await createTestServices({ env, clock, sandbox });
  const judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox, cacheDir: join(t.dir, "cache"), pollMs: 50, now: clock });
  t.services.judge = judge;
  await judge.start();
  t.services.ai = createAiService({ config: t.config, db: t.services.db, log: silentLog, sandbox: sandbox.backend, now: clock });
  apps["2023-06"] = createApp(t.services);
  apps["2026-01"] = createApp({ ...t.services, config: { ...t.config, CCS_API_VERSION: loadConfig({ CCS_API_VERSION: "2026-01" }).CCS_API_VERSION } });
  a = {
    app: apps["2023-06"],
    t,
    judge,
    clock,
    async close() {
      await judge.stop();
      t.cleanup();
    },
  };
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
  const ioi = await request(a.app, "POST", "/api/contests", {
    token: w.owner.token,
    body: { title: "Score Cup", shortName: "ioi26", startsAt: "2026-06-01T10:00:00Z", durationMinutes: 120, scoring: "ioi", registration: "open", problems: [{ problemId: problemA, label: "A" }] },
  });
  expect(ioi.status).toBe(201);
  await request(a.app, "POST", "/api/contests/ioi26/register", { token: w.student.token, body: { teamName: "Pumas", organization: "Uni A" } });
  await request(a.app, "POST", "/api/contests/ioi26/register", { token: w.student2.token, body: { teamName: "Owls", organization: "Uni B" } });
}, 120_000);

afterAll(async () => {
  await a?.close();
  await sandbox?.backend?.close();
  rmSync(sandboxRoot, { recursive: true, force: true });
});

describe("the setting", () => {
  test("CCS_API_VERSION is 2023-06 by default, 2026-01 when set, anything else refused naming the setting", () => {
    expect(loadConfig({}).CCS_API_VERSION).toBe("2023-06");
    expect(loadConfig({ CCS_API_VERSION: "2026-01" }).CCS_API_VERSION).toBe("2026-01");
    expect(() => loadConfig({ CCS_API_VERSION: "2022-07" })).toThrow(ConfigError);
    expect(() => loadConfig({ CCS_API_VERSION: "2022-07" })).toThrow(/CCS_API_VERSION/);
  });
});

describe("before the start", () => {
  test("API information, contests and the contest validate in each release; unknown ones are 404 in the spec's error shape", async () => {
    const info = await checked("/", "api_information");
    expect(info["2023-06"]).toEqual({ version: "2023-06", version_url: "https://ccs-specs.icpc.io/2023-06/contest_api", provider: { name: "CodeArena" } });
    expect(info["2026-01"]).toMatchObject({ version: "2026-01", version_url: "https://ccs-specs.icpc.io/2026-01/contest_api" });
    expect((await get("/")).headers.get("access-control-allow-origin")).toBe("*");
    const list = await checked("/contests", "contests");
    expect(list["2023-06"].map((c: any) => c.id)).toContain("ccs26");
    const one = await checked("/contests/ccs26", "contest");
    const common = { id: "ccs26", start_time: "2026-06-01T09:00:00.000+00:00", duration: "2:00:00.000", scoreboard_freeze_duration: "0:30:00.000", scoreboard_type: "pass-fail" };
    expect(one["2023-06"]).toMatchObject({ ...common, penalty_time: 20 });
    expect(one["2026-01"]).toMatchObject({ ...common, penalty_time: "0:20:00.000" });
    // The checker's `-e` list, and ours.
    for (const path of ["/contests/nope", "/contests/ccs26/problems/nope", "/contests/ccs26/teams/nope", "/contests/ccs26/nonsense", "/contests/ccs26/doesnt-exist", "/contests/ccs26/doesnt-exist/42"]) {
      for (const release of RELEASES) specError(await getIn(release, path, jury()), 404);
    }
    for (const id of ["999999", "xyz9999", "XYZ_999", "XYZ-999"]) specError(await get(`/contests/ccs26/submissions/${id}`, jury()), 404);
  });

  test("problems are the jury's only until the start; a problem without a colour has no rgb or color at all", async () => {
    expect((await get("/contests/ccs26/problems")).body).toEqual([]);
    expect((await get("/contests/ccs26/problems", tigersAuth())).body).toEqual([]);
    const forJury = await checked("/contests/ccs26/problems", "problems", jury());
    for (const release of RELEASES) {
      expect(forJury[release].map((p: any) => [p.label, p.rgb, "color" in p])).toEqual([
        ["A", "#ff0000", false],
        ["B", undefined, false],
      ]);
    }
  });

  test("languages: no entry_point_name where none is required; teams carry a label", async () => {
    const langs = await checked("/contests/ccs26/languages", "languages");
    expect(langs["2023-06"].map((l: any) => l.id)).toContain("python3");
    expect(langs["2023-06"].some((l: any) => "entry_point_name" in l)).toBe(false);
    const teams = await checked("/contests/ccs26/teams", "teams");
    expect(teams["2026-01"].map((t: any) => t.label).sort()).toEqual([lions, tigers].sort());
  });

  test("HTTP Basic: a wrong password is a 401 with a Basic challenge; accounts are the jury's", async () => {
    const wrong = await get("/contests/ccs26/accounts", basic(w.owner.email, "wrong password"));
    specError(wrong, 401);
    expect(wrong.headers.get("www-authenticate")).toContain("Basic");
    expect((await get("/contests/ccs26/accounts")).status).toBe(401);
    expect((await get("/contests/ccs26/accounts", tigersAuth())).status).toBe(403);
    const accounts = await checked("/contests/ccs26/accounts", "accounts", jury());
    expect(accounts["2023-06"].find((x: any) => x.username === w.student.email)).toMatchObject({ type: "team", team_id: tigers });
    expect(accounts["2023-06"].find((x: any) => x.username === w.owner.email)).toMatchObject({ type: "judge" });
    for (const x of accounts["2023-06"].slice(0, 2)) await checked(`/contests/ccs26/accounts/${x.id}`, "account", jury());
    // The session's bearer token works as well.
    expect((await request(a.app, "GET", "/api/ccs/contests/ccs26/accounts", { token: w.owner.token })).status).toBe(200);
  });

  test("account: the caller's own (team, judge, or a null type for a reader without a role); 404 signed out", async () => {
    const mine = await checked("/contests/ccs26/account", "account", tigersAuth());
    expect(mine["2023-06"]).toMatchObject({ type: "team", team_id: tigers, username: w.student.email });
    expect((await checked("/contests/ccs26/account", "account", jury()))["2023-06"].type).toBe("judge");
    expect((await checked("/contests/ccs26/account", "account", basic(w.outsider.email)))["2026-01"].type).toBeNull();
    expect((await get("/contests/ccs26/account")).status).toBe(404);
  });

  test("access lists what each reader sees, by the schemas' endpoint names: files and accounts are not the public's", async () => {
    const pub = await checked("/contests/ccs26/access", "access");
    const types = (b: any) => b.endpoints.map((e: any) => e.type);
    expect(types(pub["2023-06"])).toContain("contest");
    expect(types(pub["2023-06"])).not.toContain("accounts");
    expect(pub["2023-06"].endpoints.find((e: any) => e.type === "submissions").properties).not.toContain("files");
    const forJury = await checked("/contests/ccs26/access", "access", jury());
    expect(types(forJury["2023-06"])).toContain("accounts");
    expect(forJury["2026-01"].endpoints.find((e: any) => e.type === "judgements").properties).toContain("current");
    expect(forJury["2023-06"].endpoints.find((e: any) => e.type === "judgements").properties).not.toContain("current");
  });
});

describe("during the contest and its freeze", () => {
  test("submissions are judged; the public sees judgements and runs before the freeze", async () => {
    a.clock.set("2026-06-01T09:10:00Z");
    await submit("ccs26", w.student.token, problemA, PY_ADD_ONE);
    a.clock.set("2026-06-01T09:20:00Z");
    await submit("ccs26", w.student2.token, problemA, "print(0)\n");
    const judgements = await checked("/contests/ccs26/judgements", "judgements");
    expect(judgements["2023-06"].map((j: any) => j.judgement_type_id).sort()).toEqual(["AC", "WA"]);
    expect(judgements["2023-06"].some((j: any) => "current" in j)).toBe(false);
    expect(judgements["2026-01"].every((j: any) => j.current === true)).toBe(true);
    const runs = await checked("/contests/ccs26/runs", "runs");
    expect(runs["2023-06"].length).toBeGreaterThan(0);
    const problems = await checked("/contests/ccs26/problems", "problems");
    expect(problems["2023-06"].length).toBe(2);
  });

  test("a submission during the freeze: its result is the team's and the jury's, not the public's", async () => {
    a.clock.set("2026-06-01T10:40:00Z");
    frozenSubmission = await submit("ccs26", w.student2.token, problemA, PY_ADD_ONE);
    const judgementOf = async (headers: Record<string, string>) => (await get("/contests/ccs26/judgements", headers)).body.find((j: any) => j.submission_id === frozenSubmission);
    expect(await judgementOf({})).toBeUndefined();
    expect(await judgementOf(tigersAuth())).toBeUndefined();
    expect((await judgementOf(lionsAuth())).judgement_type_id).toBe("AC");
    expect((await judgementOf(jury())).judgement_type_id).toBe("AC");
    expect((await get(`/contests/ccs26/judgements/${frozenSubmission}`)).status).toBe(404);
    expect((await get("/contests/ccs26/runs")).body.some((r: any) => r.judgement_id === frozenSubmission)).toBe(false);
    // The submission itself is public, its files an empty list (the schemas require the property).
    const sub = await checked(`/contests/ccs26/submissions/${frozenSubmission}`, "submission");
    expect(sub["2023-06"].files).toEqual([]);

    const pubBoard = await checked("/contests/ccs26/scoreboard", "scoreboard");
    const cellOf = (b: any, team: string) => b.rows.find((r: any) => r.team_id === team).problems.find((p: any) => p.problem_id === problemA);
    expect(cellOf(pubBoard["2023-06"], lions)).toEqual({ problem_id: problemA, num_judged: 1, num_pending: 1, solved: false });
    expect(pubBoard["2023-06"].state.frozen).toBe("2026-06-01T10:30:00.000+00:00");
    const juryBoard = await checked("/contests/ccs26/scoreboard", "scoreboard", jury());
    expect(cellOf(juryBoard["2023-06"], lions)).toMatchObject({ num_judged: 2, num_pending: 0, solved: true, time: 100 });
    expect(cellOf(juryBoard["2026-01"], lions)).toMatchObject({ num_judged: 2, num_pending: 0, solved: true, time: "1:40:00.000" });
    const rowOf = (b: any, team: string) => b.rows.find((r: any) => r.team_id === team);
    expect(rowOf(juryBoard["2023-06"], lions).score).toEqual({ num_solved: 1, total_time: 120 });
    expect(rowOf(juryBoard["2026-01"], lions).score).toEqual({ num_solved: 1, total_time: "2:00:00.000", time: "1:40:00.000" });
    expect(rowOf(pubBoard["2026-01"], lions).score).toEqual({ num_solved: 0, total_time: "0:00:00.000", time: null });
    specError(await get("/contests/ccs26/scoreboard?group_id=site1"), 404);

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
    const listed = await checked("/contests/ccs26/submissions", "submissions", jury());
    expect(listed["2026-01"].every((s: any) => s.files?.[0]?.href === `contests/ccs26/submissions/${s.id}/files`)).toBe(true);
    const forTigers = await checked("/contests/ccs26/submissions", "submissions", tigersAuth());
    expect(forTigers["2023-06"].map((s: any) => s.files.length).sort()).toEqual([0, 0, 1]);
  });

  test("clarifications: a team's question and the answer to it are theirs; an announcement is everyone's; filters by ID properties", async () => {
    const q = await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.student.token, body: { problemId: problemA, text: "Is n ever negative?" } });
    expect(q.status).toBe(201);
    await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.owner.token, body: { replyToId: q.body.id, text: "No." } });
    await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.owner.token, body: { toAll: true, text: "Thirty minutes left." } });
    const pub = await checked("/contests/ccs26/clarifications", "clarifications");
    expect(pub["2023-06"].map((c: any) => c.text)).toEqual(["Thirty minutes left."]);
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

  test("objects an older server logged (team without label, problem colour null, language entry_point_name null) are served in the release's shape", async () => {
    const contestId = (await openContest(contestDeps({ ...a.t.services, user: null } as never), null, "ccs26")).contest.id;
    const tigersTeam = (await get(`/contests/ccs26/teams/${tigers}`)).body;
    const { label: _label, ...oldTeam } = tigersTeam;
    const problemB0 = (await get(`/contests/ccs26/problems/${problemB}`)).body;
    const python = (await get("/contests/ccs26/languages/python3")).body;
    await appendEvents(a.t.services.db, null, contestId, [
      { type: "teams", id: tigers, data: oldTeam, audience: "all", atMs: a.clock() },
      { type: "problems", id: problemB, data: { ...problemB0, rgb: null, color: null }, audience: "all", atMs: a.clock() },
      { type: "languages", id: "python3", data: { ...python, entry_point_name: null }, audience: "all", atMs: a.clock() },
    ]);
    expect((await checked(`/contests/ccs26/teams/${tigers}`, "team"))["2023-06"]).toEqual(tigersTeam);
    expect((await checked(`/contests/ccs26/problems/${problemB}`, "problem"))["2026-01"]).toEqual(problemB0);
    expect((await checked("/contests/ccs26/languages/python3", "language"))["2023-06"]).toEqual(python);
  });

  test("every collection and object validates for every reader, in both releases", async () => {
    for (const headers of [{}, tigersAuth(), jury()]) {
      for (const type of ["judgement-types", "languages", "problems", "groups", "organizations", "teams", "submissions", "judgements", "runs", "clarifications", "awards"]) {
        const list = await checked(`/contests/ccs26/${type}`, type, headers);
        for (const release of RELEASES) {
          for (const o of list[release].slice(0, 3)) {
            const one = await getIn(release, `/contests/ccs26/${type}/${o.id}`, headers);
            expect(one.body).toEqual(o);
          }
        }
      }
      await checked("/contests/ccs26/state", "state", headers);
      await checked("/contests/ccs26/scoreboard", "scoreboard", headers);
      await checked("/contests/ccs26/access", "access", headers);
      await checked("/contests/ccs26", "contest", headers);
    }
    expect((await get("/contests/ccs26/organizations")).body.map((o: any) => o.name).sort()).toEqual(["Uni A", "Uni B"]);
    const teams = (await get("/contests/ccs26/teams")).body;
    const orgs = new Set((await get("/contests/ccs26/organizations")).body.map((o: any) => o.id));
    expect(teams.every((t: any) => orgs.has(t.organization_id))).toBe(true);
  });
});

describe("the event feed", () => {
  test("since_token (and since_id) resume after the token; a token this reader was never sent is a 400, as the checker's since_id cases", async () => {
    const all = await feed(jury());
    expect(all.length).toBeGreaterThan(10);
    const at = all[5].token;
    expect(await feed(jury(), at)).toEqual(all.slice(6));
    expect(await feedIn("2026-01", jury(), `&since_id=${at}`)).toEqual(await feedIn("2026-01", jury(), `&since_token=${at}`));
    // A jury-only event's token (the problems before the start) was never the public's.
    const juryOnly = all.find((e) => e.type === "problems")!.token;
    expect((await feed()).some((e) => e.token === juryOnly)).toBe(false);
    const bad = [
      "since_token=abc",
      "since_token=-1",
      "since_token=0",
      "since_token=99999999",
      "since_id=999999",
      "since_id=xY-99_",
    ];
    for (const release of RELEASES) {
      for (const q of bad) {
        const r = await request(apps[release], "GET", `/api/ccs/contests/ccs26/event-feed?${q}`, { headers: jury() });
        specError(r, 400);
        expect(r.body.message).toContain(q.split("=")[0]);
      }
      specError(await request(apps[release], "GET", `/api/ccs/contests/ccs26/event-feed?since_token=${juryOnly}`), 400);
    }
  });

  test("live: an event reaches a connected client; a quiet feed sends keep-alive newlines", async () => {
    const controller = new AbortController();
    const res = await apps["2026-01"].request("/api/ccs/contests/ccs26/event-feed", { headers: jury(), signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const q = await request(a.app, "POST", "/api/contests/ccs26/clarifications", { token: w.student2.token, body: { text: "Can we use a second monitor?" } });
    while (!text.includes(q.body.id)) text += decoder.decode((await reader.read()).value);
    const line = text.split("\n").find((l) => l.includes(q.body.id))!;
    if (specs["2026-01"]) expect(specs["2026-01"].explainEvent(JSON.parse(line))).toBe("valid");
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

describe("a score contest (IOI)", () => {
  test("no penalty_time; scoreboard scores with the minute of the last improvement; judgements carry their score", async () => {
    // The clock is at 10:40: forty minutes into this contest.
    await submit("ioi26", w.student.token, problemA, PY_ADD_ONE);
    const contest = await checked("/contests/ioi26", "contest");
    for (const release of RELEASES) expect([contest[release].scoreboard_type, "penalty_time" in contest[release]]).toEqual(["score", false]);
    const access = await checked("/contests/ioi26/access", "access", jury());
    expect(access["2023-06"].endpoints.find((e: any) => e.type === "contest").properties).not.toContain("penalty_time");
    await checked("/contests/ioi26/problems", "problems");
    const judgements = await checked("/contests/ioi26/judgements", "judgements", jury());
    expect(judgements["2026-01"].map((j: any) => j.score)).toEqual([100]);
    const board = await checked("/contests/ioi26/scoreboard", "scoreboard", jury());
    expect(board["2023-06"].rows.map((r: any) => r.score)).toEqual([{ score: 100 }, { score: 0 }]);
    expect(board["2026-01"].rows.map((r: any) => r.score)).toEqual([{ score: 100, time: "0:40:00.000" }, { score: 0, time: null }]);
    let ioiLines: any[] = [];
    for (const headers of [{}, jury()]) {
      for (const release of RELEASES) {
        const res = await apps[release].request("/api/ccs/contests/ioi26/event-feed?stream=false", { headers });
        ioiLines = (await res.text())
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l));
        if (specs[release]) for (const e of ioiLines) expect(specs[release]!.explainEvent(e)).toBe("valid");
      }
    }
    expect(ioiLines.some((e) => e.type === "judgements" && e.data.score === 100)).toBe(true);
    // A token of another contest's feed is not this feed's.
    specError(await request(a.app, "GET", `/api/ccs/contests/ccs26/event-feed?since_token=${ioiLines.at(-1).token}`, { headers: jury() }), 400);
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
    const released = await checked(`/contests/ccs26/judgements/${frozenSubmission}`, "judgement");
    expect(released["2023-06"].judgement_type_id).toBe("AC");
    const board = await checked("/contests/ccs26/scoreboard", "scoreboard");
    expect(board["2023-06"].rows.find((r: any) => r.team_id === lions).score).toEqual({ num_solved: 1, total_time: 120 });
    expect(board["2023-06"].state.thawed).not.toBeNull();

    a.clock.set("2026-06-01T11:10:00Z");
    expect((await request(a.app, "POST", "/api/contests/ccs26/finalize", { token: w.owner.token })).status).toBe(200);
    const awards = await checked("/contests/ccs26/awards", "awards");
    expect(awards["2023-06"].find((x: any) => x.id === "winner").team_ids).toEqual([tigers]);
    expect(awards["2023-06"].find((x: any) => x.id === `first-to-solve-${problemA}`).team_ids).toEqual([tigers]);

    const state = await checked("/contests/ccs26/state", "state");
    const s = state["2023-06"];
    const order = [s.started, s.frozen, s.ended, s.thawed, s.end_of_updates].map((t: string) => Date.parse(t));
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(Date.parse(s.finalized)).toBeLessThan(Date.parse(s.end_of_updates));

    for (const headers of [{}, lionsAuth(), jury()]) {
      const { events, types } = await validFeeds(headers);
      const last = events[events.length - 1];
      expect([last.type, last.data.end_of_updates]).toEqual(["state", s.end_of_updates]);
      // Every event type this server sends, in every reader's feed, validated in both releases above.
      for (const t of SERVED_EVENT_TYPES) expect(types).toContain(t);
      expect(events.some((e) => e.type === "judgements" && e.id === frozenSubmission && e.data.judgement_type_id === "AC")).toBe(true);
    }
  });
});
