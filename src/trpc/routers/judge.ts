/**
 * The offered languages (`languages`), and Run: `run` compiles and runs once on custom input or the sample (the REST
 * door POST /api/compiler, src/rest/judge.ts). Submissions are the
 * submissions router's (src/trpc/routers/submissions.ts). Needs a signed-in user.
 */
import { z } from "zod";
import { LANGUAGE_IDS } from "../../../isolate/languages/index.ts";
import type { Context } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { formatBytes, idField, requiredBlock, utf8Bytes } from "../../lib/fields.ts";
import { listInWords } from "../../lib/words.ts";
import { CODE_MAX_BYTES, RUN_TEXT_MAX_BYTES } from "../../judge/limits.ts";
import type { JudgeService } from "../../judge/service.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";
import { languagesView, offeredLanguages } from "../../judge/languages.ts";

const textError = (iss: { input: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text");

const language = z.enum(LANGUAGE_IDS, { error: `Must be ${listInWords(LANGUAGE_IDS)}` });
const code = requiredBlock(CODE_MAX_BYTES);
const boundedText = z
  .string({ error: textError })
  .refine((s) => utf8Bytes(s) <= RUN_TEXT_MAX_BYTES, { error: `At most ${formatBytes(RUN_TEXT_MAX_BYTES)}` });

export const runInput = z.object({
  language,
  code,
  // The spec's client always sends `input` (possibly empty); a missing one counts as empty.
  input: boundedText.nullish().transform((s) => s ?? ""),
  // Absent or null: no comparison, no `correct` in the answer.
  expectedOutput: boundedText.nullish().transform((s) => s ?? undefined),
  problemId: idField().optional(),
});

/** The judge of this process. @throws SANDBOX_UNAVAILABLE (503) when it is not running. */
export function judgeOf(ctx: Context): JudgeService {
  if (!ctx.judge) {
    throw new AppError("SANDBOX_UNAVAILABLE", { message: `Code execution is unavailable: ${ctx.sandbox.reason ?? "the judge is not running"}` });
  }
  return ctx.judge;
}

/** The languages this server offers (the judge's, else the configured ones that are installed). */
export const offered = (ctx: Context) => ctx.judge?.languages ?? offeredLanguages(ctx.config).ids;

export const judgeRouter = router({
  /**
   * The languages this server offers, in display order: `{ languages: [{id, name, displayName,
   * timeMultiplier, editorMode}] }` (src/judge/languages.ts). Public: the selector needs it before sign-in.
   */
  languages: publicProcedure.query(({ ctx }) => languagesView(offered(ctx))),
  /**
   * Compiles and runs once. Answers `RunResponse` (src/judge/run.ts):
   * `{ output, correct?, verdict, stderr, exitCode, timeMs, memoryKib, outputTruncated, compileCached }`.
   * @throws COMPILATION_ERROR (400, details.compileOutput), RATE_LIMITED (429), SANDBOX_UNAVAILABLE (503), BAD_INPUT (400 naming the field).
   */
  run: protectedProcedure.input(runInput).mutation(({ ctx, input }) => judgeOf(ctx).run(ctx.user, input)),
});
