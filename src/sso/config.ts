/**
 * Settings of the ways in other than a password (issue 10), read from the
 * environment by `loadConfig` (src/config.ts) and checked at start like every
 * other setting: a bad value throws ConfigError naming the variable.
 *
 * One or more providers per kind, named in a list and then configured under
 * their upper-cased id (docs/sso.md has copy-paste examples):
 *   OIDC_PROVIDERS=campus          OIDC_CAMPUS_ISSUER, _CLIENT_ID, _CLIENT_SECRET, _NAME, _SCOPES, _CLAIM_*
 *   LDAP_PROVIDERS=directory       LDAP_DIRECTORY_URL, _BIND_DN, _BIND_PASSWORD, _BASE_DN, _USER_FILTER, ...
 *   TRUSTED_HEADER=X-Remote-User   with TRUSTED_PROXIES (CIDRs), TRUSTED_HEADER_EMAIL, ...
 * and for each provider the account policy: _EXISTING_ONLY, _LINK_VERIFIED_EMAIL,
 * _ADMIN_WHEN, _COURSE_CREATOR_WHEN (src/sso/rules.ts).
 */
import { z } from "zod";
import { parseRule, type Rule } from "./rules.ts";
import type { BlockList } from "node:net";
import { parseProxyList, type ProxyList } from "../lib/proxies.ts";

/** What every way in decides about accounts. */
export interface AccountPolicy {
  /** Sign in only identities already linked or whose account exists; never create one. */
  existingOnly: boolean;
  /** Link to an existing account with the same email when the provider says the email is verified. */
  linkVerifiedEmail: boolean;
  /** When set, the site role follows it at every sign-in through this provider (admin when it matches). */
  adminWhen: Rule | null;
  /** When set, `canCreateCourses` follows it at every sign-in through this provider. */
  courseCreatorWhen: Rule | null;
}

export interface OidcProvider extends AccountPolicy {
  kind: "oidc";
  /** Lower-case id used in routes: /api/auth/oidc/:id/login. */
  id: string;
  /** Shown on the sign-in button. */
  name: string;
  issuer: URL;
  clientId: string;
  /** Absent for a public client (PKCE only). */
  clientSecret: string | null;
  /** Space-separated; always includes `openid`. */
  scopes: string;
  claims: { email: string; firstName: string; lastName: string; name: string };
}

export interface LdapProvider extends AccountPolicy {
  kind: "ldap";
  id: string;
  name: string;
  /** ldap:// or ldaps:// */
  url: string;
  /** Upgrade an ldap:// connection with StartTLS before binding. */
  startTls: boolean;
  /** PEM file of the CA that signed the directory's certificate (else the system's). */
  caFile: string | null;
  /** The service account that searches; null for an anonymous search. */
  bindDn: string | null;
  bindPassword: string | null;
  baseDn: string;
  /** LDAP filter with `{username}` where the escaped username goes. */
  userFilter: string;
  attributes: { email: string; firstName: string; lastName: string };
  /** Where groups are searched (`(|(member={dn})(uniqueMember={dn})(memberUid={uid}))`); else the entry's memberOf. */
  groupBaseDn: string | null;
  timeoutMs: number;
}

export interface TrustedHeaderSettings extends AccountPolicy {
  /** Request header holding the user name the proxy authenticated, e.g. X-Remote-User. */
  header: string;
  /** Peers whose header counts. */
  proxies: BlockList;
  /** The CIDRs as written (for logs and the status page). */
  proxyCidrs: string[];
  emailHeader: string | null;
  firstNameHeader: string | null;
  lastNameHeader: string | null;
  /** Comma-separated group list header (for the role rules, as `groups`). */
  groupsHeader: string | null;
  /** Email = user@domain when no email header came. */
  emailDomain: string | null;
}

export interface SsoConfig {
  oidc: OidcProvider[];
  ldap: LdapProvider[];
  trustedHeader: TrustedHeaderSettings | null;
  /** Email and password sign-up (LOCAL_SIGNUP=false turns it off; existing accounts still sign in). */
  localSignup: boolean;
  /** The site's public origin for redirect URIs (PUBLIC_URL); else taken from each request. */
  publicUrl: URL | null;
}

/** A bad SSO setting: the message starts with the variable's name. */
/**
 * The ways in this site offers, for the sign-in page: OpenID providers
 * (buttons with their login URL), LDAP directories (the form's chooser),
 * whether a trusted proxy signs people in, and whether password sign-up is open.
 */
export function signInOptions(sso: SsoConfig): {
  oidc: { id: string; name: string; loginUrl: string }[];
  ldap: { id: string; name: string }[];
  trustedHeader: { loginUrl: string } | null;
  localSignup: boolean;
} {
  return {
    oidc: sso.oidc.map((p) => ({ id: p.id, name: p.name, loginUrl: `/api/auth/oidc/${p.id}/login` })),
    ldap: sso.ldap.map((p) => ({ id: p.id, name: p.name })),
    trustedHeader: sso.trustedHeader ? { loginUrl: "/api/auth/header" } : null,
    localSignup: sso.localSignup,
  };
}

export class SsoConfigIssue extends Error {}

type Env = Record<string, string | undefined>;

function read(env: Env, key: string): string | undefined {
  const v = env[key]?.trim();
  return v ? v : undefined;
}

function required(env: Env, key: string, why: string): string {
  const v = read(env, key);
  if (!v) throw new SsoConfigIssue(`${key}: required (${why})`);
  return v;
}

function flag(env: Env, key: string, fallback: boolean): boolean {
  const v = read(env, key)?.toLowerCase();
  if (v === undefined) return fallback;
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new SsoConfigIssue(`${key}: expected true or false`);
}

function rule(env: Env, key: string): Rule | null {
  const v = read(env, key);
  if (!v) return null;
  try {
    return parseRule(v);
  } catch (err) {
    throw new SsoConfigIssue(`${key}: ${(err as Error).message}`);
  }
}

function policy(env: Env, prefix: string): AccountPolicy {
  return {
    existingOnly: flag(env, `${prefix}_EXISTING_ONLY`, false),
    linkVerifiedEmail: flag(env, `${prefix}_LINK_VERIFIED_EMAIL`, false),
    adminWhen: rule(env, `${prefix}_ADMIN_WHEN`),
    courseCreatorWhen: rule(env, `${prefix}_COURSE_CREATOR_WHEN`),
  };
}

const providerId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);

function ids(env: Env, key: string): string[] {
  const list = (read(env, key) ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const id of list) {
    if (!providerId.safeParse(id).success) throw new SsoConfigIssue(`${key}: "${id}" is not a provider id (a-z, 0-9 and -, starting with a letter)`);
  }
  if (new Set(list).size !== list.length) throw new SsoConfigIssue(`${key}: a provider id is listed twice`);
  return list;
}

const envName = (id: string) => id.toUpperCase().replaceAll("-", "_");

function url(env: Env, key: string, protocols: string[], why: string): URL {
  const raw = required(env, key, why);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new SsoConfigIssue(`${key}: not a URL: ${raw}`);
  }
  if (!protocols.includes(u.protocol)) throw new SsoConfigIssue(`${key}: must start with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  return u;
}

/** Loopback hosts may use plain http (tests, a provider on the same machine); everything else https. */
export function isLoopbackHost(hostname: string): boolean {
  return ["127.0.0.1", "localhost", "[::1]", "::1"].includes(hostname) || hostname.startsWith("127.");
}

function oidcProvider(env: Env, id: string): OidcProvider {
  const p = `OIDC_${envName(id)}`;
  const issuer = url(env, `${p}_ISSUER`, ["https:", "http:"], `OIDC_PROVIDERS lists ${id}`);
  if (issuer.protocol === "http:" && !isLoopbackHost(issuer.hostname)) throw new SsoConfigIssue(`${p}_ISSUER: must be https (plain http only to this machine)`);
  const scopes = new Set((read(env, `${p}_SCOPES`) ?? "openid email profile").split(/[\s,]+/).filter(Boolean));
  scopes.add("openid");
  return {
    kind: "oidc",
    id,
    name: read(env, `${p}_NAME`) ?? id,
    issuer,
    clientId: required(env, `${p}_CLIENT_ID`, `OIDC_PROVIDERS lists ${id}`),
    clientSecret: read(env, `${p}_CLIENT_SECRET`) ?? null,
    scopes: [...scopes].join(" "),
    claims: {
      email: read(env, `${p}_CLAIM_EMAIL`) ?? "email",
      firstName: read(env, `${p}_CLAIM_FIRST_NAME`) ?? "given_name",
      lastName: read(env, `${p}_CLAIM_LAST_NAME`) ?? "family_name",
      name: read(env, `${p}_CLAIM_NAME`) ?? "name",
    },
    ...policy(env, p),
  };
}

function ldapProvider(env: Env, id: string): LdapProvider {
  const p = `LDAP_${envName(id)}`;
  const u = url(env, `${p}_URL`, ["ldap:", "ldaps:"], `LDAP_PROVIDERS lists ${id}`);
  const startTls = flag(env, `${p}_STARTTLS`, false);
  if (startTls && u.protocol === "ldaps:") throw new SsoConfigIssue(`${p}_STARTTLS: use either ldaps:// or StartTLS on ldap://, not both`);
  // Users' passwords cross this connection at every bind: in the clear only to this machine.
  if (u.protocol === "ldap:" && !startTls && !isLoopbackHost(u.hostname)) {
    throw new SsoConfigIssue(`${p}_URL: plain ldap:// to another machine would send passwords in the clear; use ldaps:// or set ${p}_STARTTLS=true`);
  }
  const bindDn = read(env, `${p}_BIND_DN`) ?? null;
  const bindPassword = read(env, `${p}_BIND_PASSWORD`) ?? null;
  if (bindDn && !bindPassword) throw new SsoConfigIssue(`${p}_BIND_PASSWORD: required with ${p}_BIND_DN`);
  const userFilter = read(env, `${p}_USER_FILTER`) ?? "(|(uid={username})(mail={username}))";
  if (!userFilter.includes("{username}")) throw new SsoConfigIssue(`${p}_USER_FILTER: must contain {username}`);
  const timeout = Number(read(env, `${p}_TIMEOUT_MS`) ?? 5000);
  if (!Number.isInteger(timeout) || timeout <= 0) throw new SsoConfigIssue(`${p}_TIMEOUT_MS: expected a positive whole number of milliseconds`);
  return {
    kind: "ldap",
    id,
    name: read(env, `${p}_NAME`) ?? id,
    url: u.toString().replace(/\/$/, ""),
    startTls,
    caFile: read(env, `${p}_CA_FILE`) ?? null,
    bindDn,
    bindPassword,
    baseDn: required(env, `${p}_BASE_DN`, `LDAP_PROVIDERS lists ${id}`),
    userFilter,
    attributes: {
      email: read(env, `${p}_ATTR_EMAIL`) ?? "mail",
      firstName: read(env, `${p}_ATTR_FIRST_NAME`) ?? "givenName",
      lastName: read(env, `${p}_ATTR_LAST_NAME`) ?? "sn",
    },
    groupBaseDn: read(env, `${p}_GROUP_BASE_DN`) ?? null,
    timeoutMs: timeout,
    ...policy(env, p),
  };
}

function trustedHeader(env: Env): TrustedHeaderSettings | null {
  const header = read(env, "TRUSTED_HEADER");
  if (!header) return null;
  if (!/^[A-Za-z0-9-]+$/.test(header)) throw new SsoConfigIssue("TRUSTED_HEADER: a header name such as X-Remote-User");
  let parsed: ProxyList;
  try {
    parsed = parseProxyList(required(env, "TRUSTED_PROXIES", "TRUSTED_HEADER is set; name the proxies whose header counts, e.g. 127.0.0.1/32") ?? "", "TRUSTED_PROXIES");
  } catch (err) {
    throw new SsoConfigIssue((err as Error).message);
  }
  const { list: proxies, cidrs } = parsed;
  const emailHeader = read(env, "TRUSTED_HEADER_EMAIL") ?? null;
  const emailDomain = read(env, "TRUSTED_HEADER_EMAIL_DOMAIN") ?? null;
  if (!emailHeader && !emailDomain) throw new SsoConfigIssue("TRUSTED_HEADER_EMAIL: set it (a header with the email) or TRUSTED_HEADER_EMAIL_DOMAIN (email = user@domain)");
  return {
    header,
    proxies,
    proxyCidrs: cidrs,
    emailHeader,
    firstNameHeader: read(env, "TRUSTED_HEADER_FIRST_NAME") ?? null,
    lastNameHeader: read(env, "TRUSTED_HEADER_LAST_NAME") ?? null,
    groupsHeader: read(env, "TRUSTED_HEADER_GROUPS") ?? null,
    emailDomain,
    ...policy(env, "TRUSTED_HEADER"),
  };
}

/**
 * Reads the SSO settings.
 * @returns the providers in the order listed.
 * @throws SsoConfigIssue for the first bad variable (loadConfig turns it into a ConfigError).
 */
export function loadSsoConfig(env: Env): SsoConfig {
  const oidc = ids(env, "OIDC_PROVIDERS").map((id) => oidcProvider(env, id));
  const ldap = ids(env, "LDAP_PROVIDERS").map((id) => ldapProvider(env, id));
  const clash = oidc.find((o) => ldap.some((l) => l.id === o.id));
  if (clash) throw new SsoConfigIssue(`LDAP_PROVIDERS: "${clash.id}" is also an OpenID provider's id; give each its own`);
  const publicUrl = read(env, "PUBLIC_URL") ? url(env, "PUBLIC_URL", ["https:", "http:"], "") : null;
  return {
    oidc,
    ldap,
    trustedHeader: trustedHeader(env),
    localSignup: flag(env, "LOCAL_SIGNUP", true),
    publicUrl,
  };
}
