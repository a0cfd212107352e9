/**
 * Registration: the server's register signs the new account in (a token, as
 * sign-in answers), so on success the token is kept and the page goes straight
 * on to its `next` (where a guarded page sent the guest from, validated by
 * src/lib/return-path.ts), else /problems; on failure the server's message,
 * else the error's own, else "Something went wrong." (the auth catalogue's
 * words, client/src/i18n/catalog/auth, quoted here in English).
 */
import { TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useAuth } from "../lib/auth.tsx";
import { signInHref, useNextParam } from "../lib/next.ts";
import { T, useT } from "../i18n/index.tsx";
import { auth } from "../i18n/catalog/auth/index.ts";

/** The shortest password the server takes (src/accounts/user.ts PASSWORD_MIN_CHARS), for the hint. */
const MIN_PASSWORD_CHARS = 8;

export function SignUpPage() {
  const t = useT(auth);
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const [form, setForm] = useState({ firstName: "", lastName: "", email: "", password: "" });
  const { notice: message, show, clear } = useNotice();
  const { login } = useAuth();
  const next = useNextParam();
  const register = useMutation(trpc.auth.register.mutationOptions());

  const update = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    clear();
    try {
      const res = await register.mutateAsync(form);
      show("success", res.message || t("signUp.success"));
      login(res.token, res.user);
      navigate(next ?? "/problems", { replace: true });
    } catch (err) {
      // Any error's own message (a network failure's too), as the spec's sign-up form shows it.
      show("error", err instanceof Error && err.message ? err.message : t("signUp.failed"));
    }
  }

  return (
    <AuthLayout title={t("signUp.docTitle")}>
      <h1 className="auth-title">{t("signUp.title")}</h1>
      <p className="auth-subtitle muted">{t("signUp.subtitle")}</p>
      <form className="form" onSubmit={onSubmit}>
        <div className="field-row">
          <TextField id="signup-first" label={t("signUp.firstName")} required value={form.firstName} onChange={update("firstName")} autoComplete="given-name" placeholder={t("signUp.firstNamePlaceholder")} />
          <TextField id="signup-last" label={t("signUp.lastName")} required value={form.lastName} onChange={update("lastName")} autoComplete="family-name" placeholder={t("signUp.lastNamePlaceholder")} />
        </div>
        <TextField id="signup-email" dir="ltr" label={t("field.email")} type="email" required value={form.email} onChange={update("email")} autoComplete="email" placeholder="you@example.com" /* i18n-ignore: an example address */ />
        <TextField id="signup-password" label={t("field.password")} description={t("signUp.passwordHint", { min: MIN_PASSWORD_CHARS })} type="password" required value={form.password} onChange={update("password")} autoComplete="new-password" />
        <button type="submit" className="btn btn-primary btn-block" disabled={register.isPending}>
          {register.isPending && <Spinner />} {t("signUp.submit")}
        </button>
        <FormMessage notice={message} />
      </form>
      <p className="auth-switch">
        <T ns={auth} k="signUp.haveAccount" components={{ 0: <Link href={next ? signInHref(next) : "/signin"} /> }} />
      </p>
    </AuthLayout>
  );
}
