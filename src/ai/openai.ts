/**
 * Reviewer over any OpenAI-compatible chat-completions endpoint (OpenAI,
 * Ollama, vLLM, llama.cpp server) through the `openai` client: `POST
 * {baseURL}/chat/completions`, streaming (SSE, `data: [DONE]`) or not. The
 * key, when set, travels only in `Authorization: Bearer`; without a key no
 * Authorization header is sent (local servers need none).
 */
import OpenAI from "openai";
import { buildReviewPrompt } from "./prompt.ts";
import {
  AiProviderError,
  deadline,
  toProviderError,
  type CallOptions,
  type ReviewProvider,
  type ReviewSubject,
} from "./provider.ts";

export interface OpenAiCompatibleOptions {
  /** e.g. `http://localhost:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Model id; when unset, the first model the server lists at `GET {baseUrl}/models`. */
  model?: string;
  /** Upper bound on the review length, tokens. */
  maxOutputTokens?: number;
}

/** Finish reasons after which the text is a complete answer (OpenAI chat completions API). */
const COMPLETE = new Set(["stop", "length"]);

/**
 * @example createOpenAiCompatibleProvider({ baseUrl: "http://localhost:11434/v1", model: "qwen2.5-coder" })
 */
export function createOpenAiCompatibleProvider(opts: OpenAiCompatibleOptions): ReviewProvider {
  const client = new OpenAI({
    baseURL: opts.baseUrl,
    // The client insists on a key; a keyless server gets no Authorization header at all.
    apiKey: opts.apiKey ?? "no-key",
    defaultHeaders: opts.apiKey ? undefined : { Authorization: null },
    // Retries are the user's Re-analyze; our own deadline bounds every call.
    maxRetries: 0,
    timeout: 10 * 60_000,
    // The client would print malformed-stream details on console.error; the failure reaches us as an exception anyway.
    logLevel: "off",
  });
  const secrets = [opts.apiKey];
  let discovered: Promise<string> | undefined;

  async function resolveModel({ signal, timeoutMs }: CallOptions): Promise<string> {
    if (opts.model) return opts.model;
    discovered ??= (async () => {
      const dl = deadline(timeoutMs, signal);
      try {
        const page = await client.models.list({ signal: dl.signal });
        const first = page.data[0]?.id;
        if (!first) throw new AiProviderError("failed", "openai: the server lists no models; set AI_MODEL");
        return first;
      } catch (err) {
        throw toProviderError(err, dl, "openai models", secrets);
      } finally {
        dl.dispose();
      }
    })();
    // A failed discovery is not remembered: the server may come up later.
    discovered.catch(() => (discovered = undefined));
    return discovered;
  }

  function body(subject: ReviewSubject, model: string) {
    const prompt = buildReviewPrompt(subject);
    return {
      model,
      messages: [
        { role: "system" as const, content: prompt.system },
        { role: "user" as const, content: prompt.user },
      ],
      temperature: 0.2,
      max_tokens: opts.maxOutputTokens ?? 2048,
    };
  }

  function checkFinish(finishReason: string | null | undefined, text: string): string {
    if (!finishReason) throw new AiProviderError("failed", "openai: the answer ended before the model finished");
    if (!COMPLETE.has(finishReason)) throw new AiProviderError("failed", `openai: generation stopped (${finishReason})`);
    if (!text.trim()) throw new AiProviderError("failed", "openai: empty review");
    return finishReason === "length" ? "\n\n_(The review was cut at the model's length limit.)_" : "";
  }

  return {
    name: "openai",
    model: resolveModel,

    async complete(subject, callOpts: CallOptions) {
      const model = await resolveModel(callOpts);
      const dl = deadline(callOpts.timeoutMs, callOpts.signal);
      try {
        const res = await client.chat.completions.create({ ...body(subject, model), stream: false }, { signal: dl.signal });
        const choice = res.choices?.[0];
        const text = choice?.message?.content ?? "";
        return text + checkFinish(choice?.finish_reason, text);
      } catch (err) {
        throw toProviderError(err, dl, "openai", secrets);
      } finally {
        dl.dispose();
      }
    },

    async *stream(subject, callOpts: CallOptions) {
      const model = await resolveModel(callOpts);
      const dl = deadline(callOpts.timeoutMs, callOpts.signal);
      let whole = "";
      let finishReason: string | null | undefined;
      try {
        const chunks = await client.chat.completions.create({ ...body(subject, model), stream: true }, { signal: dl.signal });
        for await (const chunk of chunks) {
          dl.touch();
          const choice = chunk.choices?.[0];
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          const text = choice?.delta?.content;
          if (text) {
            whole += text;
            yield text;
          }
        }
        const note = checkFinish(finishReason, whole);
        if (note) yield note;
      } catch (err) {
        throw toProviderError(err, dl, "openai", secrets);
      } finally {
        dl.dispose();
      }
    },
  };
}
