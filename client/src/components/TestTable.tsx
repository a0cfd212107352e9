/** Per-test results (test number, verdict, time, memory): the solving page's live rows and the history cards. */
import { formatKib, formatMs } from "../lib/verdicts.ts";
import { VerdictBadge } from "./VerdictBadge.tsx";
import { useT } from "../i18n/index.tsx";
import { solve } from "../i18n/catalog/solve/index.ts";

import type { TestRow } from "./output-status.ts";

export type { TestRow };

/**
 * @param caption  screen-reader caption of the table
 * @param rowTestId  `data-testid` of each row (the e2e tests count live rows by it)
 */
export function TestTable({ tests, caption, rowTestId }: { tests: TestRow[]; caption: string; rowTestId?: string }) {
  const t = useT(solve);
  return (
    <table className="test-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t("tests.test")}</th>
          <th scope="col">{t("tests.verdict")}</th>
          <th scope="col">{t("tests.time")}</th>
          <th scope="col">{t("tests.memory")}</th>
        </tr>
      </thead>
      <tbody>
        {tests.map((r) => (
          <tr key={r.index} data-testid={rowTestId}>
            <td>{r.isSample ? t("tests.sample") : t("tests.number", { test: r.index })}</td>
            <td>
              <VerdictBadge verdict={r.verdict} />
            </td>
            {/* A number with its unit stays in that order in a right-to-left table ("18 ms", not "ms 18"). */}
            <td>
              <bdi>{formatMs(r.timeMs)}</bdi>
            </td>
            <td>
              <bdi>{formatKib(r.memoryKib)}</bdi>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
