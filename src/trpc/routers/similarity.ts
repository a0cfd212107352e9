/**
 * Similarity reports: a thin door over src/similarity (staff of an
 * assignment's course, the jury of a contest; `similarity.review`).
 */
import { z } from "zod";
import { idField } from "../../lib/fields.ts";
import { flaggedCells, listReports, markInput, markPair, pairIdField, readPair, readReport, reportCsv, reportRequestInput, requestReport } from "../../similarity/reports.ts";
import { protectedProcedure, router } from "../init.ts";
import { exportLocale } from "../../i18n/answers.ts";

const scope = z.object({ kind: z.enum(["assignment", "contest"]), id: idField() }).strict();
const byReport = z.object({ reportId: idField() }).strict();

export const similarityRouter = router({
  /**
   * Asks for a report; the same submissions and options answer the report already made.
   * @throws ASSIGNMENT_NOT_FOUND / CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400), RATE_LIMITED (429).
   */
  request: protectedProcedure
    .input(reportRequestInput.extend({ scope }))
    .mutation(({ ctx, input }) => {
      const { scope: s, ...request } = input;
      return requestReport(ctx.db, ctx.user, s.kind, s.id, request, ctx.now());
    }),

  /** A scope's reports, newest first. @throws ASSIGNMENT_NOT_FOUND / CONTEST_NOT_FOUND (404), FORBIDDEN (403). */
  list: protectedProcedure.input(scope).query(({ ctx, input }) => listReports(ctx.db, ctx.user, input.kind, input.id, ctx.now())),

  /** A report: status and progress, then pairs, clusters, histogram and threshold. @throws SIMILARITY_REPORT_NOT_FOUND (404). */
  byId: protectedProcedure.input(byReport).query(({ ctx, input }) => readReport(ctx.db, ctx.user, input.reportId, ctx.now())),

  /** Two programs side by side with their shared fragments. @throws SIMILARITY_REPORT_NOT_FOUND, SIMILARITY_PAIR_NOT_FOUND (404). */
  pair: protectedProcedure
    .input(z.object({ reportId: idField(), pairId: pairIdField() }).strict())
    .query(({ ctx, input }) => readPair(ctx.db, ctx.user, input.reportId, input.pairId, ctx.now())),

  /** Marks a pair reviewed, dismissed or flagged with a note (null clears). @throws SIMILARITY_REPORT_NOT_FOUND, SIMILARITY_PAIR_NOT_FOUND (404). */
  mark: protectedProcedure.input(markInput).mutation(async ({ ctx, input }) => ({ mark: await markPair(ctx.db, ctx.user, input, ctx.now()) })),

  /** The pairs as CSV text, labelled in the account's language, else the request's. @throws SIMILARITY_REPORT_NOT_FOUND (404). */
  csv: protectedProcedure
    .input(byReport)
    .query(async ({ ctx, input }) => ({ csv: await reportCsv(ctx.db, ctx.user, input.reportId, ctx.now(), exportLocale(ctx.config.ANSWER_LOCALES, ctx.user.locale, ctx.locale)) })),

  /** An assignment's students with a flagged pair (the gradebook's links). @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403). */
  flags: protectedProcedure.input(z.object({ assignmentId: idField() }).strict()).query(({ ctx, input }) => flaggedCells(ctx.db, ctx.user, input.assignmentId, ctx.now())),
});
