/**
 * The gradebook's pieces for pools and late days (issue 37 §3, §6): a slot's
 * column heading (a pool is "Pool N"), the name of the problem a student was
 * given, and the late-days cell with the staff's refund.
 */
import { useMutation } from "@tanstack/react-query";
import { useNotice } from "../../lib/notice.ts";
import { FormMessage } from "../../components/FormMessage.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { pools } from "../../i18n/catalog/pools/index.ts";

/** A slot's heading: its problem's title, or "Pool N" for a pool. */
export function SlotHeading({ index, problemIds, titleOf, points }: { index: number; problemIds: string[]; titleOf: (id: string) => string; points: number }) {
  const t = useT(pools);
  return (
    <>
      {problemIds.length > 1 ? t("gradebook.pool", { n: index + 1 }) : titleOf(problemIds[0]!)} <span className="muted">({points})</span>
    </>
  );
}

/** Under a pool's cell: the problem given to this student. */
export function DrawnNote({ title }: { title: string }) {
  const t = useT(pools);
  return <span className="cell-meta block">{t("gradebook.drawn", { title })}</span>;
}

export function LateDaysHeading() {
  const t = useT(pools);
  return <>{t("gradebook.lateDays")}</>;
}

/** Days a student spent on the assignment, with a refund (staff) that rereads the gradebook. */
export function LateDaysCell({ assignmentId, userId, student, days, onRefunded }: { assignmentId: string; userId: string; student: string; days: number; onRefunded: () => void }) {
  const t = useT(pools);
  const trpc = useTRPC();
  const refund = useMutation(trpc.pools.refundLateDays.mutationOptions());
  const { notice, run } = useNotice();
  return (
    <td data-testid="late-days-cell">
      {days}
      {days > 0 && (
        <>
          {" "}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={t("gradebook.refundLabel", { days, student })}
            disabled={refund.isPending}
            onClick={() => void run(() => refund.mutateAsync({ assignmentId, userId }), { success: t("gradebook.refunded"), error: t("gradebook.refundFailed") }).then(onRefunded)}
          >
            {t("gradebook.refund")}
          </button>
        </>
      )}
      <FormMessage notice={notice} />
    </td>
  );
}
