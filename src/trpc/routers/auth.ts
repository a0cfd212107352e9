/**
 * Accounts: register, login (throttled; a password or an LDAP directory),
 * me, logout, the ways in this site offers, and the identities linked to the
 * account. A thin door over src/accounts (account creation, the credential
 * check), src/sso (directories, external identities) and src/auth/session.ts
 * (sessions).
 */
import { z } from "zod";
import { authenticate } from "../../accounts/login.ts";
import { registerAccount } from "../../accounts/register.ts";
import { signInOptions } from "../../sso/config.ts";
import { identitiesOf } from "../../sso/identities.ts";
import { directorySignIn } from "../../sso/ldap.ts";
import { PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, publicUser } from "../../accounts/user.ts";
import { blankSessionCookie, createSession, invalidateSession } from "../../auth/session.ts";
import { AppError } from "../../errors.ts";
import { emailField, requiredText } from "../../lib/fields.ts";
import { siteRights } from "../../courses/permissions.ts";
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
  /** `local` (default: email and password) or the id of an LDAP directory (then `email` is the username or email there). */
  provider: z.string().max(32, { error: "At most 32 characters" }).optional(),
});

export const authRouter = router({
  /** Creates an account. @throws EMAIL_TAKEN (409), RATE_LIMITED (429), BAD_INPUT (400). */
  register: publicProcedure.input(registerInput).mutation(async ({ ctx, input }) => {
    await registerAccount(ctx, ctx.ip, input);
    return { message: "Registration successful! Please sign in." };
  }),

  /**
   * Signs in. Same 401 for an unknown email and a wrong password. Failures are
   * counted per email and per address; past the limit → TOO_MANY_LOGIN_ATTEMPTS
   * (429, Retry-After). Sets the session cookie on success.
   */
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    const user =
      !input.provider || input.provider === "local"
        ? await authenticate(ctx, ctx.ip, input.email, input.password)
        : await directorySignIn(ctx, ctx.ip, input.provider, input.email, input.password);
    const session = await createSession(ctx, user.id);
    ctx.resHeaders.append("Set-Cookie", session.cookie(ctx.https));
    return { token: session.token, message: "Login successful!", user: publicUser(user) };
  }),

  /**
   * The ways in this site offers, for the sign-in page: OpenID providers
   * (buttons), LDAP directories (the form's chooser), whether a trusted proxy
   * signs people in, and whether password sign-up is open.
   */
  providers: publicProcedure.query(({ ctx }) => signInOptions(ctx.config.sso)),

  /**
   * The session this request's cookie carries, for the client to keep after a
   * redirect sign-in (OpenID, LTI, a trusted proxy) set only the cookie.
   * @throws UNAUTHENTICATED (401).
   */
  adoptSession: protectedProcedure.mutation(({ ctx }) => {
    if (!ctx.sessionToken) throw new AppError("UNAUTHENTICATED");
    return { token: ctx.sessionToken, user: publicUser(ctx.user) };
  }),

  /** The identities (OpenID, LDAP, proxy, LMS) linked to the signed-in account. @throws UNAUTHENTICATED (401). */
  identities: protectedProcedure.query(async ({ ctx }) => ({ identities: await identitiesOf(ctx.db, ctx.user.id) })),

  /**
   * The signed-in user and their site rights ({admin, createCourses}, from the
   * permission table in src/courses/permissions.ts), so the client shows only
   * what the server allows. @throws UNAUTHENTICATED (401).
   */
  me: protectedProcedure.query(({ ctx }) => ({ user: publicUser(ctx.user), rights: siteRights(ctx.user) })),

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
