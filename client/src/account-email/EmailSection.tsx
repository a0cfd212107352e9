/**
 * The account page's "E-mail address" section (trpc `accountEmail.*`, src/accounts/email): the address and
 * whether it is verified, "Send the link again" while it is not, a change waiting for its link, and the change
 * form (the new address, and the password for an account that has one). The address changes only when the
 * link sent to the new address is opened (./ConfirmEmailPage.tsx). Without mail the section says so.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TextField } from "../kit/index.ts";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { email } from "../i18n/catalog/email/index.ts";

export function EmailSection() {
  const t = useT(email);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.accountEmail.status.queryOptions());
  const resend = useMutation(trpc.accountEmail.sendVerification.mutationOptions());
  const change = useMutation(trpc.accountEmail.change.mutationOptions());
  const resendNotice = useNotice();
  const changeNotice = useNotice();
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.accountEmail.status.queryKey() });

  async function onResend() {
    await resendNotice.run(() => resend.mutateAsync(), { success: (r) => r.message, error: t("section.resendFailed") });
  }

  async function onChange(e: FormEvent, hasPassword: boolean) {
    e.preventDefault();
    const done = await changeNotice.run(() => change.mutateAsync({ newEmail, ...(hasPassword ? { password } : {}) }), { success: (r) => r.message, error: t("change.failed") });
    if (!done) return;
    setNewEmail("");
    setPassword("");
    void refresh();
  }

  return (
    <section className="card" aria-labelledby="email-title" id="email">
      <h2 id="email-title">{t("section.title")}</h2>
      <QueryState query={status} loading={t("section.loading")} error={t("section.error")}>
        {(s) => (
          <>
            <p data-testid="email-status">
              <strong dir="ltr">{s.email}</strong>{" "}
              <span className={`badge ${s.verified ? "badge-easy" : "badge-medium"}`}>{s.verified ? t("section.verified") : t("section.unverified")}</span>
            </p>
            {!s.byMail ? (
              <p className="muted">{t("section.noMail")}</p>
            ) : (
              <>
                {!s.verified && (
                  <>
                    <p className="muted">{t("section.unverifiedHint")}</p>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={onResend} disabled={resend.isPending}>
                      {resend.isPending && <Spinner />} {t("section.resend")}
                    </button>
                    <FormMessage notice={resendNotice.notice} />
                  </>
                )}
                {s.pendingEmail && <p className="muted">{t("section.pending", { email: s.pendingEmail })}</p>}
                <h3>{t("change.title")}</h3>
                <form className="form" onSubmit={(e) => onChange(e, s.hasPassword)}>
                  <p className="muted">{t("change.hint")}</p>
                  <TextField id="new-email" label={t("change.newEmail")} type="email" required value={newEmail} onChange={(e) => setNewEmail(e.target.value)} autoComplete="email" dir="ltr" />
                  {s.hasPassword && (
                    <TextField id="email-change-password" label={t("change.password")} description={t("change.passwordHint")} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
                  )}
                  <button type="submit" className="btn btn-primary" disabled={change.isPending}>
                    {change.isPending && <Spinner />} {t("change.submit")}
                  </button>
                  <FormMessage notice={changeNotice.notice} />
                </form>
              </>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
