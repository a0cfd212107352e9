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

export function CourseLmsSection({ courseId }: { courseId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({ ...trpc.lti.courseStatus.queryOptions({ courseId }), refetchInterval: 5000 });
  const sync = useMutation(trpc.lti.syncRoster.mutationOptions());
  const { notice, run } = useNotice();
  const s = status.data;
  if (!s || (s.contexts.length === 0 && s.activities.length === 0)) return null;
  const onSync = async () => {
    const r = await run(() => sync.mutateAsync({ courseId }), {
      success: (r) => `Roster synced: ${r.listed} in the LMS, ${r.added} added, ${r.updated} changed, ${r.unchanged} unchanged, ${r.skipped} skipped.`,
      error: "The roster could not be synced.",
    });
    if (r) await queryClient.invalidateQueries();
  };
  return (
    <section className="card" aria-labelledby="lms-title">
      <h2 id="lms-title">LMS</h2>
      <ul className="plain-list">
        {s.contexts.map((c) => (
          <li key={`${c.platform}:${c.contextId}`}>
            Linked to <strong>{c.platform}</strong> course {c.contextId}
            {c.rosterSyncedAt && <span className="muted"> · roster synced <DateTime value={c.rosterSyncedAt} mode="auto" /></span>}
          </li>
        ))}
      </ul>
      {s.contexts.some((c) => c.rosterService) && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void onSync()} disabled={sync.isPending}>
          {sync.isPending ? "Syncing..." : "Sync roster from the LMS"}
        </button>
      )}
      <FormMessage notice={notice} />
      {s.activities.length > 0 && (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">LMS activity</th>
                <th scope="col">Opens</th>
                <th scope="col">Grades to the LMS</th>
              </tr>
            </thead>
            <tbody>
              {s.activities.map((x) => (
                <tr key={x.resourceLinkId}>
                  <td>{x.resourceLinkId}</td>
                  <td>{x.assignmentTitle ?? (x.problemId ? "a problem" : "the course")}</td>
                  <td data-testid={`lms-grades-${x.resourceLinkId}`}>
                    {x.gradesToLms ? `${x.sent} sent, ${x.waiting} waiting, ${x.failing} failing` : "—"}
                    {x.lastError && <span className="muted block">Last error: {x.lastError} (retried automatically)</span>}
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
