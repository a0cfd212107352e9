/**
 * The course's LMS link, for its staff (course settings): the linked LMS
 * courses with a "Sync roster from the LMS" button (NRPS), and per linked
 * activity whether its grades reach the LMS: waiting, sent, failing with the
 * last error. Shows nothing for a course no LMS launched into.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { lti } from "../i18n/catalog/lti/index.ts";

export function CourseLmsSection({ courseId }: { courseId: string }) {
  const t = useT(lti);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({ ...trpc.lti.courseStatus.queryOptions({ courseId }), refetchInterval: 5000 });
  const sync = useMutation(trpc.lti.syncRoster.mutationOptions());
  const { notice, run } = useNotice();
  const s = status.data;
  if (!s || (s.contexts.length === 0 && s.activities.length === 0)) return null;
  const onSync = async () => {
    const r = await run(() => sync.mutateAsync({ courseId }), {
      success: (r) => t("course.synced", { listed: r.listed, added: r.added, updated: r.updated, unchanged: r.unchanged, skipped: r.skipped }),
      error: t("course.syncFailed"),
    });
    if (r) await queryClient.invalidateQueries();
  };
  return (
    <section className="card" aria-labelledby="lms-title">
      <h2 id="lms-title">{t("course.title")}</h2>
      <ul className="plain-list">
        {s.contexts.map((c) => (
          <li key={`${c.platform}:${c.contextId}`}>
            <T ns={lti} k="course.linked" values={{ platform: <>{c.platform}</>, context: <>{c.contextId}</> }} components={{ 0: <strong /> }} />
            {c.rosterSyncedAt && (
              <span className="muted">
                {" · "}
                <T ns={lti} k="course.rosterSynced" values={{ when: <DateTime value={c.rosterSyncedAt} mode="auto" /> }} />
              </span>
            )}
          </li>
        ))}
      </ul>
      {s.contexts.some((c) => c.rosterService) && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void onSync()} disabled={sync.isPending}>
          {sync.isPending ? t("course.syncing") : t("course.sync")}
        </button>
      )}
      <FormMessage notice={notice} />
      {s.activities.length > 0 && (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t("course.activity")}</th>
                <th scope="col">{t("course.opens")}</th>
                <th scope="col">{t("course.grades")}</th>
              </tr>
            </thead>
            <tbody>
              {s.activities.map((x) => (
                <tr key={x.resourceLinkId}>
                  <td>{x.resourceLinkId}</td>
                  <td>{x.assignmentTitle ?? (x.problemId ? t("course.aProblem") : t("course.theCourse"))}</td>
                  <td data-testid={`lms-grades-${x.resourceLinkId}`}>
                    {x.gradesToLms ? t("course.gradeCounts", { sent: x.sent, waiting: x.waiting, failing: x.failing }) : "—"}
                    {x.lastError && <span className="muted block">{t("course.lastError", { error: x.lastError })}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
