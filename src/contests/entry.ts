/**
 * A participant's entry into a contest that asks for one (decision 081): a contest with a proctor's password,
 * one session or lock-down is entered by each participant inside their window (`POST /api/contests/:id/enter`,
 * ./exam.ts), as an assignment's exam is started. Until then its problems stay hidden from them and their
 * submissions are refused; the entry binds the session that made it (one session) and starts the lock-down.
 * This file holds what ./access.ts needs (no import of it, so no cycle): the rule, the row, the session hold.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestEntries, contests } from "../../db/schema.ts";
import { currentExamRequest, refuse } from "../courses/exam/gate.ts";
import { timesOf, windowOf } from "./clock.ts";

export type ContestEntryRow = typeof contestEntries.$inferSelect;
type ContestRow = typeof contests.$inferSelect;

/** Whether participants must enter the contest before they see its problems or submit. */
export function needsEntry(c: Pick<ContestRow, "proctorPasswordHash" | "oneSession" | "lockDown">): boolean {
  return c.proctorPasswordHash !== null || c.oneSession || c.lockDown;
}

/** A participant's entry, or null. */
export async function entryOf(db: Database, contestId: string, userId: string): Promise<ContestEntryRow | null> {
  const [row] = await db
    .select()
    .from(contestEntries)
    .where(and(eq(contestEntries.contestId, contestId), eq(contestEntries.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** A participant's window (ms), their team's virtual start counted. */
export function participantWindow(c: ContestRow, virtualStartsAt: Date | null | undefined): { startMs: number; endMs: number } {
  return windowOf(timesOf(c), virtualStartsAt?.getTime() ?? null);
}

/**
 * One session, on every read and write of the contest (./access.ts `requireContest`): while an entered
 * participant's window is open, only the session that entered is let in; after a jury release the next session
 * to ask holds it. Outside a request (scripts, domain tests) nothing is checked.
 * @throws AppError EXAM_OTHER_SESSION (403, `details.rule` "session").
 */
export async function holdContestSession(
  db: Database,
  a: { contest: ContestRow; role: string; team: { virtualStartsAt: Date | null } | null; entry?: ContestEntryRow | null },
): Promise<void> {
  const req = currentExamRequest();
  if (!req || !a.contest.oneSession || a.role !== "participant" || !a.entry || !req.user) return;
  const w = participantWindow(a.contest, a.team?.virtualStartsAt);
  if (req.nowMs < w.startMs || req.nowMs >= w.endMs || a.entry.sessionId === req.sessionId) return;
  if (a.entry.sessionId === null) {
    await db
      .update(contestEntries)
      .set({ sessionId: req.sessionId })
      .where(and(eq(contestEntries.contestId, a.contest.id), eq(contestEntries.userId, req.user.id)));
    a.entry = { ...a.entry, sessionId: req.sessionId };
    return;
  }
  await refuse(db, "session", { contestId: a.contest.id, userId: req.user.id, ip: req.ip, path: req.path, nowMs: req.nowMs });
}
