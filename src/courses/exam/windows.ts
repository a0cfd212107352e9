/**
 * A student's exam window on one assignment: their deadlines (extension and
 * extra time counted) and, on a timed assignment, their personal window from
 * Start. Read by ./gate.ts, ./start.ts and the assignment's shape.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { examStarts, extensions, type assignments } from "../../../db/schema.ts";
import { studentWindow, type StudentWindow } from "../deadlines.ts";
import { extraTimeFor, windowAdjust } from "./extra-time.ts";
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

/** A student's window on `a` (one query per table; no Start row yet: `start` null). */
export async function examWindowOf(db: Database, a: AssignmentRow, userId: string): Promise<ExamWindow> {
  const [ext, extra, start] = await Promise.all([
    db.select().from(extensions).where(and(eq(extensions.assignmentId, a.id), eq(extensions.userId, userId))).limit(1),
    extraTimeFor(db, a.courseId, userId),
    db.select().from(examStarts).where(and(eq(examStarts.assignmentId, a.id), eq(examStarts.userId, userId))).limit(1),
  ]);
  const e = ext[0];
  const w = studentWindow(
    { opensAt: a.opensAt.getTime(), dueAt: a.dueAt?.getTime() ?? null, closesAt: a.closesAt?.getTime() ?? null },
    e ? { dueAt: e.dueAt.getTime(), closesAt: e.closesAt?.getTime() ?? null } : null,
    windowAdjust(a, extra),
  );
  const s = start[0] ?? null;
  const endsAt = s === null ? null : a.timeLimitMinutes !== null ? timedEnd(s.startedAt.getTime(), a.timeLimitMinutes, extraMs(a, extra), w.close) : w.close;
  return { w, extra, start: s, endsAt };
}

/** Whether a started window is open at `now`. */
export function windowOpen(x: ExamWindow, now: number): boolean {
  return x.start !== null && now >= x.start.startedAt.getTime() && (x.endsAt === null || now < x.endsAt);
}
