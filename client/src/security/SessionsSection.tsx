/**
 * The account page's "Where you're signed in": the account's live sessions (browser and system,
 * address, when signed in and last active; this browser marked), each with "Sign out", and "Sign
 * out everywhere else" (trpc `sessions.*`, src/auth/sessions-list.ts).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import "./security.css";
import { QueryState } from "../components/QueryState.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { security } from "../i18n/catalog/security/index.ts";

export function SessionsSection() {
  const t = useT(security);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.sessions.list.queryOptions());
  const end = useMutation(trpc.sessions.end.mutationOptions());
  const endOthers = useMutation(trpc.sessions.endOthers.mutationOptions());
  const { notice, run } = useNotice();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sessions.list.queryKey() });

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t("sessions.title")}</h2>
      <QueryState query={list} loading={t("sessions.loading")} error={t("sessions.error")}>
        {({ sessions }) => (
          <>
            <ul className="plain-list session-list" data-testid="sessions">
              {sessions.map((s) => {
                const device = s.device ?? t("sessions.unknownDevice");
                const address = s.ip ?? t("sessions.unknownAddress");
                return (
                  <li key={s.id} className="session-row">
                    <div>
                      <strong dir="auto">{device}</strong>
                      {s.current && <span className="badge badge-kind session-current">{t("sessions.this")}</span>}
                      <p className="muted session-meta">
                        <span dir="ltr">{t("sessions.address", { address })}</span>
                        {" · "}
                        <T ns={security} k="sessions.signedIn" components={{ 0: <DateTime value={s.createdAt} mode="auto" /> }} />
                        {s.lastSeenAt && (
                          <>
                            {" · "}
                            <T ns={security} k="sessions.lastSeen" components={{ 0: <DateTime value={s.lastSeenAt} mode="relative" /> }} />
                          </>
                        )}
                      </p>
                    </div>
                    {!s.current && (
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        aria-label={t("sessions.endLabel", { device, address })}
                        disabled={end.isPending}
                        onClick={async () => {
                          await run(() => end.mutateAsync({ id: s.id }), { success: t("sessions.ended"), error: t("sessions.failed") });
                          await refresh();
                        }}
                      >
                        {t("sessions.end")}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
            {sessions.some((s) => !s.current) && (
              <button
                type="button"
                className="btn btn-ghost"
                disabled={endOthers.isPending}
                onClick={async () => {
                  await run(() => endOthers.mutateAsync(), { success: (r) => t("sessions.endedOthers", { count: r.ended }), error: t("sessions.failed") });
                  await refresh();
                }}
              >
                {t("sessions.endOthers")}
              </button>
            )}
            <FormMessage notice={notice} />
          </>
        )}
      </QueryState>
    </section>
  );
}
