/**
 * The wall-clock budget of one submission's judging (review N1, 2026-11-26).
 * TLE is CPU time, so a program that sleeps passes every test while holding
 * its judge slot for each run's whole wall clock; at the ceilings (1000
 * tests, 20 passes) that was hours per submission. Every submission now gets
 * a budget derived from its limits and tests — every run at its full time
 * limit, plus the sandbox's and the checker's overhead, so a correct program
 * is never near it — capped by JUDGE_SUBMISSION_BUDGET_SECONDS. Judging
 * checks it before each test (src/judge/judge-submission.ts): past it the
 * submission ends TLE and its slot is freed. The overshoot is at most the
 * test in progress (one run's wall clock, `runWallLimitMs`, and its checker).
 */

/** Allowance per run beyond its CPU time limit, ms: the box's launch, reading the test, the default checker. */
export const RUN_OVERHEAD_MS = 500;

/** Allowance per run for a custom validator (or an interactor's own work), ms. */
export const VALIDATOR_OVERHEAD_MS = 1000;

/** JUDGE_SUBMISSION_BUDGET_SECONDS' default, ms: ten minutes, far above any problem's honest total at the public ceiling (300 s). */
export const DEFAULT_BUDGET_CEILING_MS = 600_000;

/** Allowance per submission, ms: what every judging does once (the box, the validator's preparation). */
export const BUDGET_BASE_MS = 10_000;

/** What the budget is derived from. */
export interface BudgetInput {
  /** Tests to run, the sample included. */
  tests: number;
  /** Runs per test (multi-pass), at least 1. */
  passes: number;
  /** One run's CPU time limit after the language's multiplier, ms. */
  timeLimitMs: number;
  /** A custom validator or interactor runs beside each run. */
  validator: boolean;
  /** Interactive: a run's wall clock is twice its time limit (problemtools), waiting being part of it. */
  interactive: boolean;
}

/**
 * The budget, ms: BUDGET_BASE_MS + runs × (time limit × (2 when interactive) + overheads),
 * at most `ceilingMs`.
 * @example submissionBudgetMs({ tests: 11, passes: 1, timeLimitMs: 1000, validator: false, interactive: false }, 600_000) === 26_500
 */
export function submissionBudgetMs(p: BudgetInput, ceilingMs: number): number {
  const perRun = p.timeLimitMs * (p.interactive ? 2 : 1) + RUN_OVERHEAD_MS + (p.validator ? VALIDATOR_OVERHEAD_MS : 0);
  return Math.min(ceilingMs, BUDGET_BASE_MS + p.tests * Math.max(1, p.passes) * perRun);
}

/** A budget being spent: started when the tests start (compiling has limits of its own). */
export class JudgingBudget {
  private readonly startedMs: number;

  /**
   * @param budgetMs the budget, ms (`submissionBudgetMs`).
   * @param now      a monotonic clock, ms (tests inject one).
   */
  constructor(
    readonly budgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedMs = now();
  }

  /** Wall-clock time spent so far, ms. */
  get spentMs(): number {
    return this.now() - this.startedMs;
  }

  /** Whether the budget is used up: no further test may start. */
  get exhausted(): boolean {
    return this.spentMs >= this.budgetMs;
  }

  /** The submission's error detail once the budget ran out before test `index`. */
  detail(index: number): string {
    return `the submission's judging time budget (${Math.round(this.budgetMs / 1000)} s of wall clock, from its limits and tests) ran out before test ${index}`;
  }
}
