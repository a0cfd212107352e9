/**
 * LTI 1.3 (src/lti): platform registrations and the tool's keys (site
 * admins), the deep-linking picker (the instructor who launched it), and a
 * course's LMS link: grade passback status and roster sync (course staff).
 */
import { z } from "zod";
import { idField } from "../../lib/fields.ts";
import { ltiCourseStatus } from "../../lti/course-status.ts";
import { deepLinkChoices, deepLinkPick, deepLinkResponse } from "../../lti/deep-linking.ts";
import { rotateKey, toolRegistration } from "../../lti/keys.ts";
import { addPlatform, listPlatforms, platformInput, removePlatform, updatePlatform } from "../../lti/registry.ts";
import { syncRoster } from "../../lti/roster-sync.ts";
import { adminProcedure, protectedProcedure, router } from "../init.ts";

const courseOnly = z.object({ courseId: idField() });

export const ltiRouter = router({
  /** Registered platforms and the URLs to paste into an LMS. @throws FORBIDDEN (403) unless a site admin. */
  platforms: adminProcedure.query(async ({ ctx }) => ({ platforms: await listPlatforms(ctx.db), tool: await toolRegistration(ctx.db, ctx.origin) })),
  /** @throws FORBIDDEN (403); BAD_INPUT (400) naming the field, also for an (issuer, client id) registered already. */
  addPlatform: adminProcedure.input(platformInput).mutation(({ ctx, input }) => addPlatform(ctx.db, input)),
  /** @throws FORBIDDEN (403); BAD_INPUT (400) for an unknown platform or a bad field. */
  updatePlatform: adminProcedure.input(platformInput.extend({ id: idField() })).mutation(({ ctx, input: { id, ...rest } }) => updatePlatform(ctx.db, id, rest)),
  /** @throws FORBIDDEN (403). */
  removePlatform: adminProcedure.input(z.object({ id: idField() })).mutation(async ({ ctx, input }) => ({ removed: await removePlatform(ctx.db, input.id) })),
  /** A new tool key pair; the old key stays in the JWKS for a week. @throws FORBIDDEN (403). */
  rotateKey: adminProcedure.mutation(async ({ ctx }) => ({ keyId: await rotateKey(ctx.db) })),
  /** The picker of a deep-linking launch. @throws LTI_DEEP_LINK_NOT_FOUND (404), FORBIDDEN (403). */
  deepLinkChoices: protectedProcedure.input(z.object({ id: z.string().min(1).max(100) })).query(({ ctx, input }) => deepLinkChoices(ctx.db, ctx.user, input.id)),
  /** Signs the response for the pick: post `jwt` as JWT to `returnUrl`. @throws LTI_DEEP_LINK_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400). */
  deepLinkRespond: protectedProcedure.input(deepLinkPick).mutation(({ ctx, input }) => deepLinkResponse(ctx.db, ctx.user, input, `${ctx.origin}/api/lti/launch`)),
  /** The course's LMS link: contexts, activities and their grade passback. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403). */
  courseStatus: protectedProcedure.input(courseOnly).query(({ ctx, input }) => ltiCourseStatus(ctx.db, ctx.user, input.courseId)),
  /** Pulls the LMS roster into the course. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403), LTI_NOT_LINKED (404), SSO_PROVIDER_DOWN (503). */
  syncRoster: protectedProcedure.input(courseOnly).mutation(({ ctx, input }) => syncRoster(ctx.db, ctx.user, input.courseId)),
});
