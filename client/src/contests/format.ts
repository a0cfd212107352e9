/** Contest clocks and cells as people read them (the words from the `contests` catalogue, through the caller's `t`). */
import type { ContestsT } from "../i18n/catalog/contests/index.ts";

/** "1:05:09" from ms (never negative). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export type ContestPhase = "upcoming" | "running" | "over";

/** Where `now` (ms since the epoch) falls in the window from `startsAt` to `endsAt` (ISO 8601). */
export function contestPhase(startsAt: string, endsAt: string, now: number): ContestPhase {
  if (now < Date.parse(startsAt)) return "upcoming";
  if (now < Date.parse(endsAt)) return "running";
  return "over";
}

/** What the contest clock says at `now`: time to the start ("Starts in 1:05:09"), time left ("0:42:00 left"), or "Contest over". */
export function contestClock(startsAt: string, endsAt: string, now: number, t: ContestsT): { phase: ContestPhase; text: string } {
  const phase = contestPhase(startsAt, endsAt, now);
  if (phase === "upcoming") return { phase, text: t("clock.startsIn", { clock: clock(Date.parse(startsAt) - now) }) };
  if (phase === "running") return { phase, text: t("clock.left", { clock: clock(Date.parse(endsAt) - now) }) };
  return { phase, text: t("clock.over") };
}

/**
 * "in 12 minutes", "in 5 hours" (under two days), "in 2 days 3 hours", or "" when `iso` is null or past.
 * @param now ms since the epoch.
 */
export function countdown(iso: string | null, now: number, t: ContestsT): string {
  if (!iso) return "";
  const ms = Date.parse(iso) - now;
  if (ms <= 0) return "";
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return t("countdown.minutes", { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t("countdown.hours", { hours });
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest ? t("countdown.daysHours", { days, hours: rest }) : t("countdown.days", { days });
}

/** Minutes of contest time, as the ICPC board shows a solve time. */
export const minutes = (ms: number | null): string => (ms === null ? "" : String(Math.floor(ms / 60_000)));

/** The viewer's window: a virtual participant's own (from their start, the contest's length), else the contest's. */
export function windowOf(c: { startsAt: string; endsAt: string; durationMinutes: number; team: { virtualStartsAt: string | null } | null }): { startsAt: string; endsAt: string } {
  const own = c.team?.virtualStartsAt;
  return own ? { startsAt: own, endsAt: new Date(Date.parse(own) + c.durationMinutes * 60_000).toISOString() } : { startsAt: c.startsAt, endsAt: c.endsAt };
}
