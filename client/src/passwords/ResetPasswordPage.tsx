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

const MIN_CHARS = 8;

export default function ResetPasswordPage() {
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
    if (password !== again) return show("error", "The two passwords differ.");
    const res = await run(() => mutation.mutateAsync({ token, password }), { success: (r) => r.message, error: "The password could not be set." });
    if (!res) return;
    setDone(true);
    // Every session of the account was signed out: forget this browser's too.
    if (status === "authenticated") void logout();
  }

  return (
    <AuthLayout title="Choose a new password">
      <h1 className="auth-title">Choose a new password</h1>
      {!token ? (
        <p className="alert alert-error" role="alert">
          This page needs the link from your message. <Link href="/forgot-password">Ask for a new link</Link>.
        </p>
      ) : done ? (
        <>
          <FormMessage notice={notice} />
          <p className="auth-switch">
            <Link href="/signin">Sign in with your new password</Link>
          </p>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit}>
          <TextField id="reset-password" label="New password" description={`At least ${MIN_CHARS} characters.`} type="password" required minLength={MIN_CHARS} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
          <TextField id="reset-password-again" label="New password again" type="password" required minLength={MIN_CHARS} value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
          <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
            {mutation.isPending && <Spinner />} Set the password
          </button>
          <FormMessage notice={notice} />
          {notice?.kind === "error" && (
            <p className="auth-switch">
              <Link href="/forgot-password">Ask for a new link</Link>
            </p>
          )}
        </form>
      )}
    </AuthLayout>
  );
}
