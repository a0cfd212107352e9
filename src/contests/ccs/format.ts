/**
 * The Contest API's value formats (ccs-specs 2023-06, "JSON property types"):
 * TIME is ISO 8601 with milliseconds and a `+00:00` zone, RELTIME is
 * `(-)?h:mm:ss.uuu`, IDs are `[A-Za-z0-9_.-]`, at most 36 characters.
 */

/** TIME: `2026-11-24T10:00:00.000+00:00` (always UTC, always milliseconds). */
export function absTime(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

/** TIME or null. */
export const absTimeOrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : absTime(ms));

/** RELTIME: `1:23:45.678` (hours unbounded, negative with a leading `-`). */
export function relTime(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(Math.round(ms));
  const millis = rest % 1000;
  rest = Math.floor(rest / 1000);
  const seconds = rest % 60;
  rest = Math.floor(rest / 60);
  const minutes = rest % 60;
  const hours = Math.floor(rest / 60);
  return `${sign}${hours}:${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}.${String(millis).padStart(3, "0")}`;
}
