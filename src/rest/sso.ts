/**
 * REST door for the browser-redirect ways in (src/sso): OpenID Connect
 * (`GET /api/auth/oidc/:provider/login`, `POST .../link`, `GET .../callback`)
 * and a trusted proxy's header (`GET /api/auth/header`). These are browser
 * navigations, not API calls: success sets the same session cookie as a
 * password sign-in and redirects to `/auth/complete` (where the client keeps
 * the token); failure answers a small HTML page naming what went wrong, and
 * creates no session.
 */
import type { Context as HonoContext } from "hono";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { cookieSite, createSession } from "../auth/session.ts";
import { clientIp, createContext, isHttps, peerAddress, publicOrigin as originOf } from "../context.ts";
import { AppError } from "../errors.ts";
import { describeRate } from "../lib/rate-limit.ts";
import { returnPathOr } from "../lib/return-path.ts";
import { finishOidc, OIDC_FLOW_TTL_MS, OIDC_STATE_COOKIE, startOidc } from "../sso/oidc.ts";
import { headerSignIn } from "../sso/trusted-header.ts";
import type { AppEnv } from "./call.ts";

/** The HTML page of a failed sign-in: the catalogue's status and message, a way back. */
export function signInErrorPage(c: HonoContext<AppEnv>, err: unknown): Response | Promise<Response> {
  const e = err instanceof AppError ? err : null;
  if (!e) c.get("services").log.error("sign-in failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  const status = e?.status ?? 500;
  const message = e?.message ?? "Internal server error";
  const body = html`<h1>Sign-in failed</h1>
    <p id="sign-in-error">${message}</p>
    <p><a href="/signin">Back to sign in</a></p>`;
  return c.html(plainPage("Sign-in failed", body), status as 400, { "Cache-Control": "no-store", ...(e?.retryAfterSeconds ? { "Retry-After": String(Math.ceil(e.retryAfterSeconds)) } : {}) });
}

/** A small standalone page (these answers are browser navigations outside the client); `body` escaped by hono/html. */
export function plainPage(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </head>
      <body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem">
        ${body}
      </body>
    </html>`;
}

/** Starts a session for the user (cookie) and sends the browser to the client's completion page. */
async function signedIn(c: HonoContext<AppEnv>, userId: string, returnTo: string | null): Promise<Response> {
  const services = c.get("services");
  const session = await createSession(services, userId);
  c.header("Set-Cookie", session.cookie(isHttps(c, services.config)), { append: true });
  c.header("Cache-Control", "no-store");
  const next = returnPathOr(returnTo);
  return c.redirect(`/auth/complete?next=${encodeURIComponent(next)}`, 302);
}

function oidcProvider(c: HonoContext<AppEnv>) {
  const provider = c.get("services").config.sso.oidc.find((p) => p.id === c.req.param("provider"));
  if (!provider) throw new AppError("SSO_PROVIDER_UNKNOWN");
  return provider;
}

/**
 * Counts a sign-in start against the client address (each stores a flow row).
 * @throws AppError RATE_LIMITED (429) past Limiters.signInStartsByIp (RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS), naming it.
 */
export function countSignInStart(c: HonoContext<AppEnv>): void {
  const services = c.get("services");
  const limiter = services.limiters.signInStartsByIp;
  const gate = limiter.hit(clientIp(c, services.config));
  if (!gate.ok) {
    throw new AppError("RATE_LIMITED", {
      message: `Too many requests: sign-ins started from this address (${describeRate(limiter.options)}, the server's RATE_LIMIT_SIGNIN_STARTS_PER_ADDRESS). Try again in ${gate.retryAfterSeconds} s.`,
      retryAfterSeconds: gate.retryAfterSeconds,
    });
  }
}

async function startAt(c: HonoContext<AppEnv>, linkUserId: string | null): Promise<Response> {
  const provider = oidcProvider(c);
  const services = c.get("services");
  countSignInStart(c);
  const redirectUri = `${originOf(c, c.get("services").config)}/api/auth/oidc/${provider.id}/callback`;
  const { url, state } = await startOidc(services.db, provider, redirectUri, { linkUserId, returnTo: c.req.query("returnTo") ?? null });
  const secure = isHttps(c, services.config);
  // Lax: sent on the provider's top-level redirect back; scoped to the callback's path.
  c.header(
    "Set-Cookie",
    `${OIDC_STATE_COOKIE}=${state}; Path=/api/auth/oidc/${provider.id}; HttpOnly; ${cookieSite(secure)}; Max-Age=${OIDC_FLOW_TTL_MS / 1000}`,
    { append: true },
  );
  c.header("Cache-Control", "no-store");
  return c.redirect(url.href, 302);
}

export const ssoRoutes = new Hono<AppEnv>()
  .get("/oidc/:provider/login", async (c) => {
    try {
      return await startAt(c, null);
    } catch (err) {
      return signInErrorPage(c, err);
    }
  })
  // A POST (a form on the profile page), so another site cannot start linking its identity to a signed-in user.
  .post("/oidc/:provider/link", async (c) => {
    try {
      const ctx = await createContext(c.get("services"), c, new Headers());
      if (!ctx.user) throw new AppError("UNAUTHENTICATED");
      return await startAt(c, ctx.user.id);
    } catch (err) {
      return signInErrorPage(c, err);
    }
  })
  .get("/oidc/:provider/callback", async (c) => {
    const provider = c.get("services").config.sso.oidc.find((p) => p.id === c.req.param("provider"));
    // The state cookie is spent whatever happens.
    const secure = isHttps(c, c.get("services").config);
    c.header("Set-Cookie", `${OIDC_STATE_COOKIE}=; Path=/api/auth/oidc/${c.req.param("provider")}; HttpOnly; ${cookieSite(secure)}; Max-Age=0`, { append: true });
    try {
      if (!provider) throw new AppError("SSO_PROVIDER_UNKNOWN");
      const here = new URL(c.req.url);
      const callbackUrl = new URL(`${originOf(c, c.get("services").config)}${here.pathname}${here.search}`);
      const { user, returnTo } = await finishOidc(c.get("services").db, provider, callbackUrl, getCookie(c, OIDC_STATE_COOKIE) ?? null);
      return await signedIn(c, user.id, returnTo);
    } catch (err) {
      return signInErrorPage(c, err);
    }
  })
  .get("/header", async (c) => {
    try {
      const services = c.get("services");
      const user = await headerSignIn(services, peerAddress(c), (name) => c.req.header(name) ?? null);
      return await signedIn(c, user.id, c.req.query("returnTo") ?? null);
    } catch (err) {
      return signInErrorPage(c, err);
    }
  });
