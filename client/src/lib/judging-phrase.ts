/**
 * How the client says where a submission's judging stands, in one place
 * (the solving page's output panel, My Submissions, the gradebook): one
 * phrase while it is judged ("Running test 3 of 9...") and one count once it
 * is ("7 of 9 tests passed", with the tests never run when judging stopped at
 * the first failure), never a "tests judged" count beside a "tests passed" one.
 */

/** What the phrases need of a submission's progress. */
export interface JudgingState {
  status: "queued" | "compiling" | "running" | "done";
  /** Tests finished so far. */
  testsDone: number;
  /** Tests in all (sample included); 0 or null while unknown or hidden by the feedback policy. */
  testsTotal: number | null;
  /** While queued: submissions waiting before this one. */
  ahead?: number;
}

/** "Queued (2 ahead)...", "Compiling...", "Running test 3 of 9...", or "Judged". */
export function judgingPhrase(p: JudgingState): string {
  if (p.status === "queued") return p.ahead ? `Queued (${p.ahead} ahead)...` : "Queued...";
  if (p.status === "compiling") return "Compiling...";
  if (p.status === "running") {
    const total = p.testsTotal ?? 0;
    return total ? `Running test ${Math.min(p.testsDone + 1, total)} of ${total}...` : "Running...";
  }
  return "Judged";
}

/**
 * "7 of 9 tests passed"; when judging stopped before the last test,
 * "0 of 9 tests passed (8 not run after the first failure)". "" when the total is unknown or hidden.
 * @param judged tests that ran (defaults to all of them).
 */
export function testsPassedPhrase(passed: number, total: number | null, judged: number = total ?? 0): string {
  if (!total) return "";
  const notRun = Math.max(0, total - judged);
  const base = `${passed} of ${total} test${total === 1 ? "" : "s"} passed`;
  return notRun > 0 && passed < total ? `${base} (${notRun} not run after the first failure)` : base;
}
