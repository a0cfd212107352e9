/**
 * Sign in: stores the token, shows the server's message (or
 * "Login successful!") and goes to the page's `next` (where a guarded page sent
 * the guest from, validated by src/lib/return-path.ts), else /problems; on
 * failure the server's message, else "Login failed.". The OpenID, campus and
 * sign-up links carry the same return path.
 *
 * The site's other ways in (auth.providers) appear here too: a button per
 * OpenID provider and for a campus proxy (browser redirects that come back
 * through /auth/complete), and a chooser between the password and each LDAP
 * directory (the same form; the first field is then the directory username).
 * The sign-up link shows only while password sign-up is open. Its words are
 * the auth catalogue's (client/src/i18n/catalog/auth), quoted here in English.
 * An account with two-factor sign-in answers the password with a ticket: the
 * page then asks for the code (../security/TwoFactorSignIn.tsx).
 */
import { Select, TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useMutation, useQuery } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { signUpHref, useNextParam } from "../lib/next.ts";
import { T, useT } from "../i18n/index.tsx";
import { auth } from "../i18n/catalog/auth/index.ts";
import { TwoFactorSignIn } from "../security/TwoFactorSignIn.tsx";

/** A redirect sign-in's URL with the server's `returnTo` (checked again there, src/lib/return-path.ts). */
function withReturnTo(loginUrl: string, next: string | null): string {
  return next ? `${loginUrl}${loginUrl.includes("?") ? "&" : "?"}returnTo=${encodeURIComponent(next)}` : loginUrl;
}

export function SignInPage() {
  const t = useT(auth);
  const trpc = useTRPC();
  const { login } = useAuth();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { notice: message, run } = useNotice();
  const [provider, setProvider] = useState("local");
  /** Set when the password was right and the account asks for a second factor (src/accounts/two-factor/sign-in.ts). */
  const [ticket, setTicket] = useState<string | null>(null);
  const mutation = useMutation(trpc.auth.login.mutationOptions());
  const providers = useQuery(trpc.auth.providers.queryOptions(undefined, { staleTime: Infinity }));
  const ways = providers.data;
  const directory = provider !== "local";
  const next = useNextParam();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const res = await run(() => mutation.mutateAsync(directory ? { email, password, provider } : { email, password }), {
      success: (r) => r.message || t("signIn.success"),
      error: t("signIn.failed"),
    });
    if (!res) return;
    if ("twoFactorRequired" in res) return setTicket(res.ticket);
    login(res.token, res.user);
    // A staff account the site requires a second factor of may only set it up until it is on.
    navigate(res.mustSetUpTwoFactor ? "/account#two-factor" : (next ?? "/problems"), { replace: true });
  }

  if (ticket) {
    return (
      <AuthLayout title={t("signIn.docTitle")}>
        <TwoFactorSignIn
          ticket={ticket}
          onSignedIn={(token, user) => {
            login(token, user);
            navigate(next ?? "/problems", { replace: true });
          }}
          onBack={() => {
            setTicket(null);
            setPassword("");
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t("signIn.docTitle")}>
      <h1 className="auth-title">{t("signIn.title")}</h1>
      <p className="auth-subtitle muted">{t("signIn.subtitle")}</p>
      {ways && (ways.oidc.length > 0 || ways.trustedHeader) && (
        <div className="sso-buttons">
          {ways.oidc.map((p) => (
            <a key={p.id} className="btn btn-ghost btn-block" href={withReturnTo(p.loginUrl, next)}>
              {t("signIn.withProvider", { provider: p.name })}
            </a>
          ))}
          {ways.trustedHeader && (
            <a className="btn btn-ghost btn-block" href={withReturnTo(ways.trustedHeader.loginUrl, next)}>
              {t("signIn.campus")}
            </a>
          )}
          <p className="auth-divider muted">{t("signIn.or")}</p>
        </div>
      )}
      <form className="form" onSubmit={onSubmit}>
        {ways && ways.ldap.length > 0 && (
          <Select id="signin-provider" label={t("signIn.method")} value={provider} onChange={(e) => setProvider(e.target.value)}>
              <option value="local">{t("signIn.methodPassword")}</option>
              {ways.ldap.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
        )}
        <TextField id="signin-email" dir="ltr" label={directory ? t("signIn.username") : t("field.email")}
            type={directory ? "text" : "email"}
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete={directory ? "username" : "email"}
            placeholder={directory ? t("signIn.usernamePlaceholder") : "you@example.com"} /* i18n-ignore: an example address */ />
        <TextField id="signin-password" label={t("field.password")} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
        {!directory && (
          <p>
            <Link href="/forgot-password">{t("signIn.forgot")}</Link>
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending && <Spinner />} {t("signIn.submit")}
        </button>
        <FormMessage notice={message} />
      </form>
      {ways?.localSignup !== false && (
        <p className="auth-switch">
          <T ns={auth} k="signIn.noAccount" components={{ 0: <Link href={next ? signUpHref(next) : "/signup"} /> }} />
        </p>
      )}
    </AuthLayout>
  );
}
