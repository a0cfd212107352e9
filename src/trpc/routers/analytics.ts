/**
 * Assignment analytics (who is stuck): a thin door over src/courses/analytics.
 */
import { analyticsChanges, readAnalytics } from "../../courses/analytics/analytics.ts";
import { analyticsInput } from "../../courses/analytics/rules.ts";
import { protectedProcedure, router, stream } from "../init.ts";

export const analyticsRouter = router({
  /**
   * An assignment's analytics (staff): `{ assignment, students, problems[], stuck, version, computedAt }`
   * (src/courses/analytics/rules.ts). Input `{ id, window?: "hour" | "day", minFailed?: 1..100 }`.
   * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400, naming the field).
   */
  assignment: protectedProcedure.input(analyticsInput).query(({ ctx, input }) => readAnalytics(ctx.db, ctx.user, input.id, input, ctx.now())),

  /**
   * The same analytics now and again after each verdict (SSE), at most once a second, and every 30 s.
   * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403) before the first event.
   */
  assignmentUpdates: protectedProcedure
    .input(analyticsInput)
    .subscription(({ ctx, input, signal }) => stream(analyticsChanges(ctx.db, ctx.user, input.id, input, ctx.now, signal))),
});
