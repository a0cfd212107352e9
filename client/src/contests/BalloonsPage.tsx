/** The balloon list, for the jury's runners: each team's first solve of each problem, oldest first, marked when delivered. */
import { Checkbox } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { Link } from "wouter";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { minutes } from "./format.ts";
import { T, useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

export default function BalloonsPage({ contestId }: { contestId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const t = useT(contests);
  const query = useQuery({ ...trpc.contests.balloons.queryOptions({ id: contestId }), refetchInterval: 10_000 });
  const mark = async (teamId: string, problemId: string, delivered: boolean) => {
    await client.contests.markBalloon.mutate({ id: contestId, teamId, problemId, delivered });
    await qc.invalidateQueries({ queryKey: trpc.contests.balloons.queryKey({ id: contestId }) });
  };
  return (
    <Page title={t("balloons.title")}>
        <div className="page-heading">
          <h1 className="page-title">{t("balloons.title")}</h1>
          <p>
            <Link href={`/contests/${contestId}`} className="text-link">
              {t("nav.backToContest")}
            </Link>
          </p>
        </div>
        <QueryState query={query} loading={t("balloons.loading")} error={t("balloons.error")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("balloons.empty")}</p>}>
          {(list) => (
            <div className="table-scroll">
              <table className="data-table" aria-label={t("balloons.title")}>
                <thead>
                  <tr>
                    <th scope="col">{t("balloons.minute")}</th>
                    <th scope="col">{t("balloons.problem")}</th>
                    <th scope="col">{t("balloons.team")}</th>
                    <th scope="col">{t("balloons.delivered")}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((b) => (
                    <tr key={`${b.teamId}:${b.problemId}`} data-testid="balloon">
                      <td>{minutes(b.solvedAtMs)}</td>
                      <td>
                        <span className="sb-balloon" style={b.color ? { background: b.color } : undefined} aria-hidden="true" /> {b.label}
                        {b.firstToSolve && <strong> · {t("balloons.firstToSolve")}</strong>}
                      </td>
                      <td>{b.teamName}</td>
                      <td>
                        <Checkbox
                          label={<T ns={contests} k="balloons.deliveredLabel" values={{ label: b.label, team: b.teamName }} components={{ 0: <span className="sr-only" /> }} />}
                          hideLabel
                          checked={b.deliveredAt !== null}
                          onChange={(e) => void mark(b.teamId, b.problemId, e.target.checked)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryState>
      </Page>
  );
}
