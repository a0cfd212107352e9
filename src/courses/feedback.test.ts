/**
 * Feedback policies end to end: hidden input never appears at `verdict` or
 * `tests` in any response, progress event, history row or AI prompt, and
 * appears exactly as promised at `first-failure`. The AI prompt is read from
 * a local server speaking the OpenAI protocol; the policy `hints` adds the
 * no-code instruction and takes code out of the answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSandbox } from "../../isolate/index.ts";
import { createAiService } from "../ai/service.ts";
import { HINTS_ONLY } from "../ai/prompt.ts";
import { CODE_REMOVED } from "../ai/strip-code.ts";
import { startFakeOpenAi, type FakeServer } from "../ai/testing/fake-servers.ts";
import type { SandboxSelection } from "../context.ts";
import { sandboxOptions } from "../sandbox.ts";
import { createLogger } from "../log.ts";
import { loadConfig } from "../config.ts";
import { request } from "../../tests/api.ts";
import { judgeConfig, preparePch } from "../../tests/judge/fixtures.ts";
import { addOneProblem, courseApp, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";

/** Unique markers in the hidden inputs and outputs: if any reaches a response, it leaked. */
const MARK_IN = 7_312_947;
const HIDDEN = [
  { input: `${MARK_IN}\n`, expectedOutput: `${MARK_IN + 1}\n` },
  { input: "5\n", expectedOutput: "6\n" },
];
const WRONG_ON_MARK = "import sys\nn = int(sys.stdin.read())\nsys.stderr.write('seen ' + str(n))\nprint(n + 1 if n < 1000 else -1)\n";
const MARKERS = [String(MARK_IN), String(MARK_IN + 1)];

let sandbox: SandboxSelection;
let a: CourseApp;
let w: World;
let openai: FakeServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 250)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  a = await courseApp({ sandbox, boxIdOffset: 250 });
  a.clock.set("2026-09-01T10:00:00Z");
  w = await world(a);
  openai = await startFakeOpenAi({ models: ["m"] });
  openai.script = { kind: "text", chunks: ["Your output is wrong on a hidden test. Try:\n```python\nprint(n + 1)\n```\nand check `n < 1000`."] };
  const config = loadConfig({ ...process.env, NODE_ENV: "test", AI_PROVIDER: "openai", AI_BASE_URL: openai.url, DATABASE_URL: a.t.url, DATA_DIR: a.t.dir, LOG_LEVEL: "silent" });
  a.t.services.ai = createAiService({ config, db: a.t.services.db, log: createLogger("silent"), sandbox: null, now: a.clock });
  const problemId = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ courseId: w.courseId, hiddenTestCases: HIDDEN }) })).body._id;
  ids.problem = problemId;
  for (const [name, feedback, aiPolicy] of [
    ["verdict", "verdict", "full"],
    ["tests", "tests", "hints"],
    ["first", "first-failure", "full"],
  ] as const) {
    const r = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: name, opensAt: "2026-09-01T00:00:00Z", dueAt: "2026-09-30T00:00:00Z", feedback, aiPolicy, problems: [{ problemId }] },
    });
    ids[name] = r.body.id;
  }
}, 60_000);

afterAll(async () => {
  await openai?.stop();
  await a?.close();
  await sandbox?.backend?.close();
});

/** Submits inside an assignment and collects every progress event as the browser would (SSE over a real HTTP server). */
async function submitAndStream(assignment: string) {
  const created = await request(a.app, "POST", `/api/assignments/${assignment}/submissions?wait=false`, {
    token: w.student.token,
    body: { problemId: ids.problem, code: WRONG_ON_MARK, language: "py" },
  });
  expect(created.status).toBe(202);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: a.app.fetch, idleTimeout: 30 });
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/trpc/submissions.progress?input=${encodeURIComponent(JSON.stringify({ id: created.body.id }))}`, {
      headers: { cookie: w.student.cookie, accept: "text/event-stream" },
    });
    const text = await res.text();
    const events = text
      .split("\n")
      .filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "")
      .map((l) => JSON.parse(l.slice(5).trim()))
      .filter((e) => e && typeof e === "object" && "status" in e);
    const history = await request(a.app, "GET", `/api/submissions/${ids.problem}`, { token: w.student.token });
    return { id: created.body.id as string, events, history: history.body.find((h: { _id: string }) => h._id === created.body.id) };
  } finally {
    server.stop(true);
  }
}

async function review(assignment: string) {
  openai.requests.length = 0;
  const r = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { code: WRONG_ON_MARK, language: "py", problemId: ids.problem, assignmentId: assignment, force: true } });
  const sent = openai.requests.find((q) => q.path.endsWith("/chat/completions"));
  return { status: r.status, text: r.body?.data?.review as string, prompt: JSON.stringify(sent?.body ?? null) };
}

describe("feedback levels", () => {
  test("verdict: no hidden data, no per-test rows beyond the sample, no counts: in the events, the history and the AI prompt", async () => {
    const { events, history } = await submitAndStream(ids.verdict!);
    const done = events.find((e) => e.status === "done");
    expect(done.submission).toMatchObject({ verdict: "WA", feedback: "verdict", testsPassed: null, testsTotal: null });
    for (const e of events) {
      if (e.status === "running") expect([e.test, e.of]).toEqual([null, null]);
      for (const t of e.tests ?? e.submission?.tests ?? []) expect(t.isSample).toBe(true);
    }
    const all = JSON.stringify({ events, history });
    for (const m of MARKERS) expect(all).not.toContain(m);
    expect(history.firstFailure).toBeUndefined();
    const ai = await review(ids.verdict!);
    expect(ai.status).toBe(200);
    for (const m of MARKERS) expect(ai.prompt).not.toContain(m);
    expect(ai.prompt).not.toContain("Tests passed");
  });

  test("tests: per-test verdicts, time and memory, still no hidden data; AI hints: no-code instruction and no code in the answer", async () => {
    const { events, history } = await submitAndStream(ids.tests!);
    expect(history).toMatchObject({ feedback: "tests", testsTotal: 3 });
    expect(history.tests.map((t: { verdict: string }) => t.verdict)).toEqual(["AC", "WA"]);
    expect(events.some((e) => e.status === "running" && e.of === 3)).toBe(true);
    const all = JSON.stringify({ events, history });
    for (const m of MARKERS) expect(all).not.toContain(m);
    const ai = await review(ids.tests!);
    expect(ai.status).toBe(200);
    expect(ai.prompt).toContain(JSON.stringify(HINTS_ONLY).slice(1, -1));
    for (const m of MARKERS) expect(ai.prompt).not.toContain(m);
    expect(ai.text).not.toContain("print(n + 1)");
    expect(ai.text).toContain(CODE_REMOVED);
    const policy = await request(a.app, "GET", `/trpc/ai.policy?input=${encodeURIComponent(JSON.stringify({ problemId: ids.problem, assignmentId: ids.tests }))}`, { token: w.student.token });
    expect(policy.body.result.data).toEqual({ policy: "hints", text: "AI review gives hints only for this assignment: it explains the verdict and points at problems, but writes no code." });
  });

  test("first-failure: exactly the first failing hidden test's input, expected and actual output; stderr only at full; never in the AI prompt", async () => {
    const { events, history } = await submitAndStream(ids.first!);
    expect(history.feedback).toBe("first-failure");
    expect(history.firstFailure).toEqual({ test: 1, input: `${MARK_IN}\n`, expectedOutput: `${MARK_IN + 1}\n`, actualOutput: "-1\n" });
    const done = events.find((e) => e.status === "done");
    expect(done.submission.firstFailure).toEqual(history.firstFailure);
    const ai = await review(ids.first!);
    for (const m of MARKERS) expect(ai.prompt).not.toContain(m);
    // Full: the staff view adds the program's stderr on that test.
    const staff = await request(a.app, "GET", `/trpc/submissions.byId?input=${encodeURIComponent(JSON.stringify({ id: history._id }))}`, { token: w.ta.token });
    expect(staff.body.result.data.firstFailure.stderr).toBe(`seen ${MARK_IN}`);
  });

  test("a submission to a public problem keeps no hidden data at all", async () => {
    const pub = await request(a.app, "POST", "/api/problems", { token: w.outsider.token, body: addOneProblem({ title: "Public marks", hiddenTestCases: HIDDEN }) });
    const s = await request(a.app, "POST", "/api/submissions", { token: w.outsider.token, body: { problemId: pub.body._id, code: WRONG_ON_MARK, language: "py" } });
    expect(s.body).toMatchObject({ verdict: "WA", feedback: "tests" });
    const rows = await a.t.services.db.all<{ n: number }>(`SELECT count(*) AS n FROM submission_failures WHERE submission_id = '${s.body._id}'` as never);
    expect(rows[0]!.n).toBe(0);
  });

  test("another's public problem linked into a first-failure (or full) assignment: its hidden tests are neither stored nor shown, to the student or to staff", async () => {
    const pub = await request(a.app, "POST", "/api/problems", { token: w.outsider.token, body: addOneProblem({ title: "Linked marks", hiddenTestCases: HIDDEN }) });
    const linked = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "linked", opensAt: "2026-09-01T00:00:00Z", dueAt: "2026-09-30T00:00:00Z", feedback: "full", problems: [{ problemId: pub.body._id }] },
    });
    expect(linked.status).toBe(201);
    const s = await request(a.app, "POST", `/api/assignments/${linked.body.id}/submissions`, { token: w.student.token, body: { problemId: pub.body._id, code: WRONG_ON_MARK, language: "py" } });
    expect(s.body).toMatchObject({ verdict: "WA", feedback: "full" });
    const rows = await a.t.services.db.all<{ n: number }>(`SELECT count(*) AS n FROM submission_failures WHERE submission_id = '${s.body._id}'` as never);
    expect(rows[0]!.n).toBe(0);
    const staff = await request(a.app, "GET", `/trpc/submissions.byId?input=${encodeURIComponent(JSON.stringify({ id: s.body._id }))}`, { token: w.owner.token });
    const all = JSON.stringify({ s: s.body, staff: staff.body });
    for (const m of MARKERS) expect(all).not.toContain(m);
  });

  test("an AI request naming a practice assignment is held to the problem's own assignments: a full practice policy is not borrowed for an exam problem", async () => {
    const exam = await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: addOneProblem({ courseId: w.courseId, title: "Exam problem" }) });
    const practice = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "practice", opensAt: "2026-09-01T00:00:00Z", dueAt: "2026-09-30T00:00:00Z", aiPolicy: "full", problems: [{ problemId: ids.problem }] },
    });
    const examSet = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "exam", opensAt: "2026-09-01T00:00:00Z", dueAt: "2026-09-30T00:00:00Z", aiPolicy: "off", problems: [{ problemId: exam.body._id }] },
    });
    expect([practice.status, examSet.status]).toEqual([201, 201]);
    const borrowed = await request(a.app, "POST", "/api/ai/ai-review", {
      token: w.student.token,
      body: { code: WRONG_ON_MARK, language: "py", problemId: exam.body._id, assignmentId: practice.body.id, force: true },
    });
    expect(borrowed.status).toBe(404);
    expect(borrowed.body.field).toBe("problemId");
    const plain = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { code: WRONG_ON_MARK, language: "py", problemId: exam.body._id, force: true } });
    expect(plain.status).toBe(403);
    // A public problem inside an exam is held to the exam's policy too, named or not.
    const pub = await request(a.app, "POST", "/api/problems", { token: w.outsider.token, body: addOneProblem({ title: "Public in exam" }) });
    const examPub = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "exam 2", opensAt: "2026-09-01T00:00:00Z", dueAt: "2026-09-30T00:00:00Z", aiPolicy: "off", problems: [{ problemId: pub.body._id }] },
    });
    expect(examPub.status).toBe(201);
    const viaPublic = await request(a.app, "POST", "/api/ai/ai-review", { token: w.student.token, body: { code: WRONG_ON_MARK, language: "py", problemId: pub.body._id, force: true } });
    expect(viaPublic.status).toBe(403);
    // Its author, who is in no course, still gets a full review.
    const author = await request(a.app, "POST", "/api/ai/ai-review", { token: w.outsider.token, body: { code: WRONG_ON_MARK, language: "py", problemId: pub.body._id, force: true } });
    expect(author.status).toBe(200);
  });
});

describe("an interactive problem's hidden tests", () => {
  test("first-failure shows the failing test's interaction (transcript), tests shows none of it", async () => {
    const guessPy = await Bun.file(new URL("../../tests/judge/_problems/validators/guess.py", import.meta.url)).text();
    // A linear search: wins on the sample (secret 3) and on 9, loses on the hidden secret 777 (more than 10 guesses).
    const linear = "g = 1\nwhile True:\n    print('?', g, flush=True)\n    if input().strip() == '=': break\n    g += 1\n";
    const made = await request(a.app, "POST", "/api/problems", {
      token: w.owner.token,
      body: addOneProblem({
        courseId: w.courseId,
        title: "Guess in class",
        sampleInput: "3\n",
        sampleOutput: "3\n",
        hiddenTestCases: [{ input: "9\n", expectedOutput: "9\n" }, { input: "777\n", expectedOutput: "777\n" }],
        checker: "custom",
        validator: { files: { "guess.py": guessPy } },
        interactive: true,
        timeLimitMs: 1000,
      }),
    });
    expect(made.status).toBe(201);
    const assignment = async (title: string, feedback: string) =>
      (
        await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
          token: w.owner.token,
          body: { title, opensAt: "2026-09-01T00:00:00Z", dueAt: "2026-09-30T00:00:00Z", feedback, problems: [{ problemId: made.body._id }] },
        })
      ).body.id as string;
    const first = await assignment("guess first", "first-failure");
    const tests = await assignment("guess tests", "tests");
    const shown = await request(a.app, "POST", `/api/assignments/${first}/submissions`, { token: w.student.token, body: { problemId: made.body._id, code: linear, language: "py" } });
    expect(shown.body).toMatchObject({ verdict: "WA", feedback: "first-failure" });
    expect(shown.body.firstFailure).toMatchObject({ test: 2, input: "777\n", expectedOutput: "777\n" });
    const transcript: string = shown.body.firstFailure.actualOutput;
    // As the format's .interaction files write it: `>` the program's lines, `<` the validator's.
    expect(transcript.startsWith(">? 1\n<>\n>? 2\n<>\n")).toBe(true);
    expect(transcript).toContain(">? 10\n<>\n");
    expect(transcript).not.toContain("? 12");
    const hidden = await request(a.app, "POST", `/api/assignments/${tests}/submissions`, { token: w.student.token, body: { problemId: made.body._id, code: linear, language: "py" } });
    expect(hidden.body).toMatchObject({ verdict: "WA", feedback: "tests" });
    expect(hidden.body.firstFailure ?? null).toBeNull();
    expect(JSON.stringify(hidden.body)).not.toContain("? 10");
  });
});
