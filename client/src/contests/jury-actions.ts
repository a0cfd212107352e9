/** The jury's after-contest actions on the contest page, and why one cannot be taken now. */
import type { ContestsKey } from "../i18n/catalog/contests/index.ts";
import type { Contest } from "./Clarifications.tsx";

/**
 * Why each of the jury's after-contest actions cannot be taken now, or null when it can
 * (the server checks the same: src/contests/contests.ts, src/contests/permissions.ts).
 * Each reason is the `contests` catalogue's key of the whole line shown beside the disabled
 * button ("Reveal: the reveal is possible once the contest is over.").
 */
export function juryActionReasons(contest: Contest): { reveal: ContestsKey | null; unfreeze: ContestsKey | null; finalize: ContestsKey | null } {
  const over = contest.phase === "over";
  return {
    reveal: over ? null : "jury.why.revealNotYet",
    unfreeze: !contest.mayChange
      ? "jury.why.unfreezeNotOwner"
      : !over
        ? "jury.why.unfreezeNotYet"
        : contest.freezesAt === null
          ? "jury.why.unfreezeNeverFrozen"
          : contest.unfrozenAt !== null
            ? "jury.why.unfreezeDone"
            : null,
    finalize: !contest.mayChange ? "jury.why.finalizeNotOwner" : !over ? "jury.why.finalizeNotYet" : contest.finalizedAt !== null ? "jury.why.finalizeDone" : null,
  };
}

export type JuryAction = "reveal" | "unfreeze" | "finalize";

/**
 * The reasons as the page lists them: one line each, except that when all three wait for the
 * contest's end they share one line ("Reveal, Unfreeze and Finalize open once the contest is
 * over."), which every disabled button names as its description (`id`).
 */
export function groupedReasons(why: ReturnType<typeof juryActionReasons>): { id: string; actions: JuryAction[]; key: ContestsKey }[] {
  if (why.reveal === "jury.why.revealNotYet" && why.unfreeze === "jury.why.unfreezeNotYet" && why.finalize === "jury.why.finalizeNotYet") {
    return [{ id: "jury-why-over", actions: ["reveal", "unfreeze", "finalize"], key: "jury.why.allNotYet" }];
  }
  return (["reveal", "unfreeze", "finalize"] as const).flatMap((action) => {
    const key = why[action];
    return key === null ? [] : [{ id: `jury-why-${action}`, actions: [action], key }];
  });
}
