/**
 * The one exam access check. Every tRPC procedure (and so every REST door,
 * which calls the same procedures: src/rest/call.ts) runs inside an exam
 * scope holding the request's facts (client address, session, absolute URL,
 * SEB header; src/trpc/init.ts). Then:
 * - `checkExamAccess` is called wherever an assignment or a contest is loaded
 *   for a caller (src/courses/access.ts `requireAssignment`, src/contests/access.ts
 *   `requireContest`), so every read and write of one meets its rules:
 *   address ranges, Safe Exam Browser, one session;
 * - `examGuard` runs before every procedure: while a student's window on a
 *   locked-down assignment is open, only that exam's own reads and writes pass.
 * Staff and site admins are never held. Each refusal is a 403 naming its
 * rule (`details.rule`) and is written to the access log (./log.ts).
 * Outside a request (scripts, tests calling the domain directly) nothing is checked.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentProblems, assignments, courseMembers, examStarts, extensions, submissions } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError, type ErrorName } from "../../errors.ts";
import { logExamEvent } from "./log.ts";
import { addressAllowed, sebHashValid, type ExamRule } from "./rules.ts";
import { examWindowOf, windowColumns, windowFromRow, windowOpen, type AssignmentRow, type ExamWindow } from "./windows.ts";

/** What the exam rules read from a request. */
export interface ExamRequest {
  db: Database;
  user: Caller | null;
  /** Context.ip (the proxy settings decide it: src/context.ts `clientIp`). */
  ip: string;
  sessionId: string | null;
  /** The absolute URL as the browser asked for it (SEB hashes this). */
  url: () => string;
  sebHeader: string | null;
  /** The procedure's path, e.g. `assignments.byId`. */
  path: string;
  nowMs: number;
  /** Windows read during this request, by assignment id (filled by the gate). */
  windows?: Map<string, Promise<ExamWindow>>;
}

const scope = new AsyncLocalStorage<ExamRequest>();

/** The exam facts of a request context (src/context.ts): what the tRPC chain and the CCS door put in scope. */
export function examRequestFrom(
  ctx: { db: Database; user: Caller | null; ip: string; sessionId: string | null; requestUrl?: string; sebConfigKeyHash?: string | null; now: () => number },
  path: string,
): ExamRequest {
  return { db: ctx.db, user: ctx.user, ip: ctx.ip, sessionId: ctx.sessionId, url: () => ctx.requestUrl ?? "", sebHeader: ctx.sebConfigKeyHash ?? null, path, nowMs: ctx.now() };
}

/** Runs `fn` with `req` as the current request's facts. */
export function runInExamScope<T>(req: ExamRequest, fn: () => T): T {
  return scope.run(req, fn);
}

/** The refusal of each rule: its error kind. */
const REFUSAL: Record<ExamRule, ErrorName> = {
  address: "EXAM_ADDRESS_REFUSED",
  seb: "EXAM_SEB_REQUIRED",
  password: "EXAM_PASSWORD_WRONG",
  session: "EXAM_OTHER_SESSION",
  window: "EXAM_WINDOW_OVER",
  lockdown: "EXAM_LOCKED_DOWN",
  start: "EXAM_NOT_STARTED",
};

/**
 * Logs and throws the refusal of `rule`.
 * @throws AppError the rule's EXAM_* kind (403; or `extra.kind`) with `details.rule` (and the caller's extra `details`).
 */
export async function refuse(
  db: Database,
  rule: ExamRule,
  at: { assignmentId?: string; contestId?: string; userId: string | null; ip: string; path: string; nowMs: number },
  extra?: { message?: string; details?: Record<string, unknown>; kind?: ErrorName },
): Promise<never> {
  await logExamEvent(db, { assignmentId: at.assignmentId, contestId: at.contestId, userId: at.userId, ip: at.ip, event: rule, detail: at.path, atMs: at.nowMs });
  throw new AppError(extra?.kind ?? REFUSAL[rule], { ...(extra?.message ? { message: extra.message } : {}), details: { rule, ...extra?.details } });
}

export type ExamTarget =
  | { kind: "assignment"; row: AssignmentRow; staff: boolean }
  | { kind: "contest"; row: { id: string; accessCidrs: string[] | null; sebConfigKeys: string[] | null }; staff: boolean };

/**
 * The access rules of an assignment or contest for the current request: its address ranges, its Safe Exam
 * Browser keys and (assignments) one session while the student's window is open. Staff pass.
 * @throws AppError EXAM_ADDRESS_REFUSED, EXAM_SEB_REQUIRED, EXAM_OTHER_SESSION (403, `details.rule`).
 */
export async function checkExamAccess(target: ExamTarget): Promise<void> {
  const req = scope.getStore();
  if (!req || target.staff || req.user?.siteRole === "admin") return;
  const { row } = target;
  const at = { ...(target.kind === "assignment" ? { assignmentId: row.id } : { contestId: row.id }), userId: req.user?.id ?? null, ip: req.ip, path: req.path, nowMs: req.nowMs };
  const restricted = Boolean(row.accessCidrs?.length || row.sebConfigKeys?.length);
  // Once the student's own close has passed (extension and extra time counted), the exam is over for them: their
  // results, reviews and regrade requests are read from anywhere (decision 075).
  if (restricted && target.kind === "assignment" && req.user) {
    const close = (await windowInRequest(req, target.row)).w.close;
    if (close !== null && req.nowMs >= close) return;
  }
  if (row.accessCidrs?.length && !addressAllowed(row.accessCidrs, req.ip)) {
    await refuse(req.db, "address", at, { details: { address: req.ip } });
  }
  if (row.sebConfigKeys?.length && !sebHashValid(row.sebConfigKeys, req.url(), req.sebHeader)) await refuse(req.db, "seb", at);
  if (target.kind === "assignment" && target.row.oneSession && req.user) await requireSameSession(req, target.row, at);
}

async function requireSameSession(req: ExamRequest, a: AssignmentRow, at: Parameters<typeof refuse>[2]): Promise<void> {
  const x = await windowInRequest(req, a);
  if (!windowOpen(x, req.nowMs) || x.start!.sessionId === req.sessionId) return;
  if (x.start!.sessionId === null) {
    // Released by staff: the next session to ask holds the window.
    await req.db.update(examStarts).set({ sessionId: req.sessionId }).where(and(eq(examStarts.assignmentId, a.id), eq(examStarts.userId, req.user!.id)));
    return;
  }
  await refuse(req.db, "session", at);
}

/** What the lock-down reads of a locked-down assignment: its ids and title, and what its window is computed from. */
export type LockedAssignment = Pick<AssignmentRow, "id" | "courseId" | "title" | "opensAt" | "dueAt" | "closesAt" | "timeLimitMinutes">;

/**
 * The locked-down exam whose window is open for `userId` now, with that window, or null (one indexed query, of
 * only the columns the window needs: it runs on every request of a student who has sat a locked-down exam).
 */
export async function openLockedExam(db: Database, userId: string, nowMs: number): Promise<{ a: LockedAssignment; x: ExamWindow } | null> {
  const rows = await db
    .select({
      a: {
        id: assignments.id,
        courseId: assignments.courseId,
        title: assignments.title,
        opensAt: assignments.opensAt,
        dueAt: assignments.dueAt,
        closesAt: assignments.closesAt,
        timeLimitMinutes: assignments.timeLimitMinutes,
      },
      ...windowColumns,
    })
    .from(examStarts)
    .innerJoin(assignments, eq(assignments.id, examStarts.assignmentId))
    .innerJoin(courseMembers, and(eq(courseMembers.courseId, assignments.courseId), eq(courseMembers.userId, examStarts.userId)))
    .leftJoin(extensions, and(eq(extensions.assignmentId, examStarts.assignmentId), eq(extensions.userId, examStarts.userId)))
    .where(and(eq(examStarts.userId, userId), eq(assignments.lockDown, true), isNull(assignments.deletedAt)));
  for (const r of rows) {
    const x = windowFromRow(r.a, r);
    if (windowOpen(x, nowMs)) return { a: r.a, x };
  }
  return null;
}

/** A student's window on `a`, read once per request (the guard and the rules share it). */
function windowInRequest(req: ExamRequest, a: AssignmentRow): Promise<ExamWindow> {
  req.windows ??= new Map();
  let x = req.windows.get(a.id);
  if (!x) req.windows.set(a.id, (x = examWindowOf(req.db, a, req.user!.id)));
  return x;
}

/** A procedure's input as the guard reads it. */
export type ProcedureInput = Record<string, unknown>;
type Exam = { a: LockedAssignment; problems: () => Promise<Set<string>> };
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** What every locked-down student may still call, whatever exam holds them: nothing of other courses or problems. */
const ALLOWED_ALWAYS = new Set(["auth.me", "auth.logout", "auth.setLocale", "judge.languages", "notifications.unreadCount"]);

/** What a locked-down student may still call on an assignment's exam, and on what (every other procedure is refused). */
const ALLOWED_DURING_LOCKDOWN: Record<string, (input: ProcedureInput, exam: Exam, db: Database, userId: string) => boolean | Promise<boolean>> = {
  "assignments.byId": (i, e) => i.id === e.a.id,
  "exam.start": (i, e) => i.id === e.a.id,
  "exam.status": (i, e) => i.id === e.a.id,
  "courses.byId": (i, e) => i.id === e.a.courseId,
  "problems.byId": async (i, e) => (await e.problems()).has(str(i.id) ?? ""),
  "problems.statements": async (i, e) => (await e.problems()).has(str(i.id) ?? ""),
  "problems.asset": async (i, e) => (await e.problems()).has(str(i.id) ?? ""),
  "judge.run": async (i, e) => (await e.problems()).has(str(i.problemId) ?? ""),
  "submissions.create": async (i, e) => (i.assignmentId ?? e.a.id) === e.a.id && (await e.problems()).has(str(i.problemId) ?? ""),
  "submissions.list": async (i, e) => (await e.problems()).has(str(i.problemId) ?? ""),
  "submissions.byId": (i, e, db, u) => ownExamSubmission(db, str(i.id), e.a.id, u),
  "submissions.wait": (i, e, db, u) => ownExamSubmission(db, str(i.id), e.a.id, u),
  "submissions.progress": (i, e, db, u) => ownExamSubmission(db, str(i.id), e.a.id, u),
  "ai.policy": (i, e) => i.assignmentId === e.a.id,
};

async function ownExamSubmission(db: Database, id: string | undefined, assignmentId: string, userId: string): Promise<boolean> {
  if (!id) return false;
  const [s] = await db.select({ a: submissions.assignmentId, u: submissions.userId }).from(submissions).where(eq(submissions.id, id)).limit(1);
  return s?.a === assignmentId && s.u === userId;
}

/** An exam holding the caller in lock-down now: where refusals are logged, what they say, and what it lets through. */
export interface LockedExam {
  at: { assignmentId?: string; contestId?: string };
  /** The refusal's message; absent: the catalogue's EXAM_LOCKED_DOWN, in the reader's language. */
  message?: string;
  details: Record<string, unknown>;
  /** Whether the procedure `path` with `input` stays inside this exam (beyond ALLOWED_ALWAYS). */
  allows: (path: string, input: ProcedureInput, userId: string) => Promise<boolean>;
}

/**
 * A kind of exam with lock-down. `mayHold` is an SQL truth value (an indexed EXISTS) saying whether the user has any
 * start or entry of this kind that could hold them; the guard asks every kind's in one statement, and `find` (which
 * reads the window exactly) only for a kind that may.
 */
export interface LockDownSource {
  mayHold: (userId: string, nowMs: number) => SQL;
  /** The exam of this kind holding the caller in lock-down now, or null. */
  find: (req: ExamRequest) => Promise<LockedExam | null>;
}

/** An assignment's lock-down: the caller's open window on a locked-down assignment. */
const assignmentLockDown: LockDownSource = {
  mayHold: (userId) =>
    sql`EXISTS (SELECT 1 FROM exam_starts s JOIN assignments a ON a.id = s.assignment_id WHERE s.user_id = ${userId} AND a.lock_down = 1 AND a.deleted_at IS NULL)`,
  find: (req) => findAssignmentLockDown(req),
};

async function findAssignmentLockDown(req: ExamRequest): Promise<LockedExam | null> {
  const open = await openLockedExam(req.db, req.user!.id, req.nowMs);
  if (!open) return null;
  const { a } = open;
  (req.windows ??= new Map()).set(a.id, Promise.resolve(open.x));
  let problems: Set<string> | null = null;
  const exam: Exam = {
    a,
    problems: async () =>
      (problems ??= new Set(
        (await req.db.select({ p: assignmentProblems.problemId }).from(assignmentProblems).where(inArray(assignmentProblems.assignmentId, [a.id]))).map((r) => r.p),
      )),
  };
  return {
    at: { assignmentId: a.id },
    details: { assignmentId: a.id },
    allows: async (path, input, userId) => {
      const rule = ALLOWED_DURING_LOCKDOWN[path];
      return Boolean(rule && (await rule(input, exam, req.db, userId)));
    },
  };
}

const lockDownSources: LockDownSource[] = [assignmentLockDown];

/** Adds a kind of exam with lock-down (contests: src/contests/exam.ts; idempotent). */
export function registerLockDown(source: LockDownSource): void {
  if (!lockDownSources.includes(source)) lockDownSources.push(source);
}

/**
 * Lock-down, before every procedure: while the caller's window on a locked-down assignment (or their entry into a
 * locked-down contest) is open, only that exam's own reads and writes pass (its assignment or contest page, its
 * problems, runs and submissions), whatever the policies elsewhere (practice, other problems' history, other
 * courses, AI review).
 * @throws AppError EXAM_LOCKED_DOWN (403, `details.rule` "lockdown", and `details.assignmentId` or `details.contestId`).
 */
export async function examGuard(req: ExamRequest, rawInput: () => Promise<unknown>): Promise<void> {
  // What every locked-down student may still call (the header's polls among them) needs no query at all.
  if (!req.user || req.user.siteRole === "admin" || ALLOWED_ALWAYS.has(req.path)) return;
  // One statement asks every kind whether it may hold the caller at all (most callers never sat a locked-down exam).
  const userId = req.user.id;
  const [may] = await req.db.all<Record<string, number>>(
    sql`SELECT ${sql.join(
      lockDownSources.map((s, i) => sql`(${s.mayHold(userId, req.nowMs)}) AS ${sql.raw(`k${i}`)}`),
      sql`, `,
    )}`,
  );
  let input: ProcedureInput | null = null;
  for (const [i, source] of lockDownSources.entries()) {
    if (!may?.[`k${i}`]) continue;
    const locked = await source.find(req);
    if (!locked) continue;
    if (input === null) {
      const raw = await rawInput().catch(() => ({}));
      input = raw && typeof raw === "object" ? (raw as ProcedureInput) : {};
    }
    if (await locked.allows(req.path, input, req.user.id)) continue;
    await refuse(req.db, "lockdown", { ...locked.at, userId: req.user.id, ip: req.ip, path: req.path, nowMs: req.nowMs }, { ...(locked.message ? { message: locked.message } : {}), details: locked.details });
  }
}

/**
 * One session: a new sign-in of a student whose one-session window is open (and bound to a session) is refused
 * until staff release it. Registered with src/auth/session.ts `restrictSignIn` by `registerCourseHooks`.
 * @throws AppError EXAM_OTHER_SESSION (403, `details.rule` "session").
 */
export async function refuseSecondSignIn(db: Database, userId: string, nowMs: number): Promise<void> {
  const rows = await db
    .select({ a: assignments, sessionId: examStarts.sessionId })
    .from(examStarts)
    .innerJoin(assignments, eq(assignments.id, examStarts.assignmentId))
    .where(and(eq(examStarts.userId, userId), eq(assignments.oneSession, true), isNull(assignments.deletedAt)));
  for (const { a, sessionId } of rows) {
    if (sessionId === null || !windowOpen(await examWindowOf(db, a, userId), nowMs)) continue;
    const req = scope.getStore();
    await refuse(db, "session", { assignmentId: a.id, userId, ip: req?.ip ?? "unknown", path: "sign-in", nowMs }, { details: { assignmentId: a.id } });
  }
}

/** The current request's facts (for ./start.ts), or null outside a request. */
export function currentExamRequest(): ExamRequest | null {
  return scope.getStore() ?? null;
}
