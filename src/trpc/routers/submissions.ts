/**
 * Submission history: the caller's own submissions for one problem, newest
 * first, with per-test results as their feedback policy allows. A thin door over src/submissions; creating
 * and judging submissions is the judge router's (src/trpc/routers/judge.ts).
 */
import { z } from "zod";
import { idField } from "../../lib/fields.ts";
import { viewHistory } from "../../submissions/view.ts";
import { rejudgeOne } from "../../submissions/rejudge.ts";
import type { SubmissionShape } from "../../submissions/shape.ts";
import { protectedProcedure, router } from "../init.ts";

export const submissionsRouter = router({
  /**
   * The caller's submissions to a problem, newest first. Works for deleted
   * problems (history stays readable).
   * @throws PROBLEM_NOT_FOUND (404) when no such problem ever existed.
   */
  list: protectedProcedure
    .input(z.object({ problemId: idField() }))
    .query(({ ctx, input }): Promise<SubmissionShape[]> => viewHistory(ctx.db, ctx.user, ctx.user.id, input.problemId, ctx.now())),

  /**
   * Sends one judged submission back to the judge: the problem's owner, or
   * course members with submission.rejudge (src/submissions/rejudge.ts).
   * @throws SUBMISSION_NOT_FOUND (404) when absent or not the caller's to rejudge.
   */
  rejudge: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => {
    const result = await rejudgeOne(ctx.db, ctx.user, input.id);
    ctx.judge?.events.queued();
    return result;
  }),
});
