/**
 * One problem's analytics: a summary table (students not started, attempting
 * and solved; the medians; the hidden test most often failed first) and four
 * bar charts, each with its table for screen readers (./BarChartFigure.tsx).
 */
import type { RouterOutputs } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { analyticsNs } from "../i18n/catalog/analytics/index.ts";
import { verdictName } from "../lib/verdicts.ts";
import { common } from "../i18n/catalog/common/index.ts";
import { BarChartFigure } from "./BarChartFigure.tsx";

type Analytics = RouterOutputs["analytics"]["assignment"];
export type ProblemAnalytics = Analytics["problems"][number];
type T = ReturnType<typeof useT<typeof analyticsNs>>;

/** A median duration in words: seconds under a minute, minutes under an hour, else hours and minutes. */
export function durationText(t: T, ms: number): string {
  if (ms < 60_000) return t("time.seconds", { seconds: Math.round(ms / 1000) });
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return t("time.minutes", { minutes });
  return t("time.hoursMinutes", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

function bucketLabel(t: T, b: { min: number; max: number | null }): string {
  if (b.max === null) return t("chart.bucketOpen", { min: b.min });
  if (b.max === b.min) return t("chart.bucketOne", { n: b.min });
  return t("chart.bucketRange", { min: b.min, max: b.max });
}

export function ProblemPanel({ p }: { p: ProblemAnalytics }) {
  const t = useT(analyticsNs);
  const tc = useT(common);
  const headingId = `problem-${p.problemId}`;
  const none = t("problem.none");
  return (
    <section className="card analytics-problem" aria-labelledby={headingId} data-testid="analytics-problem">
      <h2 id={headingId}>{t("problem.heading", { title: p.title })}</h2>
      <div className="table-scroll" role="region" aria-label={t("problem.summary", { title: p.title })} tabIndex={0}>
      <table className="data-table analytics-summary" aria-label={t("problem.summary", { title: p.title })}>
        <thead>
          <tr>
            <th scope="col">{t("problem.figure")}</th>
            <th scope="col">{t("problem.value")}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{t("problem.notStarted")}</th>
            <td data-testid="not-started">{p.notStarted}</td>
          </tr>
          <tr>
            <th scope="row">{t("problem.attempting")}</th>
            <td data-testid="attempting">{p.attempting}</td>
          </tr>
          <tr>
            <th scope="row">{t("problem.solved")}</th>
            <td data-testid="solved">{p.solved}</td>
          </tr>
          <tr>
            <th scope="row">{t("problem.medianAttempts")}</th>
            <td>{p.medianAttemptsBeforeAc ?? none}</td>
          </tr>
          <tr>
            <th scope="row">{t("problem.medianTime")}</th>
            <td>{p.medianTimeToSolveMs === null ? none : durationText(t, p.medianTimeToSolveMs)}</td>
          </tr>
          <tr>
            <th scope="row">{t("problem.topTest")}</th>
            <td>{p.topFailedTest === null ? none : t("problem.testNumber", { index: p.topFailedTest })}</td>
          </tr>
        </tbody>
      </table>
      </div>
      <div className="analytics-charts">
        <BarChartFigure
          title={t("chart.states")}
          categoryHeader={t("chart.state")}
          valueHeader={t("chart.students")}
          empty={t("chart.empty")}
          data={[
            { label: t("problem.notStarted"), value: p.notStarted },
            { label: t("problem.attempting"), value: p.attempting },
            { label: t("problem.solved"), value: p.solved },
          ]}
        />
        <BarChartFigure
          title={t("chart.attempts")}
          categoryHeader={t("chart.attemptsColumn")}
          valueHeader={t("chart.students")}
          empty={t("chart.empty")}
          data={p.solved === 0 ? [] : p.attemptsBeforeAc.map((b) => ({ label: bucketLabel(t, b), value: b.students }))}
        />
        <BarChartFigure
          title={t("chart.verdicts")}
          categoryHeader={t("chart.verdict")}
          valueHeader={t("chart.submissions")}
          empty={t("chart.empty")}
          testId="verdict-chart"
          data={p.verdicts.map((v) => ({ label: v.verdict, name: verdictName(v.verdict, tc), value: v.submissions }))}
        />
        <BarChartFigure
          title={t("chart.tests")}
          categoryHeader={t("chart.test")}
          valueHeader={t("chart.submissions")}
          empty={t("chart.empty")}
          data={p.failedTests.map((f) => ({ label: String(f.testIndex), value: f.submissions }))}
        />
      </div>
    </section>
  );
}
