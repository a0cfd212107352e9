/**
 * People as the LMS describes them: their identity here (linked by the
 * platform's issuer and their LMS user id). Their course membership with
 * their LTI role is the courses module's (`joinWithRole`, src/courses/roster.ts).
 * Launches and roster syncs both go through these.
 */
import type { Database } from "../../db/index.ts";
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
