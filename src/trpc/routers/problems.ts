/**
 * Problems: list, byId, create, update, delete (soft). A thin door over
 * src/problems: validate, call, return. Hidden test cases are returned only
 * to the problem's creator, and only by `list`, `create` and `update` (the
 * edit form prefills from them); no other route ever returns hidden input or output.
 */
import { z } from "zod";
import { idField } from "../../lib/fields.ts";
import { problemInput, problemUpdateInput } from "../../problems/input.ts";
import { ownProblemIds, publicProblemList } from "../../problems/list-cache.ts";
import type { ProblemShape } from "../../problems/shape.ts";
import {
  createProblem,
  limitProblemWrites,
  problemById,
  readHiddenTests,
  requireOwned,
  softDeleteProblem,
  updateProblem,
} from "../../problems/store.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

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
    const own = await readHiddenTests(ctx.db, ownIds);
    return shapes.map((p) => (own.has(p._id) ? { ...p, hiddenTestCases: own.get(p._id) } : p));
  }),

  /** One live problem without hidden tests; works signed out. @throws PROBLEM_NOT_FOUND (404). */
  byId: publicProcedure.input(z.object({ id: idField() })).query(({ ctx, input }) => problemById(ctx.db, input.id)),

  /** Creates a problem owned by the caller. @throws BAD_INPUT (400), PAYLOAD_TOO_LARGE (413), RATE_LIMITED (429). */
  create: protectedProcedure.input(problemInput).mutation(({ ctx, input }): Promise<ProblemShape> => {
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    return createProblem(ctx.db, ctx.user.id, input);
  }),

  /**
   * Updates the caller's problem; bumps `__v`. `hiddenTestCases`, when given,
   * replaces every test atomically.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403), BAD_INPUT (400), PAYLOAD_TOO_LARGE (413).
   */
  update: protectedProcedure.input(problemUpdateInput).mutation(async ({ ctx, input }): Promise<ProblemShape> => {
    const current = await requireOwned(ctx.db, input.id, ctx.user.id, "NOT_PROBLEM_OWNER_UPDATE");
    limitProblemWrites(ctx.limiters.problemWritesByUser, ctx.user.id);
    return updateProblem(ctx.db, current, input);
  }),

  /**
   * Soft-deletes the caller's problem: it leaves every list and byId, while
   * its submissions stay readable by their authors.
   * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_DELETE (403).
   */
  delete: protectedProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => {
    await requireOwned(ctx.db, input.id, ctx.user.id, "NOT_PROBLEM_OWNER_DELETE");
    await softDeleteProblem(ctx.db, input.id);
    return { message: "Problem deleted successfully!", _id: input.id };
  }),
});
