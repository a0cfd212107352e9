/**
 * Grading by people: a thin door over src/courses/grading (rubrics, reviews
 * with line comments, the comment bank, release, regrade requests). Who may do
 * what: COURSE_PERMISSIONS (`rubric.edit`, `review.grade`, `review.release`).
 */
import { z } from "zod";
import { addToBank, bankCommentInput, deleteFromBank, listBank } from "../../courses/grading/comment-bank.ts";
import { answerRegrade, regradeAnswerInput, regradeQueue, regradeQueueInput, regradeRequestInput, requestRegrade } from "../../courses/grading/regrades.ts";
import { listReviews, myReviews, readReview, releaseAllInput, releaseAssignment, reviewInput, saveReview } from "../../courses/grading/reviews.ts";
import { readRubric, rubricInput, saveRubric } from "../../courses/grading/rubrics.ts";
import { idField } from "../../lib/fields.ts";
import { protectedProcedure, router } from "../init.ts";

const byId = z.object({ id: idField() });

export const gradingRouter = router({
  /** A problem's rubric in an assignment (staff). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403), PROBLEM_NOT_FOUND (404). */
  rubric: protectedProcedure
    .input(z.object({ assignmentId: idField(), problemId: idField() }))
    .query(({ ctx, input }) => readRubric(ctx.db, ctx.user, input.assignmentId, input.problemId, ctx.now())),

  /** Replaces a rubric (teachers). @throws FORBIDDEN (403), PROBLEM_NOT_FOUND (404), BAD_INPUT (400 naming the field). */
  saveRubric: protectedProcedure.input(rubricInput).mutation(({ ctx, input }) => saveRubric(ctx.db, ctx.user, input, ctx.now())),

  /** A submission's review: drafts for staff, released only for its student. @throws SUBMISSION_NOT_FOUND (404), REVIEW_NOT_FOUND (404). */
  review: protectedProcedure.input(byId).query(({ ctx, input }) => readReview(ctx.db, ctx.user, input.id, ctx.now())),

  /** Saves a review (staff); `release` needs `review.release`. @throws FORBIDDEN (403), NOT_ASSIGNMENT_SUBMISSION (409), BAD_INPUT (400). */
  saveReview: protectedProcedure.input(reviewInput).mutation(({ ctx, input }) => saveReview(ctx.db, ctx.user, input, ctx.now())),

  /** Releases every draft review of an assignment (of one problem): `{released}`. @throws FORBIDDEN (403). */
  releaseAll: protectedProcedure.input(releaseAllInput).mutation(({ ctx, input }) => releaseAssignment(ctx.db, ctx.user, input, ctx.now())),

  /** The reviews of an assignment (staff): submission, student, problem, releasedAt. @throws FORBIDDEN (403). */
  reviews: protectedProcedure.input(z.object({ assignmentId: idField() })).query(({ ctx, input }) => listReviews(ctx.db, ctx.user, input.assignmentId, ctx.now())),

  /** The caller's released reviews on an assignment (a student's list). @throws ASSIGNMENT_NOT_FOUND (404). */
  myReviews: protectedProcedure.input(z.object({ assignmentId: idField() })).query(({ ctx, input }) => myReviews(ctx.db, ctx.user, input.assignmentId, ctx.now())),

  /** The course's comment bank (staff). @throws COURSE_NOT_FOUND (404), FORBIDDEN (403). */
  commentBank: protectedProcedure.input(z.object({ courseId: idField() })).query(({ ctx, input }) => listBank(ctx.db, ctx.user, input.courseId)),

  /** Adds to the comment bank (staff). @throws FORBIDDEN (403), BAD_INPUT (400, field `text`). */
  addComment: protectedProcedure.input(bankCommentInput).mutation(({ ctx, input }) => addToBank(ctx.db, ctx.user, input, ctx.now())),

  /** Deletes from the comment bank (staff). @throws COMMENT_NOT_FOUND (404), FORBIDDEN (403). */
  deleteComment: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteFromBank(ctx.db, ctx.user, input.id)),

  /** The student asks to regrade a released review. @throws REVIEW_NOT_FOUND (404), REGRADE_ALREADY_OPEN (409), BAD_INPUT (400, field `reason`). */
  requestRegrade: protectedProcedure.input(regradeRequestInput).mutation(({ ctx, input }) => requestRegrade(ctx.db, ctx.user, input, ctx.now())),

  /** The course's regrade requests (staff), oldest first. @throws FORBIDDEN (403). */
  regradeQueue: protectedProcedure.input(regradeQueueInput).query(({ ctx, input }) => regradeQueue(ctx.db, ctx.user, input)),

  /** Staff answer a regrade request. @throws REGRADE_NOT_FOUND (404), REGRADE_ALREADY_ANSWERED (409), BAD_INPUT (400, field `points`). */
  answerRegrade: protectedProcedure.input(regradeAnswerInput).mutation(({ ctx, input }) => answerRegrade(ctx.db, ctx.user, input, ctx.now())),
});
