/**
 * Problems: list, byId, create, copyToCourse, update, delete (soft). A thin door over
 * src/problems: validate, call, return. Hidden test cases are returned only
 * to the problem's creator, and only by `list`, `create` and `update` (the
 * edit form prefills from them); no other route ever returns hidden input or output.
 */
import { z } from "zod";
import { idField } from "../../lib/fields.ts";
import { problemInput, problemUpdateInput } from "../../problems/input.ts";
import { ownProblemIds, publicProblemList } from "../../problems/list-cache.ts";
import type { ProblemShape } from "../../problems/shape.ts";
import { createProblem, limitProblemWrites, publicShape, readHiddenTests, readValidators, softDeleteProblem, updateProblem } from "../../problems/store.ts";
import { copyProblemToCourse } from "../../courses/course-problems.ts";
import { requireEditableProblem, requireVisibleProblem } from "../../problems/access.ts";
import { requireCourse, requireNotArchived } from "../../courses/access.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";
import { filesFromZip } from "../../packages/files.ts";
import { readPackage } from "../../packages/format.ts";
import { importPackage, type ImportResult } from "../../packages/import.ts";
import { exportPackage } from "../../packages/export.ts";
import { rejudgeProblem } from "../../submissions/rejudge.ts";
import { readAsset, readAssets } from "../../packages/assets.ts";
import { AppError } from "../../errors.ts";
import { readPackageMeta, startVerify, verifyStatus, type VerifyStatus } from "../../packages/verify-service.ts";
import { toProblemShape } from "../../problems/shape.ts";
import { packageImportInput, readPackageOrExplain } from "../../packages/input.ts";

export const problemsRouter = router({
  /**
   * Every live problem, oldest first; hidden tests only on the caller's own.
   * The public part comes from `publicProblemList` (cached until a problem
   * changes); only the caller's own hidden tests are read per request.
   */
  list: protectedProcedure.query(async ({ ctx }): Promise<ProblemShape[]> => {
    const shapes = await publicProblemList(ctx.db);
    const ownIds = ownProblemIds(shapes, ctx.user.id);
    if (!ownIds.length) return shapes as ProblemShape[];
    const [own, validators] = await Promise.all([readHiddenTests(ctx.db, ownIds), readValidators(ctx.db, ownIds)]);
    return shapes.map((p) => (own.has(p._id) ? { ...p, hiddenTestCases: own.get(p._id), validator: validators.get(p._id) ?? null } : p));
  }),

  /**
   * One live problem without hidden tests; a public one works signed out, a
   * course problem only for those who may see it. @throws PROBLEM_NOT_FOUND (404).
   */
  byId: publicProcedure
    .input(z.object({ id: idField() }))
    .query(async ({ ctx, input }) => publicShape(ctx.db, await requireVisibleProblem(ctx.db, ctx.user, input.id, ctx.now()))),

  /**
   * Creates a problem owned by the caller; with `courseId`, a course-private
   * problem (the course's teachers only).
   * @throws BAD_INPUT (400), PAYLOAD_TOO_LARGE (413), RATE_LIMITED (429); COURSE_NOT_FOUND (404), FORBIDDEN (403), COURSE_ARCHIVED (403) with `courseId`.
   */
  create: protectedProcedure.input(problemInput).mutation(async ({ ctx, input }): Promise<ProblemShape> => {
    if (input.courseId !== undefined) requireNotArchived((await requireCourse(ctx.db, ctx.user, input.courseId, "problem.edit")).course);
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    return createProblem(ctx.db, ctx.user.id, input);
  }),

  /**
   * Imports a Kattis / ICPC problem package (a zip, base64) as a new problem of
   * the caller (in `courseId` when given: problem.edit there); see src/packages.
   * @returns the problem, what the package had that it does not keep, and its example submissions by expected verdict.
   * @throws BAD_INPUT (400) naming the package file and line, PAYLOAD_TOO_LARGE (413), FORBIDDEN (403), RATE_LIMITED (429).
   */
  importPackage: protectedProcedure.input(packageImportInput).mutation(async ({ ctx, input }): Promise<ImportResult> => {
    if (input.courseId !== undefined) requireNotArchived((await requireCourse(ctx.db, ctx.user, input.courseId, "problem.edit")).course);
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    const pkg = await readPackageOrExplain(() => readPackage(filesFromZip(Buffer.from(input.package, "base64"))));
    return readPackageOrExplain(() => importPackage(ctx.db, ctx.user.id, pkg, { courseId: input.courseId, difficulty: input.difficulty }));
  }),

  /**
   * Exports a problem as a Kattis / ICPC package (2025-09 layout, hidden tests
   * included): the owner, or staff of its course, only.
   * @returns the zip as base64, a file name, and notes on what the format cannot say exactly.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_EXPORT (403).
   */
  exportPackage: protectedProcedure.input(z.object({ id: idField() })).query(async ({ ctx, input }) => {
    const row = await requireEditableProblem(ctx.db, ctx.user, input.id, "NOT_PROBLEM_OWNER_EXPORT", ctx.now());
    const hidden = (await readHiddenTests(ctx.db, [row.id])).get(row.id) ?? [];
    const [kept, assets] = await Promise.all([readPackageMeta(ctx.db, row.id), readAssets(ctx.db, row.id)]);
    const { zip, filename, notes } = exportPackage({ ...toProblemShape(row, hidden.length, hidden), hiddenTestCases: hidden }, kept, assets);
    return { filename, zipBase64: Buffer.from(zip).toString("base64"), notes };
  }),

  /**
   * Starts verifying a problem imported from a package: its example
   * submissions judged in the background with this server's sandbox (one box
   * at a time); a package without a time limit gets it derived here.
   * The problem's owner or course staff (problem.edit).
   * @returns the status (running). @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403),
   *   BAD_INPUT (400) without examples, SANDBOX_UNAVAILABLE (503), RATE_LIMITED (429) past 6 verifies an hour.
   */
  verify: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }): Promise<VerifyStatus> => {
    const row = await requireEditableProblem(ctx.db, ctx.user, input.id, "NOT_PROBLEM_OWNER_UPDATE", ctx.now());
    return startVerify(ctx.db, ctx.judge?.backend ?? null, row, ctx.log, () => ctx.limiters.verifiesByUser.hit(ctx.user.id));
  }),

  /** The latest verify's progress and report (same rights as `verify`). */
  verifyStatus: protectedProcedure.input(z.object({ id: idField() })).query(async ({ ctx, input }): Promise<VerifyStatus> => {
    const row = await requireEditableProblem(ctx.db, ctx.user, input.id, "NOT_PROBLEM_OWNER_UPDATE", ctx.now());
    return verifyStatus(row.id, (await readPackageMeta(ctx.db, row.id))?.examples.length ?? 0);
  }),

  /**
   * One image of a problem's statement (base64), for whoever may see the problem.
   * @throws PROBLEM_NOT_FOUND (404) for the problem or the name.
   */
  asset: publicProcedure.input(z.object({ id: idField(), name: z.string().regex(/^[^/\\]{1,200}$/, { error: "A plain file name" }) })).query(async ({ ctx, input }) => {
    const row = await requireVisibleProblem(ctx.db, ctx.user, input.id, ctx.now());
    const asset = await readAsset(ctx.db, row.id, input.name);
    if (!asset) throw new AppError("PROBLEM_NOT_FOUND", { message: "No such image in the problem's statement" });
    return { contentType: asset.contentType, base64: Buffer.from(asset.content).toString("base64") };
  }),

  /**
   * Rejudges every judged submission of a problem (after its tests or limits
   * changed): its owner, or course members with submission.rejudge. Rejudges
   * queue behind live submissions; each keeps its old verdict in the history.
   * @returns how many were queued. @throws PROBLEM_NOT_FOUND (404), FORBIDDEN (403).
   */
  rejudge: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => {
    return rejudgeProblem(ctx.db, ctx.user, input.id, () => ctx.judge?.events.queued());
  }),

  /**
   * Copies a problem (hidden tests included) into a course as a course-private problem.
   * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: problem.edit), PROBLEM_NOT_FOUND (404), RATE_LIMITED (429).
   */
  copyToCourse: protectedProcedure
    .input(z.object({ problemId: idField(), courseId: idField() }))
    .mutation(({ ctx, input }): Promise<ProblemShape> => {
      limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
      return copyProblemToCourse(ctx.db, ctx.user, input.problemId, input.courseId, ctx.now());
    }),

  /**
   * Updates the caller's problem; bumps `__v`. `hiddenTestCases`, when given,
   * replaces every test atomically.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403), BAD_INPUT (400), PAYLOAD_TOO_LARGE (413).
   */
  update: protectedProcedure.input(problemUpdateInput).mutation(async ({ ctx, input }): Promise<ProblemShape> => {
    const current = await requireEditableProblem(ctx.db, ctx.user, input.id, "NOT_PROBLEM_OWNER_UPDATE", ctx.now());
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    return updateProblem(ctx.db, current, input);
  }),

  /**
   * Soft-deletes the caller's problem: it leaves every list and byId, while
   * its submissions stay readable by their authors.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_DELETE (403).
   */
  delete: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => {
    await requireEditableProblem(ctx.db, ctx.user, input.id, "NOT_PROBLEM_OWNER_DELETE", ctx.now());
    await softDeleteProblem(ctx.db, input.id);
    return { message: "Problem deleted successfully!", _id: input.id };
  }),
});
