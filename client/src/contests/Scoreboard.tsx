/**
 * A contest scoreboard table: rank, team, solved and penalty (ICPC) or score
 * (IOI), and one cell per problem: solved with its minute and tries, first to
 * solve highlighted, rejected tries, and results hidden by the freeze marked
 * pending ("?"). Used live (ScoreboardPage) and by the reveal (RevealPage).
 */
import type { RouterOutputs } from "../lib/trpc.ts";
import { minutes } from "./format.ts";
import { useT } from "../i18n/index.tsx";
import { contests, type ContestsT } from "../i18n/catalog/contests/index.ts";

export type Board = RouterOutputs["contests"]["scoreboard"];
type Row = Board["rows"][number];
type Cell = Row["cells"][number];

function CellView({ cell, scoring, highlight, t }: { cell: Cell; scoring: Board["scoring"]; highlight: boolean; t: ContestsT }) {
  const tries = cell.numJudged + cell.numPending;
  let cls = "sb-cell";
  let main = "";
  if (cell.solved && scoring === "icpc") {
    cls += cell.firstToSolve ? " sb-first" : " sb-solved";
    main = minutes(cell.solvedAtMs);
  } else if (scoring === "ioi" && cell.score > 0) {
    cls += cell.score >= 100 ? " sb-solved" : " sb-partial";
    main = String(cell.score);
  } else if (cell.numPending > 0) {
    cls += " sb-pending";
    main = "?";
  } else if (cell.numJudged > 0) {
    cls += " sb-rejected";
    main = scoring === "ioi" ? "0" : "✗";
  }
  if (cell.numPending > 0 && main !== "?") cls += " sb-has-pending";
  if (highlight) cls += " sb-revealed";
  const label = tries === 0 ? t("board.noTries") : cell.numPending ? t("board.triesPending", { tries, pending: cell.numPending }) : t("board.tries", { tries });
  return (
    <td className={cls} title={label} data-testid={`cell-${cell.problemId}`}>
      {main && <span className="sb-main">{main}</span>}
      {tries > 0 && scoring === "icpc" && <span className="sb-tries">{cell.numPending ? `${cell.numJudged}+${cell.numPending}` : tries}</span>}
    </td>
  );
}

export function ScoreboardTable({ board, highlight }: { board: Pick<Board, "scoring" | "problems" | "teams" | "rows">; highlight?: { teamId: string; problemId: string } | null }) {
  const t = useT(contests);
  const icpc = board.scoring === "icpc";
  return (
    // A keyboard can scroll it when it is wider than a phone's screen (it has nothing else to focus).
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t("board.label")}>
      <table className="scoreboard" aria-label={t("board.label")}>
        <thead>
          <tr>
            <th scope="col" className="sb-rank">#</th>
            <th scope="col" className="sb-team">{t("board.team")}</th>
            <th scope="col">{icpc ? t("board.solved") : t("board.score")}</th>
            {icpc && <th scope="col">{t("board.time")}</th>}
            {board.problems.map((p) => (
              <th scope="col" key={p.problemId} className="sb-problem" title={p.title}>
                <span className="sb-balloon" style={p.color ? { background: p.color } : undefined} aria-hidden="true" />
                {p.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {board.rows.map((r) => (
            <tr key={r.teamId} data-testid={`row-${r.teamId}`} className={highlight?.teamId === r.teamId ? "sb-row-active" : undefined}>
              <td className="sb-rank">{r.rank}</td>
              <td className="sb-team">
                <span className="sb-team-name">{board.teams[r.teamId]?.name ?? r.teamId}</span>
                {board.teams[r.teamId]?.organization && <span className="sb-org">{board.teams[r.teamId]!.organization}</span>}
              </td>
              <td className="sb-total">{icpc ? r.numSolved : r.score}</td>
              {icpc && <td className="sb-total">{r.penaltyMinutes}</td>}
              {r.cells.map((c) => (
                <CellView key={c.problemId} cell={c} scoring={board.scoring} highlight={highlight?.teamId === r.teamId && highlight.problemId === c.problemId} t={t} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
