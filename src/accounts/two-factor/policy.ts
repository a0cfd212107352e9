/**
 * Who must use two-factor sign-in: with REQUIRE_TWO_FACTOR_FOR_STAFF on, site admins and course
 * owners and instructors (the staff who hold grades and other people's data; issue 36). A password
 * sign-in of such an account without a second factor gets a session that may only set one up
 * (sessions.must_set_up_two_factor; src/trpc/init.ts refuses everything else with
 * TWO_FACTOR_SETUP_REQUIRED). Sign-ins through OpenID, the campus proxy or the LMS are the
 * provider's to protect, and are not asked.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { courseMembers } from "../../../db/schema.ts";
import type { Caller } from "../user.ts";

/** The course roles that count as staff for the setting: those who grade and change a course. */
export const TWO_FACTOR_STAFF_ROLES = ["owner", "instructor"] as const;

/** Whether the setting requires `user` to have two-factor sign-in on. */
export async function twoFactorRequiredFor(db: Database, config: { REQUIRE_TWO_FACTOR_FOR_STAFF: boolean }, user: Caller): Promise<boolean> {
  if (!config.REQUIRE_TWO_FACTOR_FOR_STAFF) return false;
  if (user.siteRole === "admin") return true;
  const [staff] = await db
    .select({ userId: courseMembers.userId })
    .from(courseMembers)
    .where(and(eq(courseMembers.userId, user.id), inArray(courseMembers.role, [...TWO_FACTOR_STAFF_ROLES])))
    .limit(1);
  return staff !== undefined;
}
