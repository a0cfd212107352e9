/**
 * Which AI policy (./policy.ts) applies to a review request. The policy
 * guards the problem, not the request's label: a student gets the strictest
 * policy among the opened assignments that contain the problem in the
 * courses where they are a student (an exam's `off` wins over a practice
 * set's `full`, for a course problem and for a public problem linked into
 * the exam alike). Naming an assignment can only make it stricter, and the
 * problem must be in it (a practice set's `full` is not borrowed for an exam
 * problem). Staff of the problem's course and site admins get `full`; so does
 * anyone for a public problem that none of their courses assigns.
 */
import { and, eq, isNull, lte } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments, courseMembers } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import type { ProblemRow } from "../problems/shape.ts";
import { actorIsStaff, memberRole, requireAssignment } from "./access.ts";
import { isStaff } from "./permissions.ts";
import { AI_POLICIES, type AiPolicy } from "./policy.ts";

const strictest = (list: AiPolicy[]): AiPolicy => list.reduce<AiPolicy>((a, b) => (AI_POLICIES.indexOf(b) < AI_POLICIES.indexOf(a) ? b : a), "full");

/** The strictest policy of the opened assignments with `problem` in the courses where `caller` is a student. */
async function problemPolicy(db: Database, caller: Caller, problem: ProblemRow, now: number): Promise<AiPolicy> {
  if (problem.courseId && isStaff(await memberRole(db, problem.courseId, caller.id))) return "full";
  const rows = await db
    .select({ policy: assignments.aiPolicy })
    .from(assignmentProblems)
    .innerJoin(assignments, eq(assignments.id, assignmentProblems.assignmentId))
    .innerJoin(courseMembers, and(eq(courseMembers.courseId, assignments.courseId), eq(courseMembers.userId, caller.id), eq(courseMembers.role, "student")))
    .where(and(eq(assignmentProblems.problemId, problem.id), isNull(assignments.deletedAt), lte(assignments.opensAt, new Date(now))));
  return strictest(rows.map((r) => r.policy));
}

/**
 * Another domain's limit on AI review (src/contests: none while the caller
 * takes part in a running contest). It can only make the policy stricter; its
 * `reason` replaces the policy's usual text.
 */
export type AiRestriction = (db: Database, caller: Caller, problem: ProblemRow | null, now: number) => Promise<{ policy: AiPolicy; reason: string } | null>;

const restrictions: AiRestriction[] = [];

/** Registers a restriction (once: registering the same function again does nothing). */
export function restrictAi(restriction: AiRestriction): void {
  if (!restrictions.includes(restriction)) restrictions.push(restriction);
}

/**
 * The policy with the reason a registered restriction gave, when one decided it
 * (site admins are never restricted). Arguments and errors as `aiPolicyFor`.
 */
export async function aiPolicyExplained(
  db: Database,
  caller: Caller,
  problem: ProblemRow | null,
  assignmentId: string | undefined,
  now: number,
): Promise<{ policy: AiPolicy; reason: string | null }> {
  const own = await aiPolicyFor(db, caller, problem, assignmentId, now);
  let best: { policy: AiPolicy; reason: string | null } = { policy: own, reason: null };
  if (caller.siteRole === "admin") return best;
  for (const restriction of restrictions) {
    const r = await restriction(db, caller, problem, now);
    if (r && AI_POLICIES.indexOf(r.policy) < AI_POLICIES.indexOf(best.policy)) best = r;
  }
  return best;
}

/**
 * The course rules alone (see the module's text); `aiPolicyExplained` adds the other domains' restrictions.
 * @param problem the problem under review (null: code without a problem).
 * @throws AppError ASSIGNMENT_NOT_FOUND (404) for an assignment the caller cannot see; PROBLEM_NOT_FOUND (404,
 *   field problemId) when the named assignment does not contain the problem.
 */
export async function aiPolicyFor(db: Database, caller: Caller, problem: ProblemRow | null, assignmentId: string | undefined, now: number): Promise<AiPolicy> {
  if (caller.siteRole === "admin") return "full";
  if (assignmentId !== undefined) {
    const { assignment, actor } = await requireAssignment(db, caller, assignmentId, "course.view", now);
    if (actorIsStaff(actor)) return "full";
    if (!problem) return assignment.aiPolicy;
    const [inIt] = await db
      .select({ p: assignmentProblems.problemId })
      .from(assignmentProblems)
      .where(and(eq(assignmentProblems.assignmentId, assignmentId), eq(assignmentProblems.problemId, problem.id)))
      .limit(1);
    if (!inIt) throw new AppError("PROBLEM_NOT_FOUND", { field: "problemId", message: "problemId: this problem is not part of the assignment" });
    return strictest([assignment.aiPolicy, await problemPolicy(db, caller, problem, now)]);
  }
  if (!problem) return "full";
  return problemPolicy(db, caller, problem, now);
}
