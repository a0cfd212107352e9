/**
 * Contests: create, read, change, delete, list; unfreeze and finalize.
 * Who may: ./permissions.ts (creating: site admins, users allowed to create
 * courses, and a course's teachers for a contest in their course).
 */
import { examColumns } from "../courses/exam/settings.ts";
import { and, desc, eq, inArray, isNull, or } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { contestProblems, contestRoles, contests, courseMembers } from "../../db/schema.ts";
import type { Caller, SessionUser } from "../accounts/user.ts";
import { requireCourse, requireNotArchived } from "../courses/access.ts";
import { newInviteCode } from "../courses/courses.ts";
import { AppError } from "../errors.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";
import { mayCopyWithTests } from "../problems/access.ts";
import { requireLiveProblem } from "../problems/store.ts";
import { catchUp, appendEvents, type ContestEvent } from "./feed.ts";
import { isContestOwner, mayReadProblems, requireContest, timesOf, type ContestAccess, type ContestRow } from "./access.ts";
import { endMs, freezeContestMs, isFrozenAt, phaseAt } from "./clock.ts";
import { contestObject, judgementTypeObjects, languageObjects, stateObject } from "./ccs/objects.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { ContestInput, ContestUpdateInput } from "./shape.ts";
import { problemEvents, problemsOf } from "./store.ts";
import type { ContestRuntime } from "./runtime.ts";
import { membersOf } from "./teams.ts";
import { contestExamShape, type ContestExamShape } from "./exam.ts";

export interface ContestDeps {
  db: Database;
  contests: ContestRuntime;
  now: () => number;
  /** The languages offered for submitting (the Contest API's `languages`); none announced when absent. */
  languages?: () => readonly LanguageId[];
}

/** What a contest page shows the caller. */
export interface ContestView {
  id: string;
  shortName: string;
  title: string;
  startsAt: string;
  endsAt: string;
  durationMinutes: number;
  freezeMinutes: number | null;
  /** When the scoreboard freezes, or null. */
  freezesAt: string | null;
  scoring: "icpc" | "ioi";
  penaltyMinutes: number;
  courseId: string | null;
  registration: "open" | "code" | "roster";
  phase: "upcoming" | "running" | "over";
  /** Whether the public scoreboard hides results now. */
  frozen: boolean;
  unfrozenAt: string | null;
  finalizedAt: string | null;
  /** The caller's role and team. */
  role: ContestAccess["role"];
  /** Whether the caller is one of the contest's owners (edit, delete, unfreeze, finalize, grant and revoke roles): its creator, a course contest's teachers, site admins; not a TA nor a granted jury member. */
  mayChange: boolean;
  team: { id: string; name: string; organization: string; joinCode: string | null; members: { userId: string; name: string }[]; virtualStartsAt: string | null } | null;
  /** Problems: labels and names once the caller may read them; empty before. */
  problems: { problemId: string; label: string; color: string | null; title: string }[];
  /** The jury's registration code (jury only). */
  registrationCode?: string | null;
  /** The exam rules that apply and the caller's entry (./exam.ts). */
  exam: ContestExamShape;
  serverNow: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Every event of a threshold: the state, and at the start the problems for everyone but the jury. */
export async function thresholdEvents(db: Database, name: "start" | "freeze" | "end", atMs: number, c: ContestRow): Promise<ContestEvent[]> {
  const events: ContestEvent[] = [];
  if (name === "start") events.push(...problemEvents(c, await problemsOf(db, c.id), "nonjury", atMs));
  events.push({ type: "state", id: null, data: stateObject(c, atMs), audience: "all", atMs });
  return events;
}

/** Announces passed thresholds (./feed.ts `catchUp`); returns the current row. */
export function contestCaughtUp(deps: ContestDeps, c: ContestRow): Promise<ContestRow> {
  return catchUp(deps.db, deps.contests.bus, c, deps.now(), (name, at, row) => thresholdEvents(deps.db, name, at, row));
}

async function checkProblems(db: Database, user: Caller, courseId: string | null, list: ContestInput["problems"]): Promise<void> {
  const labels = new Set<string>();
  const ids = new Set<string>();
  for (const [i, p] of list.entries()) {
    if (labels.has(p.label.toUpperCase())) throw new AppError("BAD_INPUT", { field: `problems.${i}.label`, message: `problems.${i}.label: ${p.label} is used twice` });
    if (ids.has(p.problemId)) throw new AppError("BAD_INPUT", { field: `problems.${i}.problemId`, message: `problems.${i}.problemId: this problem is listed twice` });
    labels.add(p.label.toUpperCase());
    ids.add(p.problemId);
    const problem = await requireLiveProblem(db, p.problemId, `problems.${i}.problemId`);
    // A public problem anyone may set; a course problem only its owners, and only into a contest of that course or their own.
    const ok = problem.courseId === null || problem.courseId === courseId || (await mayCopyWithTests(db, user, problem));
    if (!ok) throw new AppError("PROBLEM_NOT_FOUND", { field: `problems.${i}.problemId` });
  }
}

/** The statements that replace a contest's problems (run in the caller's batch). */
function problemWrites(db: Database, contestId: string, list: ContestInput["problems"]) {
  return [
    db.delete(contestProblems).where(eq(contestProblems.contestId, contestId)),
    db.insert(contestProblems).values(list.map((p, i) => ({ contestId, problemId: p.problemId, label: p.label.toUpperCase(), color: p.color ?? null, ordinal: i + 1 }))),
  ] as const;
}

function checkTimes(durationMinutes: number, freezeMinutes: number | null | undefined): void {
  if (freezeMinutes != null && freezeMinutes > durationMinutes) {
    throw new AppError("BAD_INPUT", { field: "freezeMinutes", message: "freezeMinutes: must not be longer than the contest" });
  }
}

/**
 * Creates a contest.
 * @throws CANNOT_CREATE_COURSES (403) for a user who may not create contests; COURSE_NOT_FOUND (404),
 *   FORBIDDEN (403), COURSE_ARCHIVED (403) for a course contest; PROBLEM_NOT_FOUND (404) naming `problems.i.problemId`;
 *   BAD_INPUT (400) naming the field; CONTEST_NAME_TAKEN (409).
 */
export async function createContest(deps: ContestDeps, user: SessionUser, input: ContestInput): Promise<ContestView> {
  const courseId = input.courseId ?? null;
  if (courseId) requireNotArchived((await requireCourse(deps.db, user, courseId, "contest.edit")).course);
  else if (user.siteRole !== "admin" && !user.canCreateCourses) {
    throw new AppError("CANNOT_CREATE_COURSES", { message: "Your account may not create contests; ask an administrator to allow it (the right to create courses)" });
  }
  checkTimes(input.durationMinutes, input.freezeMinutes);
  const registration = courseId ? "roster" : (input.registration ?? "open");
  if (!courseId && registration === "roster") throw new AppError("BAD_INPUT", { field: "registration", message: "registration: roster needs a courseId" });
  await checkProblems(deps.db, user, courseId, input.problems);
  const nowMs = deps.now();
  let row: ContestRow;
  try {
    // One batch (libSQL runs it as one transaction on the client's own connection: decision 041).
    const id = newId();
    const [inserted] = await deps.db.batch([
      deps.db
        .insert(contests)
        .values({
          id,
          shortName: input.shortName,
          title: input.title,
          startsAt: input.startsAt,
          durationMinutes: input.durationMinutes,
          freezeMinutes: input.freezeMinutes ?? null,
          scoring: input.scoring,
          penaltyMinutes: input.penaltyMinutes ?? 20,
          courseId,
          registration,
          registrationCode: registration === "code" ? (input.registrationCode ?? newInviteCode()) : null,
          createdBy: user.id,
          createdAt: new Date(nowMs),
          updatedAt: new Date(nowMs),
          ...(await examColumns({ accessCidrs: input.accessCidrs, sebConfigKeys: input.sebConfigKeys, proctorPassword: input.proctorPassword, oneSession: input.oneSession, lockDown: input.lockDown })),
        })
        .returning(),
      ...problemWrites(deps.db, id, input.problems),
    ]);
    row = inserted[0]!;
  } catch (err) {
    if (isUniqueViolation(err, "short_name")) throw new AppError("CONTEST_NAME_TAKEN", { field: "shortName" });
    throw err;
  }
  const problems = await problemsOf(deps.db, row.id);
  await appendEvents(deps.db, deps.contests.bus, row.id, [
    { type: "contest", id: null, data: contestObject(row), audience: "all", atMs: nowMs },
    { type: "state", id: null, data: stateObject(row, nowMs), audience: "all", atMs: nowMs },
    ...judgementTypeObjects().map((t): ContestEvent => ({ type: "judgement-types", id: t.id, data: t, audience: "all", atMs: nowMs })),
    ...languageObjects(deps.languages?.() ?? []).map((l): ContestEvent => ({ type: "languages", id: l.id, data: l, audience: "all", atMs: nowMs })),
    ...problemEvents(row, problems, nowMs >= row.startsAt.getTime() ? "all" : "jury", nowMs),
  ]);
  return viewContest(deps, user, row.id);
}

/**
 * A contest as the caller sees it.
 * @throws CONTEST_NOT_FOUND (404).
 */
export async function viewContest(deps: ContestDeps, user: Caller | null, id: string): Promise<ContestView> {
  const access = await requireContest(deps.db, user, id, "contest.view");
  const contest = await contestCaughtUp(deps, access.contest);
  const nowMs = deps.now();
  const t = timesOf(contest);
  const freeze = freezeContestMs(t);
  const team = access.team;
  return {
    id: contest.id,
    shortName: contest.shortName,
    title: contest.title,
    startsAt: contest.startsAt.toISOString(),
    endsAt: new Date(endMs(t)).toISOString(),
    durationMinutes: contest.durationMinutes,
    freezeMinutes: contest.freezeMinutes,
    freezesAt: freeze === null ? null : new Date(t.startsAtMs + freeze).toISOString(),
    scoring: contest.scoring,
    penaltyMinutes: contest.penaltyMinutes,
    courseId: contest.courseId,
    registration: contest.registration,
    phase: phaseAt(t, nowMs),
    frozen: isFrozenAt(t, nowMs),
    unfrozenAt: iso(contest.unfrozenAt),
    finalizedAt: iso(contest.finalizedAt),
    role: access.role,
    mayChange: access.role === "jury" && (await isContestOwner(deps.db, user, contest)),
    team: team
      ? {
          id: team.id,
          name: team.name,
          organization: team.organization,
          joinCode: team.joinCode,
          members: await membersOf(deps.db, team.id),
          virtualStartsAt: iso(team.virtualStartsAt),
        }
      : null,
    problems: mayReadProblems(access, nowMs) ? (await problemsOf(deps.db, contest.id)).map((p) => ({ problemId: p.problemId, label: p.label, color: p.color, title: p.title })) : [],
    ...(access.role === "jury" ? { registrationCode: contest.registrationCode } : {}),
    exam: contestExamShape({ ...access, contest }),
    serverNow: new Date(nowMs).toISOString(),
  };
}

/** A contest row in a list. */
export interface ContestListItem {
  id: string;
  shortName: string;
  title: string;
  startsAt: string;
  endsAt: string;
  phase: "upcoming" | "running" | "over";
  scoring: "icpc" | "ioi";
  courseId: string | null;
  registration: "open" | "code" | "roster";
}

/** The contests the caller may see: public ones, and those of the caller's courses (all, for a site admin); newest first. */
export async function listContests(deps: ContestDeps, user: Caller | null): Promise<ContestListItem[]> {
  const nowMs = deps.now();
  const rows = await visibleContests(deps.db, user);
  return rows.map((c) => ({
    id: c.id,
    shortName: c.shortName,
    title: c.title,
    startsAt: c.startsAt.toISOString(),
    endsAt: new Date(endMs(timesOf(c))).toISOString(),
    phase: phaseAt(timesOf(c), nowMs),
    scoring: c.scoring,
    courseId: c.courseId,
    registration: c.registration,
  }));
}

/** The live contests the caller may see (public ones, their courses', those they hold a granted role in; every one for an admin), newest first, at most 500. */
export async function visibleContests(db: Database, user: Caller | null): Promise<ContestRow[]> {
  const mine = user && user.siteRole !== "admin" ? (await db.select({ id: courseMembers.courseId }).from(courseMembers).where(eq(courseMembers.userId, user.id))).map((r) => r.id) : [];
  const granted = user && user.siteRole !== "admin" ? inArray(contests.id, db.select({ id: contestRoles.contestId }).from(contestRoles).where(eq(contestRoles.userId, user.id))) : undefined;
  const visible =
    user?.siteRole === "admin" ? undefined : or(isNull(contests.courseId), mine.length ? inArray(contests.courseId, mine) : undefined, granted);
  return db
    .select()
    .from(contests)
    .where(and(isNull(contests.deletedAt), visible))
    .orderBy(desc(contests.startsAt))
    .limit(500);
}

/**
 * Changes a contest (jury). New problems are checked as at creation.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400) naming the field, PROBLEM_NOT_FOUND (404).
 */
export async function updateContest(deps: ContestDeps, user: Caller, input: ContestUpdateInput): Promise<ContestView> {
  const { contest } = await requireContest(deps.db, user, input.id, "contest.edit");
  checkTimes(input.durationMinutes ?? contest.durationMinutes, input.freezeMinutes === undefined ? contest.freezeMinutes : input.freezeMinutes);
  if (input.problems) await checkProblems(deps.db, user, contest.courseId, input.problems);
  const registration = contest.courseId ? "roster" : (input.registration ?? contest.registration);
  if (registration === "roster" && !contest.courseId) throw new AppError("BAD_INPUT", { field: "registration", message: "registration: roster needs a courseId" });
  // Switching to a code without naming one makes a random one.
  const code = (input.registrationCode === undefined ? contest.registrationCode : input.registrationCode) ?? (registration === "code" ? newInviteCode() : null);
  const nowMs = deps.now();
  const before = input.problems ? (await problemsOf(deps.db, contest.id)).map((p) => p.problemId) : [];
  const update = deps.db
    .update(contests)
    .set({
      title: input.title,
      startsAt: input.startsAt,
      durationMinutes: input.durationMinutes,
      freezeMinutes: input.freezeMinutes,
      penaltyMinutes: input.penaltyMinutes,
      registration,
      registrationCode: registration === "code" ? code : null,
      ...(await examColumns({ accessCidrs: input.accessCidrs, sebConfigKeys: input.sebConfigKeys, proctorPassword: input.proctorPassword, oneSession: input.oneSession, lockDown: input.lockDown })),
      updatedAt: new Date(Math.max(nowMs, contest.updatedAt.getTime() + 1)),
    })
    .where(eq(contests.id, contest.id))
    .returning();
  const written = await deps.db.batch([update, ...(input.problems ? problemWrites(deps.db, contest.id, input.problems) : [])]);
  const row = written[0][0];
  const events: ContestEvent[] = [
    { type: "contest", id: null, data: contestObject(row!), audience: "all", atMs: nowMs },
    { type: "state", id: null, data: stateObject(row!, nowMs), audience: "all", atMs: nowMs },
  ];
  if (input.problems) {
    const now = await problemsOf(deps.db, contest.id);
    const gone = before.filter((id) => !now.some((p) => p.problemId === id));
    events.push(...gone.map((id): ContestEvent => ({ type: "problems", id, data: null, audience: "all", atMs: nowMs })));
    events.push(...problemEvents(row!, now, nowMs >= row!.startsAt.getTime() ? "all" : "jury", nowMs));
  }
  await appendEvents(deps.db, null, contest.id, events);
  deps.contests.contestChanged(contest.id);
  return viewContest(deps, user, contest.id);
}

/**
 * Deletes a contest (jury): it disappears from lists and doors; its submissions stay in their authors' histories.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403).
 */
export async function deleteContest(deps: ContestDeps, user: Caller, id: string): Promise<{ deleted: string }> {
  const { contest } = await requireContest(deps.db, user, id, "contest.edit");
  await deps.db.update(contests).set({ deletedAt: new Date(deps.now()), shortName: `${contest.shortName}~${contest.id}` }).where(eq(contests.id, contest.id));
  deps.contests.contestChanged(contest.id);
  return { deleted: contest.id };
}

/**
 * Unfreezes the scoreboard (jury; after the end): every hidden result is
 * released to the public feed and the public boards rebuild.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400, field `id`) before the end.
 */
export async function unfreezeContest(deps: ContestDeps, user: Caller, id: string, release: (c: ContestRow, nowMs: number) => Promise<ContestEvent[]>): Promise<ContestView> {
  const access = await requireContest(deps.db, user, id, "contest.edit");
  const contest = await contestCaughtUp(deps, access.contest);
  const nowMs = deps.now();
  if (phaseAt(timesOf(contest), nowMs) !== "over") throw new AppError("BAD_INPUT", { field: "id", message: "The scoreboard can be unfrozen once the contest is over" });
  if (contest.unfrozenAt === null) {
    const [row] = await deps.db
      .update(contests)
      .set({ unfrozenAt: new Date(nowMs), updatedAt: new Date(Math.max(nowMs, contest.updatedAt.getTime() + 1)) })
      .where(and(eq(contests.id, contest.id), isNull(contests.unfrozenAt)))
      .returning();
    if (row) {
      await appendEvents(deps.db, null, contest.id, [...(await release(row, nowMs)), { type: "state", id: null, data: stateObject(row, nowMs), audience: "all", atMs: nowMs }]);
      deps.contests.contestChanged(contest.id);
    }
  }
  return viewContest(deps, user, contest.id);
}

/**
 * Declares the results final (jury; after the end). The awards are announced.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400) before the end.
 */
export async function finalizeContest(deps: ContestDeps, user: Caller, id: string, awards: (c: ContestRow, nowMs: number) => Promise<ContestEvent[]>): Promise<ContestView> {
  const access = await requireContest(deps.db, user, id, "contest.edit");
  const contest = await contestCaughtUp(deps, access.contest);
  const nowMs = deps.now();
  if (phaseAt(timesOf(contest), nowMs) !== "over") throw new AppError("BAD_INPUT", { field: "id", message: "The results can be finalized once the contest is over" });
  if (contest.finalizedAt === null) {
    const [row] = await deps.db
      .update(contests)
      .set({ finalizedAt: new Date(nowMs), updatedAt: new Date(Math.max(nowMs, contest.updatedAt.getTime() + 1)) })
      .where(and(eq(contests.id, contest.id), isNull(contests.finalizedAt)))
      .returning();
    if (row) {
      await appendEvents(deps.db, null, contest.id, [...(await awards(row, nowMs)), { type: "state", id: null, data: stateObject(row, nowMs), audience: "all", atMs: nowMs }]);
      deps.contests.contestChanged(contest.id);
    }
  }
  return viewContest(deps, user, contest.id);
}
