// Interactive and multi-pass problems through the product's doors: an author
// creates them with the form's payload (REST), Run answers with the sample's
// transcript, a submission is judged on the real sandbox (bwrap) and shows
// the transcript of its sample; the problem says what kind it is. The
// verdicts of every case (winning, losing, garbage, silence, crashes,
// cheating) are in the golden suite (tests/judge/*-interactive-*, *-multipass-*).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request, signUp } from "../api.ts";
import { startJudgeApp, type JudgeApp } from "./app.ts";

setDefaultTimeout(60_000);

const validators = join(import.meta.dir, "_problems", "validators");
const GUESS_PY = readFileSync(join(validators, "guess.py"), "utf8");
const RELAY_PY = readFileSync(join(validators, "relay.py"), "utf8");

const BINARY_SEARCH = [
  "lo, hi = 1, 1000",
  "while lo <= hi:",
  "    mid = (lo + hi) // 2",
  "    print('?', mid, flush=True)",
  "    r = input().strip()",
  "    if r == '=': break",
  "    if r == '<': hi = mid - 1",
  "    else: lo = mid + 1",
  "",
].join("\n");

const base = {
  description: "Find the secret number.",
  inputFormat: "Answers: <, >, =",
  outputFormat: "Guesses: ? g",
  constraints: "1 <= secret <= 1000, at most 10 guesses",
  difficulty: "medium",
};

let a: JudgeApp;
let token: string;

beforeAll(async () => {
  a = await startJudgeApp(480);
  token = (await signUp(a.app)).token;
});

afterAll(async () => {
  await a?.close();
});

describe("an interactive problem", () => {
  let id = "";

  test("is created with the form's payload; interactive without the custom checker is refused naming the field", async () => {
    const refused = await request(a.app, "POST", "/api/problems", {
      token,
      body: { ...base, title: "Guess", sampleInput: "500\n", sampleOutput: "500\n", interactive: true },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("checker");
    const res = await request(a.app, "POST", "/api/problems", {
      token,
      body: {
        ...base,
        title: "Guess",
        sampleInput: "500\n",
        sampleOutput: "500\n",
        hiddenTestCases: [
          { input: "1\n", expectedOutput: "1\n" },
          { input: "777\n", expectedOutput: "777\n" },
        ],
        checker: "custom",
        validator: { files: { "guess.py": GUESS_PY } },
        interactive: true,
        timeLimitMs: 1000,
      },
    });
    expect(res.status).toBe(201);
    id = res.body._id;
    const read = await request(a.app, "GET", `/api/problems/${id}`, { token });
    expect(read.body).toMatchObject({ interactive: true, validationPasses: 1, checker: "custom" });
  });

  test("Run judges the sample through the validator and answers with its transcript", async () => {
    const res = await request(a.app, "POST", "/api/compiler", { token, body: { language: "py", code: BINARY_SEARCH, input: "ignored", problemId: id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verdict: "AC", correct: true, ranSample: true });
    // The secret of the sample is 500: the first guess finds it.
    expect(res.body.output).toBe(">? 500\n<=\n");
    const lost = await request(a.app, "POST", "/api/compiler", { token, body: { language: "py", code: "print('? 1', flush=True)\ninput()\n", input: "", problemId: id } });
    expect(lost.body).toMatchObject({ verdict: "WA", correct: false, ranSample: true });
    expect(lost.body.output).toBe(">? 1\n<>\n");
  });

  test("a submission is judged on every test and shows the transcript of its sample, never a hidden test's", async () => {
    const res = await request(a.app, "POST", "/api/submissions", { token, body: { problemId: id, code: BINARY_SEARCH, language: "py" } });
    expect(res.status).toBe(201);
    expect(res.body.verdict).toBe("AC");
    expect(res.body.testsPassed).toBe(3);
    expect(res.body.output).toBe(">? 500\n<=\n");
    const bad = await request(a.app, "POST", "/api/submissions", { token, body: { problemId: id, code: "import time\ntime.sleep(30)\n", language: "py" } });
    expect(bad.body.verdict).toBe("TLE");
  });
});

describe("a multi-pass problem", () => {
  test("is created with validationPasses, Run shows the last pass's output, and a submission is judged pass by pass", async () => {
    const res = await request(a.app, "POST", "/api/problems", {
      token,
      body: {
        ...base,
        title: "Relay",
        sampleInput: "encode 42\n",
        sampleOutput: "42\n",
        hiddenTestCases: [{ input: "encode 12345\n", expectedOutput: "12345\n" }],
        checker: "custom",
        validator: { files: { "relay.py": RELAY_PY } },
        validationPasses: 2,
        timeLimitMs: 1000,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.validationPasses).toBe(2);
    const code = [
      "kind, value = input().split()",
      "if kind == 'encode': print(''.join(chr(97 + int(d)) for d in value))",
      "else: print(''.join(str(ord(c) - 97) for c in value))",
      "",
    ].join("\n");
    const run = await request(a.app, "POST", "/api/compiler", { token, body: { language: "py", code, input: "", problemId: res.body._id } });
    expect(run.body).toMatchObject({ verdict: "AC", ranSample: true, output: "42\n" });
    const sub = await request(a.app, "POST", "/api/submissions", { token, body: { problemId: res.body._id, code, language: "py" } });
    expect(sub.body.verdict).toBe("AC");
    const tooMany = await request(a.app, "PUT", `/api/problems/${res.body._id}`, { token, body: { validationPasses: 99 } });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain("validationPasses");
  });
});
