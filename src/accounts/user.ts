/**
 * Accounts: who a user is to every procedure (`SessionUser`), and how an
 * account is created. Later ways in (identity providers, LMS launches) create
 * accounts through `createUser` too. Passwords are argon2id via Bun.password.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { normalizeEmail } from "../lib/email.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";

/** The signed-in user as procedures see it: public columns plus the site role (never sent as is; see `publicUser`). */
export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** `admin` may do everything everywhere. */
  siteRole: "admin" | "user";
  canCreateCourses: boolean;
  /** The interface language the user chose (src/i18n/locales.ts), null or absent when none. */
  locale?: string | null;
}

/** Who is asking, as permission checks need it: the id and the site role. */
export type Caller = Pick<SessionUser, "id" | "siteRole">;

/** What sign-in and `auth.me` answer about a user: id, names, email and chosen interface language (null when none), nothing else. */
export interface PublicUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  locale: string | null;
}

export function publicUser(u: Omit<PublicUser, "locale"> & { locale?: string | null }): PublicUser {
  return { id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, locale: u.locale ?? null };
}

/** Passwords: at least 8 characters (the sign-up form's hint, enforced here); at most 1024 so hashing stays bounded. */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 1024;

export { normalizeEmail };

/**
 * The password hash's cost: argon2id with the OWASP Password Storage Cheat Sheet's first configuration,
 * 19 MiB of memory (memoryCost, KiB), 2 passes, 1 lane. About 0.07-0.09 s of CPU per hash or verify on the
 * test machine, where Bun's default (64 MiB) took 0.2-0.25 s: a 300-seat lab signing up and in at once
 * cost the server 140 s of CPU with it (docs/decisions/049-rate-limits-as-settings.md). Hashes made with
 * another cost keep verifying: the PHC string carries its parameters.
 */
export const PASSWORD_HASH = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;

/** argon2id PHC string of a password (`PASSWORD_HASH`'s cost). */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, PASSWORD_HASH);
}

/** The columns of a `SessionUser`, for selects and `returning`. */
export const sessionUserColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  siteRole: users.siteRole,
  canCreateCourses: users.canCreateCourses,
  locale: users.locale,
};

/** True when an account uses this email (compared normalised). */
export async function emailTaken(db: Database, email: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.emailNormalized, normalizeEmail(email)))
    .limit(1);
  return existing !== undefined;
}

/** The id of the account with this email (compared normalised), or null. */
export async function userIdByEmail(db: Database, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.emailNormalized, normalizeEmail(email))).limit(1);
  return row?.id ?? null;
}

/** What runs once an account is made: its email, and whether the way in proved it. */
export type AccountCreatedHook = (db: Database, user: SessionUser, opts: { emailVerified: boolean }) => Promise<void>;
const accountCreatedHooks: AccountCreatedHook[] = [];

/**
 * Runs `hook` after every account creation (courses registers one that takes
 * up roster invitations: src/courses/invites.ts). Accounts know nothing of the
 * domains that care about a new account.
 */
export function onAccountCreated(hook: AccountCreatedHook): void {
  if (!accountCreatedHooks.includes(hook)) accountCreatedHooks.push(hook);
}

/**
 * Sets an account's site role and course-creation right (a sign-in's role rules: src/sso/identities.ts).
 */
export async function setSiteRoles(db: Database, userId: string, roles: { siteRole: "admin" | "user"; canCreateCourses: boolean }): Promise<void> {
  await db.update(users).set(roles).where(eq(users.id, userId));
}

/**
 * Creates an account, and runs the account-created hooks (courses: every
 * roster invitation for this email becomes a membership).
 * @param account.passwordHash an argon2id hash (`hashPassword`), or null for an account that cannot sign in with a password.
 * @param opts.emailVerified the email was proven by the way in (an identity provider's verified claim): the account
 *   starts verified (`users.email_verified_at`, src/accounts/email); without it (password sign-up, no email check)
 *   only student invitations are taken up, never a staff role.
 * @returns the new user's public columns.
 * @throws AppError EMAIL_TAKEN (409, field `email`) when the email is in use, also when another request took it meanwhile.
 */
export async function createUser(
  db: Database,
  account: { firstName: string; lastName: string; email: string; passwordHash: string | null },
  opts: { emailVerified?: boolean } = {},
): Promise<SessionUser> {
  let created: SessionUser;
  try {
    const [row] = await db
      .insert(users)
      .values({ ...account, emailNormalized: normalizeEmail(account.email), emailVerifiedAt: opts.emailVerified ? new Date() : null })
      .returning(sessionUserColumns);
    created = row!;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("EMAIL_TAKEN", { field: "email" });
    throw err;
  }
  for (const hook of accountCreatedHooks) await hook(db, created, { emailVerified: opts.emailVerified === true });
  return created;
}

/**
 * A way in vouched for `email` (an OpenID verified claim, a directory, the campus proxy, a trusted LMS): when it is
 * the account's own address, not verified yet, it counts as verified from now on (decision 071).
 */
export async function noteVerifiedByProvider(db: Database, userId: string, email: string | null): Promise<void> {
  if (!email) return;
  await db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.emailNormalized, normalizeEmail(email)), isNull(users.emailVerifiedAt)));
}
