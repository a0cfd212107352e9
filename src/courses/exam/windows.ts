/**
 * A student's exam window on one assignment: their deadlines (extension and
 * extra time counted) and, on a timed assignment, their personal window from
 * Start. Read by ./gate.ts, ./start.ts and the assignment's shape.
 */
import { and, eq, type SQLWrapper } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { courseMembers, examStarts, extensions, type assignments } from "../../../db/schema.ts";
import { studentWindow, type StudentWindow } from "../deadlines.ts";
import { windowAdjust } from "./extra-time.ts";
import { extraMs, timedEnd, type ExtraTime } from "./rules.ts";

export type ExamStartRow = typeof examStarts.$inferSelect;
/** An assignment row (the same type as src/courses/access.ts's, named here so the gate needs nothing above it). */
export type AssignmentRow = typeof assignments.$inferSelect;

/** Whether students must press Start before they see the problems or submit (a timed window or a proctor's password). */
export function needsStart(a: Pick<AssignmentRow, "timeLimitMinutes" | "proctorPasswordHash">): boolean {
  return a.timeLimitMinutes !== null || a.proctorPasswordHash !== null;
}

export interface ExamWindow {
  /** The student's deadlines (extension, extra time). */
  w: StudentWindow;
  extra: ExtraTime;
  start: ExamStartRow | null;
  /** When the student's personal window ends (ms): the timed end, else their close; null: never. Null before Start too. */
  endsAt: number | null;
}

/** What one query reads for a student's window: their start, extension and extra time (left joins, null when none). */
export const windowColumns = {
  start: examStarts,
  extDueAt: extensions.dueAt,
  extClosesAt: extensions.closesAt,
  extraTimePercent: courseMembers.extraTimePercent,
  extraMinutes: courseMembers.extraMinutes,
};

/** The joins of `windowColumns` from course_members, for assignment `assignmentId` (a column or a value). */
export function windowJoins<T extends { leftJoin: (...args: any[]) => any }>(q: T, assignmentId: SQLWrapper | string): T {
  return q
    .leftJoin(examStarts, and(eq(examStarts.assignmentId, assignmentId), eq(examStarts.userId, courseMembers.userId)))
    .leftJoin(extensions, and(eq(extensions.assignmentId, assignmentId), eq(extensions.userId, courseMembers.userId))) as T;
}

export type WindowRow = { start: ExamStartRow | null; extDueAt: Date | null; extClosesAt: Date | null; extraTimePercent: number | null; extraMinutes: number | null };

/** A student's window from its row (pure). */
export function windowFromRow(a: Pick<AssignmentRow, "opensAt" | "dueAt" | "closesAt" | "timeLimitMinutes">, r: WindowRow | undefined): ExamWindow {
  const extra = { extraTimePercent: r?.extraTimePercent ?? 0, extraMinutes: r?.extraMinutes ?? 0 };
  const w = studentWindow(
    { opensAt: a.opensAt.getTime(), dueAt: a.dueAt?.getTime() ?? null, closesAt: a.closesAt?.getTime() ?? null },
    r?.extDueAt ? { dueAt: r.extDueAt.getTime(), closesAt: r.extClosesAt?.getTime() ?? null } : null,
    windowAdjust(a, extra),
  );
  const s = r?.start ?? null;
  const endsAt = s === null ? null : a.timeLimitMinutes !== null ? timedEnd(s.startedAt.getTime(), a.timeLimitMinutes, extraMs(a, extra), w.close) : w.close;
  return { w, extra, start: s, endsAt };
}

/** A student's window on `a` (one query; no Start row yet: `start` null; not a member: no extra time). */
export async function examWindowOf(db: Database, a: AssignmentRow, userId: string): Promise<ExamWindow> {
  const rows = await windowJoins(db.select(windowColumns).from(courseMembers), a.id)
    .where(and(eq(courseMembers.courseId, a.courseId), eq(courseMembers.userId, userId)))
    .limit(1);
  return windowFromRow(a, rows[0]);
}

/** Whether a started window is open at `now`. */
export function windowOpen(x: ExamWindow, now: number): boolean {
  return x.start !== null && now >= x.start.startedAt.getTime() && (x.endsAt === null || now < x.endsAt);
}
