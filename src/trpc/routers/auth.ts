/**
 * Accounts: register, login (throttled), me, logout. A thin door over
 * src/accounts (account creation, the credential check) and src/auth/session.ts
 * (sessions).
 */
import { z } from "zod";
import { authenticate } from "../../accounts/login.ts";
import { createUser, emailTaken, hashPassword, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, publicUser } from "../../accounts/user.ts";
import { blankSessionCookie, createSession, invalidateSession } from "../../auth/session.ts";
import { AppError } from "../../errors.ts";
import { emailField, requiredText } from "../../lib/fields.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

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

export const authRouter = router({
  /** Creates an account. @throws EMAIL_TAKEN (409), RATE_LIMITED (429), BAD_INPUT (400). */
  register: publicProcedure.input(registerInput).mutation(async ({ ctx, input }) => {
    // A taken email answers 409 without charging the per-address limit.
    if (await emailTaken(ctx.db, input.email)) throw new AppError("EMAIL_TAKEN", { field: "email" });
    const gate = ctx.limiters.registerByIp.hit(ctx.ip);
    if (!gate.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: gate.retryAfterSeconds });
    const passwordHash = await hashPassword(input.password);
    await createUser(ctx.db, { firstName: input.firstName, lastName: input.lastName, email: input.email, passwordHash });
    return { message: "Registration successful! Please sign in." };
  }),

  /**
   * Signs in. Same 401 for an unknown email and a wrong password. Failures are
   * counted per email and per address; past the limit → TOO_MANY_LOGIN_ATTEMPTS
   * (429, Retry-After). Sets the session cookie on success.
   */
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    const user = await authenticate(ctx, ctx.ip, input.email, input.password);
    const session = await createSession(ctx, user.id);
    ctx.resHeaders.append("Set-Cookie", session.cookie(ctx.https));
    return { token: session.token, message: "Login successful!", user: publicUser(user) };
  }),

  /** The signed-in user. @throws UNAUTHENTICATED (401). */
  me: protectedProcedure.query(({ ctx }) => ({ user: publicUser(ctx.user) })),

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
