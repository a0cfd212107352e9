/**
 * Course dates and states as a person reads them: in the browser's own time
 * zone (the server sends instants), with a countdown to the due time.
 */
import { formatDateTime, fromLocalInput, toLocalInput } from "../lib/dates.ts";

/** The `datetime-local` conversions live with every other date in lib/dates.ts. */
export { fromLocalInput, toLocalInput };

/** "Nov 27, 2026 11:00 PM (GMT+01:00)": a local date and time with its offset (lib/dates.ts), "—" for null. */
export function localTime(iso: string | null): string {
  return formatDateTime(iso, { withZone: true });
}

/**
 * "in 5 hours", "in 2 days 3 hours", "in 12 minutes", or "" when past.
 * @param now ms since the epoch.
 */
export function countdown(iso: string | null, now: number): string {
  if (!iso) return "";
  const ms = Date.parse(iso) - now;
  if (ms <= 0) return "";
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `in ${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} hour${hours === 1 ? "" : "s"}`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return `in ${days} days${rest ? ` ${rest} hour${rest === 1 ? "" : "s"}` : ""}`;
}

export type AssignmentState = "upcoming" | "open" | "late" | "closed";

/** The state shown on an assignment: upcoming, open, "due in N hours" (within two days), late, closed. */
export function stateLabel(state: AssignmentState, dueIso: string | null, closeIso: string | null, now: number): string {
  if (state === "upcoming") return "Upcoming";
  if (state === "closed") return "Closed";
  if (state === "late") return `Late window, closes ${countdown(closeIso, now)}`.trim();
  if (dueIso && Date.parse(dueIso) - now < 48 * 3_600_000) return `Due ${countdown(dueIso, now)}`;
  return "Open";
}

export const FEEDBACK_WORDS: Record<string, string> = {
  verdict: "Verdict only (and the sample)",
  tests: "Each test's verdict, time and memory",
  "first-failure": "Also the first failing hidden test (input, expected and actual output)",
  full: "Also the program's error output on that test",
};

export const AI_WORDS: Record<string, string> = {
  off: "Off (exam)",
  hints: "Hints only (no code)",
  full: "Full review",
};
