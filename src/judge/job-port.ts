/**
 * Everything judging a submission (judge-submission.ts) reads and writes about the
 * job it holds, behind one interface: the problem and its tests, the
 * submission row's progress and final verdict (every write fenced by the
 * claim, src/submissions/queue.ts), a kept failure for assignment feedback, and the
 * gradebook update after the verdict. The in-process consumer uses
 * `databaseJobPort`; a judge host on another machine can implement the same
 * port over HTTP, so the job's life is written once (issue 11).
 */
import type { Database } from "../../db/index.ts";
import { afterJudged } from "../submissions/judged.ts";
import { clearFailure, keepFailure } from "../submissions/failures.ts";
import type { ProblemRow } from "../problems/shape.ts";
import type { HiddenTestCase } from "../problems/shape.ts";
import { judgedProblem } from "./problem-cache.ts";
import type { SubmissionRow } from "../submissions/row.ts";
import type { JudgeQueue } from "../submissions/queue.ts";

/** The problem as the judge needs it. */
export type JudgedProblem = Pick<
  ProblemRow,
  "id" | "sampleInput" | "sampleOutput" | "timeLimitMs" | "memoryLimitKib" | "timeScaledByLanguage" | "checker" | "checkerFlags" | "validator" | "interactive" | "validationPasses" | "scoring" | "pythonImplementation"
>;

/** One finished test, as recorded. */
export interface TestRecord {
  index: number;
  isSample: boolean;
  verdict: string;
  timeMs: number;
  memoryKib: number;
}

export interface JobPort {
  /** The problem (deleted ones too: their queued submissions are still judged) and its hidden tests; null when it never existed. */
  load(): Promise<{ problem: JudgedProblem; hidden: HiddenTestCase[] } | null>;
  /** Drops per-test rows and a kept failure of an earlier, interrupted attempt. */
  clear(): Promise<void>;
  /** @returns false when the claim no longer holds the job (stop judging). */
  update(values: Partial<SubmissionRow>): Promise<boolean>;
  addTest(test: TestRecord): Promise<boolean>;
  finish(values: Partial<SubmissionRow>): Promise<boolean>;
  /** Keeps the first failing hidden test of an assignment submission (for feedback as the policy allows). */
  keepFailure(test: { index: number; input: string; expected: string }, result: { stdout: string; stderr: string }): Promise<void>;
  /** After the verdict is written: the gradebook follows. */
  afterJudged(): Promise<void>;
}

/** The port of a job claimed from the database queue by this process. */
export function databaseJobPort(db: Database, queue: JudgeQueue, row: SubmissionRow): JobPort {
  const job = { id: row.id, claimToken: row.claimToken };
  return {
    load: () => judgedProblem(db, row.problemId),
    async clear() {
      await queue.clearTests(job);
      if (row.assignmentId) await clearFailure(db, row.id);
    },
    update: (values) => queue.update(job, values),
    addTest: (test) => queue.addTest(job, test),
    finish: (values) => queue.finish(job, values),
    keepFailure: (test, result) => keepFailure(db, row.id, test, result),
    afterJudged: () => afterJudged(db, row),
  };
}
