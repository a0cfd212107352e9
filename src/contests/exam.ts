/**
 * A contest's exam rules beyond address ranges and Safe Exam Browser (those hold on every request through
 * src/courses/exam/gate.ts `checkExamAccess`): a proctor's password, one session and lock-down (decision 081).
 * Each needs a participant's own entry (./entry.ts), made here inside their window
 * (`POST /api/contests/:id/enter {password?}`). The jury sees who entered, from where, and who was refused by
 * which rule, and releases a participant held to one session (`GET /api/contests/:id/access-log`,
 * `POST /api/contests/:id/release {userId}`).
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { contestEntries, contestProblems, contests, contestTeamMembers, contestTeams, submissions, users } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { currentExamRequest, refuse, type LockDownSource, type LockedExam, type ProcedureInput } from "../courses/exam/gate.ts";
import { logExamEvent } from "../courses/exam/log.ts";
import { personName, readAccessLog, type ExamAccessView } from "../courses/exam/staff.ts";
import { rulesShape } from "../courses/exam/settings.ts";
import { AppError } from "../errors.ts";
import { idField } from "../lib/fields.ts";
import { requireContest, type ContestAccess, type ContestRow } from "./access.ts";
import { entryOf, needsEntry, participantWindow } from "./entry.ts";

export const enterInput = z.object({
  id: idField(),
  password: z.string({ error: "Must be text" }).max(200, { error: "At most 200 characters" }).optional(),
});
export const contestReleaseInput = z.object({ id: idField(), userId: idField() });

const iso = (ms: number) => new Date(ms).toISOString();

/** A contest's exam rules as the API shows them (ContestView.exam): which apply, and the caller's entry. */
export interface ContestExamShape {
  needsEntry: boolean;
  passwordRequired: boolean;
  sebRequired: boolean;
  addressRestricted: boolean;
  oneSession: boolean;
  lockDown: boolean;
  /** When the caller (a participant) entered; null: not yet, or not a participant. */
  enteredAt: string | null;
  /** The jury only (null for others). */
  accessCidrs: string[] | null;
  sebConfigKeyCount: number | null;
}

export function contestExamShape(a: ContestAccess): ContestExamShape {
  const c = a.contest;
  return { needsEntry: needsEntry(c), ...rulesShape(c, a.role === "jury"), enteredAt: a.entry ? a.entry.enteredAt.toISOString() : null };
}

/**
 * Enters the contest for the caller (a participant), inside their window; entering again inside it answers the
 * same entry (a reload is harmless).
 * @throws CONTEST_NOT_FOUND (404); FORBIDDEN (403) for anyone but a participant (register first; the jury does
 *   not enter); BAD_INPUT (400, field id) when the contest asks for no entry; CONTEST_NOT_STARTED / CONTEST_OVER
 *   (403, naming the time); EXAM_PASSWORD_WRONG (403, rule password); and the access rules' refusals (403).
 */
export async function enterContest(db: Database, user: Caller, input: z.infer<typeof enterInput>, nowMs: number): Promise<ContestExamShape> {
  const access = await requireContest(db, user, input.id, "exam.enter");
  const c = access.contest;
  if (!needsEntry(c)) throw new AppError("BAD_INPUT", { field: "id", message: "id: this contest asks for no entry (no proctor's password, one session or lock-down)" });
  const w = participantWindow(c, access.team?.virtualStartsAt);
  if (access.entry) {
    if (nowMs < w.endMs) return contestExamShape(access);
    throw new AppError("CONTEST_OVER", { message: `The contest is over (it ended at ${iso(w.endMs)})`, details: { endedAt: iso(w.endMs) } });
  }
  if (nowMs < w.startMs) throw new AppError("CONTEST_NOT_STARTED", { message: `The contest opens at ${iso(w.startMs)}`, details: { startsAt: iso(w.startMs) } });
  if (nowMs >= w.endMs) throw new AppError("CONTEST_OVER", { message: `The contest is over (it ended at ${iso(w.endMs)})`, details: { endedAt: iso(w.endMs) } });
  const req = currentExamRequest();
  const ip = req && req.ip !== "unknown" ? req.ip : null;
  if (c.proctorPasswordHash !== null && !(input.password && (await Bun.password.verify(input.password, c.proctorPasswordHash)))) {
    await refuse(db, "password", { contestId: c.id, userId: user.id, ip: req?.ip ?? "unknown", path: "contests.enter", nowMs }, { details: { field: "password" } });
  }
  await db
    .insert(contestEntries)
    .values({ contestId: c.id, userId: user.id, enteredAt: new Date(nowMs), ip, sessionId: req?.sessionId ?? null })
    .onConflictDoNothing();
  await logExamEvent(db, { contestId: c.id, userId: user.id, ip, event: "started", atMs: nowMs });
  return contestExamShape({ ...access, entry: await entryOf(db, c.id, user.id) });
}

/**
 * A participant's submission to a contest that asks for an entry: only after it (the window itself is
 * ./access.ts `requireInsideWindow`'s).
 * @throws EXAM_NOT_ENTERED (403, rule start).
 */
export async function requireEntered(db: Database, access: ContestAccess, nowMs: number): Promise<void> {
  if (access.role !== "participant" || !needsEntry(access.contest) || access.entry) return;
  const req = currentExamRequest();
  await refuse(db, "start", { contestId: access.contest.id, userId: req?.user?.id ?? null, ip: req?.ip ?? "unknown", path: req?.path ?? "contests.submit", nowMs }, {
    kind: "EXAM_NOT_ENTERED",
  });
}

/**
 * Who entered (when, from where, their window's end) and the contest's access log (starts, releases, refusals
 * by rule), newest first, at most 500 entries: the same shape as an assignment's.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403: exam.monitor, the jury).
 */
export async function contestAccessView(db: Database, user: Caller, id: string): Promise<ExamAccessView> {
  const { contest } = await requireContest(db, user, id, "exam.monitor");
  const [entries, log] = await Promise.all([
    db
      .select({ e: contestEntries, firstName: users.firstName, lastName: users.lastName, email: users.email, virtualStartsAt: contestTeams.virtualStartsAt })
      .from(contestEntries)
      .innerJoin(users, eq(users.id, contestEntries.userId))
      .leftJoin(contestTeamMembers, and(eq(contestTeamMembers.contestId, contestEntries.contestId), eq(contestTeamMembers.userId, contestEntries.userId)))
      .leftJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
      .where(eq(contestEntries.contestId, contest.id)),
    readAccessLog(db, { contestId: contest.id }),
  ]);
  return {
    starts: entries.map((r) => ({
      userId: r.e.userId,
      name: personName(r),
      email: r.email,
      startedAt: r.e.enteredAt.toISOString(),
      ip: r.e.ip,
      endsAt: iso(participantWindow(contest, r.virtualStartsAt).endMs),
      sessionBound: r.e.sessionId !== null,
    })),
    log,
  };
}

/**
 * Releases a participant's one-session hold: the next session to ask holds their entry (a crashed browser, a
 * changed machine).
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403: exam.release, the jury), CONTEST_ENTRY_NOT_FOUND (404, field userId).
 */
export async function releaseContestSession(db: Database, user: Caller, input: z.infer<typeof contestReleaseInput>, nowMs: number): Promise<{ released: true }> {
  const { contest } = await requireContest(db, user, input.id, "exam.release");
  const where = and(eq(contestEntries.contestId, contest.id), eq(contestEntries.userId, input.userId));
  const [e] = await db.select({ u: contestEntries.userId }).from(contestEntries).where(where).limit(1);
  if (!e) throw new AppError("CONTEST_ENTRY_NOT_FOUND", { field: "userId" });
  await db.update(contestEntries).set({ sessionId: null }).where(where);
  await logExamEvent(db, { contestId: contest.id, userId: input.userId, ip: null, event: "released", detail: `by ${user.id}`, atMs: nowMs });
  return { released: true };
}

/** The caller's entries into contests with `rule`, each with the contest and their team's virtual start. */
async function entriesWith(db: Database, userId: string, rule: "lockDown" | "oneSession") {
  return db
    .select({ c: contests, sessionId: contestEntries.sessionId, virtualStartsAt: contestTeams.virtualStartsAt })
    .from(contestEntries)
    .innerJoin(contests, eq(contests.id, contestEntries.contestId))
    .leftJoin(contestTeamMembers, and(eq(contestTeamMembers.contestId, contestEntries.contestId), eq(contestTeamMembers.userId, contestEntries.userId)))
    .leftJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
    .where(and(eq(contestEntries.userId, userId), eq(contests[rule], true), isNull(contests.deletedAt)));
}

const open = (c: ContestRow, virtualStartsAt: Date | null, nowMs: number) => {
  const w = participantWindow(c, virtualStartsAt);
  return w.startMs <= nowMs && nowMs < w.endMs;
};

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** What a locked-down participant may call, on their contest's own ids (every other procedure is refused). */
const ALLOWED_IN_CONTEST: Record<string, (i: ProcedureInput, x: { c: ContestRow; problems: () => Promise<Set<string>>; db: Database; userId: string }) => boolean | Promise<boolean>> = {
  "contests.byId": (i, x) => isContest(i.id, x.c),
  "contests.enter": (i, x) => isContest(i.id, x.c),
  "contests.submit": async (i, x) => isContest(i.id, x.c) && (await x.problems()).has(str(i.problemId)),
  "contests.submissions": (i, x) => isContest(i.id, x.c),
  "contests.submissionCode": (i, x) => isContest(i.id, x.c),
  "contests.scoreboard": (i, x) => isContest(i.id, x.c),
  "contests.scoreboardUpdates": (i, x) => isContest(i.id, x.c),
  "contests.clarifications": (i, x) => isContest(i.id, x.c),
  "contests.clarify": (i, x) => isContest(i.id, x.c),
  "problems.byId": async (i, x) => (await x.problems()).has(str(i.id)),
  "problems.statements": async (i, x) => (await x.problems()).has(str(i.id)),
  "problems.asset": async (i, x) => (await x.problems()).has(str(i.id)),
  "judge.run": async (i, x) => (await x.problems()).has(str(i.problemId)),
  "submissions.list": async (i, x) => (await x.problems()).has(str(i.problemId)),
  // The solving page asks; during a contest its answer is "off" (./guards.ts).
  "ai.policy": async (i, x) => (await x.problems()).has(str(i.problemId)),
  "submissions.byId": (i, x) => ownContestSubmission(x.db, str(i.id), x.c.id, x.userId),
  "submissions.wait": (i, x) => ownContestSubmission(x.db, str(i.id), x.c.id, x.userId),
  "submissions.progress": (i, x) => ownContestSubmission(x.db, str(i.id), x.c.id, x.userId),
};

function isContest(id: unknown, c: ContestRow): boolean {
  return typeof id === "string" && (id === c.id || id.toLowerCase() === c.shortName);
}

async function ownContestSubmission(db: Database, id: string, contestId: string, userId: string): Promise<boolean> {
  if (!id) return false;
  const [s] = await db.select({ c: submissions.contestId, u: submissions.userId }).from(submissions).where(eq(submissions.id, id)).limit(1);
  return s?.c === contestId && s.u === userId;
}

/** LockDownSource (src/courses/exam/gate.ts): the caller's entry into a locked-down contest whose window is open. */
export const contestLockDown: LockDownSource = {
  // An entry is made inside the window, which lasts the contest's length: an entry older than that holds no one.
  mayHold: (userId, nowMs) =>
    sql`EXISTS (SELECT 1 FROM contest_entries e JOIN contests c ON c.id = e.contest_id WHERE e.user_id = ${userId} AND c.lock_down = 1 AND c.deleted_at IS NULL AND e.entered_at > ${nowMs} - c.duration_minutes * 60000)`,
  find: (req) => findContestLockDown(req),
};

async function findContestLockDown(req: Parameters<LockDownSource["find"]>[0]): Promise<LockedExam | null> {
  const userId = req.user!.id;
  const found = (await entriesWith(req.db, userId, "lockDown")).find((r) => open(r.c, r.virtualStartsAt, req.nowMs));
  if (!found) return null;
  const c = found.c;
  let problems: Set<string> | null = null;
  const x = {
    c,
    db: req.db,
    userId,
    problems: async () =>
      (problems ??= new Set((await req.db.select({ p: contestProblems.problemId }).from(contestProblems).where(inArray(contestProblems.contestId, [c.id]))).map((r) => r.p))),
  };
  return {
    at: { contestId: c.id },
    details: { contestId: c.id, contest: c.shortName },
    allows: async (path, input) => {
      const rule = ALLOWED_IN_CONTEST[path];
      return Boolean(rule && (await rule(input, x)));
    },
  };
}

/**
 * SignInRestriction (src/auth/session.ts): a new sign-in of a participant whose one-session entry is open (and
 * bound to a session) is refused until the jury releases it.
 * @throws AppError EXAM_OTHER_SESSION (403, `details.rule` "session").
 */
export async function refuseSecondContestSignIn(db: Database, userId: string, nowMs: number): Promise<void> {
  for (const r of await entriesWith(db, userId, "oneSession")) {
    if (r.sessionId === null || !open(r.c, r.virtualStartsAt, nowMs)) continue;
    const req = currentExamRequest();
    await refuse(db, "session", { contestId: r.c.id, userId, ip: req?.ip ?? "unknown", path: "sign-in", nowMs }, { details: { contestId: r.c.id, contest: r.c.shortName } });
  }
}
