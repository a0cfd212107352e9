/** Contest clocks and cells as people read them. */

/** "1:05:09" from ms (never negative). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/** What the contest clock says at `now`: time to the start, time left, or over. */
export function contestClock(startsAt: string, endsAt: string, now: number): { phase: "upcoming" | "running" | "over"; text: string } {
  const start = Date.parse(startsAt);
  const end = Date.parse(endsAt);
  if (now < start) return { phase: "upcoming", text: `Starts in ${clock(start - now)}` };
  if (now < end) return { phase: "running", text: `${clock(end - now)} left` };
  return { phase: "over", text: "Contest over" };
}

/** Minutes of contest time, as the ICPC board shows a solve time. */
export const minutes = (ms: number | null): string => (ms === null ? "" : String(Math.floor(ms / 60_000)));

/** The viewer's window: a virtual participant's own (from their start, the contest's length), else the contest's. */
export function windowOf(c: { startsAt: string; endsAt: string; durationMinutes: number; team: { virtualStartsAt: string | null } | null }): { startsAt: string; endsAt: string } {
  const own = c.team?.virtualStartsAt;
  return own ? { startsAt: own, endsAt: new Date(Date.parse(own) + c.durationMinutes * 60_000).toISOString() } : { startsAt: c.startsAt, endsAt: c.endsAt };
}
