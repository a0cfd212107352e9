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

type Report = RouterOutputs["similarity"]["byId"];
/** Similarities and thresholds are shown, and compared, as whole percents (src/similarity/threshold.ts, decision 057). */
const percent = (x: number) => `${percentOf(x)}%`;

/** Histogram plot: width and height in SVG units, and the margin on each side that keeps the end labels inside. */
const PLOT_W = 600;
const PLOT_H = 120;
const MARGIN_X = 16;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * Pair counts per similarity bin, 0 % at the left to 100 % at the right, with
 * ticks every 25 % and the threshold as a line; a bar that may hold a pair
 * at or above it (its upper end, as shown, reaches the threshold) in the alarm colour. Log-scaled heights keep a handful of copies visible beside
 * thousands of independent pairs.
 */
function Histogram({ bins, threshold, above }: { bins: number[]; threshold: number; above: number }) {
  const max = Math.max(1, ...bins);
  const x = (fraction: number) => MARGIN_X + fraction * PLOT_W;
  const bw = PLOT_W / bins.length;
  return (
    <svg
      viewBox={`0 0 ${PLOT_W + 2 * MARGIN_X} ${PLOT_H + 34}`}
      className="similarity-histogram"
      role="img"
      aria-label={`Pairs by similarity, 0% to 100%: ${above} pair${above === 1 ? "" : "s"} at or above ${percent(threshold)}`}
      data-testid="histogram"
    >
      {bins.map((n, i) => {
        const bh = n ? Math.max(2, (Math.log1p(n) / Math.log1p(max)) * PLOT_H) : 0;
        const from = i / bins.length;
        const to = (i + 1) / bins.length;
        return (
          <rect key={i} x={x(from) + 1} y={PLOT_H - bh} width={bw - 2} height={bh} className={percentOf(to) >= percentOf(threshold) ? "bar-above" : "bar"}>
            <title>{`${percent(from)}–${percent(to)}: ${n} pairs`}</title>
          </rect>
        );
      })}
      <line x1={x(0)} x2={x(1)} y1={PLOT_H} y2={PLOT_H} className="axis-line" />
      {TICKS.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={PLOT_H} y2={PLOT_H + 5} className="axis-line" />
          <text x={x(t)} y={PLOT_H + 18} textAnchor={t === 0 ? "start" : t === 1 ? "end" : "middle"} className="axis" data-testid="tick">
            {percent(t)}
          </text>
        </g>
      ))}
      <line x1={x(percentOf(threshold) / 100)} x2={x(percentOf(threshold) / 100)} y1={0} y2={PLOT_H} className="threshold-line" />
    </svg>
  );
}

function Loaded({ r }: { r: Report }) {
  const [hidden, setHidden] = useAnonymous();
  // The slider moves in whole percents and starts at the suggested threshold as shown.
  const [threshold, setThreshold] = useState(percentOf(r.result?.threshold ?? 0.8) / 100);
  const name = namer(r.programs, hidden);
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
        {r.programs.length} programs · {new Intl.NumberFormat().format(res.pairsTotal)} pairs compared in {(res.totalMs / 1000).toFixed(1)} s · {r.options.pick === "best" ? "best" : "last"} submissions
        {r.options.against === "past" ? " · with earlier offerings" : ""}
        {r.options.starterCodeLanguages.length ? " · starter code ignored" : ""}
      </p>
      {r.stale && (
        <p className="notice" role="status">
          Submissions have changed since this report was made: run it again for a fresh one.
        </p>
      )}
      {res.notCompared.length > 0 && (
        <p className="notice" role="status">
          Not compared: {res.notCompared.length} programs ({[...new Set(res.notCompared.map((n) => languageName(n.language)))].join(", ")}: no grammar on this server).
        </p>
      )}
      <div className="card-actions">
        <Checkbox label="Hide names" checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
        <a className="btn btn-ghost btn-sm" href={`/api/similarity/${r.id}/pairs.csv`} download>
          Export CSV
        </a>
      </div>
      <section className="card" aria-label="Histogram">
        <h2>Similarity of all pairs</h2>
        <div className="similarity-scale">
          <Histogram bins={res.histogram} threshold={threshold} above={aboveCount} />
          <RangeField
            label="Threshold"
            description={`Suggested: ${percent(res.threshold)}.`}
            min={0}
            max={1}
            step={0.01}
            value={threshold}
            onChange={(e) => setThreshold(Number(e.target.value))}
            valueText={<strong data-testid="threshold">{percent(threshold)}</strong>}
          />
          <p className="muted" data-testid="above-count">
            {aboveCount} pair{aboveCount === 1 ? "" : "s"} at or above {percent(threshold)}, compared as shown (whole percents).
          </p>
        </div>
      </section>
      <section className="card" aria-label="Clusters">
        <h2>Clusters at {percent(threshold)}</h2>
        {groups.length === 0 ? (
          <p className="muted">No pair at or above the threshold.</p>
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
      <section aria-label="Pairs">
        <h2>Pairs</h2>
        <div className="table-scroll">
          <table className="data-table" aria-label="Pairs">
            <thead>
              <tr>
                <th scope="col">Similarity</th>
                <th scope="col">Left</th>
                <th scope="col">Right</th>
                <th scope="col">Problem</th>
                <th scope="col">Longest fragment</th>
                <th scope="col">Mark</th>
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
                    {label.get(problemOf.get(p.left) ?? "") ?? ""} <span className="muted">{languageName(language.get(p.left) ?? "")}</span>
                  </td>
                  <td>{p.longest}</td>
                  <td>{p.mark ? <span className={`mark mark-${p.mark.status}`}>{p.mark.status}</span> : <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {res.pairs.length > shown.length && <p className="muted">{res.pairs.length - shown.length} more pairs below the threshold are in the CSV.</p>}
      </section>
      <section aria-label="Highest match">
        <h2>Highest match per {r.scope.kind === "assignment" ? "student" : "team"}</h2>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{r.scope.kind === "assignment" ? "Student" : "Team"}</th>
              <th scope="col">Highest similarity</th>
              <th scope="col">With</th>
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
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.similarity.byId.queryOptions({ reportId }),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "queued" || q.state.data.status === "running") ? 1000 : false),
  });
  return (
    <Page title={"Similarity report"} width="wide">
        <QueryState query={query} loading="Loading the report..." error="Failed to fetch the report">
          {(r) => (
            <>
              <div className="page-heading">
                <h1 className="page-title">Similarity: {r.scope.title}</h1>
                <p>
                  <Link href={`/${r.scope.kind === "assignment" ? "assignments" : "contests"}/${r.scope.id}/similarity`} className="text-link">
                    All reports
                  </Link>
                </p>
              </div>
              {r.status === "done" && r.result ? (
                <Loaded r={r} />
              ) : r.status === "failed" ? (
                <p className="form-error" role="alert">
                  The report failed: {r.error}
                </p>
              ) : (
                <div role="status" aria-live="polite">
                  <p>{r.status === "queued" ? "Waiting for its turn..." : `Comparing ${r.programs.length} programs...`}</p>
                  <progress max={1} value={r.progress} aria-label="Progress" />
                </div>
              )}
            </>
          )}
        </QueryState>
      </Page>
  );
}
