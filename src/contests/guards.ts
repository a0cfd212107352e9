/**
 * What a contest changes outside itself, registered with the domains it
 * touches (so that they know nothing of contests):
 * - a course problem set in a contest is readable by whoever may read that
 *   contest's problems now (`mayReadProblems`: the jury; participants from
 *   their window's start; others once it is over), on the solving page and
 *   every door that checks `canSeeProblem` (run, submit, statement assets);
 * - no AI review while the caller takes part in a running contest (their
 *   real or virtual window is open), for any problem or none: a contest is
 *   sat without outside help (ICPC rules; DOMjudge and Kattis offer none).
 */
import { and, eq, gt, isNotNull, isNull, lte } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestProblems, contests, contestTeamMembers, contestTeams } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { memberRole } from "../courses/access.ts";
import { restrictAi, type AiRestriction } from "../courses/ai-policy.ts";
import { grantProblemSight, type ProblemSightGrant } from "../problems/access.ts";
import type { ProblemRow } from "../problems/shape.ts";
import { mayReadProblems, roleIn, timesOf } from "./access.ts";
import { windowOf } from "./clock.ts";
import { CONTEST_MAX_MINUTES } from "./shape.ts";

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
 * Whether `userId` takes part in a contest whose window is open at `nowMs`:
 * a member of a team (real or virtual window), or a student of a course whose
 * contest is running (their one-person team is made on first use, so they may
 * have none yet).
 */
export async function inRunningContest(db: Database, userId: string, nowMs: number): Promise<boolean> {
  const teams = await db
    .select({ contest: contests, virtualStartsAt: contestTeams.virtualStartsAt })
    .from(contestTeamMembers)
    .innerJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
    .innerJoin(contests, eq(contests.id, contestTeamMembers.contestId))
    .where(and(eq(contestTeamMembers.userId, userId), isNull(contests.deletedAt)));
  for (const t of teams) {
    const w = windowOf(timesOf(t.contest), t.virtualStartsAt?.getTime() ?? null);
    if (w.startMs <= nowMs && nowMs < w.endMs) return true;
  }
  // Course contests that have started and may still run (the end is checked per row: durations differ).
  const started = await db
    .select()
    .from(contests)
    .where(and(isNotNull(contests.courseId), isNull(contests.deletedAt), lte(contests.startsAt, new Date(nowMs)), gt(contests.startsAt, new Date(nowMs - MAX_DURATION_MS))));
  for (const c of started) {
    const w = windowOf(timesOf(c), null);
    if (nowMs < w.endMs && (await memberRole(db, c.courseId!, userId)) === "student") return true;
  }
  return false;
}

/** The longest contest the input allows (./shape.ts), so the query above reads no older ones. */
const MAX_DURATION_MS = CONTEST_MAX_MINUTES * 60_000;

/** AiRestriction: off while the caller takes part in a running contest. */
export const noAiDuringContest: AiRestriction = async (db, caller, _problem, now) =>
  (await inRunningContest(db, caller.id, now)) ? { policy: "off", reason: AI_OFF_IN_CONTEST } : null;

/** Registers both with their domains (idempotent; the contest runtime calls it). */
export function registerContestGuards(): void {
  grantProblemSight(problemReadableThroughContest);
  restrictAi(noAiDuringContest);
}
