/**
 * What the course's staff see of its LMS link: the linked LMS courses (and
 * when the roster was last pulled), and per linked activity the grades
 * waiting, sent and failing, with the last failure's message.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignments, ltiContexts, ltiGradeOutbox, ltiPlatforms, ltiResourceLinks } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireCourse } from "../courses/access.ts";

export interface LtiCourseStatus {
  contexts: { platform: string; contextId: string; rosterService: boolean; rosterSyncedAt: string | null }[];
  activities: {
    resourceLinkId: string;
    assignmentId: string | null;
    assignmentTitle: string | null;
    problemId: string | null;
    gradesToLms: boolean;
    waiting: number;
    sent: number;
    failing: number;
    lastError: string | null;
  }[];
}

/** @throws AppError COURSE_NOT_FOUND (404), FORBIDDEN (403: grades.view). */
export async function ltiCourseStatus(db: Database, caller: Caller, courseId: string): Promise<LtiCourseStatus> {
  await requireCourse(db, caller, courseId, "grades.view");
  const contexts = await db
    .select({ platform: ltiPlatforms.name, contextId: ltiContexts.contextId, membershipsUrl: ltiContexts.membershipsUrl, rosterSyncedAt: ltiContexts.rosterSyncedAt })
    .from(ltiContexts)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiContexts.platformId))
    .where(eq(ltiContexts.courseId, courseId));
  const links = await db
    .select({
      id: ltiResourceLinks.id,
      resourceLinkId: ltiResourceLinks.resourceLinkId,
      assignmentId: ltiResourceLinks.assignmentId,
      assignmentTitle: assignments.title,
      problemId: ltiResourceLinks.problemId,
      lineItemUrl: ltiResourceLinks.lineItemUrl,
      waiting: sql<number>`(select count(*) from ${ltiGradeOutbox} where ${ltiGradeOutbox.resourceLinkRowId} = ${ltiResourceLinks.id} and ${ltiGradeOutbox.sentAt} is null and ${ltiGradeOutbox.lastError} is null)`,
      sent: sql<number>`(select count(*) from ${ltiGradeOutbox} where ${ltiGradeOutbox.resourceLinkRowId} = ${ltiResourceLinks.id} and ${ltiGradeOutbox.sentAt} is not null)`,
      failing: sql<number>`(select count(*) from ${ltiGradeOutbox} where ${ltiGradeOutbox.resourceLinkRowId} = ${ltiResourceLinks.id} and ${ltiGradeOutbox.sentAt} is null and ${ltiGradeOutbox.lastError} is not null)`,
      lastError: sql<string | null>`(select ${ltiGradeOutbox.lastError} from ${ltiGradeOutbox} where ${ltiGradeOutbox.resourceLinkRowId} = ${ltiResourceLinks.id} and ${ltiGradeOutbox.sentAt} is null and ${ltiGradeOutbox.lastError} is not null order by ${ltiGradeOutbox.nextAttemptAt} desc limit 1)`,
    })
    .from(ltiResourceLinks)
    .innerJoin(ltiContexts, eq(ltiContexts.id, ltiResourceLinks.contextRowId))
    .leftJoin(assignments, eq(assignments.id, ltiResourceLinks.assignmentId))
    .where(eq(ltiContexts.courseId, courseId));
  const activities = links.map((l) => ({
    resourceLinkId: l.resourceLinkId,
    assignmentId: l.assignmentId,
    assignmentTitle: l.assignmentTitle,
    problemId: l.problemId,
    gradesToLms: l.lineItemUrl !== null && l.assignmentId !== null,
    waiting: Number(l.waiting),
    sent: Number(l.sent),
    failing: Number(l.failing),
    lastError: l.lastError,
  }));
  return {
    contexts: contexts.map((c) => ({ platform: c.platform, contextId: c.contextId, rosterService: c.membershipsUrl !== null, rosterSyncedAt: c.rosterSyncedAt?.toISOString() ?? null })),
    activities,
  };
}
