/**
 * "Delete my account" (issue 36, point 4; GDPR art. 17; decision 072): the signed-in user erases
 * their own account. What is deleted and what a course keeps, anonymised: ./erase-writes.ts and
 * docs/privacy.md.
 *
 * Proof asked, by kind of account:
 * - with a password: the password, checked under the sign-in limits (a wrong one counts as a failed
 *   sign-in, as a password change does: a stolen session must not become a password-guessing oracle);
 * - signing in only through OpenID, LDAP, the campus proxy or the LMS: the account's e-mail address
 *   typed out (`confirm`), from a session signed in within RECENT_SIGN_IN_MS;
 * - with two-factor sign-in on, also a current code (TOTP or recovery), under the account's code limit.
 * The last site admin cannot erase itself (the site would have nobody to run it).
 */
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { sessions, users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { throttledLogin, type LoginDeps } from "../accounts/login.ts";
import { checkSecondFactor, limitedCodeCheck } from "../accounts/two-factor/setup.ts";
import { normalizeEmail } from "../accounts/user.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { giveUpAdminRole, restoreAdminRole } from "../accounts/erasure.ts";
import { afterContestErasure, planContestErasure } from "../contests/erasure.ts";
import { erasureWrites } from "./erase-writes.ts";

/** How recent a sign-in must be for an account without a password to erase itself: 10 minutes (GitHub's "sudo mode" asks again after 2 hours; erasure cannot be undone). */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

export interface EraseDeps {
  db: Database;
  limiters: LoginDeps["limiters"] & { secondFactorByAccount: RateLimiter };
  now: () => number;
  /** The client address (the sign-in limits count per address too). */
  ip: string;
}

/** The proof sent with the request (each optional: which ones are needed depends on the account). */
export interface ErasureProof {
  password?: string;
  /** The account's e-mail address, typed out (accounts without a password). */
  confirm?: string;
  /** A TOTP or recovery code (accounts with two-factor sign-in). */
  code?: string;
}

/** A proof this account needs was not sent: 400 naming it (in the reader's words: src/i18n/validation.ts). Not counted as a failed sign-in. */
const required = (field: keyof ErasureProof) => new AppError("BAD_INPUT", { field, message: `${field}: Required` });

/**
 * Erases the caller's account: checks the proof, then deletes and anonymises in one write transaction.
 * @param caller the signed-in user and the session making the request.
 * @throws BAD_INPUT (400, field password, confirm or code) when a proof the account needs is missing;
 *   PASSWORD_WRONG (400, field password) for a wrong password (a failed sign-in); TOO_MANY_LOGIN_ATTEMPTS (429);
 *   ERASE_CONFIRM_WRONG (400, field confirm) when the typed address is not the account's;
 *   RECENT_SIGN_IN_REQUIRED (403) when an account without a password signed in more than RECENT_SIGN_IN_MS ago;
 *   TWO_FACTOR_CODE_WRONG (400, field code); LAST_ADMIN (409) for the only site admin; UNAUTHENTICATED (401).
 */
export async function eraseAccount(deps: EraseDeps, caller: { id: string; sessionId: string | null }, proof: ErasureProof): Promise<void> {
  const { db } = deps;
  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, totpKey: users.totpKey, siteRole: users.siteRole, isSystem: users.isSystem })
    .from(users)
    .where(and(eq(users.id, caller.id), isNull(users.erasedAt)));
  if (!user || user.isSystem) throw new AppError("UNAUTHENTICATED");
  const emailNormalized = normalizeEmail(user.email);

  if (user.passwordHash) {
    const hash = user.passwordHash;
    const password = proof.password;
    if (!password) throw required("password");
    await throttledLogin(deps.limiters, deps.ip, `email:${emailNormalized}`, async () => {
      if (!(await Bun.password.verify(password, hash))) throw new AppError("PASSWORD_WRONG", { field: "password" });
    });
  } else {
    if (!proof.confirm?.trim()) throw required("confirm");
    if (normalizeEmail(proof.confirm) !== emailNormalized) throw new AppError("ERASE_CONFIRM_WRONG", { field: "confirm" });
    const [session] = caller.sessionId ? await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, caller.sessionId)) : [];
    if (!session || deps.now() - session.createdAt.getTime() > RECENT_SIGN_IN_MS) throw new AppError("RECENT_SIGN_IN_REQUIRED");
  }
  if (user.totpKey) {
    const code = proof.code?.trim();
    if (!code) throw required("code");
    await limitedCodeCheck(deps.limiters.secondFactorByAccount, user.id, async () => {
      if (!(await checkSecondFactor(db, user.id, code, deps.now()))) throw new AppError("TWO_FACTOR_CODE_WRONG", { field: "code" });
    });
  }

  // The last admin check and the demotion are one statement (src/accounts/erasure.ts), so two admins erasing at once cannot both pass.
  if (user.siteRole === "admin") await giveUpAdminRole(db, user.id);
  const contestPlan = await planContestErasure(db, user.id);
  try {
    await db.batch(erasureWrites(db, { userId: user.id, emailNormalized, ...contestPlan, nowMs: deps.now() }));
  } catch (err) {
    // Nothing of the batch was written: an admin who could not be erased stays an admin.
    if (user.siteRole === "admin") await restoreAdminRole(db, user.id);
    throw err;
  }
  afterContestErasure(db, contestPlan);
}

/**
 * What erasing asks of the caller's account, for the account page: the password or the typed address with a recent
 * sign-in, a two-factor code or not, and whether it is the last site admin (which cannot be erased).
 * @throws UNAUTHENTICATED (401).
 */
export async function erasureRequirements(db: Database, userId: string, sessionId: string | null, nowMs: number) {
  const [row] = await db
    .select({ hasPassword: sql<number>`${users.passwordHash} IS NOT NULL`, twoFactor: sql<number>`${users.totpKey} IS NOT NULL`, siteRole: users.siteRole })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new AppError("UNAUTHENTICATED");
  const [session] = sessionId ? await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, sessionId)) : [];
  const [others] =
    row.siteRole === "admin"
      ? await db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .where(and(eq(users.siteRole, "admin"), eq(users.isSystem, false), isNull(users.erasedAt), ne(users.id, userId)))
      : [{ n: 1 }];
  return {
    /** Whether the password is the proof (else the typed address and a recent sign-in). */
    hasPassword: Boolean(row.hasPassword),
    /** Whether a two-factor code is asked too. */
    twoFactor: Boolean(row.twoFactor),
    /** For an account without a password: whether this session signed in recently enough (ISO time it stops being so, or null). */
    recentSignInUntil: session ? new Date(session.createdAt.getTime() + RECENT_SIGN_IN_MS).toISOString() : null,
    recentSignIn: Boolean(session && nowMs - session.createdAt.getTime() <= RECENT_SIGN_IN_MS),
    /** The only site admin cannot erase the account. */
    lastAdmin: row.siteRole === "admin" && Number(others?.n ?? 0) === 0,
  };
}
