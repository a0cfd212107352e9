/**
 * Submissions, a thin door over src/submissions: `create` (store and queue
 * for judging on the server), `byId`, `wait` (until judged), the `progress`
 * subscription (SSE: queued → compiling → running test k of n → done),
 * `list` (the caller's history of one problem or of all) and `rejudge`. Every one needs
 * a signed-in user; each answer is cut to the viewer's feedback policy. The
 * REST routes under /api/submissions call these (src/rest/submissions.ts).
 */
import { z } from "zod";
import { LANGUAGE_IDS } from "../../../isolate/languages/index.ts";
import { CODE_MAX_BYTES } from "../../judge/limits.ts";
import { idField, requiredBlock } from "../../lib/fields.ts";
import { listInWords } from "../../lib/words.ts";
import { pastesField, recordPastes } from "../../similarity/pastes.ts";
import { createSubmission } from "../../submissions/create.ts";
import { rejudgeOne } from "../../submissions/rejudge.ts";
import type { SubmissionShape } from "../../submissions/shape.ts";
import { viewHistory } from "../../submissions/view.ts";
import { readOne, submissionProgress, waitForVerdict } from "../../submissions/watch.ts";
import { protectedProcedure, router, stream } from "../init.ts";
import { judgeOf } from "./judge.ts";

/** Longest `submissions.wait`, ms: past it the submission is returned as it is (the client can wait again). */
export const WAIT_MAX_MS = 10 * 60_000;

/** Create input; the spec client's extra fields (input, output, expectedOutput, isPassed) are stripped and ignored. */
export const submitInput = z.object({
  problemId: idField(),
  code: requiredBlock(CODE_MAX_BYTES),
  language: z.enum(LANGUAGE_IDS, { error: `Must be ${listInWords(LANGUAGE_IDS)}` }),
  /** Submit inside this assignment (POST /api/assignments/:id/submissions sets it). */
  assignmentId: idField().optional(),
  /** Large pastes into the editor before this submission (kept only where the course records them: src/similarity/pastes.ts). */
  pastes: pastesField(),
});

export const submissionsRouter = router({
  /**
   * Stores the submission and queues it. Answers `{ id, _id, status: "queued" }`;
   * follow it with `progress` (live) or `wait`.
   * @throws PROBLEM_NOT_FOUND (404), RATE_LIMITED (429), SANDBOX_UNAVAILABLE (503), BAD_INPUT (400).
   */
  create: protectedProcedure.input(submitInput).mutation(async ({ ctx, input }) => {
    const { pastes, ...submission } = input;
    const { id } = await createSubmission(judgeOf(ctx).submissions, ctx.user, submission);
    await recordPastes(ctx.db, id, pastes);
    return { id, _id: id, status: "queued" as const };
  }),

  /** One submission with its per-test results, as the caller may see it. @throws SUBMISSION_NOT_FOUND (404). */
  byId: protectedProcedure.input(z.object({ id: idField() })).query(({ ctx, input }) => readOne(ctx, ctx.user, input.id)),

  /**
   * Resolves when the submission is judged, or after `timeoutMs` (default and
   * cap WAIT_MAX_MS) with its current state. @throws SUBMISSION_NOT_FOUND (404).
   */
  wait: protectedProcedure
    .input(z.object({ id: idField(), timeoutMs: z.number().int().min(0).max(WAIT_MAX_MS).optional() }))
    .query(({ ctx, input, signal }) => waitForVerdict(judgeOf(ctx).submissions, ctx.user, input.id, input.timeoutMs ?? WAIT_MAX_MS, signal)),

  /**
   * Live progress (SSE through httpSubscriptionLink): yields `SubmissionProgress`
   * events — `queued` (with `ahead`), `compiling`, `running` (`test` k of
   * `of`, finished tests so far), and finally `done` with the whole submission.
   * @throws SUBMISSION_NOT_FOUND (404).
   */
  progress: protectedProcedure
    .input(z.object({ id: idField() }))
    .subscription(({ ctx, input, signal }) => stream(submissionProgress(judgeOf(ctx).submissions, ctx.user, input.id, signal))),

  /**
   * The caller's own submissions, newest first, each with its `context`
   * (practice, or the assignment's or contest's id and title): to one problem
   * (all of them; works for deleted problems), or without `problemId` to every
   * problem (the newest 200). Never another user's.
   * @throws PROBLEM_NOT_FOUND (404) when `problemId` names no problem that ever existed.
   */
  list: protectedProcedure
    .input(z.object({ problemId: idField().optional() }))
    .query(({ ctx, input }): Promise<SubmissionShape[]> => viewHistory(ctx.db, ctx.user, ctx.user.id, input.problemId ?? null, ctx.now())),

  /**
   * Sends one judged submission back to the judge: the problem's owner, or
   * course members with submission.rejudge (src/submissions/rejudge.ts).
   * @throws SUBMISSION_NOT_FOUND (404) when absent or not the caller's to rejudge.
   */
  rejudge: protectedProcedure.input(z.object({ id: idField() })).mutation(({ ctx, input }) => rejudgeOne(ctx.db, ctx.user, input.id, () => ctx.judge?.events.queued())),
});
