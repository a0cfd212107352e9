/** The regrade requests of one submission: reason, state and staff's answer. */
import { DateTime } from "../components/DateTime.tsx";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import type { Review } from "./review-types.ts";

const STATUS = { open: "regrade.statusOpen", accepted: "regrade.statusAccepted", declined: "regrade.statusDeclined" } as const;

export function RegradeList({ requests }: { requests: Review["regradeRequests"] }) {
  const t = useT(grading);
  if (requests.length === 0) return <p className="muted">{t("regrade.none")}</p>;
  return (
    <ol className="regrade-list" aria-label={t("regrade.listLabel")}>
      {requests.map((q) => (
        <li key={q.id} data-testid="regrade-request">
          <p>
            <strong>{t(STATUS[q.status])}</strong> · <DateTime value={q.createdAt} mode="auto" />
          </p>
          <p className="regrade-reason" dir="auto">
            {q.reason}
          </p>
          {q.answer !== null && (
            <div className="review-comment" role="note" aria-label={t("regrade.answerLabel")}>
              <p dir="auto">{q.answer}</p>
              {q.points !== null && <p>{t("regrade.newPoints", { points: q.points })}</p>}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
