// What a review is grounded in, end to end: a real submission judged by the real judge in the real
// sandbox (bwrap) fails on a hidden test whose input and expected output carry unique markers; the
// review request that follows (OpenAI-compatible protocol server, then the offline reviewer) must
// carry the statement, the code and the verdict, and neither marker.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { request, signUp } from "../../tests/api.ts";
import { preparePch, SHARED_DATA_DIR } from "../../tests/judge/fixtures.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { createApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { JudgeService } from "../judge/service.ts";
import { createLogger } from "../log.ts";
import { createAiService } from "./service.ts";
import { startFakeOpenAi, type FakeServer } from "./testing/fake-servers.ts";
import { sandboxOptions } from "../sandbox.ts";

// Judging and compiling in the real sandbox on a shared 2-core machine.
setDefaultTimeout(60_000);

/** Box ids of this file (the AI tests' range is 3400-3499; offline.test.ts uses 3400-3409). */
const GROUNDING_BOX_ID_START = 3410;
const HIDDEN_IN = "HIDDENINPUTMARKER9f3a";
const HIDDEN_OUT = "HIDDENOUTPUTMARKER4c1d";
/** Echoes its input: right on the sample, wrong on the hidden test, whose expected output differs from its input. */
const ECHO_PY = "print(input())\n";

const silent = createLogger("silent");
const root = mkdtempSync(join(tmpdir(), "oj-ai-grounding-"));
let sandbox: SandboxSelection;
let openai: FakeServer;
let t: TestServices;
let judge: JudgeService;
let app: ReturnType<typeof createApp>;
let token: string;
let userId: string;
let problemId: string;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(
    sandboxOptions(loadConfig({
      NODE_ENV: "test",
      SANDBOX: "bwrap",
      SANDBOX_ROOT: root,
      DATA_DIR: SHARED_DATA_DIR,
      ISOLATE_BOX_ID_START: String(GROUNDING_BOX_ID_START),
      ISOLATE_BOX_ID_COUNT: "10",
      SANDBOX_POOL_SIZE: "2",
    })),
    () => {},
    { buildPch: false },
  );
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  openai = await startFakeOpenAi({ models: ["grounding-model"] });
  t = await createTestServices({ env: { AI_BASE_URL: openai.url }, sandbox });
  judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silent, sandbox, cacheDir: join(t.dir, "cache"), pollMs: 100 });
  t.services.judge = judge;
  await judge.start();
  t.services.ai = createAiService({ config: t.config, db: t.services.db, log: silent, sandbox: sandbox.backend });
  app = createApp(t.services);
  const account = await signUp(app);
  token = account.token;
  userId = account.user.id;
  const created = await request(app, "POST", "/api/problems", {
    token,
    body: {
      title: "Echo",
      description: "Print the word you are given. STATEMENT-MARKER-GROUNDING",
      inputFormat: "One word.",
      outputFormat: "The same word.",
      constraints: "1 <= |w| <= 100",
      sampleInput: "hello\n",
      sampleOutput: "hello\n",
      difficulty: "easy",
      hiddenTestCases: [{ input: `${HIDDEN_IN}\n`, expectedOutput: `${HIDDEN_OUT}\n` }],
    },
  });
  if (created.status !== 201) throw new Error(`problem: ${created.status} ${JSON.stringify(created.body)}`);
  problemId = created.body._id;
}, 120_000);

afterAll(async () => {
  await judge?.stop();
  await openai?.stop();
  await sandbox?.backend?.close();
  t?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

describe("a review after the judge failed a hidden test", () => {
  test("the judge's verdict is WA on the hidden test, and what it stored holds no hidden data", async () => {
    const sub = await request(app, "POST", "/api/submissions", { token, body: { problemId, code: ECHO_PY, language: "py" } });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ verdict: "WA", testsPassed: 1, testsTotal: 2 });
    // The program printed the hidden input on the hidden test: the judge must not have kept that output.
    expect(JSON.stringify(sub.body)).not.toContain(HIDDEN_IN);
    expect(JSON.stringify(sub.body)).not.toContain(HIDDEN_OUT);
  });

  test("the model's prompt holds statement, code and verdict, and neither hidden marker", async () => {
    openai.requests = [];
    openai.script = { kind: "text", chunks: ["Your echo is right on the sample."] };
    const res = await request(app, "POST", "/api/ai/ai-review", { token, body: { code: ECHO_PY, language: "py", problemId } });
    expect(res.status).toBe(200);
    expect(res.body.data.review).toBe("Your echo is right on the sample.");
    const chat = openai.requests.find((r) => r.path === "/v1/chat/completions")!;
    const sent = JSON.stringify(chat.body);
    expect(sent).toContain("STATEMENT-MARKER-GROUNDING");
    expect(sent).toContain("print(input())");
    expect(sent).toContain("WA (Wrong Answer)");
    expect(sent).toContain("Tests passed: 1 of 2");
    expect(sent).toContain("This verdict is for exactly the code under review.");
    expect(sent).not.toContain(HIDDEN_IN);
    expect(sent).not.toContain(HIDDEN_OUT);
  });

  test("the offline reviewer's text holds neither hidden marker either", async () => {
    const offline = createAiService({
      config: loadConfig({ NODE_ENV: "test", AI_PROVIDER: "offline" }),
      db: t.services.db,
      log: silent,
      sandbox: sandbox.backend,
    });
    const { review, provider } = await offline.review(userId, { code: ECHO_PY, language: "py", problemId });
    expect(provider).toBe("offline");
    expect(review).toContain("**Passes the sample.**");
    expect(review).toContain("**Wrong Answer** (1 of 2 tests passed");
    expect(review).not.toContain(HIDDEN_IN);
    expect(review).not.toContain(HIDDEN_OUT);
  });
});
