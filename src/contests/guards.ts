/**
 * What a contest changes outside itself, registered with the domains it
 * touches (so that they know nothing of contests):
 * - a course problem set in a contest is readable by whoever may read that
 *   contest's problems now (`mayReadProblems`: the jury; participants from
 *   their window's start; others once it is over), on the solving page and
 *   every door that checks `canSeeProblem` (run, submit, statement assets);
 * - no AI review while the caller takes part in a running contest (their
 *   real or virtual window is open), for any problem or none: a contest is
 *   sat without outside help (ICPC rules; DOMjudge and Kattis offer none);
 * - while the caller takes part in a running contest, its problems are judged
 *   for them only in it: an ordinary submission (practice, an assignment) to
 *   one is refused, naming the contest (Run stays: it gives only the sample or
 *   the caller's own input), so no attempt escapes the board's penalty or the
 *   jury's list (decision 046);
 * - a contest not yet finalized holds its problems: only its jury (site admins
 *   and granted jury members included) may change their statement, tests, validator or limits, delete
 *   them or rejudge them, and only a contest's jury requeues its submissions
 *   through the problem's and the submission's own rejudge doors (decision 046).
 */
import { and, eq, gt, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestProblems, contests, contestTeamMembers, contestTeams, problems } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { memberRole } from "../courses/access.ts";
import { restrictAi, type AiRestriction } from "../courses/ai-policy.ts";
import { AppError } from "../errors.ts";
import { grantProblemSight, type ProblemSightGrant } from "../problems/access.ts";
import { grantBankSight, type BankSightGrant } from "../problems/bank/visible.ts";
import { guardProblemChanges, type ProblemChangeGuard } from "../problems/operations.ts";
import type { ProblemRow } from "../problems/shape.ts";
import { restrictSubmissions, type SubmissionRestriction } from "../submissions/create.ts";
import { setContestJuryCheck, type ContestJuryCheck } from "../submissions/rejudge.ts";
import { isContestJury, mayReadProblems, roleIn, timesOf, type ContestRow } from "./access.ts";
import { windowOf } from "./clock.ts";
import { CONTEST_MAX_MINUTES } from "./shape.ts";
import { contestLockDown, refuseSecondContestSignIn } from "./exam.ts";
import { registerLockDown } from "../courses/exam/gate.ts";
import { restrictSignIn } from "../auth/session.ts";

/** The text the AI panel shows (and the refusal names) during a contest. */
export const AI_OFF_IN_CONTEST = "AI review is off while you take part in a contest.";

/** ProblemSightGrant: a live contest lists the problem and the caller may read its problems now. */
export const problemReadableThroughContest: ProblemSightGrant = async (db: Database, user: Caller | null, problem: ProblemRow, now: number) => {
  const rows = await db
    .select({ contest: contests })
    .from(contestProblems)
    .innerJoin(contests, eq(contests.id, contestProblems.contestId))
    .where(and(eq(contestProblems.problemId, problem.id), isNull(contests.deletedAt)));
  for (const { contest } of rows) {
    const standing = await roleIn(db, contest, user);
    if (standing && mayReadProblems({ contest, ...standing }, now)) return true;
  }
  return false;
};

/**
 * BankSightGrant (src/problems/bank/visible.ts): the course problems the caller may read through
 * contests now, by the rule of `problemReadableThroughContest`, asked once per contest that lists
 * a live course problem instead of once per problem.
 */
export const problemsReadableThroughContests: BankSightGrant = async (db, user, now) => {
  const rows = await db
    .select({ contest: contests, problemId: contestProblems.problemId })
    .from(contestProblems)
    .innerJoin(contests, eq(contests.id, contestProblems.contestId))
    .innerJoin(problems, eq(problems.id, contestProblems.problemId))
    .where(and(isNull(contests.deletedAt), isNotNull(problems.courseId), isNull(problems.deletedAt)));
  const readable = new Map<string, boolean>();
  const out = new Set<string>();
  for (const { contest, problemId } of rows) {
    let ok = readable.get(contest.id);
    if (ok === undefined) {
      const standing = await roleIn(db, contest, user);
      ok = standing !== null && mayReadProblems({ contest, ...standing }, now);
      readable.set(contest.id, ok);
    }
    if (ok) out.add(problemId);
  }
  return out;
};

/**
 * Whether `userId` takes part in a contest whose window is open at `nowMs`:
 * a member of a team (real or virtual window), or a student of a course whose
 * contest is running (their one-person team is made on first use, so they may
 * have none yet).
 */
export async function inRunningContest(db: Database, userId: string, nowMs: number): Promise<boolean> {
  return (await contestsRunningFor(db, userId, nowMs, null, true)).length > 0;
}

/**
 * The contests `userId` takes part in whose window is open at `nowMs` (as
 * `inRunningContest` counts them), those listing `problemId` only when given.
 * @param firstOnly stop at the first found.
 */
async function contestsRunningFor(db: Database, userId: string, nowMs: number, problemId: string | null, firstOnly = false): Promise<ContestRow[]> {
  const found: ContestRow[] = [];
  const listing = (contestId: typeof contests.id) =>
    problemId === null ? undefined : inArray(contestId, db.select({ id: contestProblems.contestId }).from(contestProblems).where(eq(contestProblems.problemId, problemId)));
  const teams = await db
    .select({ contest: contests, virtualStartsAt: contestTeams.virtualStartsAt })
    .from(contestTeamMembers)
    .innerJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
    .innerJoin(contests, eq(contests.id, contestTeamMembers.contestId))
    .where(and(eq(contestTeamMembers.userId, userId), isNull(contests.deletedAt), listing(contests.id)));
  for (const t of teams) {
    const w = windowOf(timesOf(t.contest), t.virtualStartsAt?.getTime() ?? null);
    if (w.startMs <= nowMs && nowMs < w.endMs) found.push(t.contest);
    if (firstOnly && found.length) return found;
  }
  // Course contests that have started and may still run (the end is checked per row: durations differ).
  const started = await db
    .select()
    .from(contests)
    .where(
      and(
        isNotNull(contests.courseId),
        isNull(contests.deletedAt),
        lte(contests.startsAt, new Date(nowMs)),
        gt(contests.startsAt, new Date(nowMs - MAX_DURATION_MS)),
        listing(contests.id),
      ),
    );
  for (const c of started) {
    const w = windowOf(timesOf(c), null);
    if (nowMs < w.endMs && !found.some((f) => f.id === c.id) && (await memberRole(db, c.courseId!, userId)) === "student") found.push(c);
    if (firstOnly && found.length) return found;
  }
  return found;
}

/**
 * SubmissionRestriction: a participant whose contest window is open judges
 * that contest's problems only in it.
 * @throws AppError FORBIDDEN (403) naming the contest (`details.contest`: its short name) and when the window closes.
 */
export const judgeOnlyInContest: SubmissionRestriction = async (db, caller, problem, nowMs) => {
  const [c] = await contestsRunningFor(db, caller.id, nowMs, problem.id, true);
  if (!c) return;
  throw new AppError("FORBIDDEN", {
    message: `This problem is in contest "${c.title}" (${c.shortName}), which you are taking part in: while it runs, submit it in the contest`,
    details: { contest: c.shortName, contestId: c.id },
  });
};

/**
 * ProblemChangeGuard: a live contest not yet finalized (upcoming, running, or
 * over and awaiting its results) holds its problems: only its jury may change them.
 * @throws AppError FORBIDDEN (403) naming the contest (`details.contest`: its short name), unless it is a
 *   course contest the caller may not see (outside its course: named only as a course's contest).
 */
export const holdProblemsUntilFinal: ProblemChangeGuard = async (db, caller, problem) => {
  const rows = await db
    .select({ contest: contests })
    .from(contestProblems)
    .innerJoin(contests, eq(contests.id, contestProblems.contestId))
    .where(and(eq(contestProblems.problemId, problem.id), isNull(contests.deletedAt), isNull(contests.finalizedAt)));
  for (const { contest } of rows) {
    if (await isContestJury(db, caller, contest)) continue;
    const rule = "until it is, only its jury may change the problem, delete it or rejudge it";
    // A course contest does not exist for anyone outside its course: such a caller learns only that one holds the problem.
    if (contest.courseId !== null && (await memberRole(db, contest.courseId, caller.id)) === null) {
      throw new AppError("FORBIDDEN", { message: `A contest of a course you are not in uses this problem and is not finalized: ${rule}` });
    }
    throw new AppError("FORBIDDEN", {
      message: `Contest "${contest.title}" (${contest.shortName}) uses this problem and is not finalized: ${rule}`,
      details: { contest: contest.shortName, contestId: contest.id },
    });
  }
};

/** ContestJuryCheck: the contests among `contestIds` where the caller is jury. */
export const contestJuryOf: ContestJuryCheck = async (db, caller, contestIds) => {
  const rows = await db.select().from(contests).where(inArray(contests.id, [...contestIds]));
  const out = new Set<string>();
  for (const c of rows) if (await isContestJury(db, caller, c)) out.add(c.id);
  return out;
};

/** The longest contest the input allows (./shape.ts), so the query above reads no older ones. */
const MAX_DURATION_MS = CONTEST_MAX_MINUTES * 60_000;

/** AiRestriction: off while the caller takes part in a running contest. */
export const noAiDuringContest: AiRestriction = async (db, caller, _problem, now) =>
  (await inRunningContest(db, caller.id, now)) ? { policy: "off", reason: AI_OFF_IN_CONTEST } : null;

/** Registers each with its domain (idempotent; the contest runtime calls it). */
export function registerContestGuards(): void {
  grantProblemSight(problemReadableThroughContest);
  grantBankSight(problemsReadableThroughContests);
  restrictAi(noAiDuringContest);
  restrictSubmissions(judgeOnlyInContest);
  guardProblemChanges(holdProblemsUntilFinal);
  setContestJuryCheck(contestJuryOf);
  registerLockDown(contestLockDown);
  restrictSignIn(refuseSecondContestSignIn);
}
