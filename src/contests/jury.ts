/**
 * The jury's tools beyond editing: rejudging a contest submission, the
 * balloon list (every team's first solve of every problem, in the order they
 * happened, to deliver and mark delivered), and the reveal stepped through
 * at the award ceremony (./reveal.ts).
 */
import { and, eq } from "drizzle-orm";
import { contestBalloons, submissions } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { requeueJudged } from "../submissions/rejudge.ts";
import { requireContest, timesOf } from "./access.ts";
import type { Scoreboard } from "./board.ts";
import { phaseAt } from "./clock.ts";
import { contestCaughtUp, type ContestDeps } from "./contests.ts";
import { revealAt } from "./reveal.ts";
import type { BoardRow } from "./scoring.ts";

/**
 * Puts a judged contest submission back in the queue; its team's cell shows it pending until judged again.
 * @param ring the judge's doorbell.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403) for anyone but the jury, COURSE_ARCHIVED (403), SUBMISSION_NOT_FOUND (404).
 */
export async function rejudgeContestSubmission(deps: ContestDeps, user: Caller, id: string, submissionId: string, ring?: () => void): Promise<{ id: string; queued: boolean }> {
  const { contest } = await requireContest(deps.db, user, id, "submission.rejudge");
  const [row] = await deps.db
    .select({ id: submissions.id, teamId: submissions.teamId })
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.contestId, contest.id)));
  if (!row) throw new AppError("SUBMISSION_NOT_FOUND", { field: "submissionId" });
  const queued = (await requeueJudged(deps.db, [row.id], ring)) > 0;
  if (row.teamId) await deps.contests.boards.teamChanged(contest.id, row.teamId);
  deps.contests.bus.changed(contest.id);
  return { id: row.id, queued };
}

export interface Balloon {
  teamId: string;
  teamName: string;
  problemId: string;
  label: string;
  color: string | null;
  /** Contest time of the solve, ms. */
  solvedAtMs: number;
  firstToSolve: boolean;
  deliveredAt: string | null;
}

/**
 * Every team's first solve of every problem on the live board (the jury) or
 * the public one (a balloon runner: during the freeze, solves before it only),
 * earliest first, with whether its balloon was delivered.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403) for anyone but the jury and balloon runners.
 */
export async function listBalloons(deps: ContestDeps, user: Caller, id: string): Promise<Balloon[]> {
  const access = await requireContest(deps.db, user, id, "balloons.view");
  const contest = await contestCaughtUp(deps, access.contest);
  // A balloon runner reads the public board: no solve the freeze hides (DOMjudge's default, show_balloons_postfreeze off).
  const board = await deps.contests.boards.board(contest, access.role === "jury" ? "jury" : "public", deps.now());
  const delivered = await deps.db.select().from(contestBalloons).where(eq(contestBalloons.contestId, contest.id));
  const at = new Map(delivered.map((d) => [`${d.teamId}:${d.problemId}`, d.deliveredAt.toISOString()]));
  const problemOf = new Map(board.problems.map((p) => [p.problemId, p]));
  const out: Balloon[] = [];
  for (const row of board.rows) {
    for (const cell of row.cells) {
      if (!cell.solved || cell.solvedAtMs === null) continue;
      const p = problemOf.get(cell.problemId)!;
      out.push({
        teamId: row.teamId,
        teamName: board.teams[row.teamId]?.name ?? row.teamId,
        problemId: cell.problemId,
        label: p.label,
        color: p.color,
        solvedAtMs: cell.solvedAtMs,
        firstToSolve: cell.firstToSolve,
        deliveredAt: at.get(`${row.teamId}:${cell.problemId}`) ?? null,
      });
    }
  }
  return out.sort((a, b) => a.solvedAtMs - b.solvedAtMs || a.teamName.localeCompare(b.teamName));
}

/**
 * Marks a balloon delivered (or not).
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403) for anyone but the jury and balloon runners, CONTEST_TEAM_NOT_FOUND (404).
 */
export async function markBalloon(deps: ContestDeps, user: Caller, input: { id: string; teamId: string; problemId: string; delivered: boolean }): Promise<{ delivered: boolean }> {
  const { contest } = await requireContest(deps.db, user, input.id, "balloons.mark");
  const key = and(eq(contestBalloons.contestId, contest.id), eq(contestBalloons.teamId, input.teamId), eq(contestBalloons.problemId, input.problemId));
  if (!input.delivered) {
    await deps.db.delete(contestBalloons).where(key);
    return { delivered: false };
  }
  const balloons = await listBalloons(deps, user, input.id);
  if (!balloons.some((b) => b.teamId === input.teamId && b.problemId === input.problemId)) {
    throw new AppError("CONTEST_TEAM_NOT_FOUND", { field: "teamId", message: "teamId: this team has not solved this problem" });
  }
  await deps.db
    .insert(contestBalloons)
    .values({ contestId: contest.id, teamId: input.teamId, problemId: input.problemId, deliveredAt: new Date(deps.now()), deliveredBy: user.id })
    .onConflictDoNothing();
  return { delivered: true };
}

/** One step of the reveal, as the screen draws it. */
export interface RevealView extends Pick<Scoreboard, "problems" | "teams" | "scoring"> {
  step: number;
  total: number;
  revealed: { teamId: string; problemId: string } | null;
  rows: BoardRow[];
}

/**
 * The board after `step` steps of the reveal: from the frozen board, one hidden
 * result at a time, bottom team first (the jury only, once the contest is over).
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400) before the end.
 */
export async function revealStep(deps: ContestDeps, user: Caller, id: string, step: number): Promise<RevealView> {
  const access = await requireContest(deps.db, user, id, "scoreboard.live");
  const contest = await contestCaughtUp(deps, access.contest);
  if (phaseAt(timesOf(contest), deps.now()) !== "over") throw new AppError("BAD_INPUT", { field: "id", message: "The reveal starts once the contest is over" });
  const frozen = await deps.contests.boards.frozenBoard(contest);
  const final = await deps.contests.boards.board(contest, "jury", deps.now());
  const r = revealAt(contest.scoring, frozen.rows, final.rows, (t) => frozen.teams[t]?.name ?? t, step);
  return { problems: frozen.problems, teams: frozen.teams, scoring: contest.scoring, ...r };
}
