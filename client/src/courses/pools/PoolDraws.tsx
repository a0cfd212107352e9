/**
 * Staff see the draw (issue 37 §3): for each pool of the assignment, how many
 * students were given each problem and, per student, which one. Shown on the
 * assignment page; nothing when the assignment has no pool.
 */
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../components/QueryState.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { pools } from "../../i18n/catalog/pools/index.ts";

export function PoolDraws({ assignmentId, slotNumbers }: { assignmentId: string; slotNumbers: number[] }) {
  const t = useT(pools);
  const trpc = useTRPC();
  const query = useQuery(trpc.pools.draws.queryOptions({ assignmentId }));
  // Pools are named by their column's place among the slots (1-based), as in the gradebook.
  const place = (slot: number) => slotNumbers.indexOf(slot) + 1;
  return (
    <QueryState query={query} loading={t("draws.loading")} error={t("draws.loadFailed")} isEmpty={(d) => d.length === 0} empty={null}>
      {(list) => (
        <section className="card" aria-labelledby="draws-title" data-testid="pool-draws">
          <h2 id="draws-title">{t("draws.title")}</h2>
          {list.map((p) => {
            const titles = new Map(p.problems.map((x) => [x.problemId, x.title]));
            return (
              <div key={p.slot}>
                <h3>{t("draws.pool", { n: place(p.slot) })}</h3>
                <ul>
                  {p.problems.map((x) => (
                    <li key={x.problemId}>{t("draws.counts", { title: x.title, count: x.students })}</li>
                  ))}
                </ul>
                <div className="table-scroll">
                  <table className="data-table">
                    <caption className="sr-only">{t("draws.pool", { n: place(p.slot) })}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t("draws.student")}</th>
                        <th scope="col">{t("draws.problem")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.draws.map((d) => (
                        <tr key={d.userId}>
                          <th scope="row">
                            {d.name} <span className="muted">{d.email}</span>
                          </th>
                          <td>{titles.get(d.problemId)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            );
          })}
        </section>
      )}
    </QueryState>
  );
}
