/**
 * Judging one claimed submission: compile once (through the compile cache),
 * run the sample (test 0) and then the hidden tests 1..n in order in one box,
 * stop at the first failing test (or run on, for partial scoring), and write
 * every step through the job's port while holding its lease.
 *
 * Three kinds of failure stay apart (after go-judge/Hydro): the submitter's
 * (CE, WA, TLE, …: a verdict), the problem setter's (no tests at all, a broken
 * validator: IE with a detail for the operator), and the system's (sandbox
 * failure XX, a thrown error: IE, never a user verdict). Hidden tests' input,
 * output and stderr are read into memory, compared and dropped: they are
 * never stored, logged or sent anywhere; only the sample's output is kept
 * (and, for a course's own problem in an assignment, the first failure the
 * feedback policy may show).
 */
import type { Database } from "../../db/index.ts";
import type { Verdict } from "../../db/schema.ts";
import { capUtf8 } from "../../isolate/exec.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import type { Logger } from "../log.ts";
import type { CompileCache, CompiledEntry } from "./compile-cache.ts";
import { compileCached, reportedTimeMs, runOptions, validatorCompiler } from "./compile.ts";
import type { JudgeEvents } from "./events.ts";
import { databaseJobPort, type JobPort } from "./job-port.ts";
import { STORED_OUTPUT_MAX_BYTES } from "./limits.ts";
import type { SubmissionRow } from "../submissions/row.ts";
import type { JudgeQueue } from "../submissions/queue.ts";
import { GroupPlan } from "./groups.ts";
import { runTest, type TestContext } from "./run-test.ts";
import { prepareValidator, type ReadyValidator } from "./validator.ts";
import { judgingLanguage } from "./languages.ts";
import { checkerIsProgram } from "../problems/limits.ts";
import { DEFAULT_BUDGET_CEILING_MS, JudgingBudget, submissionBudgetMs } from "./budget.ts";

/** What judging needs besides the job itself. */
export interface JudgingDeps {
  backend: SandboxBackend;
  cache: CompileCache;
  events: JudgeEvents;
  log: Logger;
  /** The most wall-clock time one submission's tests may take, ms (JUDGE_SUBMISSION_BUDGET_SECONDS; default DEFAULT_BUDGET_CEILING_MS). */
  budgetCeilingMs?: number;
}

/** JudgingDeps plus the database and queue of the default JobPort (the in-process consumer). */
export interface PipelineDeps extends JudgingDeps {
  db: Database;
  queue: JudgeQueue;
}

interface JudgeTest {
  index: number;
  isSample: boolean;
  input: string;
  expected: string;
}

/** Raised inside the pipeline when the lease was lost or the job was cancelled: stop without writing. */
export class LeaseLost extends Error {
  override name = "LeaseLost";
}

/**
 * Judges one claimed submission to a final verdict and writes it.
 * @param row    the row as claimed (status `compiling`, leased to `deps.queue.owner`)
 * @param signal aborts between steps (shutdown, lost lease): the job is then left for `release`/recovery.
 * @returns the final verdict, or null when the job was given up (lease lost / aborted).
 * @throws only on database failures (the lease then expires and the job is retried).
 */
export async function judgeSubmission(
  deps: JudgingDeps & Partial<Pick<PipelineDeps, "db" | "queue">>,
  row: SubmissionRow,
  signal: AbortSignal,
  /** Where the job is read and written (default: this process's database queue; every write fenced by the claim). */
  port: JobPort = databaseJobPort(deps.db!, deps.queue!, row),
): Promise<Verdict | null> {
  const { events, log } = deps;
  const id = row.id;
  const guard = async (ok: Promise<boolean>) => {
    if (!(await ok)) throw new LeaseLost(`lease on ${id} lost`);
    events.changed(id);
  };
  const checkAbort = () => {
    if (signal.aborted) throw new LeaseLost(`judging of ${id} aborted`);
  };

  try {
    await port.clear();
    // A deleted problem's queued submissions are still judged (its history keeps working).
    const loaded = await port.load();
    if (!loaded) {
      await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: "problem not found" }));
      return "IE";
    }
    const { problem, hidden } = loaded;
    const tests: JudgeTest[] = [];
    // The spec runs the sample only when it has an expected output; an empty sample input is valid.
    if (problem.sampleOutput.trim() !== "") {
      tests.push({ index: 0, isSample: true, input: problem.sampleInput, expected: problem.sampleOutput });
    }
    hidden.forEach((t, i) => tests.push({ index: i + 1, isSample: false, input: t.input, expected: t.expectedOutput }));
    const sampleExpected = problem.sampleOutput;

    await guard(
      port.update({
        status: "compiling",
        testsTotal: tests.length,
        testsPassed: 0,
        expectedOutput: sampleExpected,
        output: "",
        verdict: null,
        compileOutput: null,
        errorDetail: null,
      }),
    );
    if (tests.length === 0) {
      await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: "the problem has no tests (no sample output, no hidden tests)" }));
      return "IE";
    }
    checkAbort();

    // A custom output validator (or testlib checker) runs in a box of its own, taken with the program's (never one after the other).
    const [box, vbox] = checkerIsProgram(problem.checker) ? await deps.backend.acquireMany(2) : [await deps.backend.acquire(), undefined];
    try {
      checkAbort();
      let validator: ReadyValidator | null = null;
      if (vbox) {
        const ready = problem.validator ? await prepareValidator(validatorCompiler(deps.cache, vbox, log), vbox, problem.validator) : { error: `the problem's checker is ${problem.checker} but it has no validator` };
        if ("error" in ready) {
          log.warn("judge: output validator unusable", { submissionId: id, problemId: problem.id, detail: ready.error });
          await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: ready.error }));
          return "IE";
        }
        validator = ready;
      }
      checkAbort();
      // Python 3 on a PyPy problem is compiled and run by PyPy (its limits and multiplier too).
      const language = judgingLanguage(row.language, problem);
      const compiled = await compileCached(deps.cache, box, language, row.code, log);
      checkAbort();
      if (compiled.kind === "ie") {
        log.warn("judge: sandbox failure while compiling", { submissionId: id, detail: compiled.detail });
        await guard(port.finish({ verdict: "IE", isPassed: false, errorDetail: `compile: ${compiled.detail}` }));
        return "IE";
      }
      if (compiled.kind === "ce") {
        await guard(port.finish({ verdict: "CE", isPassed: false, compileOutput: compiled.diagnostics, hiddenTotal: hidden.length }));
        await port.afterJudged().catch((err) => log.warn("judge: could not update the gradebook", { submissionId: id, error: String(err) }));
        return "CE";
      }
      await guard(port.update({ status: "running" }));

      const opts = runOptions(language, problem.timeLimitMs, problem.memoryLimitKib, problem.timeScaledByLanguage);
      // Compiled in this very box: the artifacts are already there.
      let artifacts: CompiledEntry["files"] | undefined = compiled.cached ? compiled.entry.files : undefined;
      let passed = 0;
      let hiddenPassed = 0;
      let failureKept = false;
      let maxTimeMs = 0;
      let maxMemoryKib = 0;
      let final: Verdict = "AC";
      let errorDetail: string | null = null;
      // A scoring problem is judged group by group (src/judge/groups.ts); a pass-fail one stops at its first failure.
      const plan = problem.scoring ? new GroupPlan(problem.scoring) : null;
      // Every run at its full limit fits the budget; a program that sleeps through its runs does not (./budget.ts).
      const budget = new JudgingBudget(
        submissionBudgetMs(
          { tests: tests.length, passes: problem.validationPasses, timeLimitMs: opts.timeLimitMs, validator: validator !== null, interactive: problem.interactive },
          deps.budgetCeilingMs ?? DEFAULT_BUDGET_CEILING_MS,
        ),
      );
      const ctx: TestContext = {
        box, vbox, validator, problem, language, compiled: compiled.entry, opts,
        // An interactive test's output is its interaction: recorded while a failure may still be kept for feedback.
        transcriptHidden: Boolean(row.assignmentId) && problem.interactive,
        onRetry: (message, attempt, test) => log.warn("judge: sandbox failure, retrying the test", { submissionId: id, test, attempt, message }),
      };
      for (const test of tests) {
        checkAbort();
        if (plan && !test.isSample && !plan.shouldRun(test.index - 1)) continue;
        if (budget.exhausted) {
          // The test that could not start counts as TLE: the first failure's verdict stands, groups score what they had.
          if (final === "AC") final = "TLE";
          errorDetail = budget.detail(test.index);
          if (plan) {
            if (test.isSample) plan.sample("TLE");
            else plan.record(test.index - 1, { verdict: "TLE" });
          }
          log.info("judge: submission budget used up", { submissionId: id, test: test.index, budgetMs: budget.budgetMs });
          break;
        }
        const { verdict, reason, result, shown, scoreFile } = await runTest(ctx, test, artifacts);
        if (plan) {
          if (test.isSample) plan.sample(verdict);
          else plan.record(test.index - 1, { verdict, ...(scoreFile ? { scoreFile } : {}) });
        }
        // Artifacts are written once; the box keeps them for the following tests.
        artifacts = undefined;
        const timeMs = reportedTimeMs(result);
        maxTimeMs = Math.max(maxTimeMs, timeMs);
        maxMemoryKib = Math.max(maxMemoryKib, result.memoryKib);
        if (test.isSample) {
          await guard(port.update({ output: capUtf8(shown, STORED_OUTPUT_MAX_BYTES) }));
        }
        await guard(port.addTest({ index: test.index, isSample: test.isSample, verdict, timeMs, memoryKib: result.memoryKib }));
        if (verdict === "AC") {
          passed++;
          if (!test.isSample) hiddenPassed++;
          await guard(port.update({ testsPassed: passed }));
          continue;
        }
        if (verdict === "IE") {
          // The system's fault ends the judging whatever the scoring: never a partial score on a broken run.
          final = "IE";
          errorDetail = `test ${test.index}: ${reason ?? "internal error"}`;
          log.warn("judge: sandbox failure while running", { submissionId: id, test: test.index, detail: reason });
          break;
        }
        // The verdict is the first failing test's; partial scoring runs on to count every passed test.
        if (final === "AC") final = verdict;
        if (row.assignmentId && !test.isSample && !failureKept) {
          failureKept = true;
          ctx.transcriptHidden = false;
          // `shown` is the program's output, or on an interactive problem the transcript (./interactive.ts).
          await port.keepFailure(test, { stdout: shown, stderr: result.stderr });
        }
        // Groups score independently: a scoring problem runs on (its plan skips what need not run).
        if (!row.runAllTests && !plan) break;
      }
      const scored = plan && final !== "IE" ? plan.result() : null;
      if (scored) {
        final = scored.verdict;
        if (scored.error) errorDetail = `scoring: ${scored.error}`;
      }
      const finished = await port.finish({
        verdict: final,
        isPassed: final === "AC",
        testsPassed: passed,
        hiddenPassed,
        hiddenTotal: hidden.length,
        timeMs: maxTimeMs,
        memoryKib: maxMemoryKib,
        errorDetail,
        score: scored?.score ?? null,
        maxScore: scored?.maxScore ?? null,
        groupResults: scored?.groups ?? null,
      });
      if (finished) await port.afterJudged().catch((err) => log.warn("judge: could not update the gradebook", { submissionId: id, error: String(err) }));
      await guard(Promise.resolve(finished));
      return final;
    } finally {
      await deps.backend.release(box!);
      if (vbox) await deps.backend.release(vbox);
    }
  } catch (err) {
    if (err instanceof LeaseLost) {
      log.info("judge: job given up", { submissionId: id, reason: err.message });
      return null;
    }
    if (signal.aborted) return null;
    // A thrown error from the sandbox layer (box I/O, acquire) is the system's fault: IE, if we still hold the job.
    const detail = err instanceof Error ? err.message : String(err);
    log.warn("judge: internal error", { submissionId: id, detail });
    const ok = await port.finish({ verdict: "IE", isPassed: false, errorDetail: detail }).catch(() => false);
    if (ok) events.changed(id);
    return ok ? "IE" : null;
  }
}
