/**
 * Which course-private problems a viewer may see in the bank, and why
 * (`course` or `contest`), decided by the same rules as every other door
 * (src/problems/access.ts `canSeeProblem`), batched so that a page costs a
 * few queries, not one per problem:
 * - through the course: a site admin sees every course problem; a course's
 *   staff (`assignment.viewDrafts`) its every problem; its students the
 *   problems of its opened assignments (src/courses/course-problems.ts
 *   `openedAssignmentProblems`, the course page's own rule);
 * - through a contest: whatever the registered grants say (src/contests
 *   registers `problemsReadableThroughContests`: the contest's jury always,
 *   participants from their window's start, others once it is over), so this
 *   domain knows nothing of contests.
 * Public problems (no course) are everyone's and are not listed here.
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { courseMembers, problems } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { openedAssignmentProblems } from "../../courses/course-problems.ts";
import { can, type CourseRole } from "../../courses/permissions.ts";

/** Another domain's batch of course problems the viewer may see now (ids), e.g. through contests. */
export type BankSightGrant = (db: Database, user: Caller, now: number) => Promise<Set<string>>;

const grants: BankSightGrant[] = [];

/** Registers a grant (once: registering the same function again does nothing). */
export function grantBankSight(grant: BankSightGrant): void {
  if (!grants.includes(grant)) grants.push(grant);
}

/** The viewer's visible course-private problems: ids seen through their courses, and the others seen through a grant. */
export interface PrivateSight {
  course: string[];
  contest: string[];
}

/** Live course problems `user` may see at `now`, split by why (a problem seen both ways counts as `course`). */
export async function privateSight(db: Database, user: Caller, now: number): Promise<PrivateSight> {
  const course = new Set<string>();
  const live = and(isNotNull(problems.courseId), isNull(problems.deletedAt), isNull(problems.stagedAt));
  if (user.siteRole === "admin") {
    for (const r of await db.select({ id: problems.id }).from(problems).where(live)) course.add(r.id);
  } else {
    // The live problems of the viewer's courses, with the viewer's role there: one query.
    const own = await db
      .select({ id: problems.id, courseId: courseMembers.courseId, role: courseMembers.role })
      .from(courseMembers)
      .innerJoin(problems, eq(problems.courseId, courseMembers.courseId))
      .where(and(eq(courseMembers.userId, user.id), live));
    const staff = (role: CourseRole) => can({ siteRole: user.siteRole, courseRole: role }, "assignment.viewDrafts");
    const studentOf = [...new Set(own.filter((r) => !staff(r.role)).map((r) => r.courseId))];
    const opened = await openedAssignmentProblems(db, studentOf, now, user.id);
    for (const r of own) if (staff(r.role) || opened.get(r.courseId)?.has(r.id)) course.add(r.id);
  }
  const contest = new Set<string>();
  for (const grant of grants) for (const id of await grant(db, user, now)) if (!course.has(id)) contest.add(id);
  return { course: [...course], contest: [...contest] };
}
