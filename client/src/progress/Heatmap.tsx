/**
 * The activity calendar of the last 365 days: a week-per-column heatmap
 * (a drawing: `role="img"` named by the summary line, which is also shown),
 * and its text alternative, every active day's counts in a table behind a
 * disclosure (keyboard and screen reader). Shades step by submissions that day
 * and the legend gives each step's numbers; a day with an Accepted submission
 * also carries a dot, so nothing is told by colour alone. The grid scrolls
 * sideways on narrow screens (a focusable, named region). Time runs left to
 * right in every language (a timeline, as the calendars of other judges).
 */
import { useEffect, useRef } from "react";
import type { Progress } from "../../../src/progress/shape.ts";
import { formatDay, formatMonth } from "../lib/dates.ts";
import { useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";
import { dayNumber, dayOfNumber, levelOf, weekdayOf } from "./days.ts";

const CELL = 12;
const GAP = 3;
const STEP = CELL + GAP;
const TOP = 18;
const LEFT = 4;

export function Heatmap({ progress }: { progress: Progress }) {
  const t = useT(progressNs);
  const scroller = useRef<HTMLDivElement>(null);
  // On a narrow screen the grid scrolls: start at its end, today, the part a learner looks for.
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, [progress.to]);
  const first = dayNumber(progress.from);
  const last = dayNumber(progress.to);
  const start = first - weekdayOf(first); // the Sunday on or before the first day
  const weeks = Math.floor((last - start) / 7) + 1;
  const byDay = new Map(progress.calendar.map((d) => [d.date, d]));
  const width = LEFT + weeks * STEP;
  const height = TOP + 7 * STEP;
  const summary = t("calendar.summary", { submissions: progress.submissionsInYear, accepted: progress.acceptedInYear, days: progress.activeDays });

  const cells = [];
  const months: { x: number; label: string; key: string }[] = [];
  for (let w = 0; w < weeks; w++) {
    const weekStart = start + w * 7;
    const key = dayOfNumber(Math.max(weekStart, first));
    const before = w === 0 ? null : dayOfNumber(Math.max(weekStart - 7, first));
    if (before === null || before.slice(0, 7) !== key.slice(0, 7)) months.push({ x: LEFT + w * STEP, label: formatMonth(key), key });
    for (let d = 0; d < 7; d++) {
      const n = weekStart + d;
      if (n < first || n > last) continue;
      const date = dayOfNumber(n);
      const day = byDay.get(date);
      const total = day ? day.accepted + day.attempted : 0;
      const x = LEFT + w * STEP;
      const y = TOP + d * STEP;
      cells.push(
        <g key={date}>
          <rect x={x} y={y} width={CELL} height={CELL} rx={2} className={`heat-cell heat-${levelOf(total)}`}>
            <title>{day ? t("calendar.dayCounts", { date: formatDay(date), accepted: day.accepted, attempted: day.attempted }) : t("calendar.dayNone", { date: formatDay(date) })}</title>
          </rect>
          {day && day.accepted > 0 && <circle cx={x + CELL / 2} cy={y + CELL / 2} r={2.2} className="heat-dot" />}
        </g>,
      );
    }
  }
  // Drop a month label that would overlap the previous one.
  const shownMonths = months.filter((m, i) => i === 0 || m.x - months[i - 1]!.x >= 3 * STEP);

  return (
    <div className="heatmap">
      <p className="heatmap-summary" data-testid="calendar-summary">
        {summary}
      </p>
      <div ref={scroller} className="heatmap-scroll" role="region" aria-label={t("calendar.scrollLabel")} tabIndex={0} dir="ltr">
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} className="heatmap-svg">
          {shownMonths.map((m) => (
            <text key={m.key} x={m.x} y={12} className="heat-month">
              {m.label}
            </text>
          ))}
          {cells}
        </svg>
      </div>
      <div className="heatmap-legend" aria-hidden="true">
        <span>{t("calendar.less")}</span>
        {([0, 1, 2, 3, 4] as const).map((level) => (
          <span key={level} className="heatmap-legend-step">
            <svg width={CELL} height={CELL}>
              <rect width={CELL} height={CELL} rx={2} className={`heat-cell heat-${level}`} />
            </svg>
            <span>{[t("calendar.level0"), t("calendar.level1"), t("calendar.level2"), t("calendar.level3"), t("calendar.level4")][level]}</span>
          </span>
        ))}
        <span>{t("calendar.more")}</span>
        <span className="heatmap-legend-step">
          <svg width={CELL} height={CELL}>
            <rect width={CELL} height={CELL} rx={2} className="heat-cell heat-2" />
            <circle cx={CELL / 2} cy={CELL / 2} r={2.2} className="heat-dot" />
          </svg>
          <span>{t("calendar.dotMeans")}</span>
        </span>
      </div>
      <p className="sr-only">{t("calendar.legendText")}</p>
      <details className="heatmap-table">
        <summary>{t("calendar.showTable")}</summary>
        {progress.calendar.length === 0 ? (
          <p className="muted">{t("calendar.noDays")}</p>
        ) : (
          <div className="table-scroll" role="region" aria-label={t("calendar.tableCaption")} tabIndex={0}>
            <table className="data-table">
              <caption className="sr-only">{t("calendar.tableCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("calendar.date")}</th>
                  <th scope="col">{t("calendar.accepted")}</th>
                  <th scope="col">{t("calendar.attempted")}</th>
                </tr>
              </thead>
              <tbody>
                {[...progress.calendar].reverse().map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{formatDay(d.date)}</th>
                    <td>{d.accepted}</td>
                    <td>{d.attempted}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </div>
  );
}
