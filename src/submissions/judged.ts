/**
 * What happens after a submission's verdict is written, by whoever judged it
 * (the in-process consumer or a judge host's finish): the domains that care
 * register a hook (courses recompute the gradebook cell, contests update the
 * scoreboard and the event feed), so submissions know nothing of them.
 */
import type { Database } from "../../db/index.ts";

/** The judged submission's keys, as the hooks need them. */
export interface JudgedSubmission {
  id: string;
  userId: string;
  problemId: string;
  assignmentId: string | null;
  contestId: string | null;
  teamId: string | null;
}

export type JudgedHook = (db: Database, s: JudgedSubmission) => Promise<void>;

const hooks: JudgedHook[] = [];

/** Registers a hook (once: registering the same function again does nothing). */
export function onJudged(hook: JudgedHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

/** Runs every hook in registration order; the first failure is thrown after all have run. */
export async function afterJudged(db: Database, s: JudgedSubmission): Promise<void> {
  let failure: unknown = null;
  for (const hook of hooks) {
    try {
      await hook(db, s);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
}
