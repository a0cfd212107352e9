/**
 * LDAP sign-in by bind and search (the way Moodle, GitLab and Keycloak's
 * LDAP federation do it), on `ldapts`:
 *
 * 1. connect (ldaps://, or ldap:// upgraded with StartTLS when configured);
 * 2. bind as the service account (or search anonymously when none is set);
 * 3. search under the base DN with the user filter, the username escaped per
 *    RFC 4515 (`Filter.escape`), so `*`, `(`, `)`, `\` and NUL cannot change
 *    the filter; exactly one entry must match;
 * 4. bind as that entry's DN with the password (an empty password is refused
 *    before, since a simple bind without one is an anonymous bind that succeeds);
 * 5. read name, email, entryUUID and the groups (a group search under
 *    GROUP_BASE_DN, else the entry's memberOf).
 * A directory that cannot be reached, or refuses the service account, is
 * SSO_PROVIDER_DOWN (503); a wrong password or unknown user is the same 401.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { Client, Filter, InvalidCredentialsError, type Entry } from "ldapts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { LdapProvider } from "./config.ts";
import type { ExternalProfile } from "./identities.ts";
import type { Database } from "../../db/index.ts";
import type { Config } from "../config.ts";
import { throttledLogin, type LoginDeps } from "../accounts/login.ts";
import type { SessionUser } from "../accounts/user.ts";
import { signInExternal } from "./identities.ts";

/** Usernames longer than this are refused unasked (uids and mails are far shorter). */
export const LDAP_USERNAME_MAX_CHARS = 256;

function first(entry: Entry, name: string): string | null {
  const v = entry[name];
  const one = Array.isArray(v) ? v[0] : v;
  if (one === undefined) return null;
  const s = Buffer.isBuffer(one) ? one.toString("utf8") : String(one);
  return s.trim() || null;
}

function all(entry: Entry | undefined, name: string): string[] {
  const v = entry?.[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString("utf8") : String(x)));
}

/** `cn=staff,ou=groups,dc=x` → `staff`. */
function cnOf(dn: string): string {
  const m = /^\s*cn=((?:\\.|[^,])+)/i.exec(dn);
  return m ? m[1]!.replace(/\\(.)/g, "$1") : dn;
}

/** TLS options: the directory's name checked against its certificate (SNI only for names; an IP is checked as is). */
function tlsOptions(provider: LdapProvider) {
  const host = new URL(provider.url).hostname.replace(/^\[|\]$/g, "");
  return { host, ...(isIP(host) ? {} : { servername: host }), ...(provider.caFile ? { ca: [readFileSync(provider.caFile)] } : {}) };
}

/** Whether the error is the network's or TLS's (the directory is down), not an LDAP answer. */
function unreachable(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException & { name?: string };
  return (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EPIPE"].includes(e.code ?? "") ||
    /timeout|timed out|connect|socket|certificate|self.signed|TLS/i.test(`${e.name} ${e.message}`)
  );
}

/**
 * The user search filter with the username in place, escaped per RFC 4515;
 * put in by a function, not a replacement string, so `$&`, `` $` `` and `$'`
 * in a username stay text instead of pulling in parts of the filter.
 * @example userFilter("(uid={username})", "a*b") // "(uid=a\2ab)"
 */
export function userFilter(template: string, username: string): string {
  const escaped = Filter.escape(username);
  return template.replaceAll("{username}", () => escaped);
}

/**
 * Checks a username and password against the directory.
 * @returns the person's profile for signInExternal (issuer `ldap:<id>`, subject entryUUID or DN, `groups` claim).
 * @throws AppError INVALID_CREDENTIALS (401) for an unknown, ambiguous or wrong username or password,
 *   SSO_PROVIDER_DOWN (503) when the directory is unreachable or refuses the service account.
 */
export async function ldapAuthenticate(provider: LdapProvider, username: string, password: string, log?: Logger): Promise<ExternalProfile> {
  const name = username.trim();
  if (!name || !password || name.length > LDAP_USERNAME_MAX_CHARS) throw new AppError("INVALID_CREDENTIALS");
  const down = (err: unknown): never => {
    log?.warn(`ldap ${provider.id}: ${(err as Error).message}`);
    throw new AppError("SSO_PROVIDER_DOWN", { message: `The directory (${provider.name}) cannot be reached right now. Try again in a few minutes.` });
  };
  const client = new Client({
    url: provider.url,
    timeout: provider.timeoutMs,
    connectTimeout: provider.timeoutMs,
    ...(provider.url.startsWith("ldaps:") ? { tlsOptions: tlsOptions(provider) } : {}),
  });
  try {
    try {
      if (provider.startTls) await client.startTLS(tlsOptions(provider));
      if (provider.bindDn) await client.bind(provider.bindDn, provider.bindPassword ?? "");
    } catch (err) {
      down(err);
    }
    const { attributes } = provider;
    const filter = userFilter(provider.userFilter, name);
    let entries: Entry[];
    try {
      ({ searchEntries: entries } = await client.search(provider.baseDn, {
        scope: "sub",
        filter,
        sizeLimit: 2,
        attributes: ["dn", "entryUUID", "uid", "memberOf", attributes.email, attributes.firstName, attributes.lastName],
      }));
    } catch (err) {
      if (unreachable(err)) down(err);
      // More than one entry (size limit exceeded) or a refused search: no single person to sign in.
      throw new AppError("INVALID_CREDENTIALS");
    }
    if (entries.length !== 1) throw new AppError("INVALID_CREDENTIALS");
    const entry = entries[0]!;
    try {
      await client.bind(entry.dn, password);
    } catch (err) {
      if (err instanceof InvalidCredentialsError) throw new AppError("INVALID_CREDENTIALS");
      if (unreachable(err)) down(err);
      throw new AppError("INVALID_CREDENTIALS");
    }
    const groups = await groupsOf(client, provider, entry);
    return {
      provider: `ldap:${provider.id}`,
      issuer: `ldap:${provider.id}`,
      subject: first(entry, "entryUUID") ?? entry.dn.toLowerCase(),
      email: first(entry, attributes.email),
      // The directory is the campus's record of the address.
      emailVerified: true,
      firstName: first(entry, attributes.firstName),
      lastName: first(entry, attributes.lastName),
      claims: { groups, uid: first(entry, "uid"), dn: entry.dn, email: first(entry, attributes.email) },
    };
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** The names (cn) of the person's groups: a group search when GROUP_BASE_DN is set, else memberOf. */
async function groupsOf(client: Client, provider: LdapProvider, entry: Entry): Promise<string[]> {
  if (!provider.groupBaseDn) return all(entry, "memberOf").map(cnOf);
  // Search as the service account again: the user's own bind may not read groups.
  if (provider.bindDn) await client.bind(provider.bindDn, provider.bindPassword ?? "");
  const uid = first(entry, "uid");
  const dn = Filter.escape(entry.dn);
  const filter = `(|(member=${dn})(uniqueMember=${dn})${uid ? `(memberUid=${Filter.escape(uid)})` : ""})`;
  const { searchEntries } = await client.search(provider.groupBaseDn, { scope: "sub", filter, attributes: ["cn"] });
  return searchEntries.map((g) => first(g, "cn") ?? cnOf(g.dn));
}

/**
 * Signs in through one of the configured directories: the username and
 * password checked against it (throttled as password sign-ins are, per
 * directory and username and per address), then the account linked to the
 * entry (./identities.ts).
 * @throws AppError SSO_PROVIDER_UNKNOWN (404, field provider), INVALID_CREDENTIALS (401),
 *   TOO_MANY_LOGIN_ATTEMPTS (429), SSO_PROVIDER_DOWN (503), and signInExternal's identity errors.
 */
export async function directorySignIn(
  deps: { db: Database; config: Config; limiters: LoginDeps["limiters"]; log: Logger },
  ip: string,
  providerId: string,
  username: string,
  password: string,
): Promise<SessionUser> {
  const directory = deps.config.sso.ldap.find((p) => p.id === providerId);
  if (!directory) throw new AppError("SSO_PROVIDER_UNKNOWN", { field: "provider" });
  const key = `ldap:${directory.id}:${username.trim().toLowerCase()}`;
  const profile = await throttledLogin(deps.limiters, ip, key, () => ldapAuthenticate(directory, username, password, deps.log));
  return signInExternal(deps.db, profile, directory);
}
