/**
 * One instant on screen: a `<time dateTime="ISO">` whose text is formatted by
 * lib/dates.ts in the viewer's locale and time zone, and whose title always
 * gives the absolute date, time and offset (hover, and screen readers that read titles).
 *
 * Modes:
 * - `absolute` (default): "Nov 27, 2026 1:05 AM";
 * - `relative`: "3 minutes ago", refreshed every minute;
 * - `auto`: relative within a week, absolute after (histories);
 * - `date`: "Nov 27, 2026".
 * `withZone` adds "(GMT+01:00)" to the visible absolute text (deadlines, starts).
 * Missing or unreadable values show "—" without a `<time>`. Re-renders on a
 * switch of the interface language (lib/dates.ts follows it).
 */
import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { formatAuto, formatDate, formatDateTime, formatRelative, isoOf, isValidInstant, type Instant } from "../lib/dates.ts";

export type DateTimeMode = "absolute" | "relative" | "auto" | "date";

/** Refresh of relative texts, ms. */
const TICK_MS = 60_000;

function useMinuteNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

export function DateTime({
  value,
  mode = "absolute",
  withZone = false,
  className,
}: {
  value: Instant | null | undefined;
  mode?: DateTimeMode;
  withZone?: boolean;
  className?: string;
}) {
  useLingui(); // a locale switch re-renders the text in the new language
  const moving = mode === "relative" || mode === "auto";
  const now = useMinuteNow(moving);
  if (!isValidInstant(value)) return <span className={className}>—</span>;
  const text =
    mode === "relative" ? formatRelative(value, now) : mode === "auto" ? formatAuto(value, now) : mode === "date" ? formatDate(value) : formatDateTime(value, { withZone });
  return (
    <time className={className} dateTime={isoOf(value)} title={formatDateTime(value, { withZone: true })}>
      {text}
    </time>
  );
}
