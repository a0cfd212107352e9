/**
 * How the client says where a submission's judging stands, in one place
 * (the solving page's output panel, My Submissions, the gradebook): one
 * phrase while it is judged ("Running test 3 of 9...") and one count once it
 * is ("7 of 9 tests passed", with the tests never run when judging stopped at
 * the first failure), never a "tests judged" count beside a "tests passed" one.
 * The phrases are the `common` catalogue's `judging.*` messages.
 */
import { translate } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";
import type { CommonT } from "./verdicts.ts";

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

/** "Queued (2 ahead)...", "Compiling...", "Running test 3 of 9...", or "Judged", in the interface's language (`t`: the caller's `useT(common)`; without it, the active locale's). */
export function judgingPhrase(p: JudgingState, t: CommonT = (key, values) => translate(common, key, values)): string {
  if (p.status === "queued") return p.ahead ? t("judging.queuedAhead", { ahead: p.ahead }) : t("judging.queued");
  if (p.status === "compiling") return t("judging.compiling");
  if (p.status === "running") {
    const total = p.testsTotal ?? 0;
    return total ? t("judging.runningTest", { test: Math.min(p.testsDone + 1, total), total }) : t("judging.running");
  }
  return t("judging.judged");
}

/**
 * "7 of 9 tests passed"; when judging stopped before the last test,
 * "0 of 9 tests passed (8 not run after the first failure)". "" when the total is unknown or hidden.
 * In the interface's language (`t` as for judgingPhrase).
 * @param judged tests that ran (defaults to all of them).
 */
export function testsPassedPhrase(passed: number, total: number | null, judged: number = total ?? 0, t: CommonT = (key, values) => translate(common, key, values)): string {
  if (!total) return "";
  const notRun = Math.max(0, total - judged);
  return notRun > 0 && passed < total ? t("judging.testsPassedNotRun", { passed, total, notRun }) : t("judging.testsPassed", { passed, total });
}
