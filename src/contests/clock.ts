/**
 * A contest's clock: when it starts, freezes and ends, what phase it is in,
 * and contest time (ms since the start, or since a virtual participant's own
 * start). Pure functions of the contest row's times; no imports of the database.
 */

/** The times a contest's clock is built from (a contest row's fields, ms). */
export interface ContestTimes {
  startsAtMs: number;
  durationMinutes: number;
  /** Minutes before the end the scoreboard freezes; null: never. */
  freezeMinutes: number | null;
  /** When the jury unfroze the scoreboard; null while it has not. */
  unfrozenAtMs: number | null;
}

export type ContestPhase = "upcoming" | "running" | "over";

const MINUTE_MS = 60_000;

/** The clock's inputs from a contest row (its Date columns as ms). */
export function timesOf(c: { startsAt: Date; durationMinutes: number; freezeMinutes: number | null; unfrozenAt: Date | null }): ContestTimes {
  return { startsAtMs: c.startsAt.getTime(), durationMinutes: c.durationMinutes, freezeMinutes: c.freezeMinutes, unfrozenAtMs: c.unfrozenAt?.getTime() ?? null };
}

/** The contest's end, ms since the epoch. */
export function endMs(c: ContestTimes): number {
  return c.startsAtMs + c.durationMinutes * MINUTE_MS;
}

/** The contest's length, ms. */
export function durationMs(c: ContestTimes): number {
  return c.durationMinutes * MINUTE_MS;
}

/** Contest time (ms since the start) at which the scoreboard freezes, or null when it never does. */
export function freezeContestMs(c: ContestTimes): number | null {
  if (c.freezeMinutes === null || c.freezeMinutes <= 0) return null;
  return Math.max(0, durationMs(c) - c.freezeMinutes * MINUTE_MS);
}

/** The phase at `nowMs`: before the start, between start and end, or after. */
export function phaseAt(c: ContestTimes, nowMs: number): ContestPhase {
  if (nowMs < c.startsAtMs) return "upcoming";
  return nowMs < endMs(c) ? "running" : "over";
}

/**
 * Whether results are hidden from non-jury viewers at `nowMs`: from the
 * freeze until the jury unfreezes (a contest that is over stays frozen until then).
 */
export function isFrozenAt(c: ContestTimes, nowMs: number): boolean {
  const freeze = freezeContestMs(c);
  if (freeze === null || c.unfrozenAtMs !== null) return false;
  return nowMs >= c.startsAtMs + freeze;
}

/**
 * A participant's window: the contest's own, or a virtual participant's
 * (their start plus the contest's duration).
 */
export function windowOf(c: ContestTimes, virtualStartsAtMs: number | null): { startMs: number; endMs: number } {
  const startMs = virtualStartsAtMs ?? c.startsAtMs;
  return { startMs, endMs: startMs + durationMs(c) };
}
