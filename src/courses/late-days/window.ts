/**
 * Late-day arithmetic, pure (issue 37 §6; decision 077): a student who spent
 * `days` late days on an assignment has their due time and their close moved
 * by `days` × 24 h of elapsed time (like the late penalty's "day", not a
 * calendar day), so the late penalty applies only past the days spent.
 * Applied by studentWindow (../deadlines.ts) through `WindowAdjust.lateDays`,
 * on top of an extension.
 */

/** One late day, ms (24 h). */
export const LATE_DAY_MS = 24 * 3_600_000;

/** Most late days a course may give each student, and a student may spend at once. */
export const LATE_DAYS_MAX = 30;

/**
 * The window moved by `days` late days (a window without a due time does not move).
 * @example withLateDays({ opensAt: 0, dueAt: 100, close: 150 }, 2) // { opensAt: 0, dueAt: 100 + 2 × 86 400 000, close: 150 + 2 × 86 400 000 }
 */
export function withLateDays<W extends { dueAt: number | null; close: number | null }>(w: W, days: number): W {
  if (days <= 0 || w.dueAt === null) return w;
  const shift = days * LATE_DAY_MS;
  return { ...w, dueAt: w.dueAt + shift, close: w.close === null ? null : w.close + shift };
}

/** Late days left to a student: the course's allowance less what they spent, never below 0. */
export function lateDaysRemaining(allowed: number, spent: number): number {
  return Math.max(0, allowed - spent);
}
