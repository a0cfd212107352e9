/**
 * The late-day control on a student's assignment page (issue 37 §6): how many
 * late days remain in the course and how many were spent here, a number of
 * days to spend, and a confirmation dialog (the kit's, an alertdialog) saying
 * the new due time and how many would remain before anything is spent. The
 * server checks everything again (POST /api/assignments/:id/late-days).
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { NumberField } from "../../kit/index.ts";
import { Dialog } from "../../kit/Dialog.tsx";
import { FormMessage } from "../../components/FormMessage.tsx";
import { DateTime } from "../../components/DateTime.tsx";
import { useNotice } from "../../lib/notice.ts";
import { useTRPC, type RouterOutputs } from "../../lib/trpc.ts";
import { T, useT } from "../../i18n/index.tsx";
import { pools } from "../../i18n/catalog/pools/index.ts";

type Assignment = RouterOutputs["assignments"]["byId"];
const DAY_MS = 86_400_000;

export function LateDaysControl({ assignment: a }: { assignment: Assignment }) {
  const t = useT(pools);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const spend = useMutation(trpc.pools.spendLateDays.mutationOptions());
  const [days, setDays] = useState(1);
  const [confirming, setConfirming] = useState(false);
  const { notice, run } = useNotice();
  const ld = a.lateDays;
  if (!ld || !a.dueAt) return null;
  const newDue = a.window.dueAt ? new Date(Date.parse(a.window.dueAt) + days * DAY_MS).toISOString() : null;
  const valid = Number.isInteger(days) && days >= 1 && days <= ld.remaining;

  function onAsk(e: FormEvent) {
    e.preventDefault();
    if (valid) setConfirming(true);
  }

  async function onConfirm() {
    setConfirming(false);
    await run(() => spend.mutateAsync({ assignmentId: a.id, days }), {
      success: (b) => t("lateDays.spent", { remaining: b.remaining }),
      error: t("lateDays.failed"),
    });
    await queryClient.invalidateQueries({ queryKey: trpc.assignments.byId.queryKey({ id: a.id }) });
    setDays(1);
  }

  return (
    <section className="card" aria-labelledby="late-days-title" data-testid="late-days">
      <h2 id="late-days-title">{t("lateDays.title")}</h2>
      <p>{t("lateDays.balance", { remaining: ld.remaining, allowed: ld.allowed })}</p>
      {ld.spentHere > 0 && <p>{t("lateDays.spentHere", { spent: ld.spentHere })}</p>}
      {ld.remaining === 0 ? (
        <p className="muted">{t("lateDays.none")}</p>
      ) : (
        <form className="inline-form" onSubmit={onAsk}>
          <NumberField label={t("lateDays.days")} min={1} max={ld.remaining} step={1} value={days} onChange={(e) => setDays(Number(e.target.value))} required />
          <button type="submit" className="btn btn-primary btn-sm" disabled={!valid || spend.isPending}>
            {t("lateDays.spend")}
          </button>
        </form>
      )}
      <FormMessage notice={notice} />
      <Dialog open={confirming} onOpenChange={setConfirming} title={t("lateDays.confirmTitle")} role="alertdialog">
        <p>
          <T ns={pools} k="lateDays.confirmText" values={{ days, title: a.title, due: newDue ? <DateTime value={newDue} withZone /> : "—", remaining: ld.remaining - days }} />
        </p>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
            {t("lateDays.cancel")}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void onConfirm()} autoFocus>
            {t("lateDays.confirm", { days })}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
