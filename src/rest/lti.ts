/**
 * REST door for LTI 1.3 (src/lti): the URLs an LMS is given.
 *
 *   GET  /api/lti/jwks           the tool's public keys
 *   GET|POST /api/lti/login      third-party-initiated login → 302 to the platform
 *   POST /api/lti/launch         the platform's form_post id_token → signed in, 302 into the course
 *
 * The launch answers like the other redirect sign-ins (src/rest/sso.ts): the
 * session cookie and a redirect to /auth/complete, here with the token in the
 * URL fragment too, since inside an LMS iframe a browser may keep the cookie
 * from the page. Cookies are `SameSite=None; Secure; Partitioned` under HTTPS
 * (they must cross from the LMS's site, and partitioned ones survive
 * third-party-cookie blocking); when the state cookie still did not come
 * back, the page offers to start again in a new window.
 */
import type { Context as HonoContext } from "hono";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { html } from "hono/html";
import { cookieSite, createSession } from "../auth/session.ts";
import { isHttps, publicOrigin } from "../context.ts";
import { AppError } from "../errors.ts";
import { returnPathOr } from "../lib/return-path.ts";
import { publicJwks } from "../lti/keys.ts";
import { finishLaunch, loginParams, LTI_FLOW_TTL_MS, LTI_STATE_COOKIE, startLogin } from "../lti/launch.ts";
import type { AppEnv } from "./call.ts";
import { countSignInStart, plainPage, signInErrorPage } from "./sso.ts";

/** Cookie attributes for a cookie that must come back on a request from the LMS's site. */
function crossSite(c: HonoContext<AppEnv>): string {
  return cookieSite(isHttps(c, c.get("services").config), { crossSite: true });
}

async function params(c: HonoContext<AppEnv>): Promise<Record<string, string>> {
  const fromQuery = c.req.query();
  if (c.req.method !== "POST") return fromQuery;
  const body = await c.req.parseBody().catch(() => ({}));
  const fromBody = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
  return { ...fromQuery, ...fromBody };
}

async function login(c: HonoContext<AppEnv>): Promise<Response> {
  try {
    countSignInStart(c);
    const parsed = loginParams.safeParse(await params(c));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError("BAD_INPUT", { field: String(issue.path[0]), message: `${String(issue.path[0])}: ${issue.message} (an LTI 1.3 login names iss, login_hint and target_link_uri)` });
    }
    const services = c.get("services");
    const { url, state } = await startLogin(services.db, parsed.data, `${publicOrigin(c, services.config)}/api/lti/launch`);
    c.header("Set-Cookie", `${LTI_STATE_COOKIE}=${state}; Path=/api/lti; HttpOnly; ${crossSite(c)}; Max-Age=${LTI_FLOW_TTL_MS / 1000}`, { append: true });
    c.header("Cache-Control", "no-store");
    return c.redirect(url.href, 302);
  } catch (err) {
    return signInErrorPage(c, err);
  }
}

export const ltiRoutes = new Hono<AppEnv>()
  .get("/jwks", async (c) => c.json(await publicJwks(c.get("services").db), 200, { "Cache-Control": "public, max-age=300" }))
  .get("/login", login)
  .post("/login", login)
  .post("/launch", async (c) => {
    const services = c.get("services");
    c.header("Set-Cookie", `${LTI_STATE_COOKIE}=; Path=/api/lti; HttpOnly; ${crossSite(c)}; Max-Age=0`, { append: true });
    try {
      const form = await params(c);
      const result = await finishLaunch(services.db, { id_token: form.id_token ?? null, state: form.state ?? null }, getCookie(c, LTI_STATE_COOKIE) ?? null);
      if (result.kind === "cookie-blocked") {
        const body = html`<h1>Open in a new window</h1>
          <p>Your browser kept this site's sign-in cookie from working inside the LMS page.</p>
          <p><a id="relaunch" href="${result.relaunchUrl}" target="_blank" rel="noopener">Open the activity in a new window</a></p>`;
        return c.html(plainPage("Open in a new window", body), 200, { "Cache-Control": "no-store" });
      }
      const session = await createSession(services, result.user.id);
      c.header("Set-Cookie", session.cookie(isHttps(c, services.config), { crossSite: true }), { append: true });
      c.header("Cache-Control", "no-store");
      // The session rides only in its cookie (never in the URL: a link carrying a token would sign whoever opens
      // it into that account). The launch got here because this browser sent back the state cookie, which has
      // the same attributes, so the session cookie is kept too; where cookies are blocked the launch never
      // gets here and offers a new window instead.
      return c.redirect(`/auth/complete?next=${encodeURIComponent(returnPathOr(result.next))}`, 302);
    } catch (err) {
      return signInErrorPage(c, err);
    }
  });
