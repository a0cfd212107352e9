/**
 * The contest roles granted to one user (the `contest_roles` table), read by
 * ./access.ts at every call so that a revoked role is gone from the next
 * request on. Granting and revoking are ./roles.ts's.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestRoles, type CONTEST_GRANTED_ROLES } from "../../db/schema.ts";

/** A role an owner grants: DOMjudge's and the ICPC CCS's `jury` and `balloon` (runner). */
export type GrantedRole = (typeof CONTEST_GRANTED_ROLES)[number];

/** The roles granted to `userId` in contest `contestId` (none: an empty list). */
export async function grantedRoles(db: Database, contestId: string, userId: string): Promise<GrantedRole[]> {
  const rows = await db
    .select({ role: contestRoles.role })
    .from(contestRoles)
    .where(and(eq(contestRoles.contestId, contestId), eq(contestRoles.userId, userId)));
  return rows.map((r) => r.role);
}
