/**
 * What the two e-mail link pages share (/verify-email, /confirm-email): the token is read once and taken out of
 * the address bar (history.replaceState, as the password reset page does), then posted at once (opening the
 * link is the act; the token works once, so a page shown twice, e.g. by React's development double effects,
 * posts it once). The server's answer is shown; a signed-in viewer's own account is refreshed (a confirmed
 * change gives it its new address). No session is needed: the link may be opened on another device.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "wouter";
import { useQueryClient } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { useNotice } from "../lib/notice.ts";
import { getToken } from "../lib/storage.ts";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { email } from "../i18n/catalog/email/index.ts";

interface LinkAnswer {
  message: string;
  user: { id: string; firstName: string; lastName: string; email: string; locale: string | null };
}

/** How the server's message for a bad link starts (the field it names). */
const TOKEN_FIELD_PREFIX = "token: "; // i18n-ignore: the server's field name, not interface text

export interface LinkPageProps {
  title: string;
  working: string;
  failed: string;
  /** Shown when the page was opened without a token. */
  noToken: ReactNode;
  /** Posts the token (`accountEmail.verify` or `accountEmail.confirm`). */
  submit: (token: string) => Promise<LinkAnswer>;
}

export function LinkPage({ title, working, failed, noToken, submit }: LinkPageProps) {
  const t = useT(email);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { status, user, login } = useAuth();
  const [token] = useState(() => new URLSearchParams(window.location.search).get("token") ?? "");
  const [pending, setPending] = useState(Boolean(token));
  const started = useRef(false);
  const { notice, run, show } = useNotice();

  useEffect(() => {
    if (window.location.search) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, []);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    // A bad token's message names its field ("token: …"): the page has no field, so only the words are shown.
    const withoutField = (err: unknown) => {
      const message = serverMessageOf(err);
      if (message === null) return false;
      show("error", message.startsWith(TOKEN_FIELD_PREFIX) ? message.slice(TOKEN_FIELD_PREFIX.length) : message);
      return true;
    };
    void run(() => submit(token), { success: (r) => r.message, error: failed, handled: withoutField }).then((answer) => {
      setPending(false);
      if (!answer) return;
      void queryClient.invalidateQueries({ queryKey: trpc.accountEmail.status.queryKey() });
      const session = getToken();
      if (session && user && answer.user.id === user.id) login(session, answer.user);
    });
    // Posted once, on opening (see module comment).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  return (
    <AuthLayout title={title}>
      <h1 className="auth-title">{title}</h1>
      {!token ? (
        <p className="alert alert-error" role="alert">
          {noToken}
        </p>
      ) : (
        <>
          {pending && (
            <p role="status">
              <Spinner /> {working}
            </p>
          )}
          <FormMessage notice={notice} />
          {!pending && (
            <p className="auth-switch">
              <Link href={status === "authenticated" ? "/account" : "/signin"}>{status === "authenticated" ? t("link.toAccount") : t("link.signIn")}</Link>
            </p>
          )}
        </>
      )}
    </AuthLayout>
  );
}
