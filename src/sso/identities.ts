/**
 * External identities: who an identity from an OpenID provider, an LDAP
 * directory, a trusted proxy or an LMS is here. Linked by (issuer, subject)
 * in `external_identities`, never by email alone:
 *
 * 1. A linked identity signs in as its account (its role rules applied).
 * 2. An unlinked identity met while its user is signed in (a "link" flow) is
 *    linked to that account.
 * 3. An unlinked identity whose email belongs to an account is linked only
 *    when the provider vouches for the email (`email_verified`) AND the
 *    operator allowed it (`_LINK_VERIFIED_EMAIL`); else refused with a message
 *    saying to sign in first and link.
 * 4. Otherwise a new account is made from the claims (no password), unless
 *    the provider is "existing accounts only".
 *
 * A way in that vouches for the email (`emailVerified`) verifies the account's
 * address when it is the account's own (src/accounts/email, decision 071).
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { externalIdentities, users } from "../../db/schema.ts";
import { createUser, noteVerifiedByProvider, sessionUserColumns, setSiteRoles, type SessionUser } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { normalizeEmail } from "../lib/email.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";
import type { AccountPolicy } from "./config.ts";
import { matchesRule } from "./rules.ts";

/** What a way in learned about the person. */
export interface ExternalProfile {
  /** The configured way in, e.g. `oidc:campus` (shown to admins). */
  provider: string;
  issuer: string;
  subject: string;
  email: string | null;
  /** The provider vouches for the email (OpenID `email_verified`, a directory's or LMS's record). */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  /** Claims or attributes the role rules read (e.g. `groups`). */
  claims: Record<string, unknown>;
}

const userColumns = { ...sessionUserColumns, isSystem: users.isSystem };

/** First and last name from the claims, falling back to the email's local part. */
function names(profile: ExternalProfile, email: string): { firstName: string; lastName: string } {
  const first = profile.firstName?.trim().slice(0, 100);
  const last = profile.lastName?.trim().slice(0, 100);
  if (first || last) return { firstName: first || last!, lastName: last || "" };
  return { firstName: email.split("@")[0]!.slice(0, 100), lastName: "" };
}

/** Applies the provider's role rules to the account; only rules the operator set are applied. */
async function applyRoles(db: Database, user: SessionUser, policy: AccountPolicy, claims: Record<string, unknown>): Promise<SessionUser> {
  const next = { ...user };
  if (policy.adminWhen) next.siteRole = matchesRule(policy.adminWhen, claims) ? "admin" : "user";
  if (policy.courseCreatorWhen) next.canCreateCourses = matchesRule(policy.courseCreatorWhen, claims);
  if (next.siteRole !== user.siteRole || next.canCreateCourses !== user.canCreateCourses) {
    await setSiteRoles(db, user.id, { siteRole: next.siteRole, canCreateCourses: next.canCreateCourses });
  }
  return next;
}

async function userById(db: Database, id: string) {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

function sessionUser(row: NonNullable<Awaited<ReturnType<typeof userById>>>): SessionUser {
  return { id: row.id, firstName: row.firstName, lastName: row.lastName, email: row.email, siteRole: row.siteRole, canCreateCourses: row.canCreateCourses };
}

async function link(db: Database, userId: string, profile: ExternalProfile): Promise<void> {
  try {
    await db.insert(externalIdentities).values({
      userId,
      provider: profile.provider,
      issuer: profile.issuer,
      subject: profile.subject,
      email: profile.email,
      lastSignInAt: new Date(),
    });
  } catch (err) {
    // Another request linked the same identity meanwhile: the caller retries as a linked sign-in.
    if (isUniqueViolation(err)) throw new AppError("IDENTITY_LINKED_ELSEWHERE");
    throw err;
  }
}

/**
 * Signs an external identity in, linking or creating its account by the rules above.
 * @param opts.linkToUserId the signed-in user who started a "link this identity" flow.
 * @returns the account, with the provider's role rules applied.
 * @throws AppError IDENTITY_LINKED_ELSEWHERE (409) when linking an identity another account holds,
 *   IDENTITY_EMAIL_TAKEN (409) when an unlinked identity's email is an account's and linking is not allowed,
 *   IDENTITY_NO_ACCOUNT (403) for an unknown identity of an "existing accounts only" provider,
 *   IDENTITY_NO_EMAIL (400) when a new account would have no email.
 */
export async function signInExternal(
  db: Database,
  profile: ExternalProfile,
  policy: AccountPolicy,
  opts: { linkToUserId?: string | null } = {},
): Promise<SessionUser> {
  const [linked] = await db
    .select({ userId: externalIdentities.userId, id: externalIdentities.id })
    .from(externalIdentities)
    .where(and(eq(externalIdentities.issuer, profile.issuer), eq(externalIdentities.subject, profile.subject)))
    .limit(1);
  if (linked) {
    if (opts.linkToUserId && opts.linkToUserId !== linked.userId) throw new AppError("IDENTITY_LINKED_ELSEWHERE");
    const row = await userById(db, linked.userId);
    if (!row || row.isSystem) throw new AppError("IDENTITY_NO_ACCOUNT");
    await db.update(externalIdentities).set({ lastSignInAt: new Date(), email: profile.email }).where(eq(externalIdentities.id, linked.id));
    if (profile.emailVerified) await noteVerifiedByProvider(db, row.id, profile.email);
    return applyRoles(db, sessionUser(row), policy, profile.claims);
  }
  if (opts.linkToUserId) {
    const row = await userById(db, opts.linkToUserId);
    if (!row || row.isSystem) throw new AppError("UNAUTHENTICATED");
    await link(db, row.id, profile);
    if (profile.emailVerified) await noteVerifiedByProvider(db, row.id, profile.email);
    return applyRoles(db, sessionUser(row), policy, profile.claims);
  }
  const email = profile.email?.trim() || null;
  if (email) {
    const [existing] = await db.select(userColumns).from(users).where(eq(users.emailNormalized, normalizeEmail(email))).limit(1);
    if (existing) {
      if (!(policy.linkVerifiedEmail && profile.emailVerified) || existing.isSystem) throw new AppError("IDENTITY_EMAIL_TAKEN");
      await link(db, existing.id, profile);
      await noteVerifiedByProvider(db, existing.id, email);
      return applyRoles(db, sessionUser(existing), policy, profile.claims);
    }
  }
  if (policy.existingOnly) throw new AppError("IDENTITY_NO_ACCOUNT");
  if (!email) throw new AppError("IDENTITY_NO_EMAIL");
  const created = await createUser(db, { ...names(profile, email), email, passwordHash: null }, { emailVerified: profile.emailVerified });
  await link(db, created.id, profile);
  return applyRoles(db, created, policy, profile.claims);
}

/** The identities linked to an account, oldest first (the profile and the admin page show them). */
export async function identitiesOf(db: Database, userId: string) {
  return db
    .select({
      provider: externalIdentities.provider,
      issuer: externalIdentities.issuer,
      subject: externalIdentities.subject,
      email: externalIdentities.email,
      createdAt: externalIdentities.createdAt,
      lastSignInAt: externalIdentities.lastSignInAt,
    })
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, userId))
    .orderBy(externalIdentities.createdAt);
}
