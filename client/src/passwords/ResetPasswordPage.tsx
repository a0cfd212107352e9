/**
 * The page a reset link opens (/reset-password?token=...): the token is read
 * once and taken out of the address bar (history.replaceState), so it stays out
 * of the history, bookmarks and the Referer of later requests. A new password,
 * typed twice, goes with it to `auth.resetPassword`; every session of the
 * account is signed out, so the page then points to sign-in.
 */
import { TextField } from "../kit/index.ts";
import { useEffect, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { auth } from "../i18n/catalog/auth/index.ts";

const MIN_CHARS = 8;

export default function ResetPasswordPage() {
  const t = useT(auth);
  const trpc = useTRPC();
  const { status, logout } = useAuth();
  // Read once, before the address bar forgets it.
  const [token] = useState(() => new URLSearchParams(window.location.search).get("token") ?? "");
  useEffect(() => {
    if (window.location.search) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, []);
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState(false);
  const { notice, run, show } = useNotice();
  const mutation = useMutation(trpc.auth.resetPassword.mutationOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (password !== again) return show("error", t("reset.differ"));
    const res = await run(() => mutation.mutateAsync({ token, password }), { success: (r) => r.message, error: t("reset.failed") });
    if (!res) return;
    setDone(true);
    // Every session of the account was signed out: forget this browser's too.
    if (status === "authenticated") void logout();
  }

  return (
    <AuthLayout title={t("reset.title")}>
      <h1 className="auth-title">{t("reset.title")}</h1>
      {!token ? (
        <p className="alert alert-error" role="alert">
          <T ns={auth} k="reset.noToken" components={{ 0: <Link href="/forgot-password" /> }} />
        </p>
      ) : done ? (
        <>
          <FormMessage notice={notice} />
          <p className="auth-switch">
            <Link href="/signin">{t("reset.signIn")}</Link>
          </p>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit}>
          <TextField id="reset-password" label={t("field.newPassword")} description={t("reset.hint", { min: MIN_CHARS })} type="password" required minLength={MIN_CHARS} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
          <TextField id="reset-password-again" label={t("field.newPasswordAgain")} type="password" required minLength={MIN_CHARS} value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
          <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
            {mutation.isPending && <Spinner />} {t("reset.submit")}
          </button>
          <FormMessage notice={notice} />
          {notice?.kind === "error" && (
            <p className="auth-switch">
              <Link href="/forgot-password">{t("reset.askNew")}</Link>
            </p>
          )}
        </form>
      )}
    </AuthLayout>
  );
}
