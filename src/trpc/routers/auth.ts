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
import { changePassword, hasPassword, resetPassword } from "../../accounts/passwords.ts";
import { requestPasswordReset } from "../../accounts/password-forgot.ts";
import { isEmailVerified } from "../../accounts/email/address.ts";
import { answerText } from "../../i18n/answers.ts";
import { emailField, requiredText } from "../../lib/fields.ts";
import { siteRights } from "../../courses/permissions.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";
import { LOCALE_TAGS } from "../../i18n/locales.ts";
import { setAccountLocale } from "../../accounts/locale.ts";
import { afterPassword, signInWithSecondFactor } from "../../accounts/two-factor/sign-in.ts";
import { twoFactorCodeField } from "./two-factor.ts";

/** A two-factor sign-in's second step: `login`'s ticket (32 bytes, base64url) and a 6-digit code or a recovery code. */
export const twoFactorLoginInput = z.object({
  ticket: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: "Not a sign-in ticket" }),
  code: twoFactorCodeField(),
});

export const setLocaleInput = z.object({ locale: z.enum(LOCALE_TAGS, { error: `One of ${LOCALE_TAGS.join(", ")}` }) });

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

const newPasswordField = () =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .min(PASSWORD_MIN_CHARS, { error: `Password should be at least ${PASSWORD_MIN_CHARS} characters long` })
    .max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` });

export const changePasswordInput = z.object({
  currentPassword: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .min(1, { error: "Required" })
    .max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` }),
  newPassword: newPasswordField(),
});

export const forgotPasswordInput = z.object({ email: emailField() });

export const resetPasswordInput = z.object({
  // 32 bytes in base64url are 43 characters; anything else is no token of ours.
  token: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: "Not a reset link's token" }),
  password: newPasswordField(),
});

export const authRouter = router({
  /**
   * Creates an account and signs it in, as `login` does: the session cookie is set and the answer
   * carries `{ message, token, user }` (docs/decisions/056-return-path-and-onboarding.md).
   * @throws LOCAL_SIGNUP_OFF (403), EMAIL_TAKEN (409), RATE_LIMITED (429), BAD_INPUT (400).
   */
  register: publicProcedure.input(registerInput).mutation(async ({ ctx, input }) => {
    const user = await registerAccount(ctx, ctx.ip, input);
    const session = await createSession(ctx, user.id, { userAgent: ctx.userAgent, ip: ctx.ip });
    ctx.resHeaders.append("Set-Cookie", session.cookie(ctx.https));
    return { token: session.token, message: answerText(ctx.locale, "registered"), user: publicUser(user) };
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
    const step = await afterPassword(ctx, user, ctx.now());
    if (step.kind === "ticket") {
      // No session yet: `loginTwoFactor` with this ticket and a code makes it.
      return { twoFactorRequired: true as const, ticket: step.ticket, expiresAt: step.expiresAt.toISOString(), message: answerText(ctx.locale, "twoFactorCode") };
    }
    const session = await createSession(ctx, user.id, { userAgent: ctx.userAgent, ip: ctx.ip, mustSetUpTwoFactor: step.mustSetUpTwoFactor });
    ctx.resHeaders.append("Set-Cookie", session.cookie(ctx.https));
    return { token: session.token, message: answerText(ctx.locale, "loggedIn"), user: publicUser(user), ...(step.mustSetUpTwoFactor ? { mustSetUpTwoFactor: true as const } : {}) };
  }),

  /**
   * Completes a password sign-in of an account with two-factor sign-in: the ticket `login` gave and a
   * code from the authenticator app (or a recovery code, spent). Answers as `login` does.
   * @throws TWO_FACTOR_TICKET_INVALID (401, field ticket), TWO_FACTOR_CODE_WRONG (400, field code), BAD_INPUT (400).
   */
  loginTwoFactor: publicProcedure.input(twoFactorLoginInput).mutation(async ({ ctx, input }) => {
    const user = await signInWithSecondFactor(ctx.db, ctx.limiters.secondFactorByAccount, input.ticket, input.code, ctx.now());
    const session = await createSession(ctx, user.id, { userAgent: ctx.userAgent, ip: ctx.ip });
    ctx.resHeaders.append("Set-Cookie", session.cookie(ctx.https));
    return { token: session.token, message: answerText(ctx.locale, "loggedIn"), user: publicUser(user) };
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
   * The signed-in user (with `emailVerified`: src/accounts/email) and their site rights ({admin, createCourses}, from the
   * permission table in src/courses/permissions.ts), so the client shows only
   * what the server allows. @throws UNAUTHENTICATED (401).
   */
  me: protectedProcedure.query(async ({ ctx }) => ({
    user: { ...publicUser(ctx.user), emailVerified: await isEmailVerified(ctx.db, ctx.user.id) },
    rights: siteRights(ctx.user),
  })),

  /**
   * Stores the signed-in user's interface language on the account, so it follows them to every browser.
   * @throws UNAUTHENTICATED (401); BAD_INPUT (400, field locale: not one of src/i18n/locales.ts's tags).
   */
  setLocale: protectedProcedure.input(setLocaleInput).mutation(async ({ ctx, input }) => {
    await setAccountLocale(ctx.db, ctx.user.id, input.locale);
    return { locale: input.locale };
  }),

  /**
   * Changes the signed-in user's password (the current one asked); every other session is signed out, this one
   * stays. @throws UNAUTHENTICATED (401); WRONG_PASSWORD, NO_PASSWORD (400, field currentPassword);
   * TOO_MANY_LOGIN_ATTEMPTS (429); BAD_INPUT (400).
   */
  changePassword: protectedProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    await changePassword(ctx, ctx.ip, { id: ctx.user.id, sessionId: ctx.sessionId }, input);
    return { message: answerText(ctx.locale, "passwordChanged") };
  }),

  /** Whether the signed-in account has a password to change (campus-made accounts have none). @throws UNAUTHENTICATED (401). */
  passwordStatus: protectedProcedure.query(async ({ ctx }) => ({ hasPassword: await hasPassword(ctx.db, ctx.user.id) })),

  /**
   * "Forgot password": the same answer whether or not the address has an account (202 on the REST door);
   * the mail goes out from the outbox. @throws RATE_LIMITED (429); BAD_INPUT (400, field email).
   */
  forgotPassword: publicProcedure.input(forgotPasswordInput).mutation(async ({ ctx, input }) => {
    const answer = await requestPasswordReset(ctx, ctx.ip, input.email, ctx.locale);
    return { ...answer, message: answerText(ctx.locale, answer.byMail ? "resetByMail" : "resetNoMail") };
  }),

  /**
   * Sets a new password with a reset link's token (once, within the hour); every session is signed out.
   * @throws RESET_LINK_INVALID (400, field token); BAD_INPUT (400).
   */
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    await resetPassword(ctx, input);
    return { message: answerText(ctx.locale, "passwordSet") };
  }),

  /** Deletes the current session (if any) and clears the cookie; always succeeds. */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionId) await invalidateSession(ctx.db, ctx.sessionId);
    // Drop a renewal cookie this request may have earned before clearing it.
    ctx.resHeaders.delete("Set-Cookie");
    ctx.resHeaders.delete("X-Session-Token");
    ctx.resHeaders.append("Set-Cookie", blankSessionCookie(ctx.https));
    return { message: answerText(ctx.locale, "loggedOut") };
  }),
});
