/**
 * The account page's "Delete account" (trpc `account.erasure` / `account.erase`, src/account-data/erase.ts,
 * decision 072): what is deleted and what a course keeps (anonymised), then a confirmation dialog (the kit's
 * accessible dialog: focus kept inside, Escape closes, focus returns to the button) asking for the password,
 * or, for an account without one, the e-mail address typed out after a recent sign-in; and a two-factor code
 * when it is on. After erasure the browser is signed out and sent to the landing page, which says so
 * (./ErasedNotice.tsx).
 */
import "./security.css";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { TRPCClientError } from "@trpc/client";
import { TextField } from "../kit/index.ts";
import { Dialog } from "../kit/Dialog.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage, type FormNotice } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { signInHref } from "../lib/next.ts";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { security } from "../i18n/catalog/security/index.ts";
import { ERASED_STATE_KEY } from "./ErasedNotice.tsx";

type Field = "password" | "confirm" | "code";

/** The field a server error names (`error.data.app.field`), when it is one of this form's. */
function fieldOf(error: unknown): Field | null {
  if (!(error instanceof TRPCClientError)) return null;
  const field = (error.data as { app?: { field?: string } } | undefined)?.app?.field;
  return field === "password" || field === "confirm" || field === "code" ? field : null;
}

export function DeleteAccountSection() {
  const t = useT(security);
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const { expire, logout } = useAuth();
  const requirements = useQuery(trpc.account.erasure.queryOptions());
  const erase = useMutation(trpc.account.erase.mutationOptions());
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [notice, setNotice] = useState<FormNotice | null>(null);

  function openDialog(isOpen: boolean) {
    setOpen(isOpen);
    if (!isOpen) {
      setPassword("");
      setConfirm("");
      setCode("");
      setErrors({});
      setNotice(null);
    }
  }

  async function onSubmit(e: FormEvent, hasPassword: boolean, twoFactor: boolean) {
    e.preventDefault();
    setErrors({});
    setNotice(null);
    try {
      const res = await erase.mutateAsync({
        ...(hasPassword ? { password } : { confirm }),
        ...(twoFactor ? { code } : {}),
      });
      // The server ended every session and cleared the cookie; the browser forgets its token and leaves.
      expire();
      navigate("/", { state: { [ERASED_STATE_KEY]: res.message } });
    } catch (err) {
      const message = serverMessageOf(err) ?? t("erase.failed");
      const field = fieldOf(err);
      if (field) setErrors({ [field]: message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message });
      else setNotice({ kind: "error", text: message });
    }
  }

  return (
    <section className="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">{t("erase.title")}</h2>
      <p>{t("erase.about")}</p>
      <h3 className="erase-list-title">{t("erase.deletedTitle")}</h3>
      <ul className="erase-list">
        <li>{t("erase.deletedAccount")}</li>
        <li>{t("erase.deletedSignIns")}</li>
        <li>{t("erase.deletedWork")}</li>
        <li>{t("erase.deletedProblems")}</li>
      </ul>
      <h3 className="erase-list-title">{t("erase.keptTitle")}</h3>
      <ul className="erase-list">
        <li>{t("erase.keptGrades")}</li>
        <li>{t("erase.keptContests")}</li>
        <li>{t("erase.keptProblems")}</li>
      </ul>
      <p className="muted">
        <T ns={security} k="erase.why" components={{ 0: <a href="/privacy" /> }} />
      </p>
      <QueryState query={requirements} loading={t("erase.loading")} error={t("erase.error")}>
        {(r) =>
          r.lastAdmin ? (
            <p className="alert alert-error" role="status">
              {t("erase.lastAdmin")}
            </p>
          ) : (
            <>
              <button type="button" className="btn btn-danger" onClick={() => openDialog(true)}>
                {t("erase.open")}
              </button>
              <Dialog open={open} onOpenChange={openDialog} title={t("erase.dialogTitle")} role="alertdialog">
                <form className="form" onSubmit={(e) => onSubmit(e, r.hasPassword, r.twoFactor)} noValidate>
                  <p>
                    <strong>{t("erase.warning")}</strong>
                  </p>
                  {r.hasPassword ? (
                    <TextField id="erase-password" label={t("erase.password")} type="password" required autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
                  ) : r.recentSignIn ? (
                    <TextField id="erase-confirm" dir="ltr" label={t("erase.confirm")} description={t("erase.confirmHint")} type="email" required autoComplete="off" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm} />
                  ) : (
                    <div className="alert alert-error" role="alert">
                      <p>{t("erase.signInAgain")}</p>
                      <button
                        type="button"
                        className="btn btn-ghost"
                        onClick={async () => {
                          await logout();
                          navigate(signInHref("/account"));
                        }}
                      >
                        {t("erase.signInAgainButton")}
                      </button>
                    </div>
                  )}
                  {r.twoFactor && (r.hasPassword || r.recentSignIn) && (
                    <TextField id="erase-code" dir="ltr" label={t("erase.code")} description={t("erase.codeHint")} required inputMode="numeric" autoComplete="one-time-code" maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} error={errors.code} />
                  )}
                  <FormMessage notice={notice} />
                  <div className="two-factor-actions">
                    {(r.hasPassword || r.recentSignIn) && (
                      <button type="submit" className="btn btn-danger" disabled={erase.isPending}>
                        {erase.isPending && <Spinner />} {t("erase.submit")}
                      </button>
                    )}
                    <button type="button" className="btn btn-ghost" onClick={() => openDialog(false)}>
                      {t("erase.cancel")}
                    </button>
                  </div>
                </form>
              </Dialog>
            </>
          )
        }
      </QueryState>
    </section>
  );
}
