/**
 * Extra time in the course roster (teachers): each student's percentage (timed windows) and minutes (timed
 * windows and every deadline; decision 075), saved per student.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { NumberField } from "../../kit/index.ts";
import { serverMessageOf, useTRPC } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { exam } from "../../i18n/catalog/exam/index.ts";

interface Student {
  userId: string;
  name: string;
  email: string;
}

function ExtraTimeRow({ courseId, student, initial }: { courseId: string; student: Student; initial: { extraTimePercent: number; extraMinutes: number } }) {
  const t = useT(exam);
  const trpc = useTRPC();
  const save = useMutation(trpc.exam.setExtraTime.mutationOptions());
  const [percent, setPercent] = useState(String(initial.extraTimePercent));
  const [minutes, setMinutes] = useState(String(initial.extraMinutes));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const who = student.name || student.email;
  async function onSave(e: FormEvent) {
    e.preventDefault();
    try {
      await save.mutateAsync({ courseId, userId: student.userId, extraTimePercent: Number(percent), extraMinutes: Number(minutes) });
      setMessage({ ok: true, text: t("extra.saved", { name: who }) });
    } catch (err) {
      setMessage({ ok: false, text: serverMessageOf(err) ?? t("extra.failed") });
    }
  }
  return (
    <tr data-testid="extra-time-row">
      <th scope="row">{who}</th>
      <td>
        <form id={`extra-${student.userId}`} onSubmit={onSave} />
        <NumberField form={`extra-${student.userId}`} label={t("extra.percentFor", { name: who })} hideLabel min={0} max={300} step={1} unit="%" value={percent} onChange={(e) => setPercent(e.target.value)} />
      </td>
      <td>
        <NumberField form={`extra-${student.userId}`} label={t("extra.minutesFor", { name: who })} hideLabel min={0} max={10080} step={1} unit={t("extra.minutesUnit")} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      </td>
      <td>
        <button type="submit" form={`extra-${student.userId}`} className="btn btn-ghost btn-sm" aria-label={t("extra.saveFor", { name: who })} disabled={save.isPending}>
          {t("extra.save")}
        </button>
        <span role={message && !message.ok ? "alert" : "status"} className={message && !message.ok ? "form-error" : "muted"}>
          {message ? ` ${message.text}` : ""}
        </span>
      </td>
    </tr>
  );
}

export function ExtraTimeSection({ courseId, students }: { courseId: string; students: Student[] }) {
  const t = useT(exam);
  const trpc = useTRPC();
  const extra = useQuery(trpc.exam.extraTimes.queryOptions({ courseId }));
  if (!students.length || !extra.data) return null;
  return (
    <section className="card" aria-labelledby="extra-time-title">
      <h2 id="extra-time-title">{t("extra.title")}</h2>
      <p className="muted">{t("extra.explain")}</p>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t("extra.student")}</th>
              <th scope="col">{t("extra.percent")}</th>
              <th scope="col">{t("extra.minutes")}</th>
              <th scope="col">{t("extra.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {students.map((s) => (
              <ExtraTimeRow key={s.userId} courseId={courseId} student={s} initial={extra.data[s.userId] ?? { extraTimePercent: 0, extraMinutes: 0 }} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
