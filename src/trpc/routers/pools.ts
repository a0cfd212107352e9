/**
 * Pools and late days (issue 37 §3, §6): a thin door over src/courses/pools
 * and src/courses/late-days.
 */
import { z } from "zod";
import { refundLateDays, refundLateDaysInput, spendLateDays, spendLateDaysInput } from "../../courses/late-days/spend.ts";
import { readPoolDraws } from "../../courses/pools/pools.ts";
import { idField } from "../../lib/fields.ts";
import { protectedProcedure, router } from "../init.ts";

export const poolsRouter = router({
  /** The assignment's pools and which problem each student was given (staff). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: pool.viewDraws). */
  draws: protectedProcedure.input(z.object({ assignmentId: idField() })).query(({ ctx, input }) => readPoolDraws(ctx.db, ctx.user, input.assignmentId, ctx.now())),

  /**
   * A student spends `days` more late days on the assignment; answers their balance.
   * @throws FORBIDDEN (403), LATE_DAYS_NOT_ALLOWED (409), LATE_DAYS_EXCEEDED (409, field days), BAD_INPUT (400).
   */
  spendLateDays: protectedProcedure.input(spendLateDaysInput).mutation(({ ctx, input }) => spendLateDays(ctx.db, ctx.user, input, ctx.now())),

  /** Staff give back `days` (default: all) late days a student spent on the assignment. @throws FORBIDDEN (403), BAD_INPUT (400). */
  refundLateDays: protectedProcedure.input(refundLateDaysInput).mutation(({ ctx, input }) => refundLateDays(ctx.db, ctx.user, input, ctx.now())),
});
