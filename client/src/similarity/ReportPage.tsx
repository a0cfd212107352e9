/**
 * One similarity report (staff, jury): progress while it is computed; then
 * the histogram of pair similarities with the threshold slider (starting at
 * the suggested threshold), the clusters at that threshold, the pairs (most
 * similar first, with their marks), each student's highest match, and the
 * CSV export. Names can be hidden for an anonymised review.
 */
import { Checkbox, RangeField } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useMemo, useState } from "react";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { atOrAbove, clusters, percentOf } from "../../../src/similarity/threshold.ts";
import { QueryState } from "../components/QueryState.tsx";
import { languageName } from "../lib/languages.ts";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { namer, useAnonymous } from "./names.ts";
import { T, useT } from "../i18n/index.tsx";
import { similarity } from "../i18n/catalog/similarity/index.ts";
import { activeLocale, intlLocales } from "../i18n/locale.ts";
import { MARK_KEYS, usePercent } from "./format.ts";

type Report = RouterOutputs["similarity"]["byId"];

/** Histogram plot: width and height in SVG units, and the margin on each side that keeps the end labels inside. */
const PLOT_W = 600;
const PLOT_H = 120;
const MARGIN_X = 16;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * Pair counts per similarity bin, 0 % at the left to 100 % at the right, with
 * ticks every 25 % and the threshold as a line; a bar that may hold a pair
 * at or above it (its upper end, as shown, reaches the threshold) in the alarm colour. Log-scaled heights keep a handful of copies visible beside
 * thousands of independent pairs. The plot reads left to right in every
 * locale (like the numbers on its axis), so `direction="ltr"`.
 */
function Histogram({ bins, threshold, above }: { bins: number[]; threshold: number; above: number }) {
  const t = useT(similarity);
  const percent = usePercent();
  const max = Math.max(1, ...bins);
  const x = (fraction: number) => MARGIN_X + fraction * PLOT_W;
  const bw = PLOT_W / bins.length;
  return (
    <svg
      viewBox={`0 0 ${PLOT_W + 2 * MARGIN_X} ${PLOT_H + 34}`}
      className="similarity-histogram"
      direction="ltr"
      role="img"
      aria-label={t("histogram.label", { from: percent(0), to: percent(1), count: above, threshold: percent(threshold) })}
      data-testid="histogram"
    >
      {bins.map((n, i) => {
        const bh = n ? Math.max(2, (Math.log1p(n) / Math.log1p(max)) * PLOT_H) : 0;
        const from = i / bins.length;
        const to = (i + 1) / bins.length;
        return (
          <rect key={i} x={x(from) + 1} y={PLOT_H - bh} width={bw - 2} height={bh} className={percentOf(to) >= percentOf(threshold) ? "bar-above" : "bar"}>
            <title>{t("histogram.bar", { from: percent(from), to: percent(to), count: n })}</title>
          </rect>
        );
      })}
      <line x1={x(0)} x2={x(1)} y1={PLOT_H} y2={PLOT_H} className="axis-line" />
      {TICKS.map((tick) => (
        <g key={tick}>
          <line x1={x(tick)} x2={x(tick)} y1={PLOT_H} y2={PLOT_H + 5} className="axis-line" />
          <text x={x(tick)} y={PLOT_H + 18} textAnchor={tick === 0 ? "start" : tick === 1 ? "end" : "middle"} className="axis" data-testid="tick">
            {percent(tick)}
          </text>
        </g>
      ))}
      <line x1={x(percentOf(threshold) / 100)} x2={x(percentOf(threshold) / 100)} y1={0} y2={PLOT_H} className="threshold-line" />
    </svg>
  );
}

function Loaded({ r }: { r: Report }) {
  const t = useT(similarity);
  const percent = usePercent();
  const [hidden, setHidden] = useAnonymous();
  // The slider moves in whole percents and starts at the suggested threshold as shown.
  const [threshold, setThreshold] = useState(percentOf(r.result?.threshold ?? 0.8) / 100);
  const name = namer(r.programs, hidden, t);
  const res = r.result!;
  // Members in the report's order (earliest submission first), not by id.
  const order = useMemo(() => new Map(r.programs.map((p, i) => [p.submissionId, i])), [r.programs]);
  const groups = useMemo(() => clusters(res.pairs, threshold).map((g) => [...g].sort((x, y) => (order.get(x) ?? 0) - (order.get(y) ?? 0))), [res.pairs, threshold, order]);
  const problemOf = new Map(r.programs.map((p) => [p.submissionId, p.problemId]));
  const label = new Map(r.problems.map((p) => [p.id, `${p.label}. ${p.title}`]));
  const language = new Map(r.programs.map((p) => [p.submissionId, p.language]));
  const aboveCount = res.pairs.filter((p) => atOrAbove(p.similarity, threshold)).length;
  // Every pair at or above the threshold, and at least the 50 most similar.
  const shown = res.pairs.filter((p, i) => i < 50 || atOrAbove(p.similarity, threshold));
  const highest = r.programs
    .filter((p) => !p.past && res.best[p.submissionId])
    .map((p) => ({ p, best: res.best[p.submissionId]! }))
    .sort((a, b) => b.best.similarity - a.best.similarity)
    .slice(0, 50);
  return (
    <>
      <p className="muted">
        {[
          t("summary.programs", { count: r.programs.length }),
          t("summary.pairs", { count: res.pairsTotal, seconds: new Intl.NumberFormat(intlLocales(activeLocale()), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(res.totalMs / 1000) }),
          t("summary.pick", { pick: r.options.pick === "best" ? "best" : "last" }),
          ...(r.options.against === "past" ? [t("summary.withPast")] : []),
          ...(r.options.starterCodeLanguages.length ? [t("summary.starterIgnored")] : []),
        ].join(" · ")}
      </p>
      {r.stale && (
        <p className="notice" role="status">
          {t("report.stale")}
        </p>
      )}
      {res.notCompared.length > 0 && (
        <p className="notice" role="status">
          {t("report.notCompared", { count: res.notCompared.length, languages: [...new Set(res.notCompared.map((n) => languageName(n.language)))].join(", ") })}
        </p>
      )}
      <div className="card-actions">
        <Checkbox label={t("names.hide")} checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
        <a className="btn btn-ghost btn-sm" href={`/api/similarity/${r.id}/pairs.csv`} download>
          {t("report.exportCsv")}
        </a>
      </div>
      <section className="card" aria-label={t("histogram.section")}>
        <h2>{t("histogram.title")}</h2>
        {/* The threshold slider runs left to right like the histogram above it, in every locale. */}
        <div className="similarity-scale">
          <Histogram bins={res.histogram} threshold={threshold} above={aboveCount} />
          <RangeField
            label={t("histogram.threshold")}
            dir="ltr"
            description={t("histogram.suggested", { percent: percent(res.threshold) })}
            min={0}
            max={1}
            step={0.01}
            value={threshold}
            onChange={(e) => setThreshold(Number(e.target.value))}
            valueText={<strong data-testid="threshold">{percent(threshold)}</strong>}
          />
          <p className="muted" data-testid="above-count">
            {t("histogram.above", { count: aboveCount, threshold: percent(threshold) })}
          </p>
        </div>
      </section>
      <section className="card" aria-label={t("clusters.section")}>
        <h2>{t("clusters.title", { threshold: percent(threshold) })}</h2>
        {groups.length === 0 ? (
          <p className="muted">{t("clusters.none")}</p>
        ) : (
          <ul className="cluster-list">
            {groups.map((g) => (
              <li key={g.join()} data-testid="cluster">
                {g.map((id) => name(id)).join(" · ")}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label={t("pairs.title")}>
        <h2>{t("pairs.title")}</h2>
        <div className="table-scroll">
          <table className="data-table" aria-label={t("pairs.title")}>
            <thead>
              <tr>
                <th scope="col">{t("pairs.similarity")}</th>
                <th scope="col">{t("pairs.left")}</th>
                <th scope="col">{t("pairs.right")}</th>
                <th scope="col">{t("pairs.problem")}</th>
                <th scope="col">{t("pairs.longest")}</th>
                <th scope="col">{t("pairs.mark")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.id} data-testid="pair-row" className={atOrAbove(p.similarity, threshold) ? "above-threshold" : undefined}>
                  <td>
                    <Link href={`/similarity/${r.id}/pairs/${p.id}`}>{percent(p.similarity)}</Link>
                  </td>
                  <td>{name(p.left)}</td>
                  <td>{name(p.right)}</td>
                  <td>
                    <bdi>{label.get(problemOf.get(p.left) ?? "") ?? ""}</bdi> <span className="muted">{languageName(language.get(p.left) ?? "")}</span>
                  </td>
                  <td>{p.longest}</td>
                  <td>{p.mark ? <span className={`mark mark-${p.mark.status}`}>{t(MARK_KEYS[p.mark.status])}</span> : <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {res.pairs.length > shown.length && <p className="muted">{t("pairs.more", { count: res.pairs.length - shown.length })}</p>}
      </section>
      <section aria-label={t("highest.section")}>
        <h2>{t("highest.title", { kind: r.scope.kind })}</h2>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t("highest.owner", { kind: r.scope.kind })}</th>
              <th scope="col">{t("highest.similarity")}</th>
              <th scope="col">{t("highest.with")}</th>
            </tr>
          </thead>
          <tbody>
            {highest.map(({ p, best }) => (
              <tr key={p.submissionId}>
                <td>{name(p.submissionId)}</td>
                <td>{percent(best.similarity)}</td>
                <td>{name(best.with)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

export default function ReportPage({ reportId }: { reportId: string }) {
  const t = useT(similarity);
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.similarity.byId.queryOptions({ reportId }),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "queued" || q.state.data.status === "running") ? 1000 : false),
  });
  return (
    <Page title={t("report.pageTitle")} width="wide">
        <QueryState query={query} loading={t("report.loading")} error={t("report.error")}>
          {(r) => (
            <>
              <div className="page-heading">
                <h1 className="page-title"><T ns={similarity} k="report.title" values={{ title: <bdi>{r.scope.title}</bdi> }} /></h1>
                <p>
                  <Link href={`/${r.scope.kind === "assignment" ? "assignments" : "contests"}/${r.scope.id}/similarity`} className="text-link">
                    {t("report.allReports")}
                  </Link>
                </p>
              </div>
              {r.status === "done" && r.result ? (
                <Loaded r={r} />
              ) : r.status === "failed" ? (
                <p className="form-error" role="alert">
                  {t("report.failed", { error: r.error ?? "" })}
                </p>
              ) : (
                <div role="status" aria-live="polite">
                  <p>{r.status === "queued" ? t("report.waiting") : t("report.comparing", { count: r.programs.length })}</p>
                  <progress max={1} value={r.progress} aria-label={t("report.progress")} />
                </div>
              )}
            </>
          )}
        </QueryState>
      </Page>
  );
}
