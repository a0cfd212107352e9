/**
 * The route guards. `RequireAuth` renders a page for a signed-in user and sends a guest to
 * /signin with the page (path and query) as `next`, so signing in (or up) comes back to it;
 * `GuestOnly` renders the sign-in pages for a guest and sends a signed-in user on to their
 * `next` (validated, src/lib/return-path.ts), else /problems. Both show Loading... while the
 * start-up session check runs. `RequireAdmin` (inside `RequireAuth`) shows "Not allowed" to
 * anyone signed in who is not a site admin; the server refuses them too.
 */
import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { FullPageLoading } from "../components/Loading.tsx";
import { ErrorPage } from "../components/shell/ErrorPage.tsx";
import { useAuth } from "./auth.tsx";
import { currentPath, signInHref, useReturnPath } from "./next.ts";

/** Renders children only for a signed-in user; a guest goes to /signin?next=<this page>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === "loading") return <FullPageLoading />;
  if (status === "unauthenticated") return <Redirect to={signInHref(currentPath())} replace />;
  return <>{children}</>;
}

/** Renders children only for a guest; a signed-in user goes on to the page's `next`, else /problems. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const next = useReturnPath();
  if (status === "loading") return <FullPageLoading />;
  if (status === "authenticated") return <Redirect to={next} replace />;
  return <>{children}</>;
}

/** Renders children only for a site admin; anyone else signed in gets "Not allowed" (the server refuses them too). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { rights } = useAuth();
  if (rights === null) return <FullPageLoading />;
  if (!rights.admin) return <ErrorPage kind="forbidden" />;
  return <>{children}</>;
}
