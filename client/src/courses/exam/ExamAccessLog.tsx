/**
 * The staff's view of an exam (an assignment's, or a contest's for its jury): who started or entered, when,
 * from which address and until when; who was refused by which rule; a Release button for a student held to
 * one session.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { DateTime } from "../../components/DateTime.tsx";
import { QueryState } from "../../components/QueryState.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { exam } from "../../i18n/catalog/exam/index.ts";

const EVENT_KEYS = {
  started: "event.started",
  released: "event.released",
  address: "event.address",
  seb: "event.seb",
  password: "event.password",
  session: "event.session",
  window: "event.window",
  lockdown: "event.lockdown",
  start: "event.start",
} as const;

type Target = { assignmentId: string } | { contestId: string };

export function ExamAccessLog({ oneSession, ...target }: Target & { oneSession: boolean }) {
  const t = useT(exam);
  const trpc = useTRPC();
  const contestId = "contestId" in target ? target.contestId : null;
  const assignmentId = "assignmentId" in target ? target.assignmentId : null;
  const query = useQuery(contestId ? trpc.contests.accessLog.queryOptions({ id: contestId }) : trpc.exam.accessLog.queryOptions({ id: assignmentId! }));
  const onSuccess = () => void query.refetch();
  const releaseAssignment = useMutation(trpc.exam.release.mutationOptions({ onSuccess }));
  const releaseContest = useMutation(trpc.contests.release.mutationOptions({ onSuccess }));
  const release = (userId: string) => (contestId ? releaseContest.mutate({ id: contestId, userId }) : releaseAssignment.mutate({ assignmentId: assignmentId!, userId }));
  // A contest's participant enters rather than starts.
  const eventText = (event: string) =>
    contestId && event === "started" ? t("event.entered") : contestId && event === "start" ? t("event.notEntered") : event in EVENT_KEYS ? t(EVENT_KEYS[event as keyof typeof EVENT_KEYS]) : event;
  return (
    <section className="card" aria-labelledby="exam-log-title">
      <h2 id="exam-log-title">{t("log.title")}</h2>
      <QueryState query={query} loading={t("log.loading")} error={t("log.loadFailed")}>
        {(v) => (
          <>
            <h3>{t(contestId ? "log.entries" : "log.starts")}</h3>
            {v.starts.length === 0 ? (
              <p className="muted">{t(contestId ? "log.noEntries" : "log.noStarts")}</p>
            ) : (
              <div className="table-scroll">
                <table className="data-table" data-testid="exam-starts">
                  <thead>
                    <tr>
                      <th scope="col">{t(contestId ? "log.participant" : "log.student")}</th>
                      <th scope="col">{t(contestId ? "log.enteredAt" : "log.startedAt")}</th>
                      <th scope="col">{t("log.address")}</th>
                      <th scope="col">{t("log.endsAt")}</th>
                      {oneSession && <th scope="col">{t("log.session")}</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {v.starts.map((s) => (
                      <tr key={s.userId}>
                        <td>{s.name || s.email}</td>
                        <td>
                          <DateTime value={s.startedAt} />
                        </td>
                        <td dir="ltr">{s.ip ?? "—"}</td>
                        <td>{s.endsAt ? <DateTime value={s.endsAt} /> : "—"}</td>
                        {oneSession && (
                          <td>
                            {s.sessionBound ? (
                              <button type="button" className="btn btn-ghost btn-sm" onClick={() => release(s.userId)} aria-label={t("log.releaseFor", { name: s.name || s.email })}>
                                {t("log.release")}
                              </button>
                            ) : (
                              t("log.released")
                            )}
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <h3>{t(contestId ? "log.entryEvents" : "log.events")}</h3>
            {v.log.length === 0 ? (
              <p className="muted">{t("log.noEvents")}</p>
            ) : (
              <div className="table-scroll">
                <table className="data-table" data-testid="exam-log">
                  <thead>
                    <tr>
                      <th scope="col">{t("log.at")}</th>
                      <th scope="col">{t(contestId ? "log.participant" : "log.student")}</th>
                      <th scope="col">{t("log.address")}</th>
                      <th scope="col">{t("log.event")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {v.log.map((l, i) => (
                      <tr key={`${l.at}-${i}`}>
                        <td>
                          <DateTime value={l.at} />
                        </td>
                        <td>{l.name || l.email || "—"}</td>
                        <td dir="ltr">{l.ip ?? "—"}</td>
                        <td>{eventText(l.event)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
