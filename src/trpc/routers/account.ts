/**
 * The caller's account settings that are not sign-in: the public profile
 * (issue 35), and erasing the account (issue 36, point 4). A door over
 * src/accounts/profile.ts and src/account-data/erase.ts.
 * - `account.profile()`: `{ handle, profilePublic }`. @throws UNAUTHENTICATED (401).
 * - `account.setProfile({handle, profilePublic})`: handle 3–32 of a–z 0–9 _ - (stored lower-cased; null removes it
 *   and makes the profile private). @throws BAD_INPUT (400, `handle`), HANDLE_RESERVED (400, `handle`), HANDLE_TAKEN (409, `handle`).
 * - `account.erasure()`: what deleting the account asks for: `{ hasPassword, twoFactor, recentSignIn, recentSignInUntil, lastAdmin }`.
 * - `account.erase({password} | {confirm} [+ code])`: deletes the account (decision 072) and signs this browser out;
 *   answers `{ message }`. @throws BAD_INPUT (400, `password` / `confirm` / `code` missing), PASSWORD_WRONG (400, `password`), ERASE_CONFIRM_WRONG (400, `confirm`),
 *   TWO_FACTOR_CODE_WRONG (400, `code`), RECENT_SIGN_IN_REQUIRED (403), LAST_ADMIN (409), TOO_MANY_LOGIN_ATTEMPTS (429).
 */
import { z } from "zod";
import { profileSettings, setProfile } from "../../accounts/profile.ts";
import { PASSWORD_MAX_CHARS } from "../../accounts/user.ts";
import { eraseAccount, erasureRequirements } from "../../account-data/erase.ts";
import { blankSessionCookie } from "../../auth/session.ts";
import { answerText } from "../../i18n/answers.ts";
import { setProfileInput } from "../../progress/shape.ts";
import { protectedProcedure, router } from "../init.ts";
import { twoFactorCodeField } from "./two-factor.ts";

const text = (iss: { input: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text");

/** DELETE /api/account's body: the password, or (accounts without one) the account's address typed out; and a code when two-factor sign-in is on. */
export const eraseAccountInput = z.object({
  password: z.string({ error: text }).max(PASSWORD_MAX_CHARS, { error: `At most ${PASSWORD_MAX_CHARS} characters` }).optional(),
  confirm: z.string({ error: text }).max(254, { error: "At most 254 characters" }).optional(),
  code: twoFactorCodeField().optional(),
});

export const accountRouter = router({
  profile: protectedProcedure.query(({ ctx }) => profileSettings(ctx.db, ctx.user.id)),
  setProfile: protectedProcedure.input(setProfileInput).mutation(({ ctx, input }) => setProfile(ctx.db, ctx.user.id, input)),
  erasure: protectedProcedure.query(({ ctx }) => erasureRequirements(ctx.db, ctx.user.id, ctx.sessionId, ctx.now())),
  erase: protectedProcedure.input(eraseAccountInput).mutation(async ({ ctx, input }) => {
    await eraseAccount(ctx, { id: ctx.user.id, sessionId: ctx.sessionId }, input);
    // Every session is gone with the account; this browser's cookie goes too (a renewal this request earned first).
    ctx.resHeaders.delete("Set-Cookie");
    ctx.resHeaders.delete("X-Session-Token");
    ctx.resHeaders.append("Set-Cookie", blankSessionCookie(ctx.https));
    return { message: answerText(ctx.locale, "accountErased") };
  }),
});
