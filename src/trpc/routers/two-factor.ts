/**
 * Two-factor sign-in and the account's sessions (issue 36, point 3): a thin door over
 * src/accounts/two-factor (set-up, recovery codes, turning it off) and src/auth/sessions-list.ts
 * (listing and ending sessions).
 */
import { z } from "zod";
import { PASSWORD_MAX_CHARS } from "../../accounts/user.ts";
import { confirmTwoFactorSetup, disableTwoFactor, renewRecoveryCodes, startTwoFactorSetup, twoFactorStatus } from "../../accounts/two-factor/setup.ts";
import { endOtherSessions, endSession, listSessions } from "../../auth/sessions-list.ts";
import { protectedProcedure, router } from "../init.ts";
import { answerText } from "../../i18n/answers.ts";

const text = (iss: { input: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text");

/** A 6-digit code from an authenticator app, or a recovery code (`xxxx-xxxx-xxxx-xxxx`); spaces allowed. */
export const twoFactorCodeField = () =>
  z
    .string({ error: text })
    .trim()
    .min(1, { error: "Required" })
    .max(32, { error: "At most 32 characters" })
    .regex(/^[0-9A-Za-z\s-]+$/, { error: "Six digits from your app, or a recovery code" });

export const twoFactorRouter = router({
  /** Whether two-factor sign-in is on, recovery codes left, and whether the account must have it. @throws UNAUTHENTICATED (401). */
  status: protectedProcedure.query(({ ctx }) => twoFactorStatus(ctx, ctx.user)),

  /** A new key to scan (QR code) or type; not on until `confirm`. @throws TWO_FACTOR_ALREADY_ON (409). */
  start: protectedProcedure.mutation(({ ctx }) => startTwoFactorSetup(ctx, ctx.user)),

  /**
   * Turns it on with a code from the new key; answers the ten recovery codes (shown once).
   * @throws TWO_FACTOR_CODE_WRONG (400, field code), TWO_FACTOR_NOT_STARTED / TWO_FACTOR_ALREADY_ON (409).
   */
  confirm: protectedProcedure.input(z.object({ code: twoFactorCodeField() })).mutation(({ ctx, input }) => confirmTwoFactorSetup(ctx, ctx.user, input.code)),

  /**
   * Turns it off: the password (or, for an account without one, a code).
   * @throws PASSWORD_WRONG (400, field password), TWO_FACTOR_CODE_WRONG (400, field code), TWO_FACTOR_OFF (409), TWO_FACTOR_REQUIRED (403).
   */
  disable: protectedProcedure
    .input(z.object({ password: z.string({ error: text }).max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` }).optional(), code: twoFactorCodeField().optional() }))
    .mutation(async ({ ctx, input }) => {
      await disableTwoFactor(ctx, ctx.user, input);
      return { message: answerText(ctx.locale, "twoFactorOff") };
    }),

  /** Ten new recovery codes in place of the old, with a current code. @throws TWO_FACTOR_CODE_WRONG (400, field code), TWO_FACTOR_OFF (409). */
  renewRecoveryCodes: protectedProcedure.input(z.object({ code: twoFactorCodeField() })).mutation(({ ctx, input }) => renewRecoveryCodes(ctx, ctx.user, input.code)),
});

export const sessionsRouter = router({
  /** The caller's live sessions (device, address, made, last used; the current one marked). @throws UNAUTHENTICATED (401). */
  list: protectedProcedure.query(async ({ ctx }) => ({ sessions: await listSessions(ctx.db, ctx.user.id, ctx.sessionId, ctx.now()) })),

  /** Signs out one of the caller's sessions. @throws SESSION_NOT_FOUND (404). */
  end: protectedProcedure.input(z.object({ id: z.string({ error: text }).regex(/^[0-9a-f]{64}$/, { error: "Not a session id" }) })).mutation(async ({ ctx, input }) => {
    await endSession(ctx.db, ctx.user.id, input.id);
    return { message: answerText(ctx.locale, "sessionEnded") };
  }),

  /** Signs out every session of the caller but this one. @returns how many ended. */
  endOthers: protectedProcedure.mutation(async ({ ctx }) => ({ ended: await endOtherSessions(ctx.db, ctx.user.id, ctx.sessionId) })),
});
