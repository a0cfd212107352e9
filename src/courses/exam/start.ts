/**
 * Start (`POST /api/assignments/:id/start {password?}`): a student opens their
 * personal window on an assignment that needs it (timed, or with a proctor's
 * password), inside its open and close times; and the window's status for the
 * solving page's clock. Submissions are held to the window (`requireExamSubmit`).
 */
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { examStarts } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField } from "../../lib/fields.ts";
import { actorIsStaff, requireAssignment, requireNotArchived, type AssignmentRow } from "../access.ts";
import { currentExamRequest, refuse } from "./gate.ts";
import { logExamEvent } from "./log.ts";
import { examWindowOf, needsStart, windowOpen, type ExamWindow } from "./windows.ts";

export const startInput = z.object({
  id: idField(),
  password: z.string({ error: "Must be text" }).max(200, { error: "At most 200 characters" }).optional(),
});

/** A student's window as the API shows it (ISO times). */
export interface ExamStatus {
  assignmentId: string;
  needsStart: boolean;
  timeLimitMinutes: number | null;
  extraTimePercent: number;
  extraMinutes: number;
  startedAt: string | null;
  /** When the window ends (timed end or close, extra time counted); null: never or not started. */
  endsAt: string | null;
  /** Their close (extension and extra time counted); null: none. */
  close: string | null;
  state: "not-started" | "open" | "over";
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function statusOf(a: AssignmentRow, x: ExamWindow, now: number): ExamStatus {
  return {
    assignmentId: a.id,
    needsStart: needsStart(a),
    timeLimitMinutes: a.timeLimitMinutes,
    extraTimePercent: x.extra.extraTimePercent,
    extraMinutes: x.extra.extraMinutes,
    startedAt: x.start ? x.start.startedAt.toISOString() : null,
    endsAt: iso(x.endsAt),
    close: iso(x.w.close),
    state: x.start === null ? "not-started" : windowOpen(x, now) ? "open" : "over",
  };
}

/** The caller's window on an assignment. @throws ASSIGNMENT_NOT_FOUND (404), and the access rules' refusals (403). */
export async function examStatus(db: Database, user: Caller, id: string, now: number): Promise<ExamStatus> {
  const { assignment } = await requireAssignment(db, user, id, "course.view", now);
  return statusOf(assignment, await examWindowOf(db, assignment, user.id), now);
}

/**
 * Starts the caller's window (pressing Start again inside it answers the same window).
 * @throws ASSIGNMENT_NOT_FOUND (404); FORBIDDEN (403) for staff (they do not sit exams); COURSE_ARCHIVED (403); BAD_INPUT (400, field id)
 *   when the assignment needs no Start; ASSIGNMENT_NOT_OPEN / ASSIGNMENT_CLOSED (403, saying when);
 *   EXAM_PASSWORD_WRONG (403, rule password); EXAM_WINDOW_OVER (403, rule window, saying when it ended);
 *   and the access rules' refusals (address, seb, session: 403).
 */
export async function startExam(db: Database, user: Caller, input: z.infer<typeof startInput>, now: number): Promise<ExamStatus> {
  const { assignment: a, course, actor } = await requireAssignment(db, user, input.id, "course.view", now);
  if (actorIsStaff(actor)) throw new AppError("FORBIDDEN", { message: "Staff do not start exam windows" });
  // Starting records the window (a write): an archived course is read-only, as for the submissions it would allow.
  requireNotArchived(course);
  if (!needsStart(a)) throw new AppError("BAD_INPUT", { field: "id", message: "id: this assignment has no timed window or proctor's password to start" });
  const req = currentExamRequest();
  const at = { assignmentId: a.id, userId: user.id, ip: req?.ip ?? "unknown", path: "assignments.start", nowMs: now };
  const x = await examWindowOf(db, a, user.id);
  if (x.start) {
    if (windowOpen(x, now)) return statusOf(a, x, now);
    await refuse(db, "window", at, { message: `Your exam window ended at ${iso(x.endsAt)}.`, details: { endedAt: iso(x.endsAt) } });
  }
  if (now < x.w.opensAt) throw new AppError("ASSIGNMENT_NOT_OPEN", { message: `This assignment opens on ${iso(x.w.opensAt)}.`, details: { opensAt: iso(x.w.opensAt) } });
  if (x.w.close !== null && now >= x.w.close) throw new AppError("ASSIGNMENT_CLOSED", { message: `This assignment closed on ${iso(x.w.close)}.`, details: { closedAt: iso(x.w.close) } });
  if (a.proctorPasswordHash !== null && !(input.password && (await Bun.password.verify(input.password, a.proctorPasswordHash)))) {
    await refuse(db, "password", at, { details: { field: "password" } });
  }
  await db
    .insert(examStarts)
    .values({ assignmentId: a.id, userId: user.id, startedAt: new Date(now), ip: req && req.ip !== "unknown" ? req.ip : null, sessionId: req?.sessionId ?? null })
    .onConflictDoNothing();
  await logExamEvent(db, { assignmentId: a.id, userId: user.id, ip: req?.ip ?? null, event: "started", atMs: now });
  return statusOf(a, await examWindowOf(db, a, user.id), now);
}

/**
 * A student's submission to an assignment that needs Start: only after Start and before their window ends.
 * @throws EXAM_NOT_STARTED (403, rule start); EXAM_WINDOW_OVER (403, rule window, `details.endedAt` and the time in the message).
 */
export async function requireExamSubmit(db: Database, user: Caller, a: AssignmentRow, now: number): Promise<void> {
  if (!needsStart(a)) return;
  const req = currentExamRequest();
  const at = { assignmentId: a.id, userId: user.id, ip: req?.ip ?? "unknown", path: req?.path ?? "submit", nowMs: now };
  const x = await examWindowOf(db, a, user.id);
  if (!x.start) await refuse(db, "start", at);
  if (!windowOpen(x, now)) {
    await refuse(db, "window", at, { message: `Your exam window ended at ${iso(x.endsAt)}; submissions are no longer accepted.`, details: { endedAt: iso(x.endsAt) } });
  }
}

/** Started students' rows of an assignment (for staff). */
export async function startsOf(db: Database, assignmentId: string) {
  return db.select().from(examStarts).where(eq(examStarts.assignmentId, assignmentId));
}

/** Which of `assignmentIds` the user has started (their problems show from Start on). */
export async function startedOf(db: Database, assignmentIds: readonly string[], userId: string): Promise<Set<string>> {
  if (!assignmentIds.length) return new Set();
  const rows = await db
    .select({ a: examStarts.assignmentId })
    .from(examStarts)
    .where(and(inArray(examStarts.assignmentId, [...assignmentIds]), eq(examStarts.userId, userId)));
  return new Set(rows.map((r) => r.a));
}
