/**
 * The sign-in page's second step for an account with two-factor sign-in: the ticket the password
 * step answered, plus a six-digit code from the app or a recovery code (trpc `auth.loginTwoFactor`).
 * "Start again" goes back to the password (a ticket lasts five minutes and five codes).
 */
import "./security.css";
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { TextField } from "../kit/index.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { security } from "../i18n/catalog/security/index.ts";
import type { SessionUserView } from "../lib/auth.tsx";

export function TwoFactorSignIn({ ticket, onSignedIn, onBack }: { ticket: string; onSignedIn: (token: string, user: SessionUserView) => void; onBack: () => void }) {
  const t = useT(security);
  const trpc = useTRPC();
  const mutation = useMutation(trpc.auth.loginTwoFactor.mutationOptions());
  const { notice, run } = useNotice();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const res = await run(() => mutation.mutateAsync({ ticket, code }), { error: t("signIn.failed") });
    if (res) onSignedIn(res.token, res.user);
  }

  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="two-factor-signin-title">
      <h2 id="two-factor-signin-title">{t("signIn.title")}</h2>
      <p className="muted">{t("signIn.help")}</p>
      {recovery ? (
        <TextField key="recovery" id="two-factor-recovery" dir="ltr" label={t("signIn.recoveryCode")} description={t("signIn.recoveryHint")} required autoComplete="off" autoFocus maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} />
      ) : (
        <TextField key="app" id="two-factor-signin-code" dir="ltr" label={t("signIn.code")} required inputMode="numeric" autoComplete="one-time-code" autoFocus maxLength={8} value={code} onChange={(e) => setCode(e.target.value)} />
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
        {mutation.isPending && <Spinner />} {t("signIn.submit")}
      </button>
      <FormMessage notice={notice} />
      <div className="two-factor-actions">
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            setRecovery(!recovery);
            setCode("");
          }}
        >
          {recovery ? t("signIn.useApp") : t("signIn.useRecovery")}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onBack}>
          {t("signIn.back")}
        </button>
      </div>
    </form>
  );
}
