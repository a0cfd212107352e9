/**
 * Progress (issue 35): a door over src/progress, which decides who sees what.
 * - `progress.mine({tz})`: the caller's progress, whole. @throws UNAUTHENTICATED (401), BAD_INPUT (400, `tz`).
 * - `progress.profile({handle, tz})`: a public profile, signed out too. @throws PROFILE_NOT_FOUND (404: no such handle, or private).
 * - `progress.courseStudent({courseId, userId, tz})`: a student's progress within a course, for its staff.
 *   @throws COURSE_NOT_FOUND (404), FORBIDDEN (403), MEMBER_NOT_FOUND (404).
 * `tz` is the viewer's IANA time zone (the calendar's days and the streaks are counted there); UTC when absent.
 */
import { courseStudentProgress, publicProfile } from "../../progress/access.ts";
import { progressOf } from "../../progress/memory.ts";
import { courseStudentInput, mineInput, profileInput } from "../../progress/shape.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

export const progressRouter = router({
  mine: protectedProcedure.input(mineInput).query(({ ctx, input }) => progressOf(ctx.db, ctx.user.id, { timeZone: input.tz })),
  profile: publicProcedure.input(profileInput).query(({ ctx, input }) => publicProfile(ctx.db, input.handle, input.tz)),
  courseStudent: protectedProcedure
    .input(courseStudentInput)
    .query(({ ctx, input }) => courseStudentProgress(ctx.db, ctx.user, input.courseId, input.userId, input.tz)),
});
