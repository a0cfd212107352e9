/**
 * The account page's "Notifications": a table of the kinds of notice (rows)
 * by where they reach you (in the app, by e-mail), each cell a checkbox from
 * the form kit whose name says both (the column headers are its visual
 * label). A change is saved at once (`notifications.setPreferences`).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import "./notifications.css";
import { Checkbox } from "../kit/index.ts";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { notifications } from "../i18n/catalog/notifications/index.ts";
import { KIND_LABELS, type NoticeKind } from "./kinds.ts";

export function PreferencesSection() {
  const t = useT(notifications);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prefs = useQuery(trpc.notifications.preferences.queryOptions());
  const save = useMutation(trpc.notifications.setPreferences.mutationOptions());
  const { notice, run } = useNotice();

  async function change(kind: NoticeKind, inApp: boolean, email: boolean) {
    const saved = await run(() => save.mutateAsync({ kinds: [{ kind, inApp, email }] }), { success: t("prefs.saved"), error: t("prefs.failed"), successMs: 3000 });
    if (saved) queryClient.setQueryData(trpc.notifications.preferences.queryKey(), saved);
  }

  return (
    <section className="card" aria-labelledby="notification-settings-title" id="notification-settings">
      <h2 id="notification-settings-title">{t("prefs.title")}</h2>
      <QueryState query={prefs} loading={t("prefs.loading")} error={t("prefs.loadFailed")}>
        {(p) => (
          <>
            {!p.mailEnabled && <p className="muted">{t("prefs.noMail")}</p>}
            <table className="notice-prefs">
              <thead>
                <tr>
                  <th scope="col">{t("prefs.kind")}</th>
                  <th scope="col">{t("prefs.inApp")}</th>
                  <th scope="col">{t("prefs.email")}</th>
                </tr>
              </thead>
              <tbody>
                {p.kinds.map((k) => {
                  const kind = t(KIND_LABELS[k.kind]);
                  return (
                    <tr key={k.kind}>
                      <th scope="row">{kind}</th>
                      <td>
                        <Checkbox label={t("prefs.inAppLabel", { kind })} hideLabel checked={k.inApp} disabled={save.isPending} onChange={(e) => void change(k.kind, e.currentTarget.checked, k.email)} />
                      </td>
                      <td>
                        <Checkbox label={t("prefs.emailLabel", { kind })} hideLabel checked={k.email} disabled={save.isPending || !p.mailEnabled} onChange={(e) => void change(k.kind, k.inApp, e.currentTarget.checked)} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <FormMessage notice={notice} />
          </>
        )}
      </QueryState>
    </section>
  );
}
