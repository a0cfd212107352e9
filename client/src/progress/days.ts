/**
 * Calendar arithmetic on `YYYY-MM-DD` day keys (the server's days, already
 * counted in the viewer's zone: src/progress/zone.ts): whole days, no clock,
 * so nothing shifts with the browser's zone. Formatting stays in lib/dates.ts.
 */

/** Whole days since 1970-01-01 of a day key. */
export function dayNumber(key: string): number {
  const [y, m, d] = key.split("-").map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** The day key of a day number. */
export function dayOfNumber(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(n: number): number {
  return (((n + 4) % 7) + 7) % 7;
}

/** A day's shade: 0 (none) to 4, by its judged submissions: 0, 1, 2–3, 4–6, 7 or more. */
export function levelOf(submissions: number): 0 | 1 | 2 | 3 | 4 {
  if (submissions <= 0) return 0;
  if (submissions === 1) return 1;
  if (submissions <= 3) return 2;
  if (submissions <= 6) return 3;
  return 4;
}
