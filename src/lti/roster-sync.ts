/**
 * Roster sync (Names and Role Provisioning Services 2.0): an instructor pulls
 * the LMS course's members into the linked course. Each active member is
 * found by their LMS identity (issuer, user_id), or gets an account linked to
 * it (as their first launch would make). A member whose email an existing
 * account already has is skipped: an account is never attached by email
 * alone (their first launch links it, where the platform is trusted with
 * email, or they link it themselves). Roles follow the LMS; an owner stays
 * owner; nobody is removed.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { externalIdentities, ltiContexts, ltiPlatforms } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireCourse } from "../courses/access.ts";
import { AppError } from "../errors.ts";
import { courseRoleFor, SCOPE } from "./claims.ts";
import { joinWithRole } from "../courses/roster.ts";
import { accountOf } from "./membership.ts";
import { fetchMembers } from "./services.ts";

export interface RosterSyncResult {
  /** Members listed by the LMS (all pages). */
  listed: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Inactive or deleted members, members without an email who never launched, and members whose email an unlinked account has. */
  skipped: number;
}

/**
 * Pulls the roster of every LMS context linked to the course.
 * @throws AppError COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.edit), LTI_NOT_LINKED (404) when no LMS
 *   course with a roster service is linked, SSO_PROVIDER_DOWN (503, with the platform's answer) when it cannot be read.
 */
export async function syncRoster(db: Database, caller: Caller, courseId: string): Promise<RosterSyncResult> {
  await requireCourse(db, caller, courseId, "roster.edit");
  const contexts = await db
    .select({ context: ltiContexts, platform: ltiPlatforms })
    .from(ltiContexts)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiContexts.platformId))
    .where(and(eq(ltiContexts.courseId, courseId), isNotNull(ltiContexts.membershipsUrl)));
  if (!contexts.length) throw new AppError("LTI_NOT_LINKED", { message: "No LMS course with a roster service is linked to this course (launch it from the LMS first)" });
  const result: RosterSyncResult = { listed: 0, added: 0, updated: 0, unchanged: 0, skipped: 0 };
  for (const { context, platform } of contexts) {
    let members;
    try {
      members = await fetchMembers(db, platform, context.membershipsUrl!, [SCOPE.memberships]);
    } catch (err) {
      throw new AppError("SSO_PROVIDER_DOWN", { message: `The LMS (${platform.name}) did not give the roster: ${(err as Error).message}` });
    }
    result.listed += members.length;
    for (const m of members) {
      if (m.status === "Inactive" || m.status === "Deleted") {
        result.skipped++;
        continue;
      }
      const role = courseRoleFor(m.roles) ?? "student";
      const [linked] = await db
        .select({ userId: externalIdentities.userId })
        .from(externalIdentities)
        .where(and(eq(externalIdentities.issuer, platform.issuer), eq(externalIdentities.subject, m.user_id)))
        .limit(1);
      let userId = linked?.userId ?? null;
      if (!userId) {
        try {
          userId = (await accountOf(db, platform, { id: m.user_id, email: m.email, givenName: m.given_name, familyName: m.family_name, name: m.name, roles: m.roles }, { linkByEmail: false })).id;
        } catch (err) {
          if (err instanceof AppError && (err.kind === "IDENTITY_EMAIL_TAKEN" || err.kind === "IDENTITY_NO_EMAIL")) userId = null;
          else throw err;
        }
      }
      if (!userId) {
        result.skipped++;
        continue;
      }
      result[await joinWithRole(db, courseId, userId, role)]++;
    }
    await db.update(ltiContexts).set({ rosterSyncedAt: new Date() }).where(eq(ltiContexts.id, context.id));
  }
  return result;
}
