// The OpenAI-compatible provider through the real `openai` client against a local server speaking /v1/chat/completions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOpenAiCompatibleProvider } from "./openai.ts";
import type { ReviewProvider } from "./provider.ts";
import { startFakeOpenAi, type FakeServer } from "./testing/fake-servers.ts";
import { collect, failure, PY_SUM_WRONG, wrongAnswerSubject } from "./testing/fixtures.ts";

const KEY = "sk-fake-test-key-abcdef0123456789";
let server: FakeServer;
let provider: ReviewProvider;

beforeAll(async () => {
  server = await startFakeOpenAi({ apiKey: KEY, models: ["served-model-a", "served-model-b"] });
  provider = createOpenAiCompatibleProvider({ baseUrl: server.url, apiKey: KEY, model: "qwen-coder-test" });
});
afterAll(() => server.stop());

describe("openai-compatible provider", () => {
  test("chat completion: sends model, bearer key, system + user messages; returns the text", async () => {
    server.requests = [];
    server.script = { kind: "text", chunks: ["**Summary** prints sum+1."] };
    expect(await provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 })).toBe("**Summary** prints sum+1.");
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.get("authorization")).toBe(`Bearer ${KEY}`);
    expect(req.body.model).toBe("qwen-coder-test");
    expect(req.body.stream).toBeFalsy();
    const [system, user] = req.body.messages;
    expect(system.role).toBe("system");
    expect(system.content).toContain("advice to a learner");
    expect(user.role).toBe("user");
    expect(user.content).toContain("UNIQUE-STATEMENT-MARKER");
    expect(user.content).toContain(PY_SUM_WRONG.trim());
    expect(user.content).toContain("Wrong Answer");
    expect(JSON.stringify(req.body)).not.toContain(KEY);
  });

  test("streaming: chunks arrive in order and [DONE] ends them", async () => {
    server.requests = [];
    server.script = { kind: "text", chunks: ["One", " two", " three."], chunkDelayMs: 5 };
    expect(await collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 }))).toEqual(["One", " two", " three."]);
    expect(server.requests[0]!.body.stream).toBe(true);
  });

  test("without a key no Authorization header is sent (Ollama, llama.cpp)", async () => {
    const open = await startFakeOpenAi({ models: ["llama"] });
    try {
      const p = createOpenAiCompatibleProvider({ baseUrl: open.url, model: "llama" });
      open.script = { kind: "text", chunks: ["ok"] };
      expect(await p.complete(wrongAnswerSubject(), { timeoutMs: 5000 })).toBe("ok");
      expect(open.requests[0]!.headers.get("authorization")).toBeNull();
    } finally {
      await open.stop();
    }
  });

  test("without AI_MODEL the first model the server lists is used", async () => {
    server.requests = [];
    server.script = { kind: "text", chunks: ["ok"] };
    const p = createOpenAiCompatibleProvider({ baseUrl: server.url, apiKey: KEY });
    expect(await p.model({ timeoutMs: 5000 })).toBe("served-model-a");
    await p.complete(wrongAnswerSubject(), { timeoutMs: 5000 });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models", "POST /v1/chat/completions"]);
    expect(server.requests[1]!.body.model).toBe("served-model-a");
  });

  test("a wrong key (401) is a failure whose message does not carry the key", async () => {
    const bad = createOpenAiCompatibleProvider({ baseUrl: server.url, apiKey: "sk-WRONG-999999", model: "m" });
    const err = await failure(bad.complete(wrongAnswerSubject(), { timeoutMs: 5000 }));
    expect(err.kind).toBe("failed");
    expect(err.httpStatus).toBe(401);
    expect(err.message).not.toContain("sk-WRONG-999999");
  });

  test("HTTP 500 is a failure, streaming or not", async () => {
    server.script = { kind: "error", status: 500 };
    expect((await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 }))).httpStatus).toBe(500);
    expect((await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 })))).kind).toBe("failed");
  });

  test("a slow answer times out as `timeout`", async () => {
    server.script = { kind: "slow", chunks: ["late"], delayMs: 1500 };
    const started = performance.now();
    expect((await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 200 }))).kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1400);
  });

  test("a stream that stalls times out", async () => {
    server.script = { kind: "slow", chunks: ["first", "second"], delayMs: 1500 };
    expect((await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 250 })))).kind).toBe("timeout");
  });

  test("a stream cut mid-event, or ended without finish_reason and [DONE], is a failure", async () => {
    server.script = { kind: "cut", chunks: ["partial"] };
    expect((await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 })))).kind).toBe("failed");
    server.script = { kind: "text", chunks: ["half"], finishReason: null };
    const err = await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 })));
    expect(err.message).toContain("ended before the model finished");
  });

  test("finish_reason length keeps the text with a note; content_filter fails", async () => {
    server.script = { kind: "text", chunks: ["long"], finishReason: "length" };
    expect(await provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 })).toContain("length limit");
    server.script = { kind: "text", chunks: ["x"], finishReason: "content_filter" };
    expect((await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 }))).kind).toBe("failed");
  });
});
