/**
 * Sign-in by a trusted reverse proxy's header (Apache or nginx with
 * mod_auth_openidc, Shibboleth, CAS setting `REMOTE_USER`): opt-in with
 * TRUSTED_HEADER and TRUSTED_PROXIES. The header counts only when the
 * socket's peer address (never X-Forwarded-For) is one of the proxies; from
 * anyone else it is ignored, and the first such request per address is
 * logged. Unlike DOMjudge's REMOTE_USER (its issue #546), an unknown user
 * gets an account (unless TRUSTED_HEADER_EXISTING_ONLY).
 */
import type { Services } from "../context.ts";
import type { SessionUser } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { isTrustedProxy } from "../lib/proxies.ts";
import { signInExternal } from "./identities.ts";

/** Addresses already logged as sending the header untrusted (bounded, so a scan cannot grow it). */
const loggedUntrusted = new Set<string>();
const LOGGED_UNTRUSTED_MAX = 1000;

/**
 * The email of the proxy's user. Only the headers the operator named are read:
 * with TRUSTED_HEADER_EMAIL, that header alone (no fallback the client could
 * fill by leaving it out); else TRUSTED_HEADER_EMAIL_DOMAIN makes
 * `user@domain` from a bare user name, and never rewrites a user that already
 * names a domain (`alice@elsewhere.example` would become someone else's
 * campus address): such a user keeps it only when it is that domain.
 * @returns the address, or null when there is none to give.
 */
export function headerEmail(
  settings: { emailHeader: string | null; emailDomain: string | null },
  user: string,
  header: (name: string) => string | null,
): string | null {
  if (settings.emailHeader) return header(settings.emailHeader)?.trim() || null;
  if (!settings.emailDomain) return null;
  if (!user.includes("@")) return `${user}@${settings.emailDomain}`;
  return user.toLowerCase().endsWith(`@${settings.emailDomain.toLowerCase()}`) ? user : null;
}

/**
 * Signs in the user the trusted proxy names.
 * @param peer the socket's peer address.
 * @param header reads a request header by name.
 * @returns the account (created on first sign-in unless existing-only).
 * @throws AppError SSO_PROVIDER_UNKNOWN (404) when not configured, UNAUTHENTICATED (401) when the
 *   peer is not a trusted proxy or sent no user, and signInExternal's identity errors.
 */
export async function headerSignIn(
  services: Pick<Services, "config" | "db" | "log">,
  peer: string | null,
  header: (name: string) => string | null,
): Promise<SessionUser> {
  const settings = services.config.sso.trustedHeader;
  if (!settings) throw new AppError("SSO_PROVIDER_UNKNOWN");
  const value = header(settings.header)?.trim();
  if (!isTrustedProxy(settings.proxies, peer)) {
    if (value && !loggedUntrusted.has(peer ?? "unknown") && loggedUntrusted.size < LOGGED_UNTRUSTED_MAX) {
      loggedUntrusted.add(peer ?? "unknown");
      services.log.warn(`${settings.header} ignored: ${peer ?? "an unknown address"} is not in TRUSTED_PROXIES (${settings.proxyCidrs.join(", ")})`);
    }
    throw new AppError("UNAUTHENTICATED", { message: "Sign-in through the campus proxy is not available from here" });
  }
  if (!value) throw new AppError("UNAUTHENTICATED", { message: `The proxy sent no ${settings.header}` });
  const user = value.slice(0, 256);
  const email = headerEmail(settings, user, header);
  const groups = settings.groupsHeader
    ? (header(settings.groupsHeader) ?? "")
        .split(/[,;]/)
        .map((g) => g.trim())
        .filter(Boolean)
    : [];
  return signInExternal(
    services.db,
    {
      provider: "header",
      issuer: `header:${settings.header.toLowerCase()}`,
      subject: user,
      email,
      // The proxy's campus login vouches for its own user; an email built from the domain is the campus's too.
      emailVerified: true,
      firstName: settings.firstNameHeader ? (header(settings.firstNameHeader)?.trim() ?? null) : null,
      lastName: settings.lastNameHeader ? (header(settings.lastNameHeader)?.trim() ?? null) : null,
      claims: { user, email, groups },
    },
    settings,
  );
}
