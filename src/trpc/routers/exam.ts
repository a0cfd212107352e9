/**
 * Exams: a thin door over src/courses/exam (Start and a student's window,
 * per-student extra time, the staff's access view and session release).
 */
import { z } from "zod";
import { extraTimeInput } from "../../courses/exam/extra-time.ts";
import { examAccessView, extraTimes, releaseInput, releaseSession, setExtraTime } from "../../courses/exam/staff.ts";
import { examStatus, startExam, startInput } from "../../courses/exam/start.ts";
import { idField } from "../../lib/fields.ts";
import { protectedProcedure, router } from "../init.ts";

const byId = z.object({ id: idField() });

export const examRouter = router({
  /**
   * Starts the caller's window (`{id, password?}`). @throws BAD_INPUT (400, id: no Start needed), ASSIGNMENT_NOT_OPEN,
   * ASSIGNMENT_CLOSED, COURSE_ARCHIVED, FORBIDDEN (staff), EXAM_PASSWORD_WRONG, EXAM_WINDOW_OVER and the access rules' EXAM_* (403).
   */
  start: protectedProcedure.input(startInput).mutation(({ ctx, input }) => startExam(ctx.db, ctx.user, input, ctx.now())),
  /** The caller's window on an assignment (for the clock). @throws ASSIGNMENT_NOT_FOUND (404), EXAM_* (403). */
  status: protectedProcedure.input(byId).query(({ ctx, input }) => examStatus(ctx.db, ctx.user, input.id, ctx.now())),
  /** Who started, from where, and who was refused (staff). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: exam.monitor). */
  accessLog: protectedProcedure.input(byId).query(({ ctx, input }) => examAccessView(ctx.db, ctx.user, input.id, ctx.now())),
  /** Releases a student's one-session lock. @throws FORBIDDEN (403: exam.release), COURSE_ARCHIVED (403), MEMBER_NOT_FOUND (404). */
  release: protectedProcedure.input(releaseInput).mutation(({ ctx, input }) => releaseSession(ctx.db, ctx.user, input, ctx.now())),
  /** Sets a member's extra time. @throws FORBIDDEN (403: roster.edit), MEMBER_NOT_FOUND (404), BAD_INPUT (400). */
  setExtraTime: protectedProcedure.input(extraTimeInput).mutation(({ ctx, input }) => setExtraTime(ctx.db, ctx.user, input, ctx.now())),
  /** Every member's extra time, by user id (staff). @throws FORBIDDEN (403: roster.view). */
  extraTimes: protectedProcedure.input(z.object({ courseId: idField() })).query(({ ctx, input }) => extraTimes(ctx.db, ctx.user, input.courseId)),
});
