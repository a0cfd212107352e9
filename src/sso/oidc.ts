/**
 * OpenID Connect sign-in (Authorization Code with PKCE S256, state and nonce,
 * discovery) on panva's `openid-client`, which checks the ID token: signature
 * against the provider's JWKS, iss, aud, azp, exp, iat and nonce.
 *
 * A flow: `startOidc` stores SHA-256(state) with the nonce and PKCE verifier
 * (table sso_flows, 10 minutes, used once) and answers the provider's
 * authorization URL; the caller also puts the state in a cookie, so the
 * callback counts only in the browser that started it (no login CSRF).
 * `finishOidc` takes the flow back (deleting it), lets openid-client redeem
 * the code and verify the ID token, reads the claims (plus UserInfo) and
 * signs the identity in through src/sso/identities.ts.
 */
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import * as client from "openid-client";
import type { Database } from "../../db/index.ts";
import { ssoFlows } from "../../db/schema.ts";
import type { SessionUser } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { safeReturnPath } from "../lib/return-path.ts";
import { isLoopbackHost, type OidcProvider } from "./config.ts";
import { signInExternal } from "./identities.ts";

/** How long a started sign-in may take at the provider, ms. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;
/** Each call to a provider (discovery, token, UserInfo) gives up after this, ms. */
export const OIDC_HTTP_TIMEOUT_MS = 10_000;
/** The cookie holding the state of this browser's sign-in in progress. */
export const OIDC_STATE_COOKIE = "oj_oidc_state";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Discovered configurations by provider id; a failed discovery is tried again on the next sign-in. */
const discovered = new Map<string, Promise<client.Configuration>>();

/**
 * The provider's configuration from its discovery document (cached).
 * @throws AppError SSO_PROVIDER_DOWN when the document cannot be fetched or is invalid.
 */
async function configurationOf(provider: OidcProvider): Promise<client.Configuration> {
  const key = `${provider.id}\n${provider.issuer.href}\n${provider.clientId}`;
  let pending = discovered.get(key);
  if (!pending) {
    const auth = provider.clientSecret ? client.ClientSecretBasic(provider.clientSecret) : client.None();
    pending = client.discovery(provider.issuer, provider.clientId, provider.clientSecret ?? undefined, auth, {
      timeout: OIDC_HTTP_TIMEOUT_MS / 1000,
      // The ID token's signature is checked against the provider's JWKS even though it came straight from the
      // token endpoint (OpenID Core 3.1.3.7 lets a client skip that over TLS; openid-client skips it unless asked).
      execute: [
        client.enableNonRepudiationChecks,
        ...(provider.issuer.protocol === "http:" && isLoopbackHost(provider.issuer.hostname) ? [client.allowInsecureRequests] : []),
      ],
    });
    discovered.set(key, pending);
    pending.catch(() => discovered.delete(key));
  }
  try {
    return await pending;
  } catch (err) {
    throw new AppError("SSO_PROVIDER_DOWN", { details: { provider: provider.id, reason: (err as Error).message } });
  }
}

/**
 * Starts a sign-in at the provider.
 * @param redirectUri this site's `/api/auth/oidc/:id/callback` as the provider knows it.
 * @param opts.linkUserId the signed-in user who links this provider to their account.
 * @returns the URL to send the browser to, and the state for the browser's cookie.
 * @throws AppError SSO_PROVIDER_DOWN.
 */
export async function startOidc(
  db: Database,
  provider: OidcProvider,
  redirectUri: string,
  opts: { linkUserId?: string | null; returnTo?: string | null } = {},
): Promise<{ url: URL; state: string }> {
  const config = await configurationOf(provider);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const now = Date.now();
  // Expired flows are swept as new ones start (a sign-in abandoned at the provider leaves one).
  await db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, new Date(now)));
  await db.insert(ssoFlows).values({
    stateHash: sha256(state),
    provider: `oidc:${provider.id}`,
    nonce,
    codeVerifier,
    linkUserId: opts.linkUserId ?? null,
    returnTo: safeReturnPath(opts.returnTo),
    expiresAt: new Date(now + OIDC_FLOW_TTL_MS),
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url, state };
}

/** Text of a claim (first of a list), trimmed; null when absent. */
function text(v: unknown): string | null {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === "string" && v.trim()) return v.trim();
  return null;
}

/** Given and family name from the claims, else split from `name`. */
function namesFrom(provider: OidcProvider, claims: Record<string, unknown>): { firstName: string | null; lastName: string | null } {
  const first = text(claims[provider.claims.firstName]);
  const last = text(claims[provider.claims.lastName]);
  if (first || last) return { firstName: first, lastName: last };
  const full = text(claims[provider.claims.name]);
  if (!full) return { firstName: null, lastName: null };
  const at = full.lastIndexOf(" ");
  return at > 0 ? { firstName: full.slice(0, at), lastName: full.slice(at + 1) } : { firstName: full, lastName: null };
}

/**
 * Finishes a sign-in: the provider redirected the browser to `callbackUrl`.
 * @param callbackUrl the callback URL as the provider called it (this site's public origin, path and query).
 * @param cookieState the state cookie this browser carries.
 * @returns the signed-in account and where to go next.
 * @throws AppError SSO_FLOW_INVALID (no matching flow for this browser, expired or used),
 *   SSO_TOKEN_INVALID (the provider refused the code or its ID token failed a check; details.reason says which),
 *   SSO_PROVIDER_DOWN, and signInExternal's identity errors.
 */
export async function finishOidc(
  db: Database,
  provider: OidcProvider,
  callbackUrl: URL,
  cookieState: string | null,
): Promise<{ user: SessionUser; returnTo: string | null; linked: boolean }> {
  const state = callbackUrl.searchParams.get("state");
  if (!state || !cookieState || state !== cookieState) throw new AppError("SSO_FLOW_INVALID");
  const [flow] = await db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.stateHash, sha256(state)), eq(ssoFlows.provider, `oidc:${provider.id}`)))
    .returning();
  if (!flow || flow.expiresAt.getTime() < Date.now()) throw new AppError("SSO_FLOW_INVALID");
  const error = callbackUrl.searchParams.get("error");
  if (error) {
    const description = callbackUrl.searchParams.get("error_description");
    throw new AppError("SSO_TOKEN_INVALID", { message: `The identity provider refused the sign-in: ${description ?? error}` });
  }
  const config = await configurationOf(provider);
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    claims = { ...tokens.claims() };
    if (config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      claims = { ...info, ...claims };
    }
  } catch (err) {
    throw oidcError(err);
  }
  const subject = text(claims.sub);
  if (!subject) throw new AppError("SSO_TOKEN_INVALID", { details: { reason: "no sub claim" } });
  const email = text(claims[provider.claims.email]);
  const user = await signInExternal(
    db,
    {
      provider: `oidc:${provider.id}`,
      issuer: config.serverMetadata().issuer,
      subject,
      email,
      emailVerified: claims.email_verified === true || claims.email_verified === "true",
      ...namesFrom(provider, claims),
      claims,
    },
    provider,
    { linkToUserId: flow.linkUserId },
  );
  return { user, returnTo: flow.returnTo, linked: flow.linkUserId !== null };
}

/** An openid-client failure as the catalogue's error: the provider unreachable, or a check that failed. */
function oidcError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as Error & { code?: string; cause?: unknown; error?: string; error_description?: string };
  // openid-client wraps oauth4webapi's error, whose message names the claim (`unexpected JWT "aud" (audience) claim value`).
  const cause = e.cause instanceof Error ? e.cause.message : null;
  const reason = e.error ? `${e.error}${e.error_description ? ` (${e.error_description})` : ""}` : (cause ?? e.message);
  const network = e.name === "TimeoutError" || e.name === "AbortError" || (e instanceof TypeError && /fetch|connect|network/i.test(e.message));
  if (network) return new AppError("SSO_PROVIDER_DOWN", { details: { reason } });
  return new AppError("SSO_TOKEN_INVALID", { message: `The identity provider's answer failed verification: ${reason}`, details: { reason } });
}

/** Forgets discovered configurations (tests restart their provider on new keys). */
export function forgetDiscovery(): void {
  discovered.clear();
}
