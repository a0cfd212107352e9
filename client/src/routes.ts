/**
 * Every address the client answers, as wouter patterns (`:name` is one
 * non-empty path segment). Shared by the client's router (App.tsx; a test
 * keeps them equal) and the server's static serving (src/static.ts), which
 * answers an address not in this list with HTTP 404 (and the same page, whose
 * router then shows "Page not found").
 */
export const CLIENT_ROUTES = [
  "/",
  "/signin",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/confirm-email",
  "/auth/complete",
  "/lti/deep-link/:id",
  "/account",
  "/notifications",
  "/notifications/unsubscribe",
  "/signup",
  "/problems",
  "/solve/:id",
  "/my-submissions",
  "/my-submissions/:problemId",
  "/admin",
  "/courses",
  "/join/:code",
  "/courses/:id/students/:userId/progress",
  "/courses/:id/regrades",
  "/courses/:id/settings",
  "/courses/:id/assignments/new",
  "/courses/:id",
  "/assignments/:id/edit",
  "/assignments/:id/similarity",
  "/contests/:id/similarity",
  "/similarity/:reportId/pairs/:pairId",
  "/similarity/:reportId",
  "/assignments/:id/rubrics",
  "/submissions/:id/review",
  "/assignments/:id/gradebook",
  "/assignments/:id/analytics",
  "/assignments/:id",
  "/contests",
  "/contests/new",
  "/contests/:id/scoreboard",
  "/contests/:id/reveal",
  "/contests/:id/balloons",
  "/contests/:id",
  "/progress",
  "/u/:handle",
  "/about",
  "/contact",
  "/privacy",
  "/terms",
  "/accessibility",
] as const;

export type ClientRoute = (typeof CLIENT_ROUTES)[number];

const MATCHERS = CLIENT_ROUTES.map((pattern) => {
  const body = pattern
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  // As wouter matches: an optional trailing slash.
  return new RegExp(`^${pattern === "/" ? "" : body}/?$`, "i");
});

/** Whether the client has a page at `pathname` (a decoded path, no query or hash). */
export function isClientRoute(pathname: string): boolean {
  return MATCHERS.some((m) => m.test(pathname));
}
