/**
 * The Content-Security-Policy of every HTML page the server sends (the
 * client's pages, the sign-in and LTI pages): scripts only from this origin
 * and never inline (the client's one pre-paint script is a file,
 * /theme.js), images only from this origin and data:/blob: (a statement's or
 * an AI review's image from elsewhere is offered as a link, never fetched),
 * connections only to this origin, no plugins, and framing only by a
 * registered LMS: pages an LMS opens in its iframe (the launch's landing
 * /auth/complete, /lti/*, the answers of /api/lti/*, and any page loaded
 * into a frame, `Sec-Fetch-Dest: iframe`) name the registered platforms as
 * frame-ancestors; every other page `'none'`. Styles may be inline (Monaco
 * and KaTeX set element styles). Forms post to this origin, and to the LMS
 * platforms (the deep-linking answer goes back to the LMS).
 */
import type { MiddlewareHandler } from "hono";
import type { Database } from "../db/index.ts";
import { lmsFrameSources } from "./lti/frame-origins.ts";

/** Whether this page may be shown inside the LMS's iframe. */
function framedByLms(path: string, fetchDest: string | undefined): boolean {
  return fetchDest === "iframe" || path === "/auth/complete" || path.startsWith("/lti/") || path.startsWith("/api/lti/");
}

/**
 * The policy for one page.
 * @param lms the registered platforms' sources (src/lti/frame-origins.ts).
 */
export function pagePolicy(path: string, fetchDest: string | undefined, lms: string[]): string {
  const ancestors = framedByLms(path, fetchDest) && lms.length ? lms.join(" ") : "'none'";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${lms.length ? ` ${lms.join(" ")}` : ""}`,
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

/** Adds the policy (and nosniff, no referrer across sites) to every HTML answer that does not set its own. */
export function pageSecurityHeaders(db: Database): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const type = c.res.headers.get("content-type") ?? "";
    if (!type.startsWith("text/html") || c.res.headers.has("content-security-policy")) return;
    const lms = await lmsFrameSources(db).catch(() => []);
    c.res.headers.set("content-security-policy", pagePolicy(c.req.path, c.req.header("sec-fetch-dest"), lms));
    c.res.headers.set("x-content-type-options", "nosniff");
    c.res.headers.set("referrer-policy", "strict-origin-when-cross-origin");
  };
}
