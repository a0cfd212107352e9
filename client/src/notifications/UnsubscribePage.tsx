/**
 * Where a notice e-mail's "Stop e-mails of this kind" link leads
 * (`/notifications/unsubscribe?token=…`), signed in or not: opening the page
 * changes nothing (mail scanners open links); its button turns that kind's
 * e-mail off (`notifications.unsubscribe`, the token being the proof).
 */
import { useMutation } from "@tanstack/react-query";
import { Link, useSearch } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { notifications } from "../i18n/catalog/notifications/index.ts";
import { KIND_LABELS } from "./kinds.ts";

export default function UnsubscribePage() {
  const t = useT(notifications);
  const trpc = useTRPC();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const stop = useMutation(trpc.notifications.unsubscribe.mutationOptions());
  return (
    <Page title={t("unsubscribe.title")}>
      <div className="page-heading">
        <h1 className="page-title">{t("unsubscribe.title")}</h1>
      </div>
      <section className="card">
        {stop.isSuccess ? (
          <p role="status">{t("unsubscribe.done", { kind: t(KIND_LABELS[stop.data.kind]) })}</p>
        ) : (
          <>
            <p>{t("unsubscribe.explain")}</p>
            <button type="button" className="btn btn-primary" disabled={!token || stop.isPending} onClick={() => stop.mutate({ token })}>
              {t("unsubscribe.confirm")}
            </button>
          </>
        )}
        {stop.isError && (
          <p className="form-error" role="alert">
            {serverMessageOf(stop.error) ?? t("unsubscribe.failed")}
          </p>
        )}
        <p>
          <Link href="/account#notification-settings">{t("unsubscribe.settings")}</Link>
        </p>
      </section>
    </Page>
  );
}
