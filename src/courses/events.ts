/**
 * In-process doorbells for live gradebooks: scores.ts rings an assignment's
 * bell after its scores change; a gradebook stream waits on it (and also
 * polls, for changes made by another process).
 */
const bells = new Map<string, Set<() => void>>();

/** Wakes every stream waiting on this assignment. */
export function ringGradebook(assignmentId: string): void {
  for (const wake of bells.get(assignmentId) ?? []) wake();
}

/**
 * Resolves when the assignment's bell rings, after `timeoutMs`, or when `signal` aborts.
 */
export function waitGradebook(assignmentId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let set = bells.get(assignmentId);
    if (!set) bells.set(assignmentId, (set = new Set()));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      set!.delete(done);
      if (set!.size === 0) bells.delete(assignmentId);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    signal?.addEventListener("abort", done);
    set.add(done);
  });
}
