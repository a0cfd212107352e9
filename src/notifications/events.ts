/**
 * Notices made by events other domains report (decision 073): a student's
 * score on an assignment changed by a rejudge, an extension or a staff edit
 * (src/courses/scores.ts reports the totals before and after), and a contest
 * question answered by the jury (src/contests/clarifications.ts). Each is one
 * INSERT ... SELECT (./fanout.ts), keyed by the event, so the same event
 * reported twice makes one notice. Callers do not know whether this server
 * sends mail: the notices are marked for e-mail by the reader's switch, and
 * the mail pass (./mail.ts), which runs only where mail is configured, sends
 * the recent ones (NOTICE_MAIL_MAX_AGE_MS) and drops older marks.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignments, contests, courses } from "../../db/schema.ts";
import { fanOut } from "./fanout.ts";

/** One student's total on an assignment before and after a recomputation (points). */
export interface ScoreChange {
  userId: string;
  before: number;
  after: number;
}

/** Points as a notice shows them: at most two decimals, no trailing zeros. */
function points(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * Notifies each student whose total changed (kind `grade-changed`), one notice per student and change.
 * @param eventKey names this recomputation (e.g. the assignment's scores version), so a repeat adds nothing.
 */
export async function notifyScoreChanges(db: Database, assignmentId: string, changes: readonly ScoreChange[], eventKey: string, nowMs: number): Promise<void> {
  const changed = changes.filter((c) => Math.abs(c.after - c.before) > 1e-9);
  if (changed.length === 0) return;
  const [a] = await db
    .select({ title: assignments.title, course: courses.title, courseId: assignments.courseId })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(eq(assignments.id, assignmentId));
  if (!a) return;
  const rows = JSON.stringify(changed.map((c) => ({ u: c.userId, b: points(c.before), s: points(c.after) })));
  await fanOut(
    db,
    { kind: "grade-changed", subjectKey: `${assignmentId}:${eventKey}`, courseId: a.courseId, assignmentId },
    sql`select json_extract(value, '$.u') as uid,
        json_object('title', ${a.title}, 'course', ${a.course}, 'before', json_extract(value, '$.b'), 'score', json_extract(value, '$.s')) as payload
      from json_each(${rows})`,
    { mail: true, nowMs, perRecipientPayload: true },
  );
}

/**
 * Notifies the members of the team that asked a question the jury just answered (kind `clarification-answered`).
 * @param answer the jury's words (shown in the e-mail, first 2,000 characters).
 */
export async function notifyClarificationAnswered(
  db: Database,
  q: { contestId: string; questionId: string; askingTeamId: string; answerId: string; answer: string },
  nowMs: number,
): Promise<void> {
  const [c] = await db.select({ title: contests.title, courseId: contests.courseId }).from(contests).where(eq(contests.id, q.contestId));
  if (!c) return;
  await fanOut(
    db,
    { kind: "clarification-answered", subjectKey: q.answerId, contestId: q.contestId, courseId: c.courseId, clarificationId: q.questionId },
    sql`select tm.user_id as uid from contest_team_members tm where tm.team_id = ${q.askingTeamId}`,
    { payload: { contest: c.title, body: q.answer.slice(0, 2000) }, mail: true, nowMs },
  );
}
