/**
 * Contest roles (decision 053): the contest's owners (its creator, a course
 * contest's teachers, site admins) extend who judges it by granting a user,
 * named by e-mail address, the role `jury` (everything the jury does, but not
 * changing the contest nor its roles) or `balloon` (the balloon list only),
 * and revoke them; listing is the permission table's `roles.view`, granting
 * and revoking its `roles.manage` (./permissions.ts), neither of which a
 * granted jury member has. The role is read at every request (./access.ts `roleIn`), so a grant or a revocation
 * takes effect at the caller's next request, a live board stream's next push included.
 */
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { CONTEST_GRANTED_ROLES, contestRoles, users } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { normalizeEmail } from "../lib/email.ts";
import { emailField, idField } from "../lib/fields.ts";
import { memberRole } from "../courses/access.ts";
import { requireContest, type ContestRow } from "./access.ts";
import { teamOf } from "./teams.ts";
import type { ContestDeps } from "./contests.ts";
import type { GrantedRole } from "./roles-store.ts";

/** The role field: one of CONTEST_GRANTED_ROLES (a closed list). */
export const grantedRoleField = () => z.enum(CONTEST_GRANTED_ROLES, { error: `Must be one of: ${CONTEST_GRANTED_ROLES.join(", ")}` });

/** A grant's input: the contest (id or short name), the user's e-mail address and the role. */
export const grantRoleInput = z.object({ id: idField(), email: emailField(), role: grantedRoleField() });
export type GrantRoleInput = z.infer<typeof grantRoleInput>;

/** A revocation's input: the contest, the user's id and the role. */
export const revokeRoleInput = z.object({ id: idField(), userId: idField(), role: grantedRoleField() });
export type RevokeRoleInput = z.infer<typeof revokeRoleInput>;

/** One granted role, as the owners' list shows it. */
export interface ContestRoleView {
  userId: string;
  name: string;
  email: string;
  role: GrantedRole;
  /** ISO 8601. */
  grantedAt: string;
  /** Who granted it (their user id), null once that account is gone. */
  grantedBy: string | null;
}

/**
 * The contest's granted roles, by role then e-mail address.
 * @throws CONTEST_NOT_FOUND (404), UNAUTHENTICATED (401), FORBIDDEN (403) for anyone but its owners.
 */
export async function listContestRoles(deps: ContestDeps, user: Caller | null, id: string): Promise<ContestRoleView[]> {
  const { contest } = await requireContest(deps.db, user, id, "roles.view");
  const rows = await deps.db
    .select({ userId: contestRoles.userId, firstName: users.firstName, lastName: users.lastName, email: users.email, role: contestRoles.role, grantedAt: contestRoles.grantedAt, grantedBy: contestRoles.grantedBy })
    .from(contestRoles)
    .innerJoin(users, eq(users.id, contestRoles.userId))
    .where(eq(contestRoles.contestId, contest.id))
    .orderBy(asc(contestRoles.role), asc(users.emailNormalized));
  return rows.map((r) => ({ userId: r.userId, name: `${r.firstName} ${r.lastName}`.trim(), email: r.email, role: r.role, grantedAt: r.grantedAt.toISOString(), grantedBy: r.grantedBy }));
}

/**
 * Grants `role` to the account with e-mail address `email` (granting it again changes nothing).
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403) for anyone but the contest's owners, COURSE_ARCHIVED (403),
 *   USER_NOT_FOUND (404, field `email`) when no account has that address, CONTEST_ROLE_CONFLICT (409, field `email`)
 *   granting `jury` to a participant (a team's member; in a course contest, a student of the course).
 */
export async function grantContestRole(deps: ContestDeps, user: Caller, input: GrantRoleInput): Promise<ContestRoleView> {
  const { contest } = await requireContest(deps.db, user, input.id, "roles.manage");
  const [target] = await deps.db.select().from(users).where(eq(users.emailNormalized, normalizeEmail(input.email))).limit(1);
  if (!target || target.isSystem) throw new AppError("USER_NOT_FOUND", { field: "email", message: "email: no account has this e-mail address" });
  if (input.role === "jury" && (await takesPart(deps, contest, target.id))) {
    throw new AppError("CONTEST_ROLE_CONFLICT", { field: "email", message: "email: this account takes part in the contest (a team's member or the course's student) and cannot be its jury" });
  }
  await deps.db
    .insert(contestRoles)
    .values({ contestId: contest.id, userId: target.id, role: input.role, grantedBy: user.id, grantedAt: new Date(deps.now()) })
    .onConflictDoNothing();
  const [row] = await deps.db
    .select()
    .from(contestRoles)
    .where(and(eq(contestRoles.contestId, contest.id), eq(contestRoles.userId, target.id), eq(contestRoles.role, input.role)));
  deps.contests.bus.changed(contest.id);
  return { userId: target.id, name: `${target.firstName} ${target.lastName}`.trim(), email: target.email, role: input.role, grantedAt: row!.grantedAt.toISOString(), grantedBy: row!.grantedBy };
}

/** Whether `userId` takes part in the contest: a member of one of its teams, or a student of its course. */
async function takesPart(deps: ContestDeps, contest: ContestRow, userId: string): Promise<boolean> {
  if (await teamOf(deps.db, contest.id, userId)) return true;
  return contest.courseId !== null && (await memberRole(deps.db, contest.courseId, userId)) === "student";
}

/**
 * Revokes a granted role; it no longer counts from the next request on.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403) for anyone but the contest's owners, COURSE_ARCHIVED (403),
 *   CONTEST_ROLE_NOT_FOUND (404, field `userId`) when the user does not hold that role here.
 */
export async function revokeContestRole(deps: ContestDeps, user: Caller, input: RevokeRoleInput): Promise<{ revoked: true }> {
  const { contest } = await requireContest(deps.db, user, input.id, "roles.manage");
  const gone = await deps.db
    .delete(contestRoles)
    .where(and(eq(contestRoles.contestId, contest.id), eq(contestRoles.userId, input.userId), eq(contestRoles.role, input.role)))
    .returning({ userId: contestRoles.userId });
  if (gone.length === 0) throw new AppError("CONTEST_ROLE_NOT_FOUND", { field: "userId" });
  deps.contests.bus.changed(contest.id);
  return { revoked: true };
}
