/**
 * URLs an LMS hands us (the deep-linking return URL, AGS line items, the NRPS
 * memberships URL and its `Link: rel="next"` pages) are the platform's word,
 * and a platform (or whoever administers it) could name any address: an
 * internal service of ours, a cloud metadata endpoint, another site. Such a
 * URL is used as a form action or a fetch target only when it is `https:`
 * (plain `http:` only to this machine, for a platform on the same host and
 * tests) and on the platform's own site: the registrable domain (public
 * suffix list, `tldts`) of one of its registered URLs (issuer, authorization,
 * token, JWKS), or the same host where there is no registrable domain (an IP
 * address, localhost). Canvas names its issuer canvas.instructure.com and its
 * services on the school's *.instructure.com: same registrable domain.
 */
import { getDomain } from "tldts";
import { isLoopbackHost } from "../sso/config.ts";
import type { PlatformRow } from "./registry.ts";

/** The registrable domain of a host, or the host itself when it has none (IP address, localhost). */
function siteOf(hostname: string): string {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return getDomain(host, { allowPrivateDomains: false }) ?? host;
}

/**
 * Why `raw` may not be used as the platform's URL, or null when it may.
 * @param platform the registered platform whose launch or service answer named it.
 */
export function platformUrlProblem(platform: Pick<PlatformRow, "issuer" | "authUrl" | "tokenUrl" | "jwksUrl">, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.username || url.password) return "a URL with credentials in it";
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return "not https";
  const own = new Set([platform.issuer, platform.authUrl, platform.tokenUrl, platform.jwksUrl].map((u) => siteOf(new URL(u).hostname)));
  if (!own.has(siteOf(url.hostname))) return `not on the platform's own site (${[...own].join(", ")})`;
  return null;
}

/**
 * The URL, when the platform may send us there (see the module comment).
 * @throws Error naming `what` and the reason otherwise.
 */
export function requirePlatformUrl(platform: Pick<PlatformRow, "issuer" | "authUrl" | "tokenUrl" | "jwksUrl">, raw: string, what: string): string {
  const problem = platformUrlProblem(platform, raw);
  if (problem) throw new Error(`${what}: ${problem}`);
  return raw;
}
