/**
 * Submission history: the caller's own submissions for one problem, newest
 * first, with per-test results. Creating and judging submissions is the
 * judge router's (src/trpc/routers/judge.ts); this router only reads.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { problems, submissions, submissionTests, type SubmissionStatus, type Verdict } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { idField } from "../../lib/fields.ts";
import { protectedProcedure, router } from "../init.ts";

/** One test's result inside a submission (0 is the sample; hidden tests follow). */
export interface SubmissionTestShape {
  index: number;
  isSample: boolean;
  verdict: Verdict;
  timeMs: number;
  memoryKib: number;
}

/** A submission as the history returns it (REST and tRPC alike). */
export interface SubmissionShape {
  _id: string;
  problemId: string;
  /** The problem's title, kept readable after the problem is deleted. */
  problemTitle: string;
  problemDeleted: boolean;
  code: string;
  language: "cpp" | "java" | "py";
  /** The sample run's output and the sample's expected output. */
  output: string;
  expectedOutput: string;
  /** True exactly when every test passed (verdict AC). */
  isPassed: boolean;
  /** Null until judged (`status` is not `done`). */
  verdict: Verdict | null;
  status: SubmissionStatus;
  /** Compiler diagnostics on CE, else null. */
  compileOutput: string | null;
  /** Max CPU time (ms) and peak memory (KiB) over the tests run; null until judged. */
  timeMs: number | null;
  memoryKib: number | null;
  testsPassed: number;
  testsTotal: number;
  tests: SubmissionTestShape[];
  /** ISO 8601. */
  createdAt: string;
}

export const submissionsRouter = router({
  /**
   * The caller's submissions to a problem, newest first. Works for deleted
   * problems (history stays readable).
   * @throws PROBLEM_NOT_FOUND (404) when no such problem ever existed.
   */
  list: protectedProcedure
    .input(z.object({ problemId: idField() }))
    .query(async ({ ctx, input }): Promise<SubmissionShape[]> => {
      const [problem] = await ctx.db
        .select({ id: problems.id, title: problems.title, deletedAt: problems.deletedAt })
        .from(problems)
        .where(eq(problems.id, input.problemId))
        .limit(1);
      if (!problem) throw new AppError("PROBLEM_NOT_FOUND");
      const rows = await ctx.db
        .select()
        .from(submissions)
        .where(and(eq(submissions.userId, ctx.user.id), eq(submissions.problemId, input.problemId)))
        .orderBy(desc(submissions.createdAt), desc(submissions.id));
      const tests = rows.length
        ? await ctx.db
            .select()
            .from(submissionTests)
            .where(
              inArray(
                submissionTests.submissionId,
                rows.map((r) => r.id),
              ),
            )
            .orderBy(asc(submissionTests.submissionId), asc(submissionTests.index))
        : [];
      const bySubmission = new Map<string, SubmissionTestShape[]>();
      for (const t of tests) {
        const list = bySubmission.get(t.submissionId) ?? [];
        list.push({ index: t.index, isSample: t.isSample, verdict: t.verdict, timeMs: t.timeMs, memoryKib: t.memoryKib });
        bySubmission.set(t.submissionId, list);
      }
      return rows.map((r) => ({
        _id: r.id,
        problemId: r.problemId,
        problemTitle: problem.title,
        problemDeleted: problem.deletedAt !== null,
        code: r.code,
        language: r.language,
        output: r.output,
        expectedOutput: r.expectedOutput,
        isPassed: r.isPassed,
        verdict: r.verdict,
        status: r.status,
        compileOutput: r.compileOutput,
        timeMs: r.timeMs,
        memoryKib: r.memoryKib,
        testsPassed: r.testsPassed,
        testsTotal: r.testsTotal,
        tests: bySubmission.get(r.id) ?? [],
        createdAt: r.createdAt.toISOString(),
      }));
    }),
});
