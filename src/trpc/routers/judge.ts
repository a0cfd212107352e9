/**
 * Judging: `run` (compile and run once on custom input or the sample),
 * `submit` (store and queue for judging on the server), `byId`, `wait` (until
 * judged) and the `progress` subscription (SSE: queued → compiling → running
 * test k of n → done). All need a signed-in user. The REST routes
 * POST /api/compiler and POST /api/submissions call these (src/rest/judge.ts).
 */
import { z } from "zod";
import { LANGUAGE_IDS } from "../../../isolate/languages/index.ts";
import type { Context } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { formatBytes, idField, requiredBlock, utf8Bytes } from "../../lib/fields.ts";
import { listInWords } from "../../lib/words.ts";
import { CODE_MAX_BYTES, RUN_TEXT_MAX_BYTES } from "../../judge/limits.ts";
import type { JudgeService } from "../../judge/service.ts";
import { protectedProcedure, router } from "../init.ts";

/** Longest `judge.wait`, ms: past it the submission is returned as it is (the client can wait again). */
export const WAIT_MAX_MS = 10 * 60_000;

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

/** Submit input; the spec client's extra fields (input, output, expectedOutput, isPassed) are stripped and ignored. */
export const submitInput = z.object({
  problemId: idField(),
  code,
  language,
  /** Submit inside this assignment (POST /api/assignments/:id/submissions sets it). */
  assignmentId: idField().optional(),
});

function judgeOf(ctx: Context): JudgeService {
  if (!ctx.judge) {
    throw new AppError("SANDBOX_UNAVAILABLE", { message: `Code execution is unavailable: ${ctx.sandbox.reason ?? "the judge is not running"}` });
  }
  return ctx.judge;
}

export const judgeRouter = router({
  /**
   * Compiles and runs once. Answers `RunResponse` (src/judge/run.ts):
   * `{ output, correct?, verdict, stderr, exitCode, timeMs, memoryKib, outputTruncated, compileCached }`.
   * @throws COMPILATION_ERROR (400, details.compileOutput), RATE_LIMITED (429), SANDBOX_UNAVAILABLE (503), BAD_INPUT (400 naming the field).
   */
  run: protectedProcedure.input(runInput).mutation(({ ctx, input }) => judgeOf(ctx).run(ctx.user, input)),

  /**
   * Stores the submission and queues it. Answers `{ id, _id, status: "queued" }`;
   * follow it with `progress` (live) or `wait`.
   * @throws PROBLEM_NOT_FOUND (404), RATE_LIMITED (429), SANDBOX_UNAVAILABLE (503), BAD_INPUT (400).
   */
  submit: protectedProcedure.input(submitInput).mutation(async ({ ctx, input }) => {
    const { id } = await judgeOf(ctx).submit(ctx.user, input);
    return { id, _id: id, status: "queued" as const };
  }),

  /** One of the caller's submissions with its per-test results. @throws SUBMISSION_NOT_FOUND (404). */
  byId: protectedProcedure
    .input(z.object({ id: idField() }))
    .query(({ ctx, input }) => judgeOf(ctx).byId(ctx.user, input.id)),

  /**
   * Resolves when the submission is judged, or after `timeoutMs` (default and
   * cap WAIT_MAX_MS) with its current state. @throws SUBMISSION_NOT_FOUND (404).
   */
  wait: protectedProcedure
    .input(z.object({ id: idField(), timeoutMs: z.number().int().min(0).max(WAIT_MAX_MS).optional() }))
    .query(({ ctx, input, signal }) => judgeOf(ctx).wait(ctx.user, input.id, input.timeoutMs ?? WAIT_MAX_MS, signal)),

  /**
   * Live progress (SSE through httpSubscriptionLink): yields `JudgeProgress`
   * events — `queued` (with `ahead`), `compiling`, `running` (`test` k of
   * `of`, finished tests so far), and finally `done` with the whole submission.
   * @throws SUBMISSION_NOT_FOUND (404).
   */
  progress: protectedProcedure.input(z.object({ id: idField() })).subscription(async function* ({ ctx, input, signal }) {
    yield* judgeOf(ctx).progress(ctx.user, input.id, signal);
  }),
});
