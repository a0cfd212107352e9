import { describe, expect, test } from "bun:test";
import { runWallLimitMs } from "../../isolate/exec.ts";
import { BUDGET_BASE_MS, JudgingBudget, RUN_OVERHEAD_MS, submissionBudgetMs, VALIDATOR_OVERHEAD_MS } from "./budget.ts";

describe("a submission's judging budget", () => {
  const plain = { tests: 11, passes: 1, timeLimitMs: 1000, validator: false, interactive: false };

  test("every run at its full limit plus overheads, capped by the ceiling", () => {
    expect(submissionBudgetMs(plain, 600_000)).toBe(BUDGET_BASE_MS + 11 * (1000 + RUN_OVERHEAD_MS));
    expect(submissionBudgetMs({ ...plain, validator: true }, 600_000)).toBe(BUDGET_BASE_MS + 11 * (1000 + RUN_OVERHEAD_MS + VALIDATOR_OVERHEAD_MS));
    // Interactive runs wait on the interactor: twice the limit (problemtools' wall clock).
    expect(submissionBudgetMs({ ...plain, interactive: true, validator: true }, 600_000)).toBe(BUDGET_BASE_MS + 11 * (2000 + RUN_OVERHEAD_MS + VALIDATOR_OVERHEAD_MS));
    // Passes multiply the runs.
    expect(submissionBudgetMs({ ...plain, passes: 3 }, 600_000)).toBe(BUDGET_BASE_MS + 33 * (1000 + RUN_OVERHEAD_MS));
    // 1000 tests × 20 passes × 10 s is days: the ceiling decides.
    expect(submissionBudgetMs({ tests: 1001, passes: 20, timeLimitMs: 10_000, validator: true, interactive: false }, 600_000)).toBe(600_000);
  });

  test("a program that sleeps through its runs spends the budget before its last test", () => {
    // Each sleeping run holds its box for its whole wall clock, more than the budget allows per run.
    const tests = 1001;
    const perRunWallMs = runWallLimitMs(1000);
    expect(tests * perRunWallMs).toBeGreaterThan(submissionBudgetMs({ ...plain, tests }, Number.MAX_SAFE_INTEGER));
  });

  test("exhausted once the clock passes the budget", () => {
    let now = 1000;
    const b = new JudgingBudget(5000, () => now);
    expect(b.exhausted).toBe(false);
    now += 4999;
    expect(b.exhausted).toBe(false);
    now += 1;
    expect(b.exhausted).toBe(true);
    expect(b.detail(7)).toContain("ran out before test 7");
  });

  test("a run's wall clock is its CPU limit plus DOMjudge's overshoot (1 s or 10 %)", () => {
    expect(runWallLimitMs(1000)).toBe(2000);
    expect(runWallLimitMs(30_000)).toBe(33_000);
  });
});
