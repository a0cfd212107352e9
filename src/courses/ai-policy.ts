/**
 * Which AI policy (./policy.ts) applies to a review request: the named
 * assignment's, or for a course problem the strictest policy among the
 * assignments with it that have opened (an exam's `off` wins over a practice
 * set's `full`). Staff and site admins, and public problems, get `full`.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import type { ProblemRow } from "../problems/shape.ts";
import { actorIsStaff, memberRole, requireAssignment } from "./access.ts";
import { isStaff } from "./permissions.ts";
import { AI_POLICIES, type AiPolicy } from "./policy.ts";

const strictest = (list: AiPolicy[]): AiPolicy => list.reduce<AiPolicy>((a, b) => (AI_POLICIES.indexOf(b) < AI_POLICIES.indexOf(a) ? b : a), "full");

/**
 * @param problem the problem under review (null: code without a problem).
 * @throws AppError ASSIGNMENT_NOT_FOUND (404) for an assignment the caller cannot see.
 */
export async function aiPolicyFor(db: Database, caller: Caller, problem: ProblemRow | null, assignmentId: string | undefined, now: number): Promise<AiPolicy> {
  if (caller.siteRole === "admin") return "full";
  if (assignmentId !== undefined) {
    const { assignment, actor } = await requireAssignment(db, caller, assignmentId, "course.view", now);
    return actorIsStaff(actor) ? "full" : assignment.aiPolicy;
  }
  if (!problem?.courseId) return "full";
  if (isStaff(await memberRole(db, problem.courseId, caller.id))) return "full";
  const rows = await db
    .select({ policy: assignments.aiPolicy, opensAt: assignments.opensAt })
    .from(assignmentProblems)
    .innerJoin(assignments, eq(assignments.id, assignmentProblems.assignmentId))
    .where(and(eq(assignmentProblems.problemId, problem.id), eq(assignments.courseId, problem.courseId), isNull(assignments.deletedAt)));
  return strictest(rows.filter((r) => r.opensAt.getTime() <= now).map((r) => r.policy));
}
