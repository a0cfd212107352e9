/** Per-test results (test number, verdict, time, memory): the solving page's live rows and the history cards. */
import { formatKib, formatMs } from "../lib/verdicts.ts";
import { VerdictBadge } from "./VerdictBadge.tsx";

export interface TestRow {
  index: number;
  isSample: boolean;
  verdict: string;
  timeMs: number;
  memoryKib: number;
}

/**
 * @param caption  screen-reader caption of the table
 * @param rowTestId  `data-testid` of each row (the e2e tests count live rows by it)
 */
export function TestTable({ tests, caption, rowTestId }: { tests: TestRow[]; caption: string; rowTestId?: string }) {
  return (
    <table className="test-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Test</th>
          <th scope="col">Verdict</th>
          <th scope="col">Time</th>
          <th scope="col">Memory</th>
        </tr>
      </thead>
      <tbody>
        {tests.map((t) => (
          <tr key={t.index} data-testid={rowTestId}>
            <td>{t.isSample ? "Sample" : `Test ${t.index}`}</td>
            <td>
              <VerdictBadge verdict={t.verdict} />
            </td>
            <td>{formatMs(t.timeMs)}</td>
            <td>{formatKib(t.memoryKib)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
