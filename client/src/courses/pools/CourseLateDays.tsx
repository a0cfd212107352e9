/** The course's late days per student (teachers, on the course settings page; issue 37 §6). */
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { NumberField } from "../../kit/index.ts";
import { FormMessage } from "../../components/FormMessage.tsx";
import { useNotice } from "../../lib/notice.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { pools } from "../../i18n/catalog/pools/index.ts";

export function CourseLateDays({ courseId }: { courseId: string }) {
  const t = useT(pools);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const course = useQuery(trpc.courses.byId.queryOptions({ id: courseId }));
  const update = useMutation(trpc.courses.update.mutationOptions());
  const [days, setDays] = useState(0);
  const { notice, run } = useNotice();
  useEffect(() => {
    if (course.data) setDays(course.data.lateDays);
  }, [course.data]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await run(() => update.mutateAsync({ id: courseId, lateDays: days }), { success: t("settings.saved"), error: t("settings.failed") });
    await queryClient.invalidateQueries({ queryKey: trpc.courses.byId.queryKey({ id: courseId }) });
  }

  return (
    <section className="card" aria-labelledby="late-days-settings-title">
      <h2 id="late-days-settings-title">{t("lateDays.title")}</h2>
      <form className="inline-form" onSubmit={onSubmit}>
        <NumberField label={t("settings.lateDays")} description={t("settings.lateDaysHelp")} min={0} max={30} step={1} value={days} onChange={(e) => setDays(Number(e.target.value))} />
        <button type="submit" className="btn btn-primary btn-sm" disabled={update.isPending}>
          {t("settings.save")}
        </button>
      </form>
      <FormMessage notice={notice} />
    </section>
  );
}
