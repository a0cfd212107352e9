/**
 * The return path in the client: where a guest was going when a guarded page sent them to
 * sign in (`/signin?next=/join/AB12CD`), carried through sign-up and the redirect sign-ins,
 * and opened once they are signed in. Checked with the server's own validator
 * (src/lib/return-path.ts), so a hostile `next` ends on /problems
 * (docs/decisions/056-return-path-and-onboarding.md).
 */
import { useSearch } from "wouter";
import { returnPathOr, safeReturnPath } from "../../../src/lib/return-path.ts";

export { returnPathOr, safeReturnPath };

/** The page being shown, path and query (and fragment), as a return path. */
export function currentPath(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/**
 * `base` with `?next=<path>` (or `&next=` when `base` has a query already) when `path` is a
 * usable return path; `base` alone otherwise (nothing to keep, or /problems, the default).
 * @example withNext("/signin", "/join/AB12CD") === "/signin?next=%2Fjoin%2FAB12CD"
 */
export function withNext(base: string, path: string | null | undefined): string {
  const safe = safeReturnPath(path);
  if (!safe || safe === "/problems") return base;
  return `${base}${base.includes("?") ? "&" : "?"}next=${encodeURIComponent(safe)}`;
}

/** The sign-in page that comes back to `path` (default: the page being shown). */
export function signInHref(path: string = currentPath()): string {
  return withNext("/signin", path);
}

/** The sign-up page that comes back to `path` (default: the page being shown). */
export function signUpHref(path: string = currentPath()): string {
  return withNext("/signup", path);
}

/** The raw `next` of this page's query, validated: the path to open after signing in, else null. */
export function useNextParam(): string | null {
  const search = useSearch();
  return safeReturnPath(new URLSearchParams(search).get("next"));
}

/** Where to go after signing in from this page: its `next`, else /problems. */
export function useReturnPath(): string {
  return useNextParam() ?? "/problems";
}
