// Run and Submit through the REST doors and the tRPC SSE subscription, with the
// real sandbox (bwrap), the real database and the real queue consumer; payloads
// exactly as the spec's client sends them.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { createApp } from "../../src/app.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { request, signUp } from "../api.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { sql } from "drizzle-orm";
import type { Logger } from "../../src/log.ts";
import { captureLog, countingBackend, judgeConfig, preparePch, silentLog } from "./fixtures.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { readOne } from "../../src/submissions/watch.ts";

// Judging through the real sandbox on a shared 2-core machine: generous per-test bound.
setDefaultTimeout(60_000);

/** Ports of this file's short-lived servers (the judge's range is 3500-3599). */
let nextPort = 3510;

let sandbox: SandboxSelection;

interface JudgeApp {
  t: TestServices;
  app: ReturnType<typeof createApp>;
  judge: JudgeService;
  close(): Promise<void>;
}

const opened: JudgeApp[] = [];

/** A full app (REST + tRPC) with its own database and judge over the shared sandbox. */
async function judgeApp(
  env: Record<string, string> = {},
  opts: { start?: boolean; sandbox?: SandboxSelection; log?: Logger } = {},
): Promise<JudgeApp> {
  const sb = opts.sandbox ?? sandbox;
  const t = await createTestServices({ env: { SANDBOX_POOL_SIZE: "2", ...env }, sandbox: sb, ...(opts.log ? { log: opts.log } : {}) });
  const judge = await JudgeService.create({ config: t.config, db: t.services.db, log: opts.log ?? silentLog, sandbox: sb, cacheDir: join(t.dir, "cache"), pollMs: 100 });
  t.services.judge = judge;
  if (opts.start !== false) await judge.start();
  const app = createApp(t.services);
  const ja = {
    t,
    app,
    judge,
    async close() {
      await judge.stop();
      t.cleanup();
    },
  };
  opened.push(ja);
  return ja;
}

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 90)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
}, 60_000);

afterAll(async () => {
  for (const a of opened) await a.close();
  await sandbox.backend?.close();
});

const CPP_ADD_ONE = `#include <bits/stdc++.h>
using namespace std;
int main() { long long n; cin >> n; cout << n + 1 << endl; }
`;
const PY_ADD_ONE = "n = int(input())\nprint(n + 1)\n";
const PY_ECHO_SECRETS = [
  "import sys",
  "data = sys.stdin.read()",
  "sys.stderr.write('stderr:' + data)",
  "print(int(data.split()[0]) + 1)",
  "print('stdout:' + data)",
  "",
].join("\n");

async function createProblem(a: JudgeApp, token: string, overrides: Record<string, unknown> = {}) {
  const res = await request(a.app, "POST", "/api/problems", {
    token,
    body: {
      title: "Add One",
      description: "Print n + 1.",
      inputFormat: "n",
      outputFormat: "n + 1",
      constraints: "small",
      sampleInput: "1\n",
      sampleOutput: "2\n",
      difficulty: "easy",
      hiddenTestCases: [
        { input: "5\n", expectedOutput: "6\n" },
        { input: "99\n", expectedOutput: "100\n" },
      ],
      ...overrides,
    },
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`create problem: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { _id: string; pythonImplementation: string };
}

describe("POST /api/compiler", () => {
  let a: JudgeApp;
  let token: string;
  beforeAll(async () => {
    a = await judgeApp();
    token = (await signUp(a.app)).token;
  });

  test("custom input: the spec's payload {language, code, input} answers output and no `correct`", async () => {
    const res = await request(a.app, "POST", "/api/compiler", { token, body: { language: "py", code: PY_ADD_ONE, input: "41\n" } });
    expect(res.status).toBe(200);
    expect(res.body.output).toBe("42\n");
    expect(res.body.verdict).toBe("OK");
    expect(res.body.exitCode).toBe(0);
    expect(res.body.stderr).toBe("");
    expect("correct" in res.body).toBe(false);
    expect(typeof res.body.timeMs).toBe("number");
    expect(res.body.memoryKib).toBeGreaterThan(0);
  });

  test("sample: {language, code, input, expectedOutput} answers `correct`", async () => {
    const right = await request(a.app, "POST", "/api/compiler", {
      token,
      body: { language: "cpp", code: CPP_ADD_ONE, input: "1\n", expectedOutput: "2\n" },
    });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ output: "2\n", correct: true, verdict: "AC", exitCode: 0 });
    const wrong = await request(a.app, "POST", "/api/compiler", {
      token,
      body: { language: "cpp", code: CPP_ADD_ONE, input: "1\n", expectedOutput: "3\n" },
    });
    expect(wrong.body).toMatchObject({ output: "2\n", correct: false, verdict: "WA" });
  });

  test("the cookie session works as well as the bearer token", async () => {
    const { cookie } = await signUp(a.app);
    const res = await request(a.app, "POST", "/api/compiler", { cookie, body: { language: "py", code: "print(7)", input: "" } });
    expect(res.status).toBe(200);
    expect(res.body.output).toBe("7\n");
  });

  test("a runtime error answers 200 with RE, the exit code and stderr", async () => {
    const res = await request(a.app, "POST", "/api/compiler", {
      token,
      body: { language: "py", code: "import sys\nprint('partial')\nsys.exit(3)\n", input: "", expectedOutput: "partial\n" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verdict: "RE", exitCode: 3, correct: false, output: "partial\n" });
  });

  test("a compile error answers 400 {error: 'Compilation error…', compileOutput}", async () => {
    const res = await request(a.app, "POST", "/api/compiler", {
      token,
      body: { language: "cpp", code: "int main() { return x; }", input: "" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("Compilation error");
    expect(res.body.compileOutput).toContain("was not declared");
    const py = await request(a.app, "POST", "/api/compiler", { token, body: { language: "py", code: "def f(:\n", input: "" } });
    expect(py.status).toBe(400);
    expect(py.body.compileOutput).toContain("SyntaxError");
  });

  test("bad input answers 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ language: "cobol", code: "DISPLAY 1.", input: "" }, "language"],
      [{ language: "py", input: "" }, "code"],
      [{ language: "py", code: "   \n", input: "" }, "code"],
      [{ language: "py", code: "#".repeat(64 * 1024 + 1), input: "" }, "code"],
      [{ language: "py", code: "print(1)", input: 5 }, "input"],
    ];
    for (const [body, field] of cases) {
      const res = await request(a.app, "POST", "/api/compiler", { token, body });
      expect(`${res.status} ${res.body.field}`).toBe(`400 ${field}`);
    }
  });

  test("signed out: 401", async () => {
    const res = await request(a.app, "POST", "/api/compiler", { body: { language: "py", code: "print(1)", input: "" } });
    expect(res.status).toBe(401);
  });

  test("Run then Submit of the same code compiles once", async () => {
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const code = `${CPP_ADD_ONE}// run-then-submit ${crypto.randomUUID()}\n`;
    const before = a.judge.cache.stats.compiles;
    const run = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "cpp", code, input: "1\n", expectedOutput: "2\n" } });
    expect(run.body.compileCached).toBe(false);
    const sub = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code, language: "cpp" } });
    expect(sub.status).toBe(201);
    expect(sub.body.verdict).toBe("AC");
    const again = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code, language: "cpp" } });
    expect(again.body.verdict).toBe("AC");
    expect(a.judge.cache.stats.compiles - before).toBe(1);
  });
});

describe("POST /api/compiler, Python in one sandbox start", () => {
  test("a fresh Run is one start; Submit of the same code then needs no syntax check; a syntax error is still a 400", async () => {
    const counting = countingBackend(sandbox.backend!);
    const a = await judgeApp({}, { sandbox: { ...sandbox, backend: counting } });
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const code = `${PY_ADD_ONE}# ${crypto.randomUUID()}\n`;
    const compilesBefore = a.judge.cache.stats.compiles;
    const startsBefore = counting.starts;
    const run = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code, input: "1\n", expectedOutput: "2\n" } });
    expect(run.body).toMatchObject({ output: "2\n", correct: true, verdict: "AC", compileCached: false });
    expect(counting.starts - startsBefore).toBe(1);
    const sub = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code, language: "py" } });
    expect(`${sub.status} ${sub.body.verdict}`).toBe("201 AC");
    // Judging ran the sample and two hidden tests, and no syntax check: 1 + 3 starts in all.
    expect(counting.starts - startsBefore).toBe(4);
    expect(a.judge.cache.stats.compiles - compilesBefore).toBe(1);
    const bad = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "print(1)\nif True\n", input: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("Compilation error");
    expect(bad.body.compileOutput).toContain("SyntaxError");
  });
});

describe("limits and availability", () => {
  test("per-user run rate limit: 429 with Retry-After; other users unaffected", async () => {
    const a = await judgeApp({ RUN_RATE_PER_MINUTE: "2" });
    const me = await signUp(a.app);
    const other = await signUp(a.app);
    const body = { language: "py", code: "print(1)", input: "" };
    expect((await request(a.app, "POST", "/api/compiler", { token: me.token, body })).status).toBe(200);
    expect((await request(a.app, "POST", "/api/compiler", { token: me.token, body })).status).toBe(200);
    const third = await request(a.app, "POST", "/api/compiler", { token: me.token, body });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await request(a.app, "POST", "/api/compiler", { token: other.token, body })).status).toBe(200);
  });

  test("runs in flight per user: beyond the cap answers 429 at once", async () => {
    const a = await judgeApp({ RUNS_IN_FLIGHT_PER_USER: "1" });
    const me = await signUp(a.app);
    const slow = request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "import time\ntime.sleep(1)\nprint(1)", input: "" } });
    await Bun.sleep(150);
    const second = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "print(2)", input: "" } });
    expect(second.status).toBe(429);
    expect((await slow).status).toBe(200);
    const third = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "print(3)", input: "" } });
    expect(third.status).toBe(200);
  });

  test("submission rate limit per user: 429", async () => {
    const a = await judgeApp({ SUBMIT_RATE_PER_MINUTE: "1" });
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const body = { problemId: p._id, code: PY_ADD_ONE, language: "py" };
    expect((await request(a.app, "POST", "/api/submissions?wait=false", { token: me.token, body })).status).toBe(202);
    expect((await request(a.app, "POST", "/api/submissions?wait=false", { token: me.token, body })).status).toBe(429);
  });

  test("no sandbox: 503 with the reason, for Run and for Submit", async () => {
    const none: SandboxSelection = { backend: null, name: "none", reason: "bwrap is not installed" };
    const a = await judgeApp({}, { sandbox: none });
    const me = await signUp(a.app);
    const run = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: "print(1)", input: "" } });
    expect(run.status).toBe(503);
    expect(run.body.error).toContain("bwrap is not installed");
    const p = await createProblem(a, me.token);
    const sub = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: "print(2)", language: "py" } });
    expect(sub.status).toBe(503);
  });

  test("Submit: 401 signed out, 400 naming the field on bad input, cookie session accepted", async () => {
    const a = await judgeApp({}, { start: false });
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const ok = { problemId: p._id, code: "print(2)", language: "py" };
    expect((await request(a.app, "POST", "/api/submissions", { body: ok })).status).toBe(401);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, problemId: undefined }, "problemId"],
      [{ ...ok, language: "cobol" }, "language"],
      [{ ...ok, code: undefined }, "code"],
      [{ ...ok, code: "#".repeat(64 * 1024 + 1) }, "code"],
    ];
    for (const [body, field] of cases) {
      const res = await request(a.app, "POST", "/api/submissions?wait=false", { token: me.token, body });
      expect(`${res.status} ${res.body.field}`).toBe(`400 ${field}`);
    }
    const viaCookie = await request(a.app, "POST", "/api/submissions?wait=false", { cookie: me.cookie, body: ok });
    expect(viaCookie.status).toBe(202);
    expect(viaCookie.body.status).toBe("queued");
  });

  test("a language this server does not offer (LANGUAGES=cpp,py): 400 naming language, for Submit and Run; nothing stored", async () => {
    const a = await judgeApp({ LANGUAGES: "cpp,py" }, { start: false });
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const offered = await request(a.app, "GET", "/api/languages");
    expect(offered.body.languages.map((l: { id: string }) => l.id)).toEqual(["cpp", "py"]);
    const sub = await request(a.app, "POST", "/api/submissions?wait=false", { token: me.token, body: { problemId: p._id, code: "package main\nfunc main() {}\n", language: "go" } });
    expect([sub.status, sub.body.field, sub.body.error]).toEqual([400, "language", "Go is not offered on this server; offered: C++, Python"]);
    const run = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "rust", code: "fn main() {}", input: "" } });
    expect([run.status, run.body.field]).toEqual([400, "language"]);
    const rows = await a.t.services.db.run(sql`select count(*) as n from submissions`);
    expect(Number((rows.rows[0] as Record<string, unknown>).n)).toBe(0);
  });

  test("Python 3 on a PyPy problem is judged by PyPy (Run and Submit); where PyPy is not offered, 400 naming language", async () => {
    const a = await judgeApp();
    const me = await signUp(a.app);
    // The implementation's name decides the answer: only PyPy passes.
    const which = "import sys\nn = int(input())\nprint(n + 1 if sys.implementation.name == 'pypy' else -1)\n";
    const pypy = await createProblem(a, me.token, { pythonImplementation: "pypy" });
    expect(pypy.pythonImplementation).toBe("pypy");
    const sub = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: pypy._id, code: which, language: "py" } });
    expect(sub.body).toMatchObject({ verdict: "AC", language: "py" });
    const run = await request(a.app, "POST", "/api/compiler", { token: me.token, body: { language: "py", code: which, input: "1\n", expectedOutput: "2\n", problemId: pypy._id } });
    expect(run.body).toMatchObject({ output: "2\n", correct: true });
    // The same code on an ordinary problem runs on CPython.
    const plain = await createProblem(a, me.token);
    expect(plain.pythonImplementation).toBe("cpython");
    const cpython = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: plain._id, code: which, language: "py" } });
    expect(cpython.body.verdict).toBe("WA");
    await expect(createProblem(a, me.token, { pythonImplementation: "jython" })).rejects.toThrow('"field":"pythonImplementation"');
    // A server without PyPy refuses a Python 3 submission to such a problem instead of judging it on CPython.
    const noPypy = await judgeApp({ LANGUAGES: "cpp,py" }, { start: false });
    const owner = await signUp(noPypy.app);
    const there = await createProblem(noPypy, owner.token, { pythonImplementation: "pypy" });
    const refused = await request(noPypy.app, "POST", "/api/submissions?wait=false", { token: owner.token, body: { problemId: there._id, code: which, language: "py" } });
    expect([refused.status, refused.body.field]).toEqual([400, "language"]);
    expect(refused.body.error).toContain("this problem runs Python on PyPy, which is not offered on this server");
  });

  test("submitting to an unknown problem: 404", async () => {
    const a = await judgeApp({}, { start: false });
    const me = await signUp(a.app);
    const res = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: "nope", code: "print(1)", language: "py" } });
    expect(res.status).toBe(404);
  });
});

describe("POST /api/submissions", () => {
  let a: JudgeApp;
  beforeAll(async () => {
    a = await judgeApp();
  });

  test("the spec client's payload: extra fields ignored, a forged isPassed has no effect", async () => {
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const res = await request(a.app, "POST", "/api/submissions", {
      token: me.token,
      body: { problemId: p._id, code: "print(2)\n", language: "py", input: "1\n", output: "2\n", expectedOutput: "2\n", isPassed: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      problemId: p._id,
      status: "done",
      verdict: "WA",
      isPassed: false,
      output: "2\n",
      expectedOutput: "2\n",
      testsPassed: 1,
      testsTotal: 3,
    });
    expect(res.body.tests.map((x: { index: number; verdict: string }) => [x.index, x.verdict])).toEqual([
      [0, "AC"],
      [1, "WA"],
    ]);
    // and it shows in the history
    const history = await request(a.app, "GET", `/api/submissions/${p._id}`, { token: me.token });
    expect(history.body[0]).toMatchObject({ _id: res.body._id, verdict: "WA", isPassed: false });
  });

  test("AC in each language; CE keeps the diagnostics", async () => {
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const java = "import java.util.*;\npublic class Solution { public static void main(String[] a) { Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + 1); } }\n";
    const [cpp, py, jv, ce] = await Promise.all([
      request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: CPP_ADD_ONE, language: "cpp" } }),
      request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: PY_ADD_ONE, language: "py" } }),
      request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: java, language: "java" } }),
      request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: "int main( {", language: "cpp" } }),
    ]);
    for (const r of [cpp, py, jv]) expect(`${r.status} ${r.body.verdict} ${r.body.isPassed}`).toBe("201 AC true");
    expect(ce.body.verdict).toBe("CE");
    expect(ce.body.compileOutput).toContain("error");
    expect(ce.body.tests).toEqual([]);
  });

  test("hidden tests' input, output and stderr never appear in any response or event", async () => {
    const me = await signUp(a.app);
    const secretIn = `90210 hidden-input-${crypto.randomUUID()}`;
    const secretOut = `secret-expected-${crypto.randomUUID()}`;
    const p = await createProblem(a, me.token, {
      hiddenTestCases: [
        { input: `${secretIn}\n`, expectedOutput: `90211\nstdout:${secretIn}\n` },
        { input: "7\n", expectedOutput: `${secretOut}\n` },
      ],
      sampleInput: "1 sample\n",
      sampleOutput: "2\nstdout:1 sample\n",
    });
    const created = await request(a.app, "POST", "/api/submissions?wait=false", {
      token: me.token,
      body: { problemId: p._id, code: PY_ECHO_SECRETS, language: "py" },
    });
    expect(created.status).toBe(202);
    const events = await collectProgress(a, me.token, created.body.id);
    const judged = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: PY_ECHO_SECRETS, language: "py" } });
    const history = await request(a.app, "GET", `/api/submissions/${p._id}`, { token: me.token });
    const byId = await readOne(a.judge.submissions, me.user.id, created.body.id);
    expect(byId.verdict).toBe("WA");
    expect(byId.tests.map((x) => x.verdict)).toEqual(["AC", "AC", "WA"]);
    expect(byId.output).toBe("2\nstdout:1 sample\n\n");
    const everything = JSON.stringify([events, judged.body, history.body, byId]);
    expect(everything).not.toContain("hidden-input");
    expect(everything).not.toContain("secret-expected");
    expect(everything).not.toContain("90210");
    expect(everything).not.toContain("90211");
  });

  test("hidden tests' data reaches no log line and no stored submission field, on AC, WA and RE", async () => {
    const log = captureLog();
    const b = await judgeApp({}, { log });
    const me = await signUp(b.app);
    const secret = `zebra-${crypto.randomUUID()}`;
    // Echoes its input to stdout and stderr; crashes (exit 3) on input containing "crash".
    const program = [
      "import sys",
      "data = sys.stdin.read()",
      "sys.stderr.write('stderr:' + data)",
      "print(int(data.split()[0]) + 1)",
      "print('stdout:' + data)",
      "if 'crash' in data: sys.exit(3)",
      "",
    ].join("\n");
    const hidden = (n: number, extra: string) => ({ input: `${n} ${secret}-${extra}\n`, expectedOutput: `${n + 1}\nstdout:${n} ${secret}-${extra}\n` });
    const withCrash = await createProblem(b, me.token, {
      hiddenTestCases: [hidden(5, "pass"), { ...hidden(6, "crash"), expectedOutput: `7\n${secret}-expected\n` }],
      sampleInput: "1 sample\n",
      sampleOutput: "2\nstdout:1 sample\n",
    });
    const withWrong = await createProblem(b, me.token, {
      hiddenTestCases: [hidden(8, "pass"), { input: `9 ${secret}-wrong\n`, expectedOutput: `${secret}-expected-wrong\n` }],
      sampleInput: "1 sample\n",
      sampleOutput: "2\nstdout:1 sample\n",
    });
    const re = await request(b.app, "POST", "/api/submissions", { token: me.token, body: { problemId: withCrash._id, code: program, language: "py" } });
    const wa = await request(b.app, "POST", "/api/submissions", { token: me.token, body: { problemId: withWrong._id, code: program, language: "py" } });
    expect(re.body.tests.map((x: { verdict: string }) => x.verdict)).toEqual(["AC", "AC", "RE"]);
    expect(wa.body.tests.map((x: { verdict: string }) => x.verdict)).toEqual(["AC", "AC", "WA"]);
    // Something was logged (the consumer's start at least), none of it hidden data.
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.text()).not.toContain(secret);
    // Stored rows: every column of the submissions and their per-test rows (the test cases table itself holds the data, by design).
    const stored = await b.t.services.db.all(sql`SELECT * FROM submissions`);
    const storedTests = await b.t.services.db.all(sql`SELECT * FROM submission_tests`);
    expect(stored.length).toBe(2);
    expect(storedTests.length).toBe(6);
    expect(JSON.stringify([stored, storedTests])).not.toContain(secret);
    expect(JSON.stringify([re.body, wa.body])).not.toContain(secret);
  });

  test("live progress over SSE: queued → compiling → running test k of n → done", async () => {
    const b = await judgeApp({}, { start: false });
    const me = await signUp(b.app);
    const p = await createProblem(b, me.token, {
      hiddenTestCases: [1, 2, 3, 4].map((i) => ({ input: `${i}\n`, expectedOutput: `${i + 1}\n` })),
    });
    const slow = "import time\nn = int(input())\ntime.sleep(0.15)\nprint(n + 1)\n";
    const created = await request(b.app, "POST", "/api/submissions?wait=false", { token: me.token, body: { problemId: p._id, code: slow, language: "py" } });
    expect(created.status).toBe(202);
    expect(created.body.status).toBe("queued");
    const eventsP = collectProgress(b, me.token, created.body.id);
    await Bun.sleep(300);
    await b.judge.start();
    const events = await eventsP;
    const statuses = events.map((e) => e.status);
    expect(statuses[0]).toBe("queued");
    expect(statuses).toContain("running");
    expect(statuses.at(-1)).toBe("done");
    const rank = { queued: 0, compiling: 1, running: 2, done: 3 } as Record<string, number>;
    for (let i = 1; i < statuses.length; i++) expect(rank[statuses[i]!]!).toBeGreaterThanOrEqual(rank[statuses[i - 1]!]!);
    const running = events.filter((e) => e.status === "running");
    const seen = running.map((e) => e.test as number);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
    expect(running.every((e) => e.of === 5)).toBe(true);
    const done = events.at(-1)!;
    expect(done.submission.verdict).toBe("AC");
    expect(done.submission.tests.length).toBe(5);
  });

  test("progress of someone else's submission: not found", async () => {
    const me = await signUp(a.app);
    const other = await signUp(a.app);
    const p = await createProblem(a, me.token);
    const created = await request(a.app, "POST", "/api/submissions?wait=false", { token: me.token, body: { problemId: p._id, code: PY_ADD_ONE, language: "py" } });
    await expect(collectProgress(a, other.token, created.body.id)).rejects.toThrow(/not found/i);
  });

  test("concurrent submissions from several users are all judged right", async () => {
    const users = await Promise.all([signUp(a.app), signUp(a.app), signUp(a.app)]);
    const p = await createProblem(a, users[0]!.token);
    const programs = [
      { code: PY_ADD_ONE, verdict: "AC" },
      { code: "n = int(input())\nprint(n)\n", verdict: "WA" },
      { code: "raise SystemExit(4)\n", verdict: "RE" },
    ];
    const jobs = users.flatMap((u) =>
      programs.map(async (prog) => {
        const r = await request(a.app, "POST", "/api/submissions", { token: u.token, body: { problemId: p._id, code: prog.code, language: "py" } });
        return { expected: prog.verdict, got: r.body.verdict, status: r.status };
      }),
    );
    const results = await Promise.all(jobs);
    for (const r of results) expect(`${r.status} ${r.got}`).toBe(`201 ${r.expected}`);
    // each user sees exactly their own three
    for (const u of users) {
      const h = await request(a.app, "GET", `/api/submissions/${p._id}`, { token: u.token });
      expect(h.body.length).toBe(3);
    }
  });
});

/**
 * Reads `submissions.progress` as the browser's httpSubscriptionLink would: a real
 * HTTP server, GET /trpc/submissions.progress with SSE, parsed `data:` lines.
 */
async function collectProgress(a: JudgeApp, token: string, id: string): Promise<any[]> {
  const server = Bun.serve({ port: nextPort++, hostname: "127.0.0.1", fetch: a.app.fetch, idleTimeout: 30 });
  try {
    const input = encodeURIComponent(JSON.stringify({ id }));
    const res = await fetch(`http://127.0.0.1:${server.port}/trpc/submissions.progress?input=${input}`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    });
    if (!res.headers.get("content-type")?.includes("text/event-stream")) {
      throw new Error(`not an event stream: ${res.status} ${await res.text()}`);
    }
    const events: any[] = [];
    const decoder = new TextDecoder();
    let buffer = "";
    let event = "message";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, "");
        buffer = buffer.slice(nl + 1);
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) {
          const text = line.slice(5).trim();
          if (text === "") continue;
          const data = JSON.parse(text);
          if (event === "serialized-error") throw new Error(data?.message ?? "subscription error");
          if (event === "message" && data && typeof data === "object" && "status" in data) events.push(data);
          if (event === "return") return events;
        } else if (line === "") event = "message";
      }
      if (events.at(-1)?.status === "done") return events;
    }
    return events;
  } finally {
    server.stop(true);
  }
}


describe("the Kattis default validator and problems without input, through the sandbox", () => {
  let a: JudgeApp;
  beforeAll(async () => {
    a = await judgeApp();
  });

  test("YES for yes and 0.3333333 for 1/3 are accepted with the kattis checker, not with tokens", async () => {
    const me = await signUp(a.app);
    const answer = { sampleInput: "3\n", sampleOutput: "yes\n0.333333333\n", hiddenTestCases: [{ input: "6\n", expectedOutput: "yes 0.1666666667\n" }] };
    const kattis = await createProblem(a, me.token, { ...answer, checker: "kattis", checkerFlags: "float_tolerance 1e-6" });
    const tokens = await createProblem(a, me.token, { ...answer, checker: "tokens" });
    const code = "n = int(input())\nprint('YES')\nprint('%.7f' % (1 / n))\n";
    const onKattis = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: kattis._id, code, language: "py" } });
    const onTokens = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: tokens._id, code, language: "py" } });
    expect(`${onKattis.body.verdict} ${onKattis.body.testsPassed}/${onKattis.body.testsTotal}`).toBe("AC 2/2");
    expect(onTokens.body.verdict).toBe("WA");
    // Run against the sample uses the problem's checker too.
    const run = await request(a.app, "POST", "/api/compiler", {
      token: me.token,
      body: { language: "py", code, input: "3\n", expectedOutput: "yes\n0.333333333\n", problemId: kattis._id },
    });
    expect(run.body).toMatchObject({ verdict: "AC", correct: true });
    // The flags are stored in canonical form and shown with the problem.
    const shown = await request(a.app, "GET", `/api/problems/${kattis._id}`, { token: me.token });
    expect(shown.body).toMatchObject({ checker: "kattis", checkerFlags: "float_tolerance 0.000001" });
  });

  test("bad flags answer 400 naming checkerFlags, and nothing is stored", async () => {
    const me = await signUp(a.app);
    const res = await request(a.app, "POST", "/api/problems", {
      token: me.token,
      body: {
        title: "T", description: "d", inputFormat: "i", outputFormat: "o", constraints: "c", sampleInput: "", sampleOutput: "x\n",
        difficulty: "easy", checker: "kattis", checkerFlags: "float_tolerance abc",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: "checkerFlags", error: 'checkerFlags: "float_tolerance" needs a number after it' });
    const mine = await request(a.app, "GET", "/api/problems", { token: me.token });
    expect(mine.body.filter((p: { title: string }) => p.title === "T")).toEqual([]);
  });

  test("a problem without input: empty sample input and test inputs, judged AC", async () => {
    const me = await signUp(a.app);
    const p = await createProblem(a, me.token, {
      title: "Hello World",
      sampleInput: "",
      sampleOutput: "Hello World!\n",
      hiddenTestCases: [{ input: "", expectedOutput: "Hello World!\n" }],
    });
    const cpp = '#include <cstdio>\nint main() { std::puts("Hello World!"); }\n';
    const res = await request(a.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p._id, code: cpp, language: "cpp" } });
    expect(`${res.body.verdict} ${res.body.testsPassed}/${res.body.testsTotal}`).toBe("AC 2/2");
    const edited = await request(a.app, "PUT", `/api/problems/${p._id}`, { token: me.token, body: { sampleInput: "" } });
    expect(edited.status).toBe(200);
    expect(edited.body.sampleInput).toBe("");
  });
});
