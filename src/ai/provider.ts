/**
 * The AI review provider contract: what every reviewer (Gemini, any
 * OpenAI-compatible server, the offline reviewer) receives, what it returns,
 * and how it fails. Providers know nothing of users, caching or quotas; the
 * service (src/ai/service.ts) does that around them.
 */
import type { LocaleTag } from "../i18n/locales.ts";
import type { Verdict } from "../../db/schema.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { CheckerName } from "../problems/limits.ts";

/** Languages the judge accepts: the registry's ids (isolate/languages). */
export type Language = LanguageId;

export type ProviderName = "gemini" | "openai" | "offline";

/** The problem as the learner sees it: statement, formats, constraints, sample, limits. Never the hidden tests. */
export interface ProblemFacts {
  id: string;
  title: string;
  description: string;
  inputFormat: string;
  outputFormat: string;
  constraints: string;
  sampleInput: string;
  sampleOutput: string;
  /** The CPU time limit the review's language is judged against (the problem's limit times the language's multiplier), ms. */
  timeLimitMs: number;
  memoryLimitKib: number;
  /** How the judge compares output (src/judge/checker.ts). */
  checker: CheckerName;
  /** Bumped on every edit of the problem; part of the cache key. */
  version: number;
}

/**
 * The judge's latest finished verdict for (user, problem), as the learner saw
 * it: the verdict, the sample's expected and actual output, compiler output on
 * CE, and counts. Hidden test inputs and outputs are never part of it.
 */
export interface VerdictFacts {
  verdict: Verdict;
  language: Language;
  /** True when the judged code is byte-for-byte the code under review. */
  sameCode: boolean;
  /** The sample's expected output. */
  expectedOutput: string;
  /** What the program printed on the sample. */
  actualOutput: string;
  compileOutput: string | null;
  /** Max CPU time over the tests, ms; max memory, KiB (null when not run). */
  timeMs: number | null;
  memoryKib: number | null;
  /** Null when the assignment's feedback policy shows the learner only the verdict. */
  testsPassed: number | null;
  testsTotal: number | null;
}

/** Everything a reviewer may ground its review in. */
export interface ReviewSubject {
  code: string;
  language: Language;
  /** Null when the review was requested without a problem. */
  problem: ProblemFacts | null;
  /** Null when the user has no finished submission for the problem. */
  latestVerdict: VerdictFacts | null;
  /**
   * The assignment's AI policy is `hints`: explain the verdict and point at
   * problems, write no code (src/courses/policy.ts).
   */
  hintsOnly?: boolean;
  /** The learner's interface language when not English (src/i18n/locales.ts): a model answers in it. */
  answerLocale?: LocaleTag;
}

export interface CallOptions {
  /** Aborts the call (the client went away). */
  signal?: AbortSignal;
  /**
   * For `complete`: the whole call, ms. For `stream`: the wait for the first
   * chunk and between chunks, ms (a review streams for as long as text keeps coming).
   */
  timeoutMs: number;
}

export interface ReviewProvider {
  readonly name: ProviderName;
  /**
   * The model id (part of the cache key). The OpenAI-compatible provider asks
   * the server's `/models` when `AI_MODEL` is unset, hence async.
   * @throws AiProviderError
   */
  model(opts: CallOptions): Promise<string>;
  /**
   * Streams the review as markdown text chunks, in order; their concatenation is the review.
   * @throws AiProviderError (also mid-stream: an HTTP error, a timeout, a stream cut off before the model finished)
   */
  stream(subject: ReviewSubject, opts: CallOptions): AsyncIterable<string>;
  /** The whole review at once. @throws AiProviderError */
  complete(subject: ReviewSubject, opts: CallOptions): Promise<string>;
}

/**
 * How a provider call failed: `failed` (HTTP error, malformed or cut-off
 * answer, empty review) maps to 502, `timeout` to 504, `aborted` means the
 * caller gave up. `message` is safe to log: providers strip secrets from it.
 */
export class AiProviderError extends Error {
  override name = "AiProviderError";
  constructor(
    readonly kind: "failed" | "timeout" | "aborted",
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

/**
 * A timer-driven abort signal joined to the caller's signal.
 * `touch()` restarts the timer (idle timeouts for streams); `timedOut` tells
 * a timeout apart from the caller's abort; always `dispose()`.
 * @param timeoutMs  ms until the signal aborts unless touched
 * @param outer      the caller's signal, if any
 */
export function deadline(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new AiProviderError("timeout", `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  };
  const onOuterAbort = () => controller.abort(new AiProviderError("aborted", "request aborted"));
  if (outer?.aborted) onOuterAbort();
  else {
    outer?.addEventListener("abort", onOuterAbort, { once: true });
    arm();
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    touch() {
      if (!controller.signal.aborted) arm();
    },
    dispose() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}

/** Removes every occurrence of the given secrets from a text (for log lines built from outside errors). */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}

/**
 * Turns anything a client library threw into an AiProviderError, honouring a
 * deadline that fired or a caller that aborted.
 * @param secrets  strings to strip from the message (API keys)
 */
export function toProviderError(
  err: unknown,
  dl: { timedOut: boolean; signal: AbortSignal },
  what: string,
  secrets: readonly (string | undefined)[],
): AiProviderError {
  // Once the deadline fired or the caller left, whatever broke broke because of it.
  if (dl.timedOut) return new AiProviderError("timeout", `${what}: no answer in time`);
  if (dl.signal.aborted) return new AiProviderError("aborted", `${what}: aborted`);
  if (err instanceof AiProviderError) return err;
  const status = typeof (err as { status?: unknown })?.status === "number" ? (err as { status: number }).status : undefined;
  const message = err instanceof Error ? err.message : String(err);
  return new AiProviderError("failed", redact(`${what}: ${message}`.slice(0, 500), secrets), status);
}
