/**
 * The viewer's mark on each problem and the problem's public counters, kept as
 * submissions are judged (issue 35; schema: `user_problem_status`,
 * `problem_stats`, migration 0032). After every verdict (first judging and
 * rejudge alike) the user's row for that problem is rewritten from their
 * judged submissions on it, and the problem's counters move by the change in
 * that row's public judgement, in one write transaction: never a recount of
 * submissions per request (DMOJ caches that recount for a day).
 *
 * Rules: a submission counts once it has a verdict other than IE (the judge's
 * fault, never the user's attempt); `solved` = some AC; public counters count
 * only submissions outside any course assignment and contest.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { onJudged, type JudgedSubmission } from "../../submissions/judged.ts";
import { bumpStatsRevision } from "./revision.ts";

/** The viewer's status on a problem, as the bank and the progress page show it; null: never submitted. */
export type ProblemStatus = "solved" | "attempted";

/**
 * Rewrites `userId`'s status row on `problemId` from their judged submissions,
 * and moves the problem's public counters (`submitters`, `solvers`) by the
 * change, atomically. Idempotent: running it twice changes nothing more.
 * Cost: one aggregate over the user's submissions on that problem (index
 * `submissions_user_problem_idx`) and four primary-key writes (the fourth bumps
 * `revisions('problem-stats')`, ./revision.ts, which the bank's memory is keyed by).
 */
export async function recordProblemStatus(db: Database, s: Pick<JudgedSubmission, "userId" | "problemId">): Promise<void> {
  const { userId, problemId } = s;
  const old = sql`(SELECT public_status FROM user_problem_status WHERE user_id = ${userId} AND problem_id = ${problemId})`;
  await db.batch([
    // The old judgement leaves the counters (a write first: the transaction holds the write lock from here).
    db.run(sql`UPDATE problem_stats SET
        submitters = submitters - coalesce(${old} IS NOT NULL, 0),
        solvers = solvers - coalesce(${old} = 'solved', 0)
      WHERE problem_id = ${problemId}`),
    db.run(sql`DELETE FROM user_problem_status WHERE user_id = ${userId} AND problem_id = ${problemId}`),
    db.run(sql`INSERT INTO user_problem_status
        (user_id, problem_id, status, public_status, submission_count, first_submitted_at, last_submitted_at, solved_at)
      SELECT ${userId}, ${problemId},
        CASE WHEN max(verdict = 'AC') = 1 THEN 'solved' ELSE 'attempted' END,
        CASE WHEN max(contest_id IS NULL AND assignment_id IS NULL AND verdict = 'AC') = 1 THEN 'solved'
             WHEN max(contest_id IS NULL AND assignment_id IS NULL) = 1 THEN 'attempted' END,
        count(*), min(created_at), max(created_at), min(CASE WHEN verdict = 'AC' THEN created_at END)
      FROM submissions
      WHERE user_id = ${userId} AND problem_id = ${problemId} AND status = 'done' AND verdict IS NOT NULL AND verdict <> 'IE'
      HAVING count(*) > 0`),
    // The new one enters them (a problem made before migration 0032's trigger gets its row here).
    db.run(sql`INSERT INTO problem_stats (problem_id, submitters, solvers)
      VALUES (${problemId}, coalesce(${old} IS NOT NULL, 0), coalesce(${old} = 'solved', 0))
      ON CONFLICT (problem_id) DO UPDATE SET
        submitters = submitters + excluded.submitters,
        solvers = solvers + excluded.solvers`),
    // The bank's memory holds the counters (./catalogue.ts): it reads them again at the next request.
    bumpStatsRevision(db),
  ]);
}

/** Registers `recordProblemStatus` as a judged hook (src/submissions/judged.ts); called once where the services are built. */
export function registerBankHooks(): void {
  onJudged(recordProblemStatus);
}
