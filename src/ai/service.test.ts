// AI review end to end: REST and tRPC (SSE) through the real app and database, against local Gemini/OpenAI protocol servers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { aiRequests, aiReviews, submissions } from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Logger } from "../log.ts";
import { problemBody, request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { createAiService, guessLanguage, selectProvider } from "./service.ts";
import { answerLanguageRule } from "./prompt.ts";
import { offlineEnglishNote } from "./offline-note.ts";
import { startFakeGemini, startFakeOpenAi, type FakeServer } from "./testing/fake-servers.ts";

const GEMINI_KEY = "AIzaSERVICE-test-key-31337";
const OPENAI_KEY = "sk-service-test-key-271828";
const HIDDEN_IN = "HIDDEN-INPUT-5d1c";
const HIDDEN_OUT = "HIDDEN-OUTPUT-8e2f";
const WRONG_PY = "n = int(input())\nprint(n + 2)\n";

/** A logger that keeps every line, to prove keys never reach the logs. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put = (m: string, d?: Record<string, unknown>) => lines.push(`${m} ${d ? JSON.stringify(d) : ""}`);
  return { lines, debug: put, info: put, warn: put, error: put };
}

interface Harness {
  t: TestServices;
  app: ReturnType<typeof createApp>;
  log: ReturnType<typeof recordingLogger>;
  user: Awaited<ReturnType<typeof signUp>>;
  problemId: string;
}

/** Real services and app with the AI service built from `env`, a user, and a problem with hidden tests. */
async function harness(env: Record<string, string>, now?: () => number): Promise<Harness> {
  const log = recordingLogger();
  const t = await createTestServices({ env, log });
  t.services.ai = createAiService({ config: t.config, db: t.services.db, log, sandbox: null, now });
  const app = createApp(t.services);
  const user = await signUp(app);
  const created = await request(app, "POST", "/api/problems", {
    token: user.token,
    body: problemBody({
      description: "Print n + 1. STATEMENT-MARKER-7",
      hiddenTestCases: [{ input: `${HIDDEN_IN}\n`, expectedOutput: `${HIDDEN_OUT}\n` }],
    }),
  });
  if (created.status !== 201) throw new Error(`problem: ${created.status} ${JSON.stringify(created.body)}`);
  return { t, app, log, user, problemId: created.body._id };
}

/** A judged submission as the judge stores it: WA on the sample (expected 2, printed 3). */
async function judgedWrongAnswer(h: Harness, code: string) {
  await h.t.services.db.insert(submissions).values({
    userId: h.user.user.id,
    problemId: h.problemId,
    language: "py",
    code,
    status: "done",
    verdict: "WA",
    isPassed: false,
    output: "3\n",
    expectedOutput: "2\n",
    timeMs: 18,
    memoryKib: 8100,
    testsPassed: 0,
    testsTotal: 2,
    judgedAt: new Date(),
  });
}

const review = (h: Harness, body: unknown, token = h.user.token) => request(h.app, "POST", "/api/ai/ai-review", { token, body });

describe("with Gemini configured (auto)", () => {
  let gemini: FakeServer;
  let h: Harness;

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
    h = await harness({ GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url, AI_TIMEOUT_MS: "400", AI_MODEL: "gemini-2.5-flash" });
    await judgedWrongAnswer(h, WRONG_PY);
  });
  afterAll(async () => {
    await gemini.stop();
    h.t.cleanup();
  });

  test("the model is asked to answer in the learner's language: the account's choice, else Accept-Language; each language cached apart", async () => {
    gemini.requests = [];
    gemini.script = { kind: "text", chunks: ["Bitte n + 1 ausgeben."] };
    const code = "n = int(input())\nprint(n + 3)  # language test\n";
    const me = await signUp(h.app); // its own account: the others' tests count theirs
    const de = await request(h.app, "POST", "/api/ai/ai-review", { token: me.token, headers: { "accept-language": "de-DE" }, body: { code, language: "py", problemId: h.problemId } });
    expect(de.status).toBe(200);
    expect(JSON.stringify(gemini.requests[0]!.body)).toContain(answerLanguageRule("de"));
    expect(JSON.stringify(gemini.requests[0]!.body)).toContain("Write the whole review in German");
    // English asks without the rule, and is not served the German review from the cache.
    gemini.script = { kind: "text", chunks: ["Print n + 1."] };
    const en = await request(h.app, "POST", "/api/ai/ai-review", { token: me.token, body: { code, language: "py", problemId: h.problemId } });
    expect([en.body.data.review, en.body.data.cached]).toEqual(["Print n + 1.", false]);
    expect(JSON.stringify(gemini.requests[1]!.body)).not.toContain("Write the whole review in");
    // The account's stored choice wins over the request's.
    await request(h.app, "PUT", "/api/auth/locale", { token: me.token, body: { locale: "ko" } });
    await request(h.app, "POST", "/api/ai/ai-review", { token: me.token, headers: { "accept-language": "de" }, body: { code, language: "py", problemId: h.problemId } });
    expect(JSON.stringify(gemini.requests[2]!.body)).toContain("Write the whole review in Korean");
    await request(h.app, "PUT", "/api/auth/locale", { token: me.token, body: { locale: "en" } });
  });

  test("POST /api/ai/ai-review answers {data:{review}} grounded in statement, code and verdict, never hidden tests", async () => {
    gemini.requests = [];
    gemini.script = { kind: "text", chunks: ["**Summary** You print n + 2.", " Use n + 1."] };
    const res = await review(h, { code: WRONG_PY, language: "py", problemId: h.problemId });
    expect(res.status).toBe(200);
    expect(res.body.data.review).toBe("**Summary** You print n + 2. Use n + 1.");
    expect(res.body.data).toMatchObject({ provider: "gemini", model: "gemini-2.5-flash", cached: false });

    expect(gemini.requests).toHaveLength(1);
    const sent = gemini.requests[0]!;
    expect(sent.path).toMatch(/models\/gemini-2\.5-flash:streamGenerateContent$/);
    expect(sent.headers.get("x-goog-api-key")).toBe(GEMINI_KEY);
    const body = JSON.stringify(sent.body);
    expect(body).toContain("STATEMENT-MARKER-7");
    expect(body).toContain("print(n + 2)");
    expect(body).toContain("Wrong Answer");
    expect(body).toContain("This verdict is for exactly the code under review.");
    // The limit Python is judged against: the problem's 2000 ms times Python's 3 (src/judge/limits.ts).
    expect(body).toContain("Limits per test: 6000 ms CPU time");
    expect(body).not.toContain(HIDDEN_IN);
    expect(body).not.toContain(HIDDEN_OUT);
    expect(body).not.toContain(GEMINI_KEY);
    expect(JSON.stringify(res.body)).not.toContain(GEMINI_KEY);
  });

  test("Re-analyze on unchanged code is served from the cache; force asks the model again", async () => {
    gemini.requests = [];
    gemini.script = { kind: "text", chunks: ["First answer."] };
    const code = "n = int(input())\nprint(n + 1)\n";
    const first = await review(h, { code, language: "py", problemId: h.problemId });
    expect(first.body.data.review).toBe("First answer.");
    gemini.script = { kind: "text", chunks: ["Second answer."] };
    const again = await review(h, { code, language: "py", problemId: h.problemId });
    expect(again.body.data).toMatchObject({ review: "First answer.", cached: true });
    expect(gemini.requests).toHaveLength(1);
    const forced = await review(h, { code, language: "py", problemId: h.problemId, force: true });
    expect(forced.body.data).toMatchObject({ review: "Second answer.", cached: false });
    expect(gemini.requests).toHaveLength(2);
    // Changed code is a different key.
    const changed = await review(h, { code: `${code}# tweak\n`, language: "py", problemId: h.problemId });
    expect(changed.body.data.cached).toBe(false);
    expect(gemini.requests).toHaveLength(3);
  });

  test("empty, blank or missing code → 400 with the spec's message; no model call", async () => {
    gemini.requests = [];
    for (const body of [{ code: "" }, { code: "  \n\t " }, {}]) {
      const res = await review(h, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "AI_EMPTY_CODE", field: "code", message: "Please write some code before requesting AI review." });
    }
    expect(gemini.requests).toHaveLength(0);
  });

  test("code over 64 KiB → 400 naming the field; bad language → 400", async () => {
    const big = await review(h, { code: `# ${"x".repeat(64 * 1024)}\n`, language: "py" });
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({ code: "BAD_INPUT", field: "code", message: "code: At most 64 KiB" });
    const lang = await review(h, { code: "print(1)", language: "cobol" });
    expect(lang.status).toBe(400);
    expect(lang.body.field).toBe("language");
  });

  test("signed out → 401; unknown problem → 404", async () => {
    const anon = await request(h.app, "POST", "/api/ai/ai-review", { body: { code: "print(1)" } });
    expect(anon.status).toBe(401);
    const missing = await review(h, { code: "print(1)", problemId: "no-such-problem" });
    expect(missing.status).toBe(404);
  });

  test("the model's HTTP error → 502, a slow model → 504, both with the client's message; neither is charged", async () => {
    const before = (await h.t.services.db.select().from(aiRequests)).length;
    gemini.script = { kind: "error", status: 503 };
    const failed = await review(h, { code: "print('a')\n", language: "py", force: true });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: "AI_PROVIDER_FAILED", message: "AI Review failed. Please try again later." });

    gemini.script = { kind: "slow", chunks: ["late"], delayMs: 2000 };
    const slow = await review(h, { code: "print('b')\n", language: "py", force: true });
    expect(slow.status).toBe(504);
    expect(slow.body).toMatchObject({ code: "AI_PROVIDER_TIMEOUT", message: "AI Review failed. Please try again later." });

    gemini.script = { kind: "cut", chunks: ["half a rev"] };
    expect((await review(h, { code: "print('c')\n", language: "py", force: true })).status).toBe(502);
    expect((await h.t.services.db.select().from(aiRequests)).length).toBe(before);
  });

  test("ai.info names the provider and nothing else", async () => {
    const res = await request(h.app, "GET", "/trpc/ai.info", { token: h.user.token });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ provider: "gemini" });
  });

  test("the key never reaches the logs", () => {
    expect(h.log.lines.length).toBeGreaterThan(0);
    expect(h.log.lines.join("\n")).not.toContain(GEMINI_KEY);
  });

  test("tRPC subscription streams start, deltas and done over SSE", async () => {
    gemini.script = { kind: "text", chunks: ["Chunk one.", " Chunk two.", " Chunk three."], chunkDelayMs: 5 };
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: h.app.fetch });
    try {
      const input = encodeURIComponent(JSON.stringify({ code: "print(input())\n", language: "py", problemId: h.problemId }));
      const res = await fetch(`http://127.0.0.1:${server.port}/trpc/ai.stream?input=${input}`, {
        headers: { authorization: `Bearer ${h.user.token}` },
      });
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const events = parseSse(await res.text());
      const data = events.filter((e) => e.event === undefined).map((e) => JSON.parse(e.data));
      expect(data[0]).toEqual({ type: "start", provider: "gemini", model: "gemini-2.5-flash", cached: false });
      expect(data.slice(1, -1)).toEqual([
        { type: "delta", text: "Chunk one." },
        { type: "delta", text: " Chunk two." },
        { type: "delta", text: " Chunk three." },
      ]);
      expect(data.at(-1)).toEqual({ type: "done" });
      expect(events.at(-1)?.event).toBe("return");

      // An error arrives as tRPC's serialized-error event carrying the catalogue entry.
      gemini.script = { kind: "error", status: 500 };
      const bad = encodeURIComponent(JSON.stringify({ code: "print(2)\n", language: "py", force: true }));
      const errRes = await fetch(`http://127.0.0.1:${server.port}/trpc/ai.stream?input=${bad}`, {
        headers: { authorization: `Bearer ${h.user.token}` },
      });
      const err = parseSse(await errRes.text()).find((e) => e.event === "serialized-error");
      expect(JSON.parse(err!.data)).toMatchObject({
        message: "AI Review failed. Please try again later.",
        data: { code: "BAD_GATEWAY", app: { kind: "AI_PROVIDER_FAILED" } },
      });
    } finally {
      await server.stop(true);
    }
  });
});

describe("with an OpenAI-compatible server configured (auto)", () => {
  let openai: FakeServer;
  let h: Harness;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY, models: ["local-coder"] });
    h = await harness({ AI_BASE_URL: openai.url, AI_API_KEY: OPENAI_KEY });
  });
  afterAll(async () => {
    await openai.stop();
    h.t.cleanup();
  });

  test("reviews through /v1/chat/completions with the bearer key and the server's model", async () => {
    openai.script = { kind: "text", chunks: ["Looks ", "right."] };
    const res = await review(h, { code: "#include <cstdio>\nint main(){int n;scanf(\"%d\",&n);printf(\"%d\\n\",n+1);}\n", problemId: h.problemId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ review: "Looks right.", provider: "openai", model: "local-coder" });
    const chat = openai.requests.find((r) => r.path === "/v1/chat/completions")!;
    expect(chat.headers.get("authorization")).toBe(`Bearer ${OPENAI_KEY}`);
    expect(chat.body.stream).toBe(true);
    const user = chat.body.messages[1].content as string;
    // The language was guessed from the code; there is no verdict yet.
    expect(user).toContain("C++");
    expect(user).toContain("has not submitted a solution");
    expect(JSON.stringify(chat.body)).not.toContain(HIDDEN_IN);
    expect(JSON.stringify(res.body)).not.toContain(OPENAI_KEY);
  });

  test("a 401 that echoes the key, as OpenAI's does, reaches neither the client nor the logs", async () => {
    openai.script = { kind: "error", status: 401, message: `Incorrect API key provided: ${OPENAI_KEY}.` };
    const res = await review(h, { code: "print('key echo')\n", language: "py", force: true });
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).not.toContain(OPENAI_KEY);
    expect(h.log.lines.some((l) => l.includes("review failed (failed)") && l.includes("[redacted]"))).toBe(true);
    expect(h.log.lines.join("\n")).not.toContain(OPENAI_KEY);
  });
});

/** Ports of this file's short-lived servers (the AI tests' range is 3400-3499). */
const SERVICE_TEST_PORT = 3420;

/** Polls `done` every 20 ms until it holds or `ms` pass; returns whether it held. */
async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!done()) {
    if (performance.now() > until) return false;
    await Bun.sleep(20);
  }
  return true;
}

describe("client disconnects, cut-off streams and secrets in error texts", () => {
  let gemini: FakeServer;
  let h: Harness;
  let server: ReturnType<typeof Bun.serve>;
  let base: string;
  const TIMEOUT_MS = 10_000;

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
    // A long provider timeout, so only the client's going away can end a stalled call early.
    h = await harness({ GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url, AI_TIMEOUT_MS: String(TIMEOUT_MS) });
    server = Bun.serve({ port: SERVICE_TEST_PORT, hostname: "127.0.0.1", fetch: h.app.fetch, idleTimeout: 0 });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.stop(true);
    await gemini.stop();
    h.t.cleanup();
  });

  const charged = async () => (await h.t.services.db.select().from(aiRequests)).length;
  const cachedReviews = async () => (await h.t.services.db.select().from(aiReviews)).length;

  test("REST: a client that disconnects aborts the model call at once, is not charged, and nothing is cached", async () => {
    gemini.requests = [];
    gemini.aborted = 0;
    gemini.script = { kind: "slow", chunks: ["**Summary** first words", " never sent"], delayMs: 5000 };
    const before = { charged: await charged(), cached: await cachedReviews() };
    const client = new AbortController();
    const started = performance.now();
    const res = fetch(`${base}/api/ai/ai-review`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ code: "print('rest disconnect')\n", language: "py" }),
      signal: client.signal,
    }).catch((err: Error) => err.name);
    expect(await eventually(() => gemini.requests.length === 1, 5000)).toBe(true);
    client.abort();
    expect(await res).toBe("AbortError");
    expect(await eventually(() => gemini.aborted === 1, 3000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS / 2);
    // The refund and the log line come once the service has seen the abort.
    expect(await eventually(() => h.log.lines.some((l) => l.includes("review aborted by the client")), 3000)).toBe(true);
    expect(await charged()).toBe(before.charged);
    expect(await cachedReviews()).toBe(before.cached);
  });

  test("SSE: closing the subscription aborts the model call mid-stream", async () => {
    gemini.requests = [];
    gemini.aborted = 0;
    gemini.script = { kind: "slow", chunks: ["**Summary** streamed part", " never sent"], delayMs: 5000 };
    const before = await charged();
    const abortLines = () => h.log.lines.filter((l) => l.includes("review aborted by the client")).length;
    const abortsLogged = abortLines();
    const client = new AbortController();
    const input = encodeURIComponent(JSON.stringify({ code: "print('sse disconnect')\n", language: "py" }));
    const res = await fetch(`${base}/trpc/ai.stream?input=${input}`, {
      headers: { authorization: `Bearer ${h.user.token}` },
      signal: client.signal,
    });
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes("streamed part")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain('"type":"delta","text":"**Summary** streamed part"');
    client.abort();
    expect(await eventually(() => gemini.aborted === 1, 3000)).toBe(true);
    expect(await eventually(() => abortLines() === abortsLogged + 1, 3000)).toBe(true);
    expect(await charged()).toBe(before);
  });

  test("SSE: a stream cut off after some text ends in the catalogue error, is not cached and not charged", async () => {
    gemini.requests = [];
    gemini.script = { kind: "cut", chunks: ["**Summary** part one.", " Part two."] };
    const before = await charged();
    const input = encodeURIComponent(JSON.stringify({ code: "print('cut')\n", language: "py" }));
    const get = () => fetch(`${base}/trpc/ai.stream?input=${input}`, { headers: { authorization: `Bearer ${h.user.token}` } });
    const events = parseSse(await (await get()).text());
    const data = events.filter((e) => e.event === undefined).map((e) => JSON.parse(e.data));
    expect(data[0]).toMatchObject({ type: "start", provider: "gemini", cached: false });
    expect(data.filter((d) => d.type === "delta").map((d) => d.text).join("")).toBe("**Summary** part one. Part two.");
    expect(data.some((d) => d.type === "done")).toBe(false);
    const err = events.find((e) => e.event === "serialized-error");
    expect(JSON.parse(err!.data)).toMatchObject({
      message: "AI Review failed. Please try again later.",
      data: { app: { kind: "AI_PROVIDER_FAILED" } },
    });
    expect(await charged()).toBe(before);
    // The half review was not cached: the same request asks the model again.
    gemini.script = { kind: "text", chunks: ["Whole review."] };
    const again = parseSse(await (await get()).text()).filter((e) => e.event === undefined).map((e) => JSON.parse(e.data));
    expect(again[0]).toMatchObject({ type: "start", cached: false });
    expect(again.filter((d) => d.type === "delta").map((d) => d.text).join("")).toBe("Whole review.");
    expect(gemini.requests).toHaveLength(2);
  });

  test("a provider error that echoes the key reaches neither the client nor the logs", async () => {
    gemini.script = { kind: "error", status: 400, message: `API key not valid: ${GEMINI_KEY}` };
    const res = await review(h, { code: "print('echo')\n", language: "py" });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "AI_PROVIDER_FAILED", message: "AI Review failed. Please try again later." });
    expect(JSON.stringify(res.body)).not.toContain(GEMINI_KEY);
    // The failure was logged (with the provider's reason, redacted), and no line holds the key.
    expect(h.log.lines.some((l) => l.includes("review failed (failed)") && l.includes("[redacted]"))).toBe(true);
    expect(h.log.lines.join("\n")).not.toContain(GEMINI_KEY);
  });
});

describe("limits", () => {
  let openai: FakeServer;
  let h: Harness;
  let clock = Date.UTC(2025, 0, 1, 12);

  beforeAll(async () => {
    openai = await startFakeOpenAi({ models: ["m"] });
    openai.script = { kind: "text", chunks: ["ok"] };
    h = await harness({ AI_BASE_URL: openai.url, AI_RATE_PER_MINUTE: "2", AI_DAILY_QUOTA: "3" }, () => clock);
  });
  afterAll(async () => {
    await openai.stop();
    h.t.cleanup();
  });

  test("per-minute rate, then the rolling daily quota, each 429 with Retry-After; cache hits are free", async () => {
    const ask = (n: number) => review(h, { code: `print(${n})\n`, language: "py" });
    expect((await ask(1)).status).toBe(200);
    expect((await ask(2)).status).toBe(200);
    const limited = await ask(3);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Over SSE the refusal is tRPC's error event, carrying the catalogue kind and the wait in seconds.
    const input = encodeURIComponent(JSON.stringify({ code: "print(5)\n", language: "py" }));
    const sse = await h.app.request(`/trpc/ai.stream?input=${input}`, { headers: { authorization: `Bearer ${h.user.token}` } });
    const refused = parseSse(await sse.text()).find((e) => e.event === "serialized-error");
    const refusedData = JSON.parse(refused!.data);
    expect(refusedData.data.app.kind).toBe("RATE_LIMITED");
    expect(refusedData.data.app.retryAfterSeconds).toBeGreaterThan(0);
    expect(refusedData.data.app.retryAfterSeconds).toBeLessThanOrEqual(60);
    // A cached review is not a model request.
    expect((await ask(1)).body.data.cached).toBe(true);

    clock += 61_000;
    expect((await ask(3)).status).toBe(200);
    const quota = await ask(4);
    expect(quota.status).toBe(429);
    expect(quota.body.message).toContain("Daily AI review limit reached (3 per 24 hours)");
    expect(Number(quota.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);

    clock += 24 * 3600_000;
    expect((await ask(4)).status).toBe(200);
    // Refused requests leave no row, and rows older than 24 hours are pruned: left are the ones at +61 s and now.
    const rows = await h.t.services.db
      .select()
      .from(aiRequests)
      .where(eq(aiRequests.userId, h.user.user.id))
      .orderBy(asc(aiRequests.createdAt));
    expect(rows.map((r) => r.createdAt.getTime() - clock)).toEqual([-24 * 3600_000, 0]);
  });
});

describe("provider choice", () => {
  const base = { NODE_ENV: "test" };
  test("auto: Gemini when its key is set, else the OpenAI-compatible server, else offline", () => {
    expect(selectProvider(loadConfig({ ...base, GEMINI_API_KEY: "k", AI_BASE_URL: "http://x/v1" }), null).name).toBe("gemini");
    expect(selectProvider(loadConfig({ ...base, AI_BASE_URL: "http://x/v1" }), null).name).toBe("openai");
    expect(selectProvider(loadConfig(base), null).name).toBe("offline");
    expect(selectProvider(loadConfig({ ...base, AI_PROVIDER: "offline", GEMINI_API_KEY: "k" }), null).name).toBe("offline");
  });

  test("an explicit provider without its settings is a configuration error naming the variable", () => {
    expect(() => selectProvider(loadConfig({ ...base, AI_PROVIDER: "gemini" }), null)).toThrow("GEMINI_API_KEY");
    expect(() => selectProvider(loadConfig({ ...base, AI_PROVIDER: "openai" }), null)).toThrow("AI_BASE_URL");
  });

  test("language guess for the spec's {code}-only payload", () => {
    expect(guessLanguage("#include <bits/stdc++.h>\nint main(){}")).toBe("cpp");
    expect(guessLanguage("public class Main { public static void main(String[] a) {} }")).toBe("java");
    expect(guessLanguage("print(sum(map(int, input().split())))")).toBe("py");
  });
});

describe("with no configuration", () => {
  test("the offline reviewer answers, labelled as offline", async () => {
    const h = await harness({});
    try {
      const res = await review(h, { code: "n = int(input())\nprint(n + 1)\n", language: "py", problemId: h.problemId });
      expect(res.status).toBe(200);
      expect(res.body.data.provider).toBe("offline");
      expect(res.body.data.review).toStartWith("> **Offline review.** No AI model was used");
      // A reader of another language (the request's Accept-Language) is told, in theirs, that it is English only.
      const de = await request(h.app, "POST", "/api/ai/ai-review", { token: h.user.token, headers: { "accept-language": "de" }, body: { code: "n = int(input())\nprint(n + 1)\n", language: "py", problemId: h.problemId } });
      expect(de.body.data.review).toStartWith(`_${offlineEnglishNote("de")}_\n\n> **Offline review.**`);
    } finally {
      h.t.cleanup();
    }
  });
});

/** Splits an SSE body into events (`event:` name when present, joined `data:` lines). */
function parseSse(text: string): { event?: string; data: string }[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim())
    .map((block) => {
      const ev: { event?: string; data: string } = { data: "" };
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) ev.event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      ev.data = data.join("\n");
      return ev;
    });
}
