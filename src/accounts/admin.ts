/**
 * Site administration: the site role and the course-creation right of each
 * account. Only site admins may call these; the first admin is made on the
 * command line (`bun run admin -- grant EMAIL`, scripts/admin.ts).
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { externalIdentities, users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { idField } from "../lib/fields.ts";
import { normalizeEmail } from "../lib/email.ts";
import { sessionUserColumns, type Caller, type SessionUser } from "./user.ts";

export const setAccountInput = z.object({
  userId: idField(),
  siteRole: z.enum(["admin", "user"], { error: "Must be admin or user" }).optional(),
  canCreateCourses: z.boolean({ error: "Must be true or false" }).optional(),
});

/** An account as site administration sees it: the session's view of it, and when it was made. */
export interface AccountShape extends SessionUser {
  /** ISO 8601. */
  createdAt: string;
}

/** An account in the admin's list: also how it signs in. */
export interface AccountListing extends AccountShape {
  /** Whether a password is set (accounts made by a campus sign-in have none). */
  hasPassword: boolean;
  /** The linked identities (src/sso/identities.ts): way in and subject, oldest first. */
  identities: { provider: string; subject: string }[];
}

/** @throws AppError FORBIDDEN (403) unless the caller is a site admin. */
export function requireAdmin(caller: Caller): void {
  if (caller.siteRole !== "admin") throw new AppError("FORBIDDEN");
}

const columns = { ...sessionUserColumns, createdAt: users.createdAt };

/** The account list's query: a search over e-mail and name, one page after a cursor. */
export const listAccountsInput = z
  .object({
    /** Words matched anywhere in the e-mail address or the name, case-insensitively. */
    q: z.string({ error: "Must be text" }).trim().max(200, { error: "At most 200 characters" }).optional(),
    /** The page's start: `nextCursor` of the page before. */
    cursor: z.string({ error: "Must be text" }).max(400, { error: "At most 400 characters" }).optional(),
    /** Accounts per page, 1..200 (a number, or its digits in a query string). */
    limit: z.coerce.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(1, { error: "At least 1" }).max(200, { error: "At most 200" }).default(50),
  })
  .default({ limit: 50 });

/** One page of the account list: `total` counts every match, `nextCursor` is null on the last page. */
export interface AccountPage {
  accounts: AccountListing[];
  nextCursor: string | null;
  total: number;
}

/** LIKE pattern matching `text` anywhere (its %, _ and \ taken literally). */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The accounts but the system one and erased ones (tombstones, decision 072), by e-mail address, a page at a time
 * (a campus judge has tens of thousands), each with its ways in. The cursor is the last e-mail address (normalized,
 * unique) of the page before.
 * @throws FORBIDDEN (403).
 */
export async function listAccounts(db: Database, caller: Caller, input: z.infer<typeof listAccountsInput> = { limit: 50 }): Promise<AccountPage> {
  requireAdmin(caller);
  const match = input.q
    ? sql`(lower(${users.email}) LIKE ${containing(input.q)} ESCAPE '\\' OR lower(${users.firstName} || ' ' || ${users.lastName}) LIKE ${containing(input.q)} ESCAPE '\\')`
    : undefined;
  const listed = and(isNull(users.erasedAt), eq(users.isSystem, false), match);
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...columns, hasPassword: sql<number>`${users.passwordHash} is not null`, key: users.emailNormalized })
      .from(users)
      .where(and(listed, input.cursor ? gt(users.emailNormalized, input.cursor) : undefined))
      .orderBy(asc(users.emailNormalized))
      .limit(input.limit + 1),
    db.select({ n: sql<number>`count(*)` }).from(users).where(listed),
  ]);
  const page = rows.slice(0, input.limit);
  const linked = page.length
    ? await db
        .select({ userId: externalIdentities.userId, provider: externalIdentities.provider, subject: externalIdentities.subject })
        .from(externalIdentities)
        .where(inArray(externalIdentities.userId, page.map((r) => r.id)))
        .orderBy(asc(externalIdentities.createdAt))
    : [];
  const byUser = new Map<string, typeof linked>();
  for (const l of linked) byUser.set(l.userId, [...(byUser.get(l.userId) ?? []), l]);
  return {
    accounts: page.map(({ key: _k, createdAt, hasPassword, ...r }) => ({
      ...r,
      createdAt: createdAt.toISOString(),
      hasPassword: Boolean(hasPassword),
      identities: (byUser.get(r.id) ?? []).map(({ provider, subject }) => ({ provider, subject })),
    })),
    nextCursor: rows.length > input.limit ? page.at(-1)!.key : null,
    total: Number(count?.n ?? 0),
  };
}

/**
 * Sets an account's site role and/or course-creation right.
 * @throws AppError FORBIDDEN (403); BAD_INPUT (400, field `userId`) for an unknown account.
 */
export async function setAccount(db: Database, caller: Caller, input: z.infer<typeof setAccountInput>): Promise<AccountShape> {
  requireAdmin(caller);
  const set: { siteRole?: "admin" | "user"; canCreateCourses?: boolean } = {};
  if (input.siteRole !== undefined) set.siteRole = input.siteRole;
  if (input.canCreateCourses !== undefined) set.canCreateCourses = input.canCreateCourses;
  const [row] = Object.keys(set).length
    ? await db.update(users).set(set).where(eq(users.id, input.userId)).returning(columns)
    : await db.select(columns).from(users).where(eq(users.id, input.userId));
  if (!row) throw new AppError("BAD_INPUT", { field: "userId", message: "userId: no such account" });
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * The command line's way to the same settings, by email (no caller: whoever
 * can run commands on the server is the operator).
 * @returns the account, or null when no account has this email.
 */
export async function setAccountByEmail(db: Database, email: string, set: { siteRole?: "admin" | "user"; canCreateCourses?: boolean }): Promise<AccountShape | null> {
  const [row] = await db.update(users).set(set).where(eq(users.emailNormalized, normalizeEmail(email))).returning(columns);
  return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
}
