/**
 * The account's e-mail address (issue 36 §2, decision 071), a thin door over src/accounts/email/address.ts:
 * - `accountEmail.status()`: `{ email, verified, pendingEmail, hasPassword, byMail }`. @throws UNAUTHENTICATED (401).
 * - `accountEmail.sendVerification()`: a new verification link to the account's address, `{ message, byMail }`.
 *   @throws EMAIL_ALREADY_VERIFIED (409); RATE_LIMITED (429, RATE_LIMIT_EMAIL_LINKS_PER_USER).
 * - `accountEmail.verify({token})` (no session needed): `{ message, user }` with `user.emailVerified: true`.
 *   @throws EMAIL_LINK_INVALID (400, field token); BAD_INPUT (400, field token).
 * - `accountEmail.change({newEmail, password?})`: a confirmation link to the new address and a notice to the old,
 *   `{ message, byMail, pendingEmail }`. @throws BAD_INPUT (400, newEmail or password); PASSWORD_WRONG (400, password);
 *   EMAIL_UNCHANGED (400, newEmail); NEW_EMAIL_TAKEN (409, newEmail); TOO_MANY_LOGIN_ATTEMPTS (429); RATE_LIMITED (429).
 * - `accountEmail.confirm({token})` (no session needed): the address changes, `{ message, user }`.
 *   @throws EMAIL_LINK_INVALID (400, field token); EMAIL_TAKEN (409, field token).
 */
import { z } from "zod";
import { confirmEmailChange, emailStatus, requestEmailChange, resendVerification, verifyEmail } from "../../accounts/email/address.ts";
import { PASSWORD_MAX_CHARS } from "../../accounts/user.ts";
import { answerText } from "../../i18n/answers.ts";
import { emailField } from "../../lib/fields.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

const typeError = (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text");

/** A link's token: 32 bytes in base64url are 43 characters; anything else is no token of ours. */
export const emailTokenInput = z.object({
  token: z.string({ error: typeError }).regex(/^[A-Za-z0-9_-]{43}$/, { error: "Not in the expected format" }),
});

export const changeEmailInput = z.object({
  newEmail: emailField(),
  /** Required when the account has a password (checked by the domain, which knows). */
  password: z.string({ error: typeError }).max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` }).optional(),
});

export const accountEmailRouter = router({
  status: protectedProcedure.query(({ ctx }) => emailStatus(ctx, ctx.user.id)),

  sendVerification: protectedProcedure.mutation(async ({ ctx }) => {
    const answer = await resendVerification({ ...ctx, limiter: ctx.limiters.emailLinksByUser }, ctx.user.id);
    return { ...answer, message: answer.byMail ? answerText(ctx.locale, "email.linkSent", { email: ctx.user.email }) : answerText(ctx.locale, "email.verifyNoMail") };
  }),

  verify: publicProcedure.input(emailTokenInput).mutation(async ({ ctx, input }) => {
    const user = await verifyEmail(ctx, input.token);
    return { message: answerText(ctx.locale, "email.verified", { email: user.email }), user };
  }),

  change: protectedProcedure.input(changeEmailInput).mutation(async ({ ctx, input }) => {
    const answer = await requestEmailChange({ ...ctx, limiter: ctx.limiters.emailLinksByUser }, ctx.ip, ctx.user.id, input);
    return {
      ...answer,
      message: answer.byMail ? answerText(ctx.locale, "email.changeSent", { email: input.newEmail }) : answerText(ctx.locale, "email.changeNoMail"),
    };
  }),

  confirm: publicProcedure.input(emailTokenInput).mutation(async ({ ctx, input }) => {
    const user = await confirmEmailChange(ctx, input.token);
    return { message: answerText(ctx.locale, "email.changed", { email: user.email }), user };
  }),
});
