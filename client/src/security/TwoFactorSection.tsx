/**
 * The account page's "Two-factor sign-in" (trpc `twoFactor.*`, src/accounts/two-factor): off →
 * "Turn on" shows a QR code and the key to type, then a code from the app turns it on and the ten
 * recovery codes are shown once; on → how many recovery codes are left, new codes (with a code
 * from the app), and "Turn off" (with the password, or a code for an account without one), unless
 * the site requires it of this account. Reached at /account#two-factor (a session that must set it
 * up is sent here).
 */
import "./security.css";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TextField } from "../kit/index.ts";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { security } from "../i18n/catalog/security/index.ts";

type Setup = { qrCodeDataUrl: string; manualKey: string };

export function TwoFactorSection() {
  const t = useT(security);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const passwordStatus = useQuery(trpc.auth.passwordStatus.queryOptions());
  const start = useMutation(trpc.twoFactor.start.mutationOptions());
  const confirm = useMutation(trpc.twoFactor.confirm.mutationOptions());
  const disable = useMutation(trpc.twoFactor.disable.mutationOptions());
  const renew = useMutation(trpc.twoFactor.renewRecoveryCodes.mutationOptions());
  const { notice, run } = useNotice();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [action, setAction] = useState<"renew" | "disable" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.twoFactor.status.queryKey() });
  const hasPassword = passwordStatus.data?.hasPassword !== false;
  const heading = useRef<HTMLHeadingElement>(null);
  // Sent here to set it up (/account#two-factor): the section is brought into view and its heading focused.
  useEffect(() => {
    if (window.location.hash !== "#two-factor") return;
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus();
  }, []);

  async function onConfirm(e: FormEvent) {
    e.preventDefault();
    const res = await run(() => confirm.mutateAsync({ code }), { success: t("twoFactor.turnedOn"), error: t("twoFactor.failed") });
    if (!res) return;
    setSetup(null);
    setCode("");
    setCodes(res.recoveryCodes);
    await refresh();
  }

  async function onAction(e: FormEvent) {
    e.preventDefault();
    if (action === "renew") {
      const res = await run(() => renew.mutateAsync({ code }), { error: t("twoFactor.failed") });
      if (res) setCodes(res.recoveryCodes);
    } else {
      const res = await run(() => disable.mutateAsync(hasPassword ? { password } : { code }), { success: (r) => r.message, error: t("twoFactor.failed") });
      if (!res) return;
    }
    setAction(null);
    setCode("");
    setPassword("");
    await refresh();
  }

  return (
    <section className="card" aria-labelledby="two-factor-title" id="two-factor">
      <h2 id="two-factor-title" ref={heading} tabIndex={-1}>
        {t("twoFactor.title")}
      </h2>
      <p className="muted">{t("twoFactor.about")}</p>
      <QueryState query={status} loading={t("twoFactor.loading")} error={t("twoFactor.error")}>
        {(s) => (
          <div className="two-factor-setup">
            {codes && (
              <div role="region" aria-labelledby="recovery-codes-title">
                <h3 id="recovery-codes-title">{t("twoFactor.codesTitle")}</h3>
                <p>{t("twoFactor.codesHelp")}</p>
                <ul className="recovery-codes" dir="ltr" data-testid="recovery-codes">
                  {codes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
                <button type="button" className="btn btn-primary" onClick={() => setCodes(null)}>
                  {t("twoFactor.codesDone")}
                </button>
              </div>
            )}
            {!s.enabled && (
              <>
                <p role="status">{s.required ? <strong>{t("twoFactor.required")}</strong> : t("twoFactor.off")}</p>
                {!setup ? (
                  <div>
                    <button
                      type="button"
                      className="btn btn-primary"
                      disabled={start.isPending}
                      onClick={async () => {
                        const res = await run(() => start.mutateAsync(), { error: t("twoFactor.failed") });
                        if (res) setSetup(res);
                      }}
                    >
                      {start.isPending && <Spinner />} {t("twoFactor.start")}
                    </button>
                  </div>
                ) : (
                  <form className="form" onSubmit={onConfirm}>
                    <p>{t("twoFactor.scan")}</p>
                    <img className="two-factor-qr" src={setup.qrCodeDataUrl} alt={t("twoFactor.qrAlt")} width={200} height={200} />
                    <p>
                      {t("twoFactor.key")}: <code className="two-factor-key" dir="ltr" data-testid="two-factor-key">{setup.manualKey}</code>
                    </p>
                    <TextField id="two-factor-code" dir="ltr" label={t("twoFactor.code")} description={t("twoFactor.codeHint")} required inputMode="numeric" autoComplete="one-time-code" maxLength={8} value={code} onChange={(e) => setCode(e.target.value)} />
                    <div className="two-factor-actions">
                      <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
                        {confirm.isPending && <Spinner />} {t("twoFactor.confirm")}
                      </button>
                      <button type="button" className="btn btn-ghost" onClick={() => setSetup(null)}>
                        {t("twoFactor.cancel")}
                      </button>
                    </div>
                  </form>
                )}
              </>
            )}
            {s.enabled && (
              <>
                <p role="status">
                  <strong>{t("twoFactor.on")}</strong> {t("twoFactor.codesLeft", { count: s.recoveryCodesLeft })}
                </p>
                {s.required && <p className="muted">{t("twoFactor.requiredOn")}</p>}
                {action === null ? (
                  <div className="two-factor-actions">
                    <button type="button" className="btn btn-ghost" onClick={() => setAction("renew")}>
                      {t("twoFactor.renew")}
                    </button>
                    {!s.required && (
                      <button type="button" className="btn btn-ghost" onClick={() => setAction("disable")}>
                        {t("twoFactor.disable")}
                      </button>
                    )}
                  </div>
                ) : (
                  <form className="form" onSubmit={onAction}>
                    <p>{action === "renew" ? t("twoFactor.renewHint") : hasPassword ? t("twoFactor.disableHint") : t("twoFactor.disableHintCode")}</p>
                    {action === "disable" && hasPassword ? (
                      <TextField id="two-factor-password" label={t("twoFactor.password")} type="password" required autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
                    ) : (
                      <TextField id="two-factor-action-code" dir="ltr" label={t("twoFactor.code")} required inputMode="numeric" autoComplete="one-time-code" maxLength={8} value={code} onChange={(e) => setCode(e.target.value)} />
                    )}
                    <div className="two-factor-actions">
                      <button type="submit" className="btn btn-primary" disabled={renew.isPending || disable.isPending}>
                        {action === "renew" ? t("twoFactor.renew") : t("twoFactor.disable")}
                      </button>
                      <button type="button" className="btn btn-ghost" onClick={() => setAction(null)}>
                        {t("twoFactor.cancel")}
                      </button>
                    </div>
                  </form>
                )}
              </>
            )}
            <FormMessage notice={notice} />
          </div>
        )}
      </QueryState>
    </section>
  );
}
