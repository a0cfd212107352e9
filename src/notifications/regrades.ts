/**
 * Notices of regrade requests (issue 37 §5, decision 076): a student's request
 * goes to the course's staff (kind `regrade-requested`, leading to the queue),
 * staff's answer to the student (kind `regrade-answered`, leading to the
 * review, the answer in the e-mail). Each is one INSERT ... SELECT keyed by the
 * request (./fanout.ts), so the same event reported twice makes one notice.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { fanOut } from "./fanout.ts";

/** What a regrade notice names: the request, where it belongs, and the titles it shows. */
export interface RegradeNotice {
  requestId: string;
  courseId: string;
  assignmentId: string;
  submissionId: string;
  /** The assignment's, the problem's and the course's titles (user content, shown as written). */
  title: string;
  problem: string;
  course: string;
}

/** Notifies the course's staff (owners, instructors, TAs) that a student asked for a regrade. */
export async function notifyRegradeRequested(db: Database, n: RegradeNotice, nowMs: number): Promise<void> {
  await fanOut(
    db,
    { kind: "regrade-requested", subjectKey: n.requestId, courseId: n.courseId, assignmentId: n.assignmentId },
    sql`select m.user_id as uid from course_members m where m.course_id = ${n.courseId} and m.role in ('owner', 'instructor', 'ta')`,
    { payload: { title: n.title, problem: n.problem, course: n.course, path: `/courses/${n.courseId}/regrades` }, mail: true, nowMs },
  );
}

/**
 * Notifies the student that staff answered their request.
 * @param answer staff's words (in the e-mail, first 2,000 characters).
 */
export async function notifyRegradeAnswered(
  db: Database,
  n: RegradeNotice & { userId: string; status: "accepted" | "declined"; answer: string },
  nowMs: number,
): Promise<void> {
  await fanOut(
    db,
    { kind: "regrade-answered", subjectKey: n.requestId, courseId: n.courseId, assignmentId: n.assignmentId },
    sql`select ${n.userId} as uid`,
    {
      payload: { title: n.title, problem: n.problem, course: n.course, status: n.status, body: n.answer.slice(0, 2000), path: `/submissions/${n.submissionId}/review` },
      mail: true,
      nowMs,
    },
  );
}
