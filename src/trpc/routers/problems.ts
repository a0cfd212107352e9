/**
 * Problems: list, byId, create, copyToCourse, update, delete (soft). A thin door over
 * src/problems: validate, call, return. Hidden test cases are returned only
 * to the problem's creator, and only by `list`, `create` and `update` (the
 * edit form prefills from them); no other route ever returns hidden input or output.
 */
import { compileCacheSettings } from "../../judge/compile-cache.ts";
import { readStatements } from "../../problems/statements.ts";
import { z } from "zod";
import { idField } from "../../lib/fields.ts";
import { answerText } from "../../i18n/answers.ts";
import { problemInput, problemUpdateInput } from "../../problems/input.ts";
import { problemListFor, publicProblemTitles, type ProblemTitle } from "../../problems/list-cache.ts";
import type { ProblemShape } from "../../problems/shape.ts";
import { createProblemAs, deleteProblem, editProblem, problemForEdit, viewProblem } from "../../problems/operations.ts";
import { copyProblemToCourse } from "../../courses/course-problems.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";
import type { ImportResult } from "../../packages/import.ts";
import { exportProblem } from "../../packages/export.ts";
import { rejudgeProblem } from "../../submissions/rejudge.ts";
import { readVisibleAsset } from "../../packages/assets.ts";
import { startVerifyFor, verifyStatusFor, type VerifyStatus } from "../../packages/verify-service.ts";
import { importPackageAs, packageImportInput } from "../../packages/input.ts";
import { listBank } from "../../problems/bank/list.ts";
import { bankQueryInput, type BankPage, type BankTagCount } from "../../problems/bank/shape.ts";
import { listTagCounts } from "../../problems/bank/tags.ts";
import { setAccountHideTags } from "../../accounts/hide-tags.ts";

export const problemsRouter = router({
  /**
   * Every live problem, oldest first; hidden tests only on the caller's own.
   * The public part comes from `publicProblemList` (cached until a problem
   * changes); only the caller's own hidden tests are read per request.
   */
  list: protectedProcedure.query(({ ctx }): Promise<ProblemShape[]> => problemListFor(ctx.db, ctx.user.id)),

  /** Every live public problem's id, title, difficulty and author (pickers: no statements, no tests), oldest first. */
  titles: protectedProcedure.query(({ ctx }): Promise<readonly ProblemTitle[]> => publicProblemTitles(ctx.db)),

  /**
   * One problem with its hidden tests and validator, for its edit form: those who may edit it only.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403).
   */
  forEdit: protectedProcedure.input(z.object({ id: idField() })).query(({ ctx, input }): Promise<ProblemShape> => problemForEdit(ctx.db, ctx.user, input.id, ctx.now())),

  /**
   * One page of the problem bank (src/problems/bank/list.ts): search, filters, sort, keyset cursor,
   * the caller's marks and the public counters; only problems the caller may see.
   * @throws BAD_INPUT (400) naming the field (`cursor` for one made for another sort or filter).
   */
  bank: protectedProcedure.input(bankQueryInput).query(({ ctx, input }): Promise<BankPage> => listBank(ctx.db, ctx.user, input, ctx.now())),

  /** Every tag with its number of public live problems, by name (the bank's tag filter). */
  tags: publicProcedure.query(({ ctx }): Promise<BankTagCount[]> => listTagCounts(ctx.db)),

  /** The caller's spoiler-free mode (the bank hides tags), remembered on the account. @returns `{ hideTags }`. */
  setHideTags: protectedProcedure
    .input(z.object({ hide: z.boolean({ error: "Must be true or false" }) }))
    .mutation(({ ctx, input }) => setAccountHideTags(ctx.db, ctx.user.id, input.hide)),

  /**
   * One live problem without hidden tests; a public one works signed out, a
   * course problem only for those who may see it. @throws PROBLEM_NOT_FOUND (404).
   */
  byId: publicProcedure
    .input(z.object({ id: idField() }))
    .query(({ ctx, input }) => viewProblem(ctx.db, ctx.user, input.id, ctx.now())),

  /**
   * The problem's statement in its other languages (a package's `problem.<lang>.md` / `.tex`), whole, as Markdown by
   * language code, and the main statement's language. @throws PROBLEM_NOT_FOUND (404).
   */
  statements: publicProcedure
    .input(z.object({ id: idField() }))
    .query(({ ctx, input }) => readStatements(ctx.db, ctx.user, input.id, ctx.now())),

  /**
   * Creates a problem owned by the caller; with `courseId`, a course-private
   * problem (the course's teachers only).
   * @throws BAD_INPUT (400), PAYLOAD_TOO_LARGE (413), RATE_LIMITED (429); COURSE_NOT_FOUND (404), FORBIDDEN (403), COURSE_ARCHIVED (403) with `courseId`.
   */
  create: protectedProcedure.input(problemInput).mutation(({ ctx, input }): Promise<ProblemShape> => createProblemAs(ctx.db, ctx.user, input, ctx.limiters.problemWritesByUser, ctx.config.ceilings)),

  /**
   * Imports a Kattis / ICPC problem package (a zip, base64) as a new problem of
   * the caller (in `courseId` when given: problem.edit there); see src/packages.
   * @returns the problem, what the package had that it does not keep, and its example submissions by expected verdict.
   * @throws BAD_INPUT (400) naming the package file and line, PAYLOAD_TOO_LARGE (413), FORBIDDEN (403), RATE_LIMITED (429).
   */
  importPackage: protectedProcedure
    .input(packageImportInput)
    .mutation(({ ctx, input }): Promise<ImportResult> => importPackageAs(ctx.db, ctx.user, input, ctx.limiters.problemWritesByUser, ctx.config.ceilings, ctx.judge?.backend ?? null, compileCacheSettings(ctx.config))),

  /**
   * Exports a problem as a Kattis / ICPC package (2025-09 layout, hidden tests
   * included): the owner, or staff of its course, only.
   * @returns the zip as base64, a file name, and notes on what the format cannot say exactly.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_EXPORT (403).
   */
  exportPackage: protectedProcedure.input(z.object({ id: idField() })).query(({ ctx, input }) => exportProblem(ctx.db, ctx.user, input.id, ctx.now())),

  /**
   * Starts verifying a problem imported from a package: its example
   * submissions judged in the background with this server's sandbox (one box
   * at a time); a package without a time limit gets it derived here.
   * The problem's owner or course staff (problem.edit).
   * @returns the status (running). @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403),
   *   BAD_INPUT (400) without examples, SANDBOX_UNAVAILABLE (503), RATE_LIMITED (429) past 6 verifies an hour.
   */
  verify: protectedProcedure
    .input(z.object({ id: idField() }))
    .mutation(({ ctx, input }): Promise<VerifyStatus> =>
      startVerifyFor(ctx.db, ctx.judge?.backend ?? null, ctx.user, input.id, ctx.now(), ctx.log, () => ctx.limiters.verifiesByUser.hit(ctx.user.id)),
    ),

  /** The latest verify's progress and report (same rights as `verify`). */
  verifyStatus: protectedProcedure.input(z.object({ id: idField() })).query(({ ctx, input }): Promise<VerifyStatus> => verifyStatusFor(ctx.db, ctx.user, input.id, ctx.now())),

  /**
   * One image of a problem's statement (base64), for whoever may see the problem.
   * @throws PROBLEM_NOT_FOUND (404) for the problem or the name.
   */
  asset: publicProcedure.input(z.object({ id: idField(), name: z.string().regex(/^[^/\\]{1,200}$/, { error: "A plain file name" }) })).query(({ ctx, input }) => readVisibleAsset(ctx.db, ctx.user, input.id, input.name, ctx.now())),

  /**
   * Rejudges every judged submission of a problem (after its tests or limits
   * changed): its owner, or course members with submission.rejudge. Rejudges
   * queue behind live submissions; each keeps its old verdict in the history.
   * @returns how many were queued. @throws PROBLEM_NOT_FOUND (404), FORBIDDEN (403).
   */
  rejudge: protectedProcedure.input(z.object({ id: idField() })).mutation(({ ctx, input }) => rejudgeProblem(ctx.db, ctx.user, input.id, () => ctx.judge?.events.queued())),

  /**
   * Copies a problem (hidden tests included) into a course as a course-private problem.
   * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: problem.edit), PROBLEM_NOT_FOUND (404), RATE_LIMITED (429).
   */
  copyToCourse: protectedProcedure
    .input(z.object({ problemId: idField(), courseId: idField() }))
    .mutation(({ ctx, input }): Promise<ProblemShape> => copyProblemToCourse(ctx.db, ctx.user, input.problemId, input.courseId, ctx.now(), ctx.limiters.problemWritesByUser, ctx.config.ceilings)),

  /**
   * Updates the caller's problem; bumps `__v`. `hiddenTestCases`, when given,
   * replaces every test atomically.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403), BAD_INPUT (400), PAYLOAD_TOO_LARGE (413).
   */
  update: protectedProcedure
    .input(problemUpdateInput)
    .mutation(({ ctx, input }): Promise<ProblemShape> => editProblem(ctx.db, ctx.user, input, ctx.now(), ctx.limiters.problemWritesByUser, ctx.config.ceilings)),

  /**
   * Soft-deletes the caller's problem: it leaves every list and byId, while
   * its submissions stay readable by their authors.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_DELETE (403).
   */
  delete: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => {
    const deleted = await deleteProblem(ctx.db, ctx.user, input.id, ctx.now());
    return { ...deleted, message: answerText(ctx.locale, "problemDeleted") };
  }),
});
