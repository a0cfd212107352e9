/**
 * Local HTTP servers that speak the wire protocols of Gemini
 * (`POST /{version}/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`) and of OpenAI-compatible servers
 * (`POST /v1/chat/completions`, streaming or not, and `GET /v1/models`), so
 * the real client libraries can be tested offline. Each server checks the key
 * header the way the real service does (a wrong key is an error answer),
 * records every request for the test to inspect (and counts the ones the
 * client abandoned), and answers from a script: text in chunks, an HTTP
 * error, a slow answer, or a stream cut off.
 *
 * For tests and local development only; never imported by the server.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  /** Parsed JSON body (null for GET). */
  body: any;
}

/**
 * What the next answers look like.
 * - `text`: the review in `chunks` (one message when not streaming), then the finish reason;
 *   `finishReason: null` leaves it out, as a stream cut short between events would.
 * - `error`: an HTTP error with the service's error body.
 * - `slow`: waits `delayMs` before answering `chunks` (or, streaming, sends the first chunk and then stalls `delayMs`).
 * - `cut`: streams `chunks`, then half an event, then ends the response.
 */
export type FakeScript =
  | { kind: "text"; chunks: string[]; finishReason?: string | null; chunkDelayMs?: number }
  | { kind: "error"; status: number; message?: string }
  | { kind: "slow"; chunks: string[]; delayMs: number }
  | { kind: "cut"; chunks: string[] };

export interface FakeServer {
  /** Base URL to hand to the client (Gemini: `http://127.0.0.1:port`; OpenAI: `http://127.0.0.1:port/v1`). */
  url: string;
  requests: RecordedRequest[];
  /** Requests whose client went away before the answer was complete (the client's abort reached the server). */
  aborted: number;
  script: FakeScript;
  stop(): Promise<void>;
}

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sseStream(
  events: string[],
  opts: { chunkDelayMs?: number; stallAfterFirstMs?: number; cutTail?: string; eol: string },
): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      try {
        for (let i = 0; i < events.length; i++) {
          controller.enqueue(encoder.encode(`data: ${events[i]}${opts.eol}${opts.eol}`));
          if (i === 0 && opts.stallAfterFirstMs) await sleep(opts.stallAfterFirstMs);
          else if (opts.chunkDelayMs) await sleep(opts.chunkDelayMs);
        }
        if (opts.cutTail !== undefined) {
          controller.enqueue(encoder.encode(opts.cutTail));
          // Closing the body here ends the HTTP response mid-event, as a dropped upstream connection does.
        }
        controller.close();
      } catch {
        // The client went away (aborted); nothing to do.
      }
    },
  });
}

async function record(req: Request): Promise<RecordedRequest> {
  const url = new URL(req.url);
  const text = req.method === "GET" ? "" : await req.text();
  let body: any = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { method: req.method, path: url.pathname, search: url.searchParams, headers: req.headers, body };
}

/**
 * A fake Gemini API. Answers like the real one: a missing or wrong
 * `x-goog-api-key` gets 400 `API_KEY_INVALID`; an unknown path 404.
 * @param opts.apiKey  the key the server accepts
 * @param opts.port    0 (default) picks a free port
 * @example const g = await startFakeGemini({ apiKey: "k" }); g.script = { kind: "text", chunks: ["Hi"] };
 */
export async function startFakeGemini(opts: { apiKey: string; port?: number }): Promise<FakeServer> {
  const state: FakeServer = {
    url: "",
    requests: [],
    aborted: 0,
    script: { kind: "text", chunks: ["A fine review."] },
    stop: async () => server.stop(true),
  };
  const error = (status: number, message: string, reason: string) =>
    Response.json({ error: { code: status, message, status: reason } }, { status });
  const answer = (text: string, finishReason: string | null | undefined) => ({
    candidates: [
      {
        content: { parts: [{ text }], role: "model" },
        ...(finishReason === null ? {} : { finishReason: finishReason ?? "STOP" }),
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "fake",
  });

  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      // Bun aborts the request's signal when the client disconnects before the response is done.
      req.signal.addEventListener("abort", () => state.aborted++, { once: true });
      const rec = await record(req);
      state.requests.push(rec);
      const m = /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(rec.path);
      if (!m || req.method !== "POST") return error(404, `no route ${req.method} ${rec.path}`, "NOT_FOUND");
      if (req.headers.get("x-goog-api-key") !== opts.apiKey) {
        return error(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT");
      }
      if (!Array.isArray(rec.body?.contents)) return error(400, "contents is required", "INVALID_ARGUMENT");
      const streaming = m[3] === "streamGenerateContent";
      if (streaming && rec.search.get("alt") !== "sse") return error(400, "this fake only streams SSE", "INVALID_ARGUMENT");
      const s = state.script;
      if (s.kind === "error") return error(s.status, s.message ?? "The model is overloaded.", "UNAVAILABLE");
      if (!streaming) {
        if (s.kind === "slow") await sleep(s.delayMs);
        return Response.json(answer(s.chunks.join(""), s.kind === "text" ? s.finishReason : "STOP"));
      }
      const chunks = s.chunks.map((text, i) =>
        JSON.stringify(
          answer(text, i === s.chunks.length - 1 && s.kind !== "cut" ? (s.kind === "text" ? s.finishReason : "STOP") : null),
        ),
      );
      // The real API separates events with CRLF pairs.
      const body = sseStream(chunks, {
        eol: "\r\n",
        chunkDelayMs: s.kind === "text" ? s.chunkDelayMs : undefined,
        stallAfterFirstMs: s.kind === "slow" ? s.delayMs : undefined,
        cutTail: s.kind === "cut" ? 'data: {"candidates": [{"content": {"parts": [{"text": "and th' : undefined,
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  state.url = `http://127.0.0.1:${server.port}`;
  return state;
}

/**
 * A fake OpenAI-compatible server (`/v1/chat/completions`, `/v1/models`).
 * With `apiKey` set, a request without `Authorization: Bearer <apiKey>` gets
 * 401 like OpenAI's; without it, any request is accepted (like Ollama).
 * @param opts.models  ids listed by `GET /v1/models`
 */
export async function startFakeOpenAi(opts: { apiKey?: string; port?: number; models?: string[] }): Promise<FakeServer> {
  const state: FakeServer = {
    url: "",
    requests: [],
    aborted: 0,
    script: { kind: "text", chunks: ["A fine review."] },
    stop: async () => server.stop(true),
  };
  const error = (status: number, message: string, type: string) =>
    Response.json({ error: { message, type, param: null, code: null } }, { status });
  const created = Math.floor(Date.now() / 1000);

  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      // Bun aborts the request's signal when the client disconnects before the response is done.
      req.signal.addEventListener("abort", () => state.aborted++, { once: true });
      const rec = await record(req);
      state.requests.push(rec);
      if (opts.apiKey && req.headers.get("authorization") !== `Bearer ${opts.apiKey}`) {
        return error(401, "Incorrect API key provided.", "invalid_request_error");
      }
      if (req.method === "GET" && rec.path === "/v1/models") {
        return Response.json({
          object: "list",
          data: (opts.models ?? []).map((id) => ({ id, object: "model", created, owned_by: "fake" })),
        });
      }
      if (req.method !== "POST" || rec.path !== "/v1/chat/completions") return error(404, "Not found", "invalid_request_error");
      if (typeof rec.body?.model !== "string" || !Array.isArray(rec.body?.messages)) {
        return error(400, "model and messages are required", "invalid_request_error");
      }
      const s = state.script;
      if (s.kind === "error") return error(s.status, s.message ?? "The server is overloaded.", "server_error");
      const model = rec.body.model as string;
      if (!rec.body.stream) {
        if (s.kind === "slow") await sleep(s.delayMs);
        const finish = s.kind === "text" && s.finishReason !== undefined ? s.finishReason : "stop";
        return Response.json({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: s.chunks.join("") }, finish_reason: finish }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      }
      const chunk = (delta: Record<string, string>, finish: string | null) =>
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion.chunk",
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      const events = [chunk({ role: "assistant", content: "" }, null), ...s.chunks.map((c) => chunk({ content: c }, null))];
      if (s.kind !== "cut") {
        const finish = s.kind === "text" ? s.finishReason : "stop";
        if (finish !== null) events.push(chunk({}, finish ?? "stop"), "[DONE]");
      }
      const body = sseStream(events, {
        eol: "\n",
        chunkDelayMs: s.kind === "text" ? s.chunkDelayMs : undefined,
        stallAfterFirstMs: s.kind === "slow" ? s.delayMs : undefined,
        cutTail: s.kind === "cut" ? 'data: {"id":"chatcmpl-fake","choices":[{"delta":{"content":"and th' : undefined,
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  state.url = `http://127.0.0.1:${server.port}/v1`;
  return state;
}
