/**
 * Where a redirect sign-in lands (/auth/complete?next=PATH): an OpenID
 * provider, a campus proxy or an LMS launch set the session cookie in this
 * browser; this page asks the server for that session's token
 * (auth.adoptSession, authenticated by the cookie alone: a token stored here
 * earlier is set aside for the call), keeps it as a password sign-in would,
 * and opens `next` (a path on this site, src/lib/return-path.ts, else /problems). Nothing in the URL
 * is ever adopted: a link carrying a token (`#token=...`, as launches once
 * sent) would sign whoever opens it into someone else's account, so such a
 * fragment is dropped unread. Without a session it says so, keeps any earlier
 * sign-in, and links to the sign-in page.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { serverMessageOf, useTRPCClient } from "../lib/trpc.ts";
import { getToken, removeToken, setToken } from "../lib/storage.ts";
import { returnPathOr } from "../lib/next.ts";
import { useT } from "../i18n/index.tsx";
import { auth } from "../i18n/catalog/auth/index.ts";

export default function AuthCompletePage() {
  const t = useT(auth);
  const client = useTRPCClient();
  const { login } = useAuth();
  const [, navigate] = useLocation();
  /** Set when the sign-in failed: the server's message, or null for the page's own. */
  const [failure, setFailure] = useState<{ serverMessage: string | null } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const next = returnPathOr(new URLSearchParams(window.location.search).get("next"));
    // Never adopt anything from the URL; drop a fragment from the address bar and history unread.
    if (window.location.hash) window.history.replaceState(null, "", window.location.pathname + window.location.search);
    // The cookie this sign-in just set decides, not a token kept from an earlier sign-in (it is restored on failure).
    const previous = getToken();
    removeToken();
    client.auth.adoptSession
      .mutate()
      .then((res) => {
        login(res.token, res.user);
        navigate(next, { replace: true });
      })
      .catch((err: unknown) => {
        if (previous) setToken(previous);
        setFailure({ serverMessage: serverMessageOf(err) });
      });
  }, [client, login, navigate]);

  return (
    <AuthLayout title={t("signIn.docTitle")}>
      <h1 className="auth-title">{t("complete.title")}</h1>
      {failure ? (
        <p className="alert alert-error" role="alert">
          {failure.serverMessage ?? t("complete.failed")} <Link href="/signin">{t("complete.back")}</Link>
        </p>
      ) : (
        <p className="auth-subtitle muted">
          <Spinner /> {t("complete.wait")}
        </p>
      )}
    </AuthLayout>
  );
}
