/** The jury's after-contest actions on the contest page, and why one cannot be taken now. */
import type { Contest } from "./Clarifications.tsx";

/**
 * Why each of the jury's after-contest actions cannot be taken now, or null when it can
 * (the server checks the same: src/contests/contests.ts, src/contests/permissions.ts).
 */
export function juryActionReasons(contest: Contest): { reveal: string | null; unfreeze: string | null; finalize: string | null } {
  const over = contest.phase === "over";
  const notYet = "possible once the contest is over.";
  return {
    reveal: over ? null : `the reveal is ${notYet}`,
    unfreeze: !contest.mayChange
      ? "only the contest's owners unfreeze the scoreboard."
      : !over
        ? `unfreezing is ${notYet}`
        : contest.freezesAt === null
          ? "this contest's scoreboard is never frozen."
          : contest.unfrozenAt !== null
            ? "the scoreboard is unfrozen."
            : null,
    finalize: !contest.mayChange ? "only the contest's owners finalize the results." : !over ? `finalizing is ${notYet}` : contest.finalizedAt !== null ? "the results are final." : null,
  };
}
