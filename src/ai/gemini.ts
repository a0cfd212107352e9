/**
 * Gemini reviewer through Google's maintained SDK `@google/genai`
 * (`models.generateContent` / `models.generateContentStream`, the latter
 * being `:streamGenerateContent?alt=sse` on the wire). The key travels only in
 * the SDK's `x-goog-api-key` header.
 */
import { GoogleGenAI, type GenerateContentResponse } from "@google/genai";
import { buildReviewPrompt } from "./prompt.ts";
import {
  AiProviderError,
  deadline,
  toProviderError,
  type CallOptions,
  type ReviewProvider,
  type ReviewSubject,
} from "./provider.ts";

/** A fast, inexpensive model that reviews code well (Gemini API model list, 2025). */
export const DEFAULT_GEMINI_MODEL = "gemini-2.5-flash";

/** Finish reasons after which the text is a complete answer; see the Gemini API `FinishReason` enum. */
const COMPLETE = new Set(["STOP", "MAX_TOKENS"]);

export interface GeminiOptions {
  apiKey: string;
  /** Model id, e.g. `gemini-2.5-flash`. */
  model?: string;
  /** Override of the API endpoint (tests point it at a local server). */
  baseUrl?: string;
  /** Upper bound on the review length, tokens. */
  maxOutputTokens?: number;
}

/**
 * @example const p = createGeminiProvider({ apiKey: config.GEMINI_API_KEY! });
 *          for await (const chunk of p.stream(subject, { timeoutMs: 30_000 })) send(chunk);
 */
export function createGeminiProvider(opts: GeminiOptions): ReviewProvider {
  const model = opts.model ?? DEFAULT_GEMINI_MODEL;
  // No SDK retries: a review is interactive, and the user can press Re-analyze.
  const client = new GoogleGenAI({
    apiKey: opts.apiKey,
    httpOptions: opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined,
  });
  const secrets = [opts.apiKey];

  function request(subject: ReviewSubject, signal: AbortSignal) {
    const prompt = buildReviewPrompt(subject);
    return {
      model,
      contents: [{ role: "user", parts: [{ text: prompt.user }] }],
      config: {
        systemInstruction: prompt.system,
        temperature: 0.2,
        maxOutputTokens: opts.maxOutputTokens ?? 2048,
        abortSignal: signal,
      },
    };
  }

  /** Text of one answer or chunk, and whether the model said it finished and how. */
  function read(res: GenerateContentResponse): { text: string; finishReason: string | undefined } {
    const candidate = res.candidates?.[0];
    const text = (candidate?.content?.parts ?? [])
      .filter((p) => typeof p.text === "string" && !p.thought)
      .map((p) => p.text)
      .join("");
    return { text, finishReason: candidate?.finishReason ?? undefined };
  }

  function checkFinish(finishReason: string | undefined, text: string, blockReason?: string): string {
    if (blockReason) throw new AiProviderError("failed", `gemini: prompt blocked (${blockReason})`);
    if (!finishReason) throw new AiProviderError("failed", "gemini: the answer ended before the model finished");
    if (!COMPLETE.has(finishReason)) throw new AiProviderError("failed", `gemini: generation stopped (${finishReason})`);
    if (!text.trim()) throw new AiProviderError("failed", "gemini: empty review");
    return finishReason === "MAX_TOKENS" ? "\n\n_(The review was cut at the model's length limit.)_" : "";
  }

  return {
    name: "gemini",
    async model() {
      return model;
    },

    async complete(subject, { signal, timeoutMs }: CallOptions) {
      const dl = deadline(timeoutMs, signal);
      try {
        const res = await client.models.generateContent(request(subject, dl.signal));
        const { text, finishReason } = read(res);
        return text + checkFinish(finishReason, text, res.promptFeedback?.blockReason ?? undefined);
      } catch (err) {
        throw toProviderError(err, dl, "gemini", secrets);
      } finally {
        dl.dispose();
      }
    },

    async *stream(subject, { signal, timeoutMs }: CallOptions) {
      const dl = deadline(timeoutMs, signal);
      let whole = "";
      let finishReason: string | undefined;
      let blockReason: string | undefined;
      try {
        const chunks = await client.models.generateContentStream(request(subject, dl.signal));
        for await (const chunk of chunks) {
          dl.touch();
          const part = read(chunk);
          blockReason ??= chunk.promptFeedback?.blockReason ?? undefined;
          if (part.finishReason) finishReason = part.finishReason;
          if (part.text) {
            whole += part.text;
            yield part.text;
          }
        }
        const note = checkFinish(finishReason, whole, blockReason);
        if (note) yield note;
      } catch (err) {
        throw toProviderError(err, dl, "gemini", secrets);
      } finally {
        dl.dispose();
      }
    },
  };
}
