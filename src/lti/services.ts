/**
 * Calls to a platform's LTI Advantage services as the tool:
 *
 * - an access token from the platform's token URL by the client-credentials
 *   grant with a `private_key_jwt` client assertion (IMS Security Framework
 *   §4.1), made by openid-client, signed with the tool's key; the
 *   assertion's `aud` is the token URL (Canvas requires it; Moodle accepts
 *   it). Tokens are cached per (platform, scopes) until a minute before expiry.
 * - AGS 2.0: POST a score to `<line item>/scores`
 *   (`application/vnd.ims.lis.v1.score+json`).
 * - NRPS 2.0: GET the context's memberships, following `Link: <...>; rel="next"`.
 * Every request names the tool in User-Agent (Canvas refuses calls without one).
 */
import * as client from "openid-client";
import type { Database } from "../../db/index.ts";
import { requirePlatformUrl } from "./urls.ts";
import { VERSION } from "../version.ts";
import { signingKey } from "./keys.ts";
import type { PlatformRow } from "./registry.ts";

export const LTI_USER_AGENT = `online-judge-lti/${VERSION}`;
/** Each call to a platform gives up after this, ms. */
export const LTI_HTTP_TIMEOUT_MS = 15_000;
/** Most membership pages read in one roster sync (a runaway `next` chain stops here). */
export const NRPS_MAX_PAGES = 200;

const withAgent: client.CustomFetch = (url, options) =>
  fetch(url, { ...options, headers: { ...(options.headers as Record<string, string>), "user-agent": LTI_USER_AGENT } } as RequestInit);

const tokens = new Map<string, { token: string; expiresAt: number }>();

/**
 * An access token for these scopes at the platform.
 * @throws Error naming the platform's refusal (e.g. `invalid_client`) or the network failure.
 */
export async function accessToken(db: Database, platform: PlatformRow, scopes: string[]): Promise<string> {
  const key = `${platform.id}\n${scopes.join(" ")}`;
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
  const { kid, key: privateKey } = await signingKey(db);
  const config = new client.Configuration(
    { issuer: platform.issuer, token_endpoint: platform.tokenUrl },
    platform.clientId,
    undefined,
    client.PrivateKeyJwt(
      { key: privateKey, kid },
      {
        [client.modifyAssertion]: (_header, payload) => {
          payload.aud = platform.tokenUrl;
        },
      },
    ),
  );
  config[client.customFetch] = withAgent;
  config.timeout = LTI_HTTP_TIMEOUT_MS / 1000;
  if (new URL(platform.tokenUrl).protocol === "http:") client.allowInsecureRequests(config);
  let response;
  try {
    response = await client.clientCredentialsGrant(config, { scope: scopes.join(" ") });
  } catch (err) {
    const e = err as Error & { error?: string; error_description?: string; cause?: unknown };
    throw new Error(`token: ${e.error ? `${e.error}${e.error_description ? ` (${e.error_description})` : ""}` : e.cause instanceof Error ? e.cause.message : e.message}`);
  }
  tokens.set(key, { token: response.access_token, expiresAt: Date.now() + (response.expires_in ?? 3600) * 1000 });
  return response.access_token;
}

/** Forgets cached tokens (a 401 from a service: the token was revoked). */
export function forgetTokens(platformId?: string): void {
  for (const k of tokens.keys()) if (!platformId || k.startsWith(`${platformId}\n`)) tokens.delete(k);
}

/**
 * One call to a platform's service, only to a URL on the platform's own site (src/lti/urls.ts); redirects are not
 * followed (a redirect could leave that site).
 * @throws Error naming `what` when the URL is not the platform's.
 */
async function call(platform: PlatformRow, what: string, url: string, init: RequestInit & { token: string }): Promise<Response> {
  const { token, ...rest } = init;
  return fetch(requirePlatformUrl(platform, url, what), {
    ...rest,
    redirect: "error",
    headers: { ...(rest.headers as Record<string, string>), authorization: `Bearer ${token}`, "user-agent": LTI_USER_AGENT },
    signal: AbortSignal.timeout(LTI_HTTP_TIMEOUT_MS),
  });
}

/** `<line item URL>/scores`, keeping the line item's query string (AGS 2.0 §3.4). */
export function scoresUrl(lineItemUrl: string): string {
  const u = new URL(lineItemUrl);
  u.pathname = `${u.pathname.replace(/\/$/, "")}/scores`;
  return u.toString();
}

export interface Score {
  /** The student's id at the platform. */
  userId: string;
  scoreGiven: number;
  scoreMaximum: number;
  /** ISO 8601 with milliseconds: platforms ignore a score older than the last they kept. */
  timestamp: string;
}

/**
 * Posts a score to a line item.
 * @throws Error with the platform's status and answer when it is not 2xx.
 */
export async function postScore(db: Database, platform: PlatformRow, lineItemUrl: string, score: Score, scopes: string[]): Promise<void> {
  const token = await accessToken(db, platform, scopes);
  const res = await call(platform, "line item", scoresUrl(lineItemUrl), {
    method: "POST",
    token,
    headers: { "content-type": "application/vnd.ims.lis.v1.score+json" },
    body: JSON.stringify({ ...score, activityProgress: "Completed", gradingProgress: "FullyGraded" }),
  });
  if (res.status === 401) forgetTokens(platform.id);
  if (!res.ok) throw new Error(`scores: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
}

/** One member as NRPS 2.0 lists them. */
export interface Member {
  user_id: string;
  roles: string[];
  status?: "Active" | "Inactive" | "Deleted";
  email?: string;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** The `rel="next"` URL of a Link header, or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(",")) {
    const m = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    if (m && /rel="?next"?/.test(m[2]!)) return m[1]!;
  }
  return null;
}

/**
 * Every member of the context, page by page.
 * @throws Error with the platform's status when a page is refused.
 */
export async function fetchMembers(db: Database, platform: PlatformRow, membershipsUrl: string, scopes: string[]): Promise<Member[]> {
  const token = await accessToken(db, platform, scopes);
  const members: Member[] = [];
  let url: string | null = membershipsUrl;
  for (let page = 0; url && page < NRPS_MAX_PAGES; page++) {
    const res = await call(platform, page === 0 ? "memberships URL" : "next page of the memberships", url, { method: "GET", token, headers: { accept: "application/vnd.ims.lti-nrps.v2.membershipcontainer+json" } });
    if (res.status === 401) forgetTokens(platform.id);
    if (!res.ok) throw new Error(`memberships: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { members?: Member[] };
    members.push(...(body.members ?? []));
    url = nextLink(res.headers.get("link"));
  }
  return members;
}
