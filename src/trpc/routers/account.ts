/**
 * The caller's account settings that are not sign-in: the public profile
 * (issue 35). A door over src/accounts/profile.ts.
 * - `account.profile()`: `{ handle, profilePublic }`. @throws UNAUTHENTICATED (401).
 * - `account.setProfile({handle, profilePublic})`: handle 3–32 of a–z 0–9 _ - (stored lower-cased; null removes it
 *   and makes the profile private). @throws BAD_INPUT (400, `handle`), HANDLE_RESERVED (400, `handle`), HANDLE_TAKEN (409, `handle`).
 */
import { profileSettings, setProfile } from "../../accounts/profile.ts";
import { setProfileInput } from "../../progress/shape.ts";
import { protectedProcedure, router } from "../init.ts";

export const accountRouter = router({
  profile: protectedProcedure.query(({ ctx }) => profileSettings(ctx.db, ctx.user.id)),
  setProfile: protectedProcedure.input(setProfileInput).mutation(({ ctx, input }) => setProfile(ctx.db, ctx.user.id, input)),
});
