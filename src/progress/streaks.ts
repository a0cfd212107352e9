/**
 * Streaks over active days (issue 35). Definition, as LeetCode's submission
 * calendar and DMOJ's activity heatmap count activity: a day is *active* when
 * the user made at least one judged submission that day (any verdict but IE,
 * which is the judge's fault), in the viewer's time zone (./zone.ts).
 *
 * - current streak: the run of consecutive active days ending today, or ending
 *   yesterday when today has no submission yet (the streak is not broken until
 *   the day is over);
 * - longest streak: the longest run of consecutive active days within the
 *   calendar's window (the last 365 days, the only submissions read).
 */
import { addDays, dayNumber } from "./zone.ts";

/** Current and longest streak in days, from the set of active day keys and today's key. */
export function streaks(activeDays: ReadonlySet<string>, today: string): { current: number; longest: number } {
  let current = 0;
  let day = activeDays.has(today) ? today : addDays(today, -1);
  while (activeDays.has(day)) {
    current++;
    day = addDays(day, -1);
  }
  const numbers = [...activeDays].map(dayNumber).sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  for (let i = 0; i < numbers.length; i++) {
    run = i > 0 && numbers[i] === numbers[i - 1]! + 1 ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return { current, longest };
}
