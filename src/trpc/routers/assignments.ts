/**
 * Assignments: a thin door over src/courses (assignments, extensions, the
 * gradebook and its live stream, exports, rejudging).
 */
import { z } from "zod";
import {
  assignmentInput,
  assignmentUpdateInput,
  createAssignment,
  deleteAssignment,
  extensionInput,
  getAssignment,
  grantExtension,
  listAssignments,
  listExtensions,
  removeExtension,
  updateAssignment,
} from "../../courses/assignments.ts";
import { cellSubmissions, gradebookChanges, gradesCsv, readGradebook } from "../../courses/gradebook.ts";
import { rejudgeCourseSubmission } from "../../submissions/rejudge.ts";
import { idField } from "../../lib/fields.ts";
import { exportLocale } from "../../i18n/answers.ts";
import { protectedProcedure, router, stream } from "../init.ts";

const byId = z.object({ id: idField() });

export const assignmentsRouter = router({
  /** A course's assignments with their state and, for a student, their score. @throws COURSE_NOT_FOUND (404). */
  list: protectedProcedure.input(z.object({ courseId: idField() })).query(({ ctx, input }) => listAssignments(ctx.db, ctx.user, input.courseId, ctx.now())),

  /** @throws ASSIGNMENT_NOT_FOUND (404). */
  byId: protectedProcedure.input(byId).query(({ ctx, input }) => getAssignment(ctx.db, ctx.user, input.id, ctx.now())),

  /** @throws COURSE_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400), COURSE_ARCHIVED (403). */
  create: protectedProcedure.input(assignmentInput).mutation(({ ctx, input }) => createAssignment(ctx.db, ctx.user, input, ctx.now())),

  /** Changing dates, penalty, scoring or problems recomputes the scores. @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400). */
  update: protectedProcedure.input(assignmentUpdateInput).mutation(({ ctx, input }) => updateAssignment(ctx.db, ctx.user, input, ctx.now())),

  /** @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403). */
  delete: protectedProcedure.input(byId).mutation(async ({ ctx, input }) => {
    await deleteAssignment(ctx.db, ctx.user, input.id, ctx.now());
    return { deleted: input.id };
  }),

  /** Grants or replaces a student's extension. @throws FORBIDDEN (403), MEMBER_NOT_FOUND (404), BAD_INPUT (400). */
  grantExtension: protectedProcedure.input(extensionInput).mutation(({ ctx, input }) => grantExtension(ctx.db, ctx.user, input, ctx.now())),

  /** @throws FORBIDDEN (403). */
  removeExtension: protectedProcedure
    .input(z.object({ assignmentId: idField(), userId: idField() }))
    .mutation(async ({ ctx, input }) => {
      await removeExtension(ctx.db, ctx.user, input.assignmentId, input.userId, ctx.now());
      return { removed: input.userId };
    }),

  /** @throws FORBIDDEN (403). */
  extensions: protectedProcedure.input(z.object({ assignmentId: idField() })).query(({ ctx, input }) => listExtensions(ctx.db, ctx.user, input.assignmentId, ctx.now())),

  /** Students × problems with best scores (staff). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403). */
  gradebook: protectedProcedure.input(byId).query(({ ctx, input }) => readGradebook(ctx.db, ctx.user, input.id, ctx.now())),

  /**
   * Live changes after `version` (from `gradebook`): `{ version, cells }` batches over SSE.
   * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403).
   */
  gradebookUpdates: protectedProcedure
    .input(z.object({ id: idField(), version: z.number().int().min(-1) }))
    .subscription(({ ctx, input, signal }) => stream(gradebookChanges(ctx.db, ctx.user, input.id, input.version, ctx.now, signal))),

  /** The grades as CSV text (teachers), labelled in the account's language, else the request's. @throws FORBIDDEN (403). */
  gradesCsv: protectedProcedure
    .input(byId)
    .query(async ({ ctx, input }) => ({ csv: await gradesCsv(ctx.db, ctx.user, input.id, ctx.now(), exportLocale(ctx.config.ANSWER_LOCALES, ctx.user.locale, ctx.locale)) })),

  /**
   * One student's submissions to a problem of the assignment (staff: a gradebook cell).
   * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403).
   */
  studentSubmissions: protectedProcedure
    .input(z.object({ assignmentId: idField(), userId: idField(), problemId: idField() }))
    .query(({ ctx, input }) => cellSubmissions(ctx.db, ctx.user, input.assignmentId, input.userId, input.problemId, ctx.now())),

  /** Sends a course submission back to the judge (staff). @throws SUBMISSION_NOT_FOUND (404), FORBIDDEN (403). */
  rejudge: protectedProcedure
    .input(z.object({ submissionId: idField() }))
    .mutation(({ ctx, input }) => rejudgeCourseSubmission(ctx.db, ctx.user, input.submissionId, () => ctx.judge?.events.queued())),
});
