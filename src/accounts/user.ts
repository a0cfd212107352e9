/**
 * Accounts: who a user is to every procedure (`SessionUser`), and how an
 * account is created. Later ways in (identity providers, LMS launches) create
 * accounts through `createUser` too. Passwords are argon2id via Bun.password.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";

/** The signed-in user as procedures see it (public columns only). */
export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** Passwords: at least 8 characters (the sign-up form's hint, enforced here); at most 1024 so hashing stays bounded. */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 1024;

/** Lower-cased, trimmed email: the unique sign-in key. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** argon2id PHC string of a password. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (/UNIQUE constraint failed/i.test(String((e as { message?: unknown }).message ?? ""))) return true;
  }
  return false;
}

/** True when an account uses this email (compared normalised). */
export async function emailTaken(db: Database, email: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.emailNormalized, normalizeEmail(email)))
    .limit(1);
  return existing !== undefined;
}

/**
 * Creates an account.
 * @param account.passwordHash an argon2id hash (`hashPassword`), or null for an account that cannot sign in with a password.
 * @returns the new user's public columns.
 * @throws AppError EMAIL_TAKEN (409, field `email`) when the email is in use, also when another request took it meanwhile.
 */
export async function createUser(
  db: Database,
  account: { firstName: string; lastName: string; email: string; passwordHash: string | null },
): Promise<SessionUser> {
  try {
    const [row] = await db
      .insert(users)
      .values({ ...account, emailNormalized: normalizeEmail(account.email) })
      .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email });
    return row!;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("EMAIL_TAKEN", { field: "email" });
    throw err;
  }
}
