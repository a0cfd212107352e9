/**
 * People as the LMS describes them: their identity here (linked by the
 * platform's issuer and their LMS user id), and their course membership with
 * their LTI role. Launches and roster syncs both go through these.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { courseMembers, courses } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { SessionUser } from "../accounts/user.ts";
import { signInExternal } from "../sso/identities.ts";
import type { PlatformRow } from "./registry.ts";

/** An LMS person: their id at the platform (`sub` / NRPS `user_id`), names, email and roles. */
export interface LmsPerson {
  id: string;
  email?: string | undefined;
  givenName?: string | undefined;
  familyName?: string | undefined;
  name?: string | undefined;
  roles: string[];
}

/**
 * The account of an LMS person: found by (issuer, LMS id), else made from the LMS's record (src/sso/identities.ts).
 * The LMS's email counts as verified (linking to an existing account with it, claiming staff invitations) only
 * for a platform the operator trusts with email (`trust_email`, off by default: many LMSs let users set it).
 * @param opts.linkByEmail link to an existing account with that email when the platform is trusted (a launch:
 *   the person is there); a roster sync passes false, so an account is never attached by email alone.
 * @throws AppError IDENTITY_EMAIL_TAKEN (409), IDENTITY_NO_EMAIL (400), as signInExternal.
 */
export function accountOf(db: Database, platform: PlatformRow, person: LmsPerson, opts: { linkByEmail: boolean }): Promise<SessionUser> {
  return signInExternal(
    db,
    {
      provider: `lti:${platform.id}`,
      issuer: platform.issuer,
      subject: person.id,
      email: person.email ?? null,
      emailVerified: platform.trustEmail,
      firstName: person.givenName ?? person.name ?? null,
      lastName: person.familyName ?? null,
      claims: { roles: person.roles },
    },
    { existingOnly: false, linkVerifiedEmail: opts.linkByEmail && platform.trustEmail, adminWhen: null, courseCreatorWhen: null },
  );
}

/**
 * Puts the user in the course with the LMS's role (or changes their role to it); an owner stays owner.
 * An archived course is read-only: its members keep their role (and may still open it), nobody joins.
 * @returns what changed.
 * @throws AppError COURSE_ARCHIVED (403) for someone who is not yet a member of an archived course.
 */
export async function joinWithRole(db: Database, courseId: string, userId: string, role: "instructor" | "ta" | "student"): Promise<"added" | "updated" | "unchanged"> {
  const [member] = await db.select().from(courseMembers).where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.userId, userId))).limit(1);
  if (member?.role === "owner" || member?.role === role) return "unchanged";
  const [course] = await db.select({ archivedAt: courses.archivedAt }).from(courses).where(eq(courses.id, courseId)).limit(1);
  if (course?.archivedAt) {
    if (member) return "unchanged";
    throw new AppError("COURSE_ARCHIVED");
  }
  await db
    .insert(courseMembers)
    .values({ courseId, userId, role })
    .onConflictDoUpdate({ target: [courseMembers.courseId, courseMembers.userId], set: { role } });
  return member ? "updated" : "added";
}
