/**
 * "Forgot password?": asks for the account's email and sends it to
 * `auth.forgotPassword`. The answer is the same whether or not the address has
 * an account; on a site without mail it says to ask an administrator.
 */
import { TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { auth } from "../i18n/catalog/auth/index.ts";

export default function ForgotPasswordPage() {
  const t = useT(auth);
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const { notice, run } = useNotice();
  const mutation = useMutation(trpc.auth.forgotPassword.mutationOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await run(() => mutation.mutateAsync({ email }), { success: (r) => r.message, error: t("forgot.failed") });
  }

  return (
    <AuthLayout title={t("forgot.title")}>
      <h1 className="auth-title">{t("forgot.title")}</h1>
      <p className="auth-subtitle muted">{t("forgot.intro")}</p>
      <form className="form" onSubmit={onSubmit}>
        <TextField id="forgot-email" dir="ltr" label={t("field.email")} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending && <Spinner />} {t("forgot.submit")}
        </button>
        <FormMessage notice={notice} />
      </form>
      <p className="auth-switch">
        <T ns={auth} k="forgot.remembered" components={{ 0: <Link href="/signin" /> }} />
      </p>
    </AuthLayout>
  );
}
