/**
 * What the server holds for contests while it runs: the change bus (one
 * fan-out for the event feed and the live scoreboards) and the scoreboards.
 * One per database (a process may serve several in tests); it follows every
 * judged contest submission through the judged hook (src/submissions/judged.ts).
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { submissions, submissionTests } from "../../db/schema.ts";
import { onJudged, type JudgedSubmission } from "../submissions/judged.ts";
import { findContest, timesOf, type ContestRow } from "./access.ts";
import { Boards } from "./board.ts";
import { registerContestGuards } from "./guards.ts";
import { freezeContestMs } from "./clock.ts";
import { judgementObject, runObject, type CcsSubmissionRow } from "./ccs/objects.ts";
import { appendEvents, ContestBus, type ContestEvent } from "./feed.ts";
import { contestTeams } from "../../db/schema.ts";

export class ContestRuntime {
  readonly bus = new ContestBus();
  readonly boards: Boards;

  constructor(readonly db: Database) {
    this.boards = new Boards(db);
  }

  /** A contest changed in a way every board must rebuild for (settings, problems, teams, unfreeze). */
  contestChanged(contestId: string): void {
    this.boards.invalidate(contestId);
    this.bus.changed(contestId);
  }

  /** A contest submission was judged: its team's row, its judgement and runs in the log, and the listeners. */
  async judged(s: JudgedSubmission): Promise<void> {
    if (!s.contestId || !s.teamId) return;
    const contest = await findContest(this.db, s.contestId);
    if (!contest) return;
    await this.boards.teamChanged(contest.id, s.teamId);
    const [team] = await this.db.select({ virtualStartsAt: contestTeams.virtualStartsAt }).from(contestTeams).where(eq(contestTeams.id, s.teamId));
    if (team && team.virtualStartsAt === null) {
      const row = await submissionForApi(this.db, s.id);
      if (row) await appendEvents(this.db, null, contest.id, judgedEvents(contest, row, await runsOf(this.db, s.id)));
    }
    this.bus.changed(contest.id);
  }
}

/** The columns the Contest API reads of a contest submission. */
export const ccsSubmissionColumns = {
  id: submissions.id,
  teamId: submissions.teamId,
  problemId: submissions.problemId,
  language: submissions.language,
  createdAt: submissions.createdAt,
  status: submissions.status,
  verdict: submissions.verdict,
  claimedAt: submissions.claimedAt,
  judgedAt: submissions.judgedAt,
  timeMs: submissions.timeMs,
  hiddenPassed: submissions.hiddenPassed,
  hiddenTotal: submissions.hiddenTotal,
};

export async function submissionForApi(db: Database, id: string): Promise<CcsSubmissionRow | null> {
  const [row] = await db.select(ccsSubmissionColumns).from(submissions).where(eq(submissions.id, id));
  return row && row.teamId ? (row as CcsSubmissionRow) : null;
}

export async function runsOf(db: Database, submissionId: string) {
  return db
    .select({ index: submissionTests.index, verdict: submissionTests.verdict, timeMs: submissionTests.timeMs })
    .from(submissionTests)
    .where(and(eq(submissionTests.submissionId, submissionId)))
    .orderBy(submissionTests.index);
}

/** Whether a submission's result is hidden from the public now (made during the freeze, not yet unfrozen). */
export function hiddenByFreeze(c: ContestRow, createdAtMs: number): boolean {
  const freeze = freezeContestMs(timesOf(c));
  return freeze !== null && c.unfrozenAt === null && createdAtMs - c.startsAt.getTime() >= freeze;
}

/** A judged submission's judgement and runs, for its team only while the freeze hides them. */
export function judgedEvents(c: ContestRow, s: CcsSubmissionRow, runs: { index: number; verdict: CcsSubmissionRow["verdict"]; timeMs: number }[]): ContestEvent[] {
  const judgement = judgementObject(c, s, c.startsAt.getTime());
  if (!judgement) return [];
  const hidden = hiddenByFreeze(c, s.createdAt.getTime());
  const audience = hidden ? "team" : "all";
  const atMs = s.judgedAt?.getTime() ?? Date.now();
  const events: ContestEvent[] = [{ type: "judgements", id: judgement.id, data: judgement, audience, teamId: s.teamId, atMs }];
  for (const r of runs) {
    if (r.verdict === null) continue;
    const run = runObject(s, { index: r.index, verdict: r.verdict, timeMs: r.timeMs }, c.startsAt.getTime());
    events.push({ type: "runs", id: run.id, data: run, audience, teamId: s.teamId, atMs });
  }
  return events;
}

const runtimes = new WeakMap<Database, ContestRuntime>();

/** The runtime of a database, made (and hooked to judging) on first use. */
export function contestRuntimeFor(db: Database): ContestRuntime {
  let rt = runtimes.get(db);
  if (!rt) {
    rt = new ContestRuntime(db);
    runtimes.set(db, rt);
  }
  onJudged(judgedHook);
  registerContestGuards();
  return rt;
}

async function judgedHook(db: Database, s: JudgedSubmission): Promise<void> {
  if (!s.contestId) return;
  await runtimes.get(db)?.judged(s);
}
