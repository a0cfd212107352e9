/**
 * Accounts: register, login (throttled), me, logout. Passwords are argon2id
 * via Bun.password; sessions are src/auth/session.ts.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../../db/schema.ts";
import { blankSessionCookie, createSession, invalidateSession } from "../../auth/session.ts";
import { AppError } from "../../errors.ts";
import { emailField, requiredText } from "../../lib/fields.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

/** Passwords: at least 8 characters (spec §2 hint, enforced here); at most 1024 so hashing stays bounded. */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 1024;

export const registerInput = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: emailField(),
  password: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .min(PASSWORD_MIN_CHARS, { error: `Password should be at least ${PASSWORD_MIN_CHARS} characters long` })
    .max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` }),
});

export const loginInput = z.object({
  // Not format-checked: a malformed email is just a wrong email (same 401).
  email: requiredText(254),
  password: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .min(1, { error: "Required" })
    .max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` }),
});

/** Lower-cased, trimmed email: the unique sign-in key. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Verified against when the email is unknown, so both failures cost one argon2 verify.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= Bun.password.hash("not-a-real-password-timing-equaliser");
  return dummyHash;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (/UNIQUE constraint failed/i.test(String((e as { message?: unknown }).message ?? ""))) return true;
  }
  return false;
}

export const authRouter = router({
  /** Creates an account. @throws EMAIL_TAKEN (409), RATE_LIMITED (429), BAD_INPUT (400). */
  register: publicProcedure.input(registerInput).mutation(async ({ ctx, input }) => {
    const emailNormalized = normalizeEmail(input.email);
    const [existing] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.emailNormalized, emailNormalized))
      .limit(1);
    if (existing) throw new AppError("EMAIL_TAKEN", { field: "email" });
    const gate = ctx.limiters.registerByIp.hit(ctx.ip);
    if (!gate.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: gate.retryAfterSeconds });
    const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
    try {
      await ctx.db.insert(users).values({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        emailNormalized,
        passwordHash,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError("EMAIL_TAKEN", { field: "email" });
      throw err;
    }
    return { message: "Registration successful! Please sign in." };
  }),

  /**
   * Signs in. Same 401 for an unknown email and a wrong password. Failures are
   * counted per email and per address; past the limit → TOO_MANY_LOGIN_ATTEMPTS
   * (429, Retry-After). Sets the session cookie on success.
   */
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    const emailNormalized = normalizeEmail(input.email);
    const emailKey = `email:${emailNormalized}`;
    // Each attempt is counted as a failure before the password is verified (an await): counted only
    // afterwards, every attempt of a batch (`/trpc/auth.login,auth.login,...?batch=1`) or of parallel
    // requests would pass the gate together, and one request could try any number of passwords.
    // A success takes its count back below.
    const byEmail = ctx.limiters.loginByEmail.hit(emailKey);
    if (!byEmail.ok) throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", { retryAfterSeconds: byEmail.retryAfterSeconds });
    const byIp = ctx.limiters.loginByIp.hit(ctx.ip);
    if (!byIp.ok) {
      ctx.limiters.loginByEmail.refund(emailKey);
      throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", { retryAfterSeconds: byIp.retryAfterSeconds });
    }
    const [user] = await ctx.db.select().from(users).where(eq(users.emailNormalized, emailNormalized)).limit(1);
    const valid =
      user?.passwordHash && !user.isSystem
        ? await Bun.password.verify(input.password, user.passwordHash)
        : (await Bun.password.verify(input.password, await getDummyHash()), false);
    if (!user || !valid) throw new AppError("INVALID_CREDENTIALS");
    ctx.limiters.loginByEmail.reset(emailKey);
    ctx.limiters.loginByIp.refund(ctx.ip);
    const session = await createSession(ctx, user.id);
    ctx.resHeaders.append("Set-Cookie", session.cookie(ctx.https));
    return {
      token: session.token,
      message: "Login successful!",
      user: { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email },
    };
  }),

  /** The signed-in user. @throws UNAUTHENTICATED (401). */
  me: protectedProcedure.query(({ ctx }) => ({ user: ctx.user })),

  /** Deletes the current session (if any) and clears the cookie; always succeeds. */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionId) await invalidateSession(ctx.db, ctx.sessionId);
    // Drop a renewal cookie this request may have earned before clearing it.
    ctx.resHeaders.delete("Set-Cookie");
    ctx.resHeaders.delete("X-Session-Token");
    ctx.resHeaders.append("Set-Cookie", blankSessionCookie(ctx.https));
    return { message: "Logged out" };
  }),
});
