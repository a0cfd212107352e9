/**
 * Where a redirect sign-in lands (/auth/complete?next=PATH): an OpenID
 * provider, a campus proxy or an LMS launch set the session cookie; this page
 * asks the server for that session's token (auth.adoptSession), keeps it as a
 * password sign-in would, and opens `next` (a path on this site, else
 * /problems). An LMS launch also puts the token in the URL's fragment
 * (`#token=...`, never sent to a server), since inside the LMS's iframe the
 * browser may withhold the cookie; it is taken from there and the fragment
 * dropped from history at once. Without a session it says so and links to
 * the sign-in page.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { serverMessageOf, useTRPCClient } from "../lib/trpc.ts";
import { setToken } from "../lib/storage.ts";

/** A path on this site, never another origin. */
function safeNext(value: string | null): string {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/problems";
}

export default function AuthCompletePage() {
  const client = useTRPCClient();
  const { login } = useAuth();
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const next = safeNext(new URLSearchParams(window.location.search).get("next"));
    const fromFragment = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (fromFragment) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      // The bearer token then authenticates the adoption below.
      setToken(fromFragment);
    }
    client.auth.adoptSession
      .mutate()
      .then((res) => {
        login(res.token, res.user);
        navigate(next, { replace: true });
      })
      .catch((err: unknown) => setError(serverMessageOf(err) ?? "The sign-in did not finish."));
  }, [client, login, navigate]);

  return (
    <AuthLayout>
      <h1 className="auth-title">Signing you in</h1>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error} <Link href="/signin">Back to sign in</Link>
        </p>
      ) : (
        <p className="auth-subtitle muted">
          <Spinner /> One moment…
        </p>
      )}
    </AuthLayout>
  );
}
