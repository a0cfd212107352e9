/**
 * Session state: `loading` until the start-up check ends, then
 * `authenticated` or `unauthenticated`.
 *
 * At start: no stored token → unauthenticated; otherwise tRPC's `auth.me`
 * (the bearer token rides on every call; a renewed one is kept by the link);
 * an answer → authenticated, anything else removes the token (a 401
 * silently, other failures logged). `login` stores the token;
 * `logout` calls the server and always ends signed out, even if that fails.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { httpStatusOf, useTRPCClient } from "./trpc.ts";
import { getToken, removeToken, setToken } from "./storage.ts";
import { currentPath, signInHref } from "./next.ts";
import { adoptAccountLocale } from "../i18n/locale.ts";

export type SessionStatus = "loading" | "authenticated" | "unauthenticated";

export interface SessionUserView {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The interface language stored on the account (src/i18n/locales.ts), null until chosen. */
  locale?: string | null;
}

/** What the viewer may do outside any course (the server's `siteRights`); all false for guests and until known. */
export interface SiteRightsView {
  admin: boolean;
  createCourses: boolean;
}

const NO_RIGHTS: SiteRightsView = { admin: false, createCourses: false };

function readRights(body: unknown): SiteRightsView {
  if (body && typeof body === "object" && "rights" in body) {
    const r = body.rights as Partial<SiteRightsView> | null;
    if (r) return { admin: r.admin === true, createCourses: r.createCourses === true };
  }
  return NO_RIGHTS;
}

interface AuthValue {
  status: SessionStatus;
  user: SessionUserView | null;
  /**
   * The viewer's site rights, from `auth.me` (the client hides what they do not
   * allow; the server refuses it): all false for a guest, null while a signed-in
   * viewer's are being fetched.
   */
  rights: SiteRightsView | null;
  /** Stores the token from a successful login and marks the session authenticated. */
  login: (token: string, user: SessionUserView | null) => void;
  /** Calls the server's logout, then always removes the token and signs out. */
  logout: () => Promise<void>;
  /** Drops a session the server no longer accepts (a 401 mid-session), without calling the server. */
  expire: () => void;
}

const AuthContext = createContext<AuthValue | null>(null);

function readUser(body: unknown): SessionUserView | null {
  if (body && typeof body === "object" && "user" in body) {
    const u = body.user as Partial<SessionUserView> | null;
    if (u && typeof u.id === "string") {
      return { id: u.id, firstName: u.firstName ?? "", lastName: u.lastName ?? "", email: u.email ?? "", locale: typeof u.locale === "string" ? u.locale : null };
    }
  }
  return null;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SessionStatus>(() => (getToken() ? "loading" : "unauthenticated"));
  const [user, setUser] = useState<SessionUserView | null>(null);
  const [rights, setRights] = useState<SiteRightsView | null>(null);

  useEffect(() => {
    const token = getToken();
    if (!token) return;
    let cancelled = false;
    (async () => {
      try {
        const me = await client.auth.me.query();
        if (cancelled) return;
        void adoptAccountLocale(me.user.locale, (locale) => client.auth.setLocale.mutate({ locale: locale as never }));
        setUser(readUser(me));
        setRights(readRights(me));
        setStatus("authenticated");
        return;
      } catch (err) {
        if (cancelled) return;
        const status = httpStatusOf(err);
        if (status === null) console.warn("Session check failed:", err);
        else if (status !== 401) console.warn(`Session check failed with status ${status}`);
      }
      removeToken();
      setUser(null);
      setStatus("unauthenticated");
    })();
    return () => {
      cancelled = true;
    };
  }, [client]);

  // A session begun by a sign-in (password, SSO, sign-up) learns its rights from auth.me.
  useEffect(() => {
    if (status !== "authenticated" || rights !== null) return;
    let cancelled = false;
    client.auth.me
      .query()
      .then((me) => {
        if (cancelled) return;
        setRights(readRights(me));
        void adoptAccountLocale(me.user.locale, (locale) => client.auth.setLocale.mutate({ locale: locale as never }));
      })
      .catch(() => {
        if (!cancelled) setRights(NO_RIGHTS);
      });
    return () => {
      cancelled = true;
    };
  }, [client, status, rights]);

  const login = useCallback((token: string, loggedIn: SessionUserView | null) => {
    setToken(token);
    setUser(loggedIn);
    setRights(null);
    setStatus("authenticated");
  }, []);

  const expire = useCallback(() => {
    removeToken();
    setUser(null);
    setRights(null);
    setStatus("unauthenticated");
    queryClient.clear();
  }, [queryClient]);

  const logout = useCallback(async () => {
    try {
      await client.auth.logout.mutate();
    } catch (err) {
      console.warn("Logout call failed:", err);
    } finally {
      expire();
    }
  }, [client, expire]);

  const value = useMemo(() => ({ status, user, rights: status === "authenticated" ? rights : NO_RIGHTS, login, logout, expire }), [status, user, rights, login, logout, expire]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * @returns the session state and actions.
 * @throws Error when used outside `<AuthProvider>` (a developer error).
 */
export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}

/**
 * The one place a 401 mid-session becomes sign-out and a redirect: the
 * returned function drops the session (without calling the server) and
 * navigates to `redirectTo` when `error` is a 401, and tells whether it did.
 * Where to go is the caller's: the problem list goes to `/`, a failed delete
 * or save to `/signin` (with the page being shown as `next`, so signing in
 * again comes back to it: ./next.ts).
 * @example const onUnauthorized = useSessionExpiry(); ... catch (err) { if (onUnauthorized(err, "/signin")) return; ... }
 */
export function useSessionExpiry(): (error: unknown, redirectTo: string, opts?: { replace?: boolean }) => boolean {
  const { expire } = useAuth();
  const [, navigate] = useLocation();
  return useCallback(
    (error: unknown, redirectTo: string, opts?: { replace?: boolean }) => {
      if (httpStatusOf(error) !== 401) return false;
      expire();
      navigate(redirectTo === "/signin" ? signInHref(currentPath()) : redirectTo, opts);
      return true;
    },
    [expire, navigate],
  );
}
