/**
 * Submitting in a contest and reading contest submissions: participants
 * inside their window submit for their team (the jury any time, off the
 * scoreboard); a team reads its own submissions (with verdicts, during the
 * freeze too), the jury every one. Judging is the same as anywhere
 * (src/submissions/create.ts, src/judge).
 */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { contestProblems, contestTeams, submissions } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { createContestSubmission, type SubmissionDeps } from "../submissions/create.ts";
import { canInContest } from "./permissions.ts";
import { requireContest, requireInsideWindow, type ContestAccess } from "./access.ts";
import { requireEntered } from "./exam.ts";
import { submissionObject } from "./ccs/objects.ts";
import { contestCaughtUp, type ContestDeps } from "./contests.ts";
import { appendEvents } from "./feed.ts";
import type { contestSubmitInput } from "./shape.ts";
import type { VerdictCode } from "../verdicts.ts";
import { submissionScore } from "./scoring.ts";

export type ContestSubmitDeps = ContestDeps & { submissions: SubmissionDeps };

/**
 * Submits in a contest.
 * @returns the new submission's id (follow it with submissions.wait/progress or the contest's list).
 * @throws CONTEST_NOT_FOUND (404); FORBIDDEN (403) for a non-participant; CONTEST_NOT_STARTED / CONTEST_OVER (403,
 *   naming the time); CONTEST_PROBLEM_NOT_FOUND (404, field `problemId`); and createContestSubmission's errors.
 */
export async function submitToContest(deps: ContestSubmitDeps, user: Caller, input: z.infer<typeof contestSubmitInput>): Promise<{ id: string }> {
  const access = await requireContest(deps.db, user, input.id, "submission.create");
  const contest = await contestCaughtUp(deps, access.contest);
  const nowMs = deps.now();
  requireInsideWindow(access, nowMs);
  await requireEntered(deps.db, access, nowMs);
  const [inIt] = await deps.db
    .select({ id: contestProblems.problemId })
    .from(contestProblems)
    .where(and(eq(contestProblems.contestId, contest.id), eq(contestProblems.problemId, input.problemId)));
  if (!inIt) throw new AppError("CONTEST_PROBLEM_NOT_FOUND", { field: "problemId" });
  const teamId = access.role === "participant" ? access.team!.id : null;
  const made = await createContestSubmission(deps.submissions, user, { problemId: input.problemId, language: input.language, code: input.code }, {
    contestId: contest.id,
    teamId,
    runAllTests: contest.scoring === "ioi",
  });
  if (teamId && access.team!.virtualStartsAt === null) {
    const row = { id: made.id, teamId, problemId: input.problemId, language: input.language, createdAt: made.createdAt };
    const data = submissionObject({ ...row, status: "queued", verdict: null, claimedAt: null, judgedAt: null, timeMs: null, hiddenPassed: 0, hiddenTotal: 0 }, contest.startsAt.getTime());
    await appendEvents(deps.db, null, contest.id, [{ type: "submissions", id: made.id, data, audience: "all", atMs: nowMs }]);
  }
  if (teamId) await deps.contests.boards.teamChanged(contest.id, teamId);
  deps.contests.bus.changed(contest.id);
  return { id: made.id };
}

/** A contest submission in a list. */
export interface ContestSubmissionItem {
  id: string;
  problemId: string;
  label: string;
  teamId: string | null;
  teamName: string | null;
  userId: string;
  language: string;
  status: string;
  verdict: VerdictCode | null;
  /** Ms since the team's window started (the jury's own: since the contest's start). */
  contestTimeMs: number;
  createdAt: string;
  timeMs: number | null;
  memoryKib: number | null;
  /** IOI: the submission's score, 0–100. */
  score: number | null;
}

/**
 * The caller's team's submissions (participants), or every submission (jury), newest first.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403).
 */
export async function listContestSubmissions(deps: ContestDeps, user: Caller, id: string): Promise<ContestSubmissionItem[]> {
  const access = await requireContest(deps.db, user, id, "contest.view");
  if (!canInContest(access.role, "submission.readAll") && !canInContest(access.role, "submission.readOwn")) throw new AppError("FORBIDDEN");
  return readSubmissions(deps, access);
}

async function readSubmissions(deps: ContestDeps, access: ContestAccess): Promise<ContestSubmissionItem[]> {
  const c = access.contest;
  const jury = access.role === "jury";
  const rows = await deps.db
    .select({
      id: submissions.id,
      problemId: submissions.problemId,
      label: contestProblems.label,
      teamId: submissions.teamId,
      teamName: contestTeams.name,
      virtualStartsAt: contestTeams.virtualStartsAt,
      userId: submissions.userId,
      language: submissions.language,
      status: submissions.status,
      verdict: submissions.verdict,
      createdAt: submissions.createdAt,
      timeMs: submissions.timeMs,
      memoryKib: submissions.memoryKib,
      hiddenPassed: submissions.hiddenPassed,
      hiddenTotal: submissions.hiddenTotal,
    })
    .from(submissions)
    .leftJoin(contestTeams, eq(contestTeams.id, submissions.teamId))
    .leftJoin(contestProblems, and(eq(contestProblems.contestId, submissions.contestId), eq(contestProblems.problemId, submissions.problemId)))
    .where(and(eq(submissions.contestId, c.id), jury ? undefined : eq(submissions.teamId, access.team!.id)))
    .orderBy(desc(submissions.createdAt))
    .limit(5000);
  return rows.map((r) => ({
    id: r.id,
    problemId: r.problemId,
    label: r.label ?? "?",
    teamId: r.teamId,
    teamName: r.teamName,
    userId: r.userId,
    language: r.language,
    status: r.status,
    verdict: r.status === "done" ? r.verdict : null,
    contestTimeMs: r.createdAt.getTime() - (r.virtualStartsAt?.getTime() ?? c.startsAt.getTime()),
    createdAt: r.createdAt.toISOString(),
    timeMs: r.timeMs,
    memoryKib: r.memoryKib,
    score: c.scoring === "ioi" && r.status === "done" ? submissionScore(r) : null,
  }));
}

/**
 * One contest submission with its code: the jury, or a member of the submitting team.
 * @throws CONTEST_NOT_FOUND (404), SUBMISSION_NOT_FOUND (404) for anyone else.
 */
export async function contestSubmissionCode(deps: ContestDeps, user: Caller | null, id: string, submissionId: string): Promise<{ id: string; language: string; code: string; problemId: string; teamId: string | null }> {
  const access = await requireContest(deps.db, user, id, "contest.view");
  const [row] = await deps.db
    .select({ id: submissions.id, language: submissions.language, code: submissions.code, problemId: submissions.problemId, teamId: submissions.teamId })
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.contestId, access.contest.id)));
  const mayRead = row && (access.role === "jury" || (access.role === "participant" && row.teamId !== null && row.teamId === access.team?.id));
  if (!mayRead) throw new AppError("SUBMISSION_NOT_FOUND");
  return row;
}
