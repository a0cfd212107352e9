/**
 * What staff do around exams: set a member's extra time (course roster), see
 * who started from which address and who was refused by which rule (the
 * access log), and release a student's one-session lock.
 */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { assignments, courseMembers, examAccessLog, examStarts, users } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField } from "../../lib/fields.ts";
import { requireAssignment, requireCourse } from "../access.ts";
import { recomputeStudent } from "../scores.ts";
import { extraTimeInput, extraTimeOf } from "./extra-time.ts";
import { logExamEvent } from "./log.ts";
import type { ExtraTime } from "./rules.ts";
import { examWindowOf } from "./windows.ts";

export const releaseInput = z.object({ assignmentId: idField(), userId: idField() });

/** Recomputes a student's scores in every assignment of the course (their extra time changed). */
async function recomputeCourseStudent(db: Database, courseId: string, userId: string, now: number): Promise<void> {
  const list = await db.select({ id: assignments.id }).from(assignments).where(eq(assignments.courseId, courseId));
  for (const a of list) await recomputeStudent(db, a.id, userId, undefined, { nowMs: now });
}

/**
 * Sets a member's extra time and recomputes their scores in the course's assignments.
 * @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.edit), MEMBER_NOT_FOUND (404, field userId).
 */
export async function setExtraTime(db: Database, user: Caller, input: z.infer<typeof extraTimeInput>, now: number): Promise<{ userId: string } & ExtraTime> {
  await requireCourse(db, user, input.courseId, "roster.edit");
  const current = (await extraTimeOf(db, input.courseId, [input.userId])).get(input.userId);
  if (!current) throw new AppError("MEMBER_NOT_FOUND", { field: "userId", message: "userId: not a member of this course" });
  const next = { extraTimePercent: input.extraTimePercent ?? current.extraTimePercent, extraMinutes: input.extraMinutes ?? current.extraMinutes };
  await db.update(courseMembers).set(next).where(and(eq(courseMembers.courseId, input.courseId), eq(courseMembers.userId, input.userId)));
  await recomputeCourseStudent(db, input.courseId, input.userId, now);
  return { userId: input.userId, ...next };
}

/** One line of the staff view: a start or a refusal. */
export interface ExamLogEntry {
  at: string;
  userId: string | null;
  name: string | null;
  email: string | null;
  ip: string | null;
  /** `started`, `released`, or the refusing rule. */
  event: string;
  detail: string;
}

/** Who started (when, from where, their window's end) and the access log, newest first (at most 500 entries). */
export interface ExamAccessView {
  starts: { userId: string; name: string; email: string; startedAt: string; ip: string | null; endsAt: string | null; sessionBound: boolean }[];
  log: ExamLogEntry[];
}

/**
 * The exam's access view for staff. `GET /api/assignments/:id/access-log`.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: exam.monitor).
 */
export async function examAccessView(db: Database, user: Caller, assignmentId: string, now: number): Promise<ExamAccessView> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "exam.monitor", now);
  const [starts, log] = await Promise.all([
    db
      .select({ s: examStarts, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(examStarts)
      .innerJoin(users, eq(users.id, examStarts.userId))
      .where(eq(examStarts.assignmentId, assignmentId)),
    readAccessLog(db, { assignmentId }),
  ]);
  const windows = await Promise.all(starts.map((r) => examWindowOf(db, assignment, r.s.userId)));
  return {
    starts: starts.map((r, i) => ({
      userId: r.s.userId,
      name: personName(r),
      email: r.email,
      startedAt: r.s.startedAt.toISOString(),
      ip: r.s.ip,
      endsAt: windows[i]!.endsAt === null ? null : new Date(windows[i]!.endsAt!).toISOString(),
      sessionBound: r.s.sessionId !== null,
    })),
    log,
  };
}

/** "First Last" as the access views show a person. */
export const personName = (r: { firstName: string | null; lastName: string | null }) => `${r.firstName ?? ""} ${r.lastName ?? ""}`.trim();

/** The access log of one assignment or contest, newest first, at most 500 entries (with who, when known). */
export async function readAccessLog(db: Database, of: { assignmentId: string } | { contestId: string }): Promise<ExamLogEntry[]> {
  const rows = await db
    .select({ l: examAccessLog, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(examAccessLog)
    .leftJoin(users, eq(users.id, examAccessLog.userId))
    .where("assignmentId" in of ? eq(examAccessLog.assignmentId, of.assignmentId) : eq(examAccessLog.contestId, of.contestId))
    .orderBy(desc(examAccessLog.at))
    .limit(500);
  return rows.map((r) => ({ at: r.l.at.toISOString(), userId: r.l.userId, name: r.email === null ? null : personName(r), email: r.email, ip: r.l.ip, event: r.l.event, detail: r.l.detail }));
}

/**
 * Releases a student's one-session lock: the next session to ask holds their window (a crashed browser, a
 * changed machine). `POST /api/assignments/:id/release {userId}`.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: exam.release), COURSE_ARCHIVED (403), MEMBER_NOT_FOUND (404, field userId) when they have not started.
 */
export async function releaseSession(db: Database, user: Caller, input: z.infer<typeof releaseInput>, now: number): Promise<{ released: true }> {
  await requireAssignment(db, user, input.assignmentId, "exam.release", now);
  const where = and(eq(examStarts.assignmentId, input.assignmentId), eq(examStarts.userId, input.userId));
  const [s] = await db.select({ u: examStarts.userId }).from(examStarts).where(where).limit(1);
  if (!s) throw new AppError("MEMBER_NOT_FOUND", { field: "userId", message: "userId: this student has not started the exam" });
  await db.update(examStarts).set({ sessionId: null }).where(where);
  await logExamEvent(db, { assignmentId: input.assignmentId, userId: input.userId, ip: null, event: "released", detail: `by ${user.id}`, atMs: now });
  return { released: true };
}

/** Extra time of every member of a course (staff; the roster shows it). @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: roster.view). */
export async function extraTimes(db: Database, user: Caller, courseId: string): Promise<Record<string, ExtraTime>> {
  await requireCourse(db, user, courseId, "roster.view");
  const ids = (await db.select({ u: courseMembers.userId }).from(courseMembers).where(eq(courseMembers.courseId, courseId))).map((r) => r.u);
  return Object.fromEntries(await extraTimeOf(db, courseId, ids));
}
