/**
 * Course dates and states as a person reads them: in the browser's own time
 * zone (the server sends instants), with a countdown to the due time, in the
 * interface's language (the `courses` namespace, issue 34). Helpers that make
 * text take the component's `t` (`useT(courses)`); without one they read the
 * active locale through `translate`.
 */
import { formatDateTime, fromLocalInput, toLocalInput } from "../lib/dates.ts";
import { translate, type Translate } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";

/** The `datetime-local` conversions live with every other date in lib/dates.ts. */
export { fromLocalInput, toLocalInput };

/** A message key of the `courses` namespace. */
export type CoursesKey = NonNullable<(typeof courses)["keys"]>;
/** `useT(courses)`'s function. */
export type CoursesT = Translate<CoursesKey>;

const active: CoursesT = (key, values) => translate(courses, key, values);

/** "Nov 27, 2026 11:00 PM (GMT+01:00)": a local date and time with its offset (lib/dates.ts), "—" for null. */
export function localTime(iso: string | null): string {
  return formatDateTime(iso, { withZone: true });
}

/**
 * The time left until `iso` as a duration, "5 hours", "2 days 3 hours", "12 minutes",
 * in the form the catalogues use after "in"; "" when past or null.
 * @param now ms since the epoch.
 */
export function timeLeft(iso: string | null, now: number, t: CoursesT = active): string {
  if (!iso) return "";
  const ms = Date.parse(iso) - now;
  if (!(ms > 0)) return "";
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return t("duration.minutes", { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t("duration.hours", { hours });
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest ? t("duration.daysHours", { days, hours: rest }) : t("duration.days", { days });
}

/**
 * "in 5 hours", "in 2 days 3 hours", "in 12 minutes", or "" when past.
 * @param now ms since the epoch.
 */
export function countdown(iso: string | null, now: number, t: CoursesT = active): string {
  const duration = timeLeft(iso, now, t);
  return duration ? t("countdown", { duration }) : "";
}

export type AssignmentState = "upcoming" | "open" | "late" | "closed";

/** The state shown on an assignment: upcoming, open, "Due in N hours" (within two days), late, closed. */
export function stateLabel(state: AssignmentState, dueIso: string | null, closeIso: string | null, now: number, t: CoursesT = active): string {
  if (state === "upcoming") return t("state.upcoming");
  if (state === "closed") return t("state.closed");
  if (state === "late") {
    const left = timeLeft(closeIso, now, t);
    return left ? t("state.late", { duration: left }) : t("state.lateEnding");
  }
  const left = timeLeft(dueIso, now, t);
  if (dueIso && left && Date.parse(dueIso) - now < 48 * 3_600_000) return t("state.dueIn", { duration: left });
  return t("state.open");
}

/** The feedback levels, in order, with their words' keys. */
export const FEEDBACK_KEYS = {
  verdict: "feedback.verdict",
  tests: "feedback.tests",
  "first-failure": "feedback.firstFailure",
  full: "feedback.full",
} as const satisfies Record<string, CoursesKey>;

/** The AI review policies, in order, with their words' keys. */
export const AI_KEYS = {
  off: "ai.off",
  hints: "ai.hints",
  full: "ai.full",
} as const satisfies Record<string, CoursesKey>;

/** A feedback level's words ("Verdict only (and the sample)"); an unknown level reads as itself. */
export function feedbackWords(level: string, t: CoursesT = active): string {
  const key = (FEEDBACK_KEYS as Record<string, CoursesKey>)[level];
  return key ? t(key) : level;
}

/** An AI policy's words ("Full review"); an unknown policy reads as itself. */
export function aiWords(policy: string, t: CoursesT = active): string {
  const key = (AI_KEYS as Record<string, CoursesKey>)[policy];
  return key ? t(key) : policy;
}

/** The case name `assignment.feedbackAfterClose` selects on for a feedback level. */
export function feedbackCase(level: string): string {
  return level === "first-failure" ? "firstFailure" : level;
}
