/**
 * The AI review service: picks the provider from config, grounds each request
 * in the problem and the user's latest verdict (read from the database, never
 * the hidden tests), serves repeated requests from the cache, enforces the
 * per-user rate limit and daily quota, and turns provider failures into the
 * catalogue's 502/504. The tRPC router (src/trpc/routers/ai.ts) is its only caller.
 */
import type { LocaleTag } from "../i18n/locales.ts";
import { offlineEnglishNote } from "./offline-note.ts";
import { createHash } from "node:crypto";
import { effectiveTimeLimitMs } from "../judge/limits.ts";
import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { aiRequests, aiReviews, submissions } from "../../db/schema.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import { ConfigError, type Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { formatBytes, utf8Bytes } from "../lib/fields.ts";
import type { Logger } from "../log.ts";
import type { Caller } from "../accounts/user.ts";
import { aiPolicyExplained } from "../courses/ai-policy.ts";
import { requireVisibleProblem } from "../problems/access.ts";
import { feedbackLevels } from "../courses/feedback.ts";
import { AI_POLICY_TEXT, type AiPolicy } from "../courses/policy.ts";
import { stripCode } from "./strip-code.ts";
import { recordAiReview } from "../ops/metrics.ts";
import { createGeminiProvider } from "./gemini.ts";
import { createOfflineProvider } from "./offline/offline.ts";
import { createOpenAiCompatibleProvider } from "./openai.ts";
import {
  AiProviderError,
  redact,
  type Language,
  type ProblemFacts,
  type ProviderName,
  type ReviewProvider,
  type ReviewSubject,
  type VerdictFacts,
} from "./provider.ts";

/** Largest code accepted for review, bytes (UTF-8). */
export const MAX_CODE_BYTES = 64 * 1024;
/** Cached reviews older than this are regenerated, ms (30 days). */
export const CACHE_TTL_MS = 30 * 24 * 3600_000;
const MINUTE_MS = 60_000;
/** The daily quota is a rolling 24 hours, not a calendar day (no time zone to pick). */
const DAY_MS = 24 * 3600_000;

export interface ReviewRequest {
  code: string;
  /** The assignment the learner works in: its AI and feedback policies apply. */
  assignmentId?: string;
  /** Guessed from the code when absent (the spec's client sends only `code`). */
  language?: Language;
  problemId?: string;
  /** Skip the cache (Re-analyze after a change elsewhere, or to get a fresh answer). */
  force?: boolean;
  /** The language the learner reads (readerLocale: the account's choice, else the request's); English when absent. */
  answerLocale?: LocaleTag;
}

/** What the tRPC subscription streams: one `start`, `delta`s whose texts concatenate to the review, one `done`. */
export type ReviewEvent =
  | { type: "start"; provider: ProviderName; model: string; cached: boolean }
  | { type: "delta"; text: string }
  | { type: "done" };

export interface ReviewResult {
  review: string;
  provider: ProviderName;
  model: string;
  cached: boolean;
}

export interface AiService {
  /** The configured provider's name; never a key. */
  readonly providerName: ProviderName;
  /**
   * Streams a review.
   * @throws AppError AI_EMPTY_CODE (400), BAD_INPUT (400, field `code`/`language`), PROBLEM_NOT_FOUND (404),
   *         RATE_LIMITED (429, with retryAfterSeconds), AI_PROVIDER_FAILED (502), AI_PROVIDER_TIMEOUT (504)
   */
  stream(caller: Caller | string, req: ReviewRequest, signal?: AbortSignal): AsyncGenerator<ReviewEvent>;
  /** The whole review at once (the REST door). Same errors as `stream`. */
  review(caller: Caller | string, req: ReviewRequest, signal?: AbortSignal): Promise<ReviewResult>;
  /** The AI policy for a problem (and assignment) as the panel states it. @throws PROBLEM_NOT_FOUND, ASSIGNMENT_NOT_FOUND (404). */
  policy(caller: Caller, problemId: string | undefined, assignmentId: string | undefined): Promise<{ policy: AiPolicy; text: string }>;
}

export interface AiServiceDeps {
  config: Config;
  db: Database;
  log: Logger;
  /** The sandbox backend for the offline reviewer; null when the server has none. */
  sandbox: SandboxBackend | null;
  /** Overrides the provider chosen from config (tests). */
  provider?: ReviewProvider;
  /** Clock, ms since the epoch (tests). */
  now?: () => number;
}

/**
 * Chooses the provider: `AI_PROVIDER=auto` picks Gemini when GEMINI_API_KEY is
 * set, else the OpenAI-compatible server when AI_BASE_URL is set, else offline.
 * @throws ConfigError when AI_PROVIDER names a provider whose settings are missing.
 */
export function selectProvider(config: Config, sandbox: SandboxBackend | null): ReviewProvider {
  let name = config.AI_PROVIDER;
  if (name === "auto") name = config.GEMINI_API_KEY ? "gemini" : config.AI_BASE_URL ? "openai" : "offline";
  switch (name) {
    case "gemini":
      if (!config.GEMINI_API_KEY) throw new ConfigError("GEMINI_API_KEY: required when AI_PROVIDER=gemini");
      return createGeminiProvider({ apiKey: config.GEMINI_API_KEY, model: config.AI_MODEL, baseUrl: config.GEMINI_BASE_URL });
    case "openai":
      if (!config.AI_BASE_URL) throw new ConfigError("AI_BASE_URL: required when AI_PROVIDER=openai");
      return createOpenAiCompatibleProvider({ baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL });
    default:
      return createOfflineProvider({ sandbox });
  }
}

/**
 * Guesses the language of code sent without one (the spec's REST payload is only `{code}`).
 * @example guessLanguage("#include <iostream>\nint main(){}") // "cpp"
 */
export function guessLanguage(code: string): Language {
  if (/^\s*#\s*include\b|\bstd::|\bcout\s*<<|\bcin\s*>>|\bint\s+main\s*\(/m.test(code)) return "cpp";
  if (/\bpublic\s+static\s+void\s+main\b|\bSystem\.(out|in)\b|^\s*import\s+java\./m.test(code)) return "java";
  return "py";
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * @example const ai = createAiService({ config, db, log, sandbox: selection.backend });
 *          for await (const ev of ai.stream(user.id, { code, language: "py", problemId })) send(ev);
 */
export function createAiService(deps: AiServiceDeps): AiService {
  const { config, db, log } = deps;
  const provider = deps.provider ?? selectProvider(config, deps.sandbox);
  const now = deps.now ?? Date.now;
  const secrets = [config.GEMINI_API_KEY, config.AI_API_KEY];
  log.info(`ai: reviews by ${provider.name}${provider.name === "offline" ? " (no model)" : ""}`);

  /** The subject's answer language: set only for a reader of another language than English. */
  function answerIn(req: ReviewRequest): { answerLocale?: LocaleTag } {
    return req.answerLocale && req.answerLocale !== "en" ? { answerLocale: req.answerLocale } : {};
  }

  async function loadSubject(caller: Caller, req: ReviewRequest, language: Language): Promise<ReviewSubject> {
    const userId = caller.id;
    if (!req.problemId) {
      const { policy, reason } = await aiPolicyExplained(db, caller, null, req.assignmentId, now());
      if (policy === "off") throw new AppError("AI_OFF", reason ? { message: reason } : undefined);
      return { code: req.code, language, problem: null, latestVerdict: null, ...(policy === "hints" ? { hintsOnly: true } : {}), ...answerIn(req) };
    }
    const p = await requireVisibleProblem(db, caller, req.problemId, now(), "problemId");
    const { policy, reason } = await aiPolicyExplained(db, caller, p, req.assignmentId, now());
    if (policy === "off") throw new AppError("AI_OFF", reason ? { message: reason } : undefined);
    // Exactly the learner-visible fields: the hidden tests live in another table and are never read here.
    const problem: ProblemFacts = {
      id: p.id,
      title: p.title,
      description: p.description,
      inputFormat: p.inputFormat,
      outputFormat: p.outputFormat,
      constraints: p.constraints,
      sampleInput: p.sampleInput,
      sampleOutput: p.sampleOutput,
      // The limit this language is judged against (Java 2x, Python 3x: src/judge/limits.ts), not the problem's base limit.
      timeLimitMs: effectiveTimeLimitMs(language, p.timeLimitMs, p.timeScaledByLanguage),
      memoryLimitKib: p.memoryLimitKib,
      checker: p.checker,
      version: p.version,
    };
    const [s] = await db
      .select()
      .from(submissions)
      .where(and(eq(submissions.userId, userId), eq(submissions.problemId, p.id), eq(submissions.status, "done")))
      .orderBy(desc(submissions.createdAt))
      .limit(1);
    // The verdict as the learner may see it: counts hidden when their feedback policy shows only the verdict.
    const level = s
      ? (await feedbackLevels(db, caller, [{ id: s.id, userId, assignmentId: s.assignmentId, courseId: p.courseId }], now())).get(s.id)
      : undefined;
    const latestVerdict: VerdictFacts | null =
      s && s.verdict
        ? {
            verdict: s.verdict,
            language: s.language,
            sameCode: s.code === req.code && s.language === language,
            expectedOutput: s.expectedOutput,
            actualOutput: s.output,
            compileOutput: s.compileOutput,
            timeMs: s.timeMs,
            memoryKib: s.memoryKib,
            testsPassed: level === "verdict" ? null : s.testsPassed,
            testsTotal: level === "verdict" ? null : s.testsTotal,
          }
        : null;
    return { code: req.code, language, problem, latestVerdict, ...(policy === "hints" ? { hintsOnly: true } : {}), ...answerIn(req) };
  }

  /**
   * The cache key: provider, model, problem (and its version), language and
   * the code's hash, plus a digest of the verdict the review is grounded in,
   * so a new verdict gives a new review while Re-analyze on the same state is a hit.
   */
  function cacheKey(model: string, subject: ReviewSubject): string {
    return sha256(
      JSON.stringify([
        provider.name,
        model,
        subject.problem?.id ?? "",
        subject.problem?.version ?? 0,
        subject.language,
        sha256(subject.code),
        subject.latestVerdict ? sha256(JSON.stringify(subject.latestVerdict)) : "",
        subject.hintsOnly ? "hints" : "full",
        subject.answerLocale ?? "en",
      ]),
    );
  }

  async function cached(key: string): Promise<string | null> {
    const [row] = await db
      .select({ review: aiReviews.review })
      .from(aiReviews)
      .where(and(eq(aiReviews.cacheKey, key), gt(aiReviews.createdAt, new Date(now() - CACHE_TTL_MS))))
      .limit(1);
    return row?.review ?? null;
  }

  async function store(key: string, model: string, review: string): Promise<void> {
    const createdAt = new Date(now());
    await db
      .insert(aiReviews)
      .values({ cacheKey: key, provider: provider.name, model, review, createdAt })
      .onConflictDoUpdate({ target: aiReviews.cacheKey, set: { review, model, createdAt } });
    await db.delete(aiReviews).where(lt(aiReviews.createdAt, new Date(now() - CACHE_TTL_MS)));
  }

  /**
   * Records one provider request for the user, then refuses it (and forgets
   * it) when the last minute or the last 24 hours hold too many. Insert first,
   * count second: two racing requests can both be refused, never both admitted past the limit.
   * @returns the row id, to refund the request when the provider fails.
   */
  async function admit(userId: string): Promise<string> {
    const t = now();
    await db.delete(aiRequests).where(and(eq(aiRequests.userId, userId), lt(aiRequests.createdAt, new Date(t - DAY_MS))));
    const [mine] = await db.insert(aiRequests).values({ userId, createdAt: new Date(t) }).returning({ id: aiRequests.id });
    const rows = await db
      .select({ createdAt: aiRequests.createdAt })
      .from(aiRequests)
      .where(and(eq(aiRequests.userId, userId), gt(aiRequests.createdAt, new Date(t - DAY_MS))))
      .orderBy(asc(aiRequests.createdAt));
    const times = rows.map((r) => r.createdAt.getTime());
    const lastMinute = times.filter((x) => x > t - MINUTE_MS);
    let refusal: AppError | null = null;
    if (times.length > config.AI_DAILY_QUOTA) {
      const retry = Math.max(1, Math.ceil((times[times.length - config.AI_DAILY_QUOTA]! + DAY_MS - t) / 1000));
      refusal = new AppError("RATE_LIMITED", {
        message: `Daily AI review limit reached (${config.AI_DAILY_QUOTA} per 24 hours). Try again later.`,
        retryAfterSeconds: retry,
        details: { limit: "daily" },
      });
    } else if (lastMinute.length > config.AI_RATE_PER_MINUTE) {
      const retry = Math.max(1, Math.ceil((lastMinute[lastMinute.length - config.AI_RATE_PER_MINUTE]! + MINUTE_MS - t) / 1000));
      refusal = new AppError("RATE_LIMITED", {
        message: `Too many AI review requests (${config.AI_RATE_PER_MINUTE} per minute). Try again in ${retry} s.`,
        retryAfterSeconds: retry,
        details: { limit: "minute" },
      });
    }
    if (refusal) {
      await db.delete(aiRequests).where(eq(aiRequests.id, mine!.id));
      throw refusal;
    }
    return mine!.id;
  }

  function toAppError(err: unknown, userId: string): AppError {
    if (err instanceof AppError) return err;
    const e =
      err instanceof AiProviderError ? err : new AiProviderError("failed", err instanceof Error ? err.message : String(err));
    const message = redact(e.message, secrets);
    if (e.kind === "aborted") log.info(`ai: ${provider.name} review aborted by the client`, { userId });
    else log.warn(`ai: ${provider.name} review failed (${e.kind})`, { userId, reason: message, httpStatus: e.httpStatus });
    return new AppError(e.kind === "timeout" ? "AI_PROVIDER_TIMEOUT" : "AI_PROVIDER_FAILED");
  }

  function validate(req: ReviewRequest): Language {
    if (typeof req.code !== "string" || req.code.trim() === "") throw new AppError("AI_EMPTY_CODE", { field: "code" });
    if (utf8Bytes(req.code) > MAX_CODE_BYTES) {
      throw new AppError("BAD_INPUT", { field: "code", message: `code: At most ${formatBytes(MAX_CODE_BYTES)}` });
    }
    return req.language ?? guessLanguage(req.code);
  }

  async function* stream(who: Caller | string, req: ReviewRequest, signal?: AbortSignal): AsyncGenerator<ReviewEvent> {
    const caller: Caller = typeof who === "string" ? { id: who, siteRole: "user" } : who;
    const userId = caller.id;
    const language = validate(req);
    const subject = await loadSubject(caller, req, language);
    const callOpts = { signal, timeoutMs: config.AI_TIMEOUT_MS };
    let model: string;
    try {
      model = await provider.model(callOpts);
    } catch (err) {
      throw toAppError(err, userId);
    }
    const key = cacheKey(model, subject);
    if (!req.force) {
      const hit = await cached(key);
      if (hit !== null) {
        log.debug(`ai: cache hit (${provider.name}/${model})`, { userId });
        recordAiReview(provider.name, "cached");
        yield { type: "start", provider: provider.name, model, cached: true };
        yield { type: "delta", text: hit };
        yield { type: "done" };
        return;
      }
    }
    const ticket = await admit(userId);
    const started = now();
    yield { type: "start", provider: provider.name, model, cached: false };
    // The offline reviewer writes English only: a reader of another language is told so, in theirs.
    let review = provider.name === "offline" && subject.answerLocale ? `_${offlineEnglishNote(subject.answerLocale)}_\n\n` : "";
    if (review && !subject.hintsOnly) yield { type: "delta", text: review };
    try {
      if (subject.hintsOnly) {
        // Hints only: the whole review is read first and every piece of code taken out, then sent at once.
        for await (const text of provider.stream(subject, callOpts)) review += text;
        review = stripCode(review);
        yield { type: "delta", text: review };
      } else {
        for await (const text of provider.stream(subject, callOpts)) {
          review += text;
          yield { type: "delta", text };
        }
      }
    } catch (err) {
      // The user is not charged for the provider's failure.
      await db.delete(aiRequests).where(eq(aiRequests.id, ticket));
      const failure = toAppError(err, userId);
      recordAiReview(provider.name, failure.kind === "AI_PROVIDER_TIMEOUT" ? "timeout" : "failed", (now() - started) / 1000);
      throw failure;
    }
    recordAiReview(provider.name, "ok", (now() - started) / 1000);
    await store(key, model, review);
    log.info(`ai: review by ${provider.name}/${model} in ${now() - started} ms (${review.length} chars)`, { userId });
    yield { type: "done" };
  }

  return {
    providerName: provider.name,
    stream,
    async policy(caller, problemId, assignmentId) {
      const p = problemId ? await requireVisibleProblem(db, caller, problemId, now(), "problemId") : null;
      const { policy, reason } = await aiPolicyExplained(db, caller, p, assignmentId, now());
      return { policy, text: reason ?? AI_POLICY_TEXT[policy] };
    },
    async review(caller, req, signal) {
      let review = "";
      let meta: { provider: ProviderName; model: string; cached: boolean } | null = null;
      for await (const ev of stream(caller, req, signal)) {
        if (ev.type === "start") meta = ev;
        else if (ev.type === "delta") review += ev.text;
      }
      return { review, provider: meta!.provider, model: meta!.model, cached: meta!.cached };
    },
  };
}
