/**
 * What the operator's views (/metrics, the admin status page) read about the
 * running process: when it started, the last backup, and the most recent
 * internal errors (a bounded ring, captured from the logger).
 */
import type { Logger } from "../log.ts";

export interface OpsState {
  /** ms since the epoch. */
  startedAt: number;
  lastBackup: { at: string; path: string; ok: boolean; error?: string } | null;
  /** Newest last; at most RECENT_ERRORS_MAX. */
  recentErrors: { at: string; message: string }[];
}

export const RECENT_ERRORS_MAX = 50;

export function createOpsState(now = Date.now()): OpsState {
  return { startedAt: now, lastBackup: null, recentErrors: [] };
}

/** A logger that also records every error line (without its data: it may hold user content) in `state`. */
export function recordingErrors(log: Logger, state: OpsState): Logger {
  return {
    ...log,
    error(message, data) {
      state.recentErrors.push({ at: new Date().toISOString(), message });
      if (state.recentErrors.length > RECENT_ERRORS_MAX) state.recentErrors.shift();
      log.error(message, data);
    },
  };
}
