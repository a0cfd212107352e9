/**
 * Where the registered LMS platforms live, as Content-Security-Policy sources:
 * the pages an LMS shows in its iframe allow exactly these as frame
 * ancestors, and the deep-linking page may post its form to them. Each
 * platform's site is the registrable domain of its issuer and authorization
 * URL (src/lti/urls.ts's rule: Canvas's school.instructure.com for issuer
 * canvas.instructure.com), given as `https://site https://*.site`; a platform
 * on plain http (this machine only) is its host on any port. Read from the
 * database at most every few seconds; registering or removing a platform
 * forgets the cached list at once.
 */
import { getDomain } from "tldts";
import type { Database } from "../../db/index.ts";
import { ltiPlatforms } from "../../db/schema.ts";

const TTL_MS = 10_000;
let cached: { at: number; sources: string[] } | null = null;

/** Forgets the cached sources (a platform was registered or removed). */
export function forgetFrameOrigins(): void {
  cached = null;
}

/** CSP sources of one registered URL's site. */
function sourcesOf(raw: string): string[] {
  const url = new URL(raw);
  // Plain http is only ever a platform on this machine (a registration rule): any of its ports.
  if (url.protocol === "http:") return [`http://${url.hostname}:*`];
  const site = getDomain(url.hostname, { allowPrivateDomains: false });
  return site ? [`https://${site}`, `https://*.${site}`] : [url.origin];
}

/** The CSP sources of every registered platform (empty when none is registered). */
export async function lmsFrameSources(db: Database): Promise<string[]> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.sources;
  const rows = await db.select({ issuer: ltiPlatforms.issuer, authUrl: ltiPlatforms.authUrl }).from(ltiPlatforms);
  const sources = [...new Set(rows.flatMap((r) => [...sourcesOf(r.issuer), ...sourcesOf(r.authUrl)]))].sort();
  cached = { at: Date.now(), sources };
  return sources;
}
