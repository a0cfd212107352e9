// The Gemini provider through the real @google/genai client against a local server speaking Gemini's wire protocol.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createGeminiProvider } from "./gemini.ts";
import type { ReviewProvider } from "./provider.ts";
import { startFakeGemini, type FakeServer } from "./testing/fake-servers.ts";
import { collect, failure, PY_SUM_WRONG, wrongAnswerSubject } from "./testing/fixtures.ts";

const KEY = "AIzaFAKE-test-key-0123456789";
let server: FakeServer;
let provider: ReviewProvider;

beforeAll(async () => {
  server = await startFakeGemini({ apiKey: KEY });
  provider = createGeminiProvider({ apiKey: KEY, model: "gemini-test-model", baseUrl: server.url });
});
afterAll(() => server.stop());

describe("gemini provider", () => {
  test("generateContent: sends model, key header and the grounded prompt; returns the text", async () => {
    server.requests = [];
    server.script = { kind: "text", chunks: ["**Summary** off by one."] };
    const review = await provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 });
    expect(review).toBe("**Summary** off by one.");

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.path).toMatch(/^\/v1(beta)?\/models\/gemini-test-model:generateContent$/);
    expect(req.headers.get("x-goog-api-key")).toBe(KEY);
    const user = req.body.contents[0].parts[0].text as string;
    expect(user).toContain("UNIQUE-STATEMENT-MARKER");
    expect(user).toContain("1 <= N <= 200000");
    expect(user).toContain(PY_SUM_WRONG.trim());
    expect(user).toContain("Wrong Answer");
    expect(user).toContain("7\n");
    const system = req.body.systemInstruction.parts[0].text as string;
    expect(system).toContain("advice to a learner");
    expect(system).toContain("verdicts come only from the judge");
    // The key travels only in its header.
    expect(JSON.stringify(req.body)).not.toContain(KEY);
    expect(req.search.get("key")).toBeNull();
  });

  test("streamGenerateContent over SSE: chunks arrive in order", async () => {
    server.requests = [];
    server.script = { kind: "text", chunks: ["**Summary**", " The loop", " is fine."], chunkDelayMs: 5 };
    const chunks = await collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 }));
    expect(chunks).toEqual(["**Summary**", " The loop", " is fine."]);
    const req = server.requests[0]!;
    expect(req.path).toMatch(/:streamGenerateContent$/);
    expect(req.search.get("alt")).toBe("sse");
    expect(req.headers.get("x-goog-api-key")).toBe(KEY);
  });

  test("a wrong key is a provider failure whose message does not carry the key", async () => {
    const bad = createGeminiProvider({ apiKey: "AIzaWRONG-key-777777", model: "m", baseUrl: server.url });
    server.script = { kind: "text", chunks: ["never"] };
    const err = await failure(bad.complete(wrongAnswerSubject(), { timeoutMs: 5000 }));
    expect(err.kind).toBe("failed");
    expect(err.httpStatus).toBe(400);
    expect(err.message).not.toContain("AIzaWRONG-key-777777");
  });

  test("HTTP 503 is a failure, streaming or not", async () => {
    server.script = { kind: "error", status: 503 };
    const err = await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 }));
    expect(err.kind).toBe("failed");
    expect(err.httpStatus).toBe(503);
    const err2 = await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 })));
    expect(err2.kind).toBe("failed");
  });

  test("a slow answer times out as `timeout`", async () => {
    server.script = { kind: "slow", chunks: ["late"], delayMs: 1500 };
    const started = performance.now();
    const err = await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 200 }));
    expect(err.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1400);
  });

  test("a stream that stalls after its first chunk times out after yielding it", async () => {
    server.script = { kind: "slow", chunks: ["first", "second"], delayMs: 1500 };
    const got: string[] = [];
    const err = await failure(
      (async () => {
        for await (const c of provider.stream(wrongAnswerSubject(), { timeoutMs: 250 })) got.push(c);
      })(),
    );
    expect(err.kind).toBe("timeout");
    expect(got).toEqual(["first"]);
  });

  test("a stream cut mid-event is a failure", async () => {
    server.script = { kind: "cut", chunks: ["partial review"] };
    const err = await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 })));
    expect(err.kind).toBe("failed");
  });

  test("a stream that ends without a finish reason is a failure, not a short review", async () => {
    server.script = { kind: "text", chunks: ["half a", " review"], finishReason: null };
    const err = await failure(collect(provider.stream(wrongAnswerSubject(), { timeoutMs: 5000 })));
    expect(err.message).toContain("ended before the model finished");
  });

  test("a safety stop is a failure; MAX_TOKENS keeps the text with a note", async () => {
    server.script = { kind: "text", chunks: ["x"], finishReason: "SAFETY" };
    expect((await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 }))).kind).toBe("failed");
    server.script = { kind: "text", chunks: ["long review"], finishReason: "MAX_TOKENS" };
    const review = await provider.complete(wrongAnswerSubject(), { timeoutMs: 5000 });
    expect(review).toStartWith("long review");
    expect(review).toContain("length limit");
  });

  test("the caller's abort ends the call as `aborted`", async () => {
    server.script = { kind: "slow", chunks: ["late"], delayMs: 1500 };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(provider.complete(wrongAnswerSubject(), { timeoutMs: 5000, signal: controller.signal }));
    expect(err.kind).toBe("aborted");
  });
});
