/**
 * AI code review: `ai.stream` (an SSE subscription that streams the review as
 * it is generated), `ai.review` (the whole text; the REST door
 * POST /api/ai/ai-review calls it) and `ai.info` (which reviewer answers).
 * The logic lives in src/ai/service.ts.
 */
import { readerLocale } from "../../i18n/locales.ts";
import { z } from "zod";
import { MAX_CODE_BYTES, type AiService } from "../../ai/service.ts";
import { LANGUAGE_IDS } from "../../../isolate/languages/index.ts";
import type { Context } from "../../context.ts";
import { formatBytes, idField, utf8Bytes } from "../../lib/fields.ts";
import { protectedProcedure, router, stream } from "../init.ts";

/**
 * `code` may be missing or blank: the service answers the spec's
 * "Please write some code before requesting AI review." (AI_EMPTY_CODE).
 */
export const reviewInput = z.object({
  code: z
    .string({ error: "Must be text" })
    .default("")
    .refine((s) => utf8Bytes(s) <= MAX_CODE_BYTES, { error: `At most ${formatBytes(MAX_CODE_BYTES)}` }),
  language: z.enum(LANGUAGE_IDS, { error: `Must be one of ${LANGUAGE_IDS.join(", ")}` }).optional(),
  problemId: idField().optional(),
  /** The assignment the learner works in: its AI policy applies. */
  assignmentId: idField().optional(),
  force: z.boolean({ error: "Must be true or false" }).default(false),
});

/** The AI service of the server (built once: src/context.ts). */
const aiOf = (ctx: Context): AiService => ctx.ai;

export const aiRouter = router({
  /** Which reviewer answers (for the panel's label); never a key or URL. */
  info: protectedProcedure.query(({ ctx }) => ({ provider: aiOf(ctx).providerName })),

  /**
   * The AI policy for a problem (inside an assignment, when given), as the
   * panel states it: `{ policy: off|hints|full, text }`.
   * @throws PROBLEM_NOT_FOUND (404), ASSIGNMENT_NOT_FOUND (404).
   */
  policy: protectedProcedure
    .input(z.object({ problemId: idField().optional(), assignmentId: idField().optional() }))
    .query(({ ctx, input }) => aiOf(ctx).policy(ctx.user, input.problemId, input.assignmentId)),

  /**
   * The whole review as markdown.
   * @throws AI_EMPTY_CODE (400), BAD_INPUT (400), PROBLEM_NOT_FOUND (404), RATE_LIMITED (429),
   *         AI_PROVIDER_FAILED (502), AI_PROVIDER_TIMEOUT (504)
   */
  review: protectedProcedure.input(reviewInput).mutation(({ ctx, input, signal }) => aiOf(ctx).review(ctx.user, { ...input, answerLocale: readerLocale(ctx.user.locale, ctx.locale) }, signal)),

  /**
   * Streams `{type:"start", provider, model, cached}`, then `{type:"delta", text}`
   * chunks (concatenated they are the review), then `{type:"done"}`. Same errors as `review`.
   */
  stream: protectedProcedure.input(reviewInput).subscription(({ ctx, input, signal }) => stream(aiOf(ctx).stream(ctx.user, { ...input, answerLocale: readerLocale(ctx.user.locale, ctx.locale) }, signal))),
});
