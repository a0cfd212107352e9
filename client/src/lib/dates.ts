/**
 * Every date the client shows comes from here (decision 057): dayjs 1.11.23
 * (pinned) with the utc, timezone, relativeTime and localizedFormat plugins,
 * in the viewer's locale (navigator.language, loaded by ./date-locale.ts)
 * and time zone (the browser's, Intl's resolved zone).
 *
 * Forms:
 * - `formatDateTime`  "Nov 27, 2026 1:05 AM" (the locale's `lll`), `withZone` adds "(GMT+01:00)";
 * - `formatDate`      "Nov 27, 2026" (the locale's `ll`);
 * - `formatRelative`  "3 minutes ago" / "in 2 hours" (the locale's words), against `nowMs`;
 * - `zoneOffsetLabel` "GMT+01:00", the viewer's offset at a time;
 * - `formatDay` / `formatMonth` a calendar day `YYYY-MM-DD` (already a day in some zone, never shifted):
 *   "Mar 29, 2026" / "Mar";
 * - `toLocalInput` / `fromLocalInput` for `<input type="datetime-local">` values.
 * Inputs are ISO 8601 strings, ms since the epoch, or Date. The `<time>`
 * element that shows them is components/DateTime.tsx. tests/client/dates.test.ts
 * fails when any other client file formats a date.
 */
// The ES module build throughout, so the lazily loaded locales (dayjs/esm/locale) register on this same instance.
import dayjs, { type Dayjs } from "dayjs/esm/index.js";
import localizedFormat from "dayjs/esm/plugin/localizedFormat/index.js";
import relativeTime from "dayjs/esm/plugin/relativeTime/index.js";
import timezone from "dayjs/esm/plugin/timezone/index.js";
import utc from "dayjs/esm/plugin/utc/index.js";

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(relativeTime);
dayjs.extend(localizedFormat);

/** An instant: ISO 8601 text, ms since the epoch, or a Date. */
export type Instant = string | number | Date;

let zone: string = browserZone();

/** The browser's IANA time zone ("Europe/Berlin"), or UTC when the browser names none. */
function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Sets the time zone dates are shown in (IANA name); the browser's by default. Tests pin it. */
export function setDateZone(name: string): void {
  zone = name;
}

/** The IANA time zone dates are shown in. */
export function dateZone(): string {
  return zone;
}

/**
 * Sets the dayjs locale dates are shown in ("de", "pt-br"): its data must be
 * loaded first (./date-locale.ts does, from navigator.language). Unknown names keep "en".
 */
export function setDateLocale(name: string): void {
  dayjs.locale(name);
}

/** The dayjs locale in use ("en" unless another was loaded). */
export function dateLocale(): string {
  return dayjs.locale();
}

function at(value: Instant): Dayjs {
  return dayjs(value).tz(zone);
}

/** True when `value` reads as a real instant. */
export function isValidInstant(value: Instant | null | undefined): value is Instant {
  return value !== null && value !== undefined && value !== "" && dayjs(value).isValid();
}

/** The instant as ISO 8601 (UTC), for `<time dateTime>`. */
export function isoOf(value: Instant): string {
  return dayjs(value).toISOString();
}

/** "GMT+01:00": the viewer's offset from UTC at `value` (now by default). */
export function zoneOffsetLabel(value: Instant = Date.now()): string {
  return `GMT${at(value).format("Z")}`;
}

/**
 * A date and time in the viewer's locale and zone: "Nov 27, 2026 1:05 AM" (en), "27. Nov. 2026 01:05" (de).
 * @param opts.withZone appends the offset, "(GMT+01:00)", where a misread zone matters (deadlines, contest starts).
 * @returns "—" for null, undefined or an unreadable value.
 */
export function formatDateTime(value: Instant | null | undefined, opts: { withZone?: boolean } = {}): string {
  if (!isValidInstant(value)) return "—";
  const text = at(value).format("lll");
  return opts.withZone ? `${text} (${zoneOffsetLabel(value)})` : text;
}

/** A date without the time, in the viewer's locale and zone: "Nov 27, 2026". "—" when missing. */
export function formatDate(value: Instant | null | undefined): string {
  if (!isValidInstant(value)) return "—";
  return at(value).format("ll");
}

/**
 * A calendar day given as `YYYY-MM-DD` (a day already counted in the viewer's zone, e.g. by the
 * progress calendar), in the viewer's locale: "Mar 29, 2026". Never shifted by a zone. "—" when unreadable.
 */
export function formatDay(day: string): string {
  const d = dayjs(day);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && d.isValid() ? d.format("ll") : "—";
}

/** The month of a `YYYY-MM-DD` day, short, in the viewer's locale: "Mar" (a calendar's column label). */
export function formatMonth(day: string): string {
  const d = dayjs(day);
  return d.isValid() ? d.format("MMM") : "—";
}

/** The year of `value` in the viewer's zone (the footer's copyright), now by default. */
export function yearOf(value: Instant = Date.now()): number {
  return at(value).year();
}

/**
 * How long ago or ahead `value` is from `nowMs`, in the locale's words:
 * "a few seconds ago", "3 minutes ago", "in 2 hours", "a month ago".
 * "—" when missing.
 */
export function formatRelative(value: Instant | null | undefined, nowMs: number = Date.now()): string {
  if (!isValidInstant(value)) return "—";
  return dayjs(value).from(dayjs(nowMs));
}

/** Past this age a relative date gives way to the absolute one (a week, ms): "3 weeks ago" says less than a date. */
export const RELATIVE_MAX_AGE_MS = 7 * 24 * 3_600_000;

/**
 * The text a history shows for `value`: relative while within `RELATIVE_MAX_AGE_MS`
 * of `nowMs` ("3 minutes ago"), the absolute date and time after.
 */
export function formatAuto(value: Instant | null | undefined, nowMs: number = Date.now()): string {
  if (!isValidInstant(value)) return "—";
  return Math.abs(dayjs(value).valueOf() - nowMs) <= RELATIVE_MAX_AGE_MS ? formatRelative(value, nowMs) : formatDateTime(value);
}

/** `<input type="datetime-local">` value (the viewer's zone) for an ISO instant; "" for null. */
export function toLocalInput(iso: string | null): string {
  return iso ? at(iso).format("YYYY-MM-DDTHH:mm:ss") : "";
}

/** The ISO instant (with the viewer's offset) of a `datetime-local` value; null for "". */
export function fromLocalInput(value: string): string | null {
  return value ? dayjs.tz(value, zone).format() : null;
}
