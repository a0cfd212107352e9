/**
 * Scores: each student's best score per problem of an assignment, kept in
 * `assignment_scores` as submissions are judged (one cell at a time) and
 * rebuilt whole when the assignment's dates, penalty, scoring or problems
 * change. Every change bumps `assignments.scores_version` and stamps the rows
 * it wrote with it, so a live gradebook asks for "rows past version v" in one
 * query per update batch.
 *
 * A student's score on a problem is the best over their judged submissions
 * made inside their window (./deadlines.ts): raw score (all-or-nothing or
 * partial) × late factor × the problem's points. A cell with a released
 * review (./grading) takes the reviewed grade of the reviewed submission.
 */
import { notifyScoreChanges } from "../notifications/events.ts";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments, assignmentScores, extensions, submissions } from "../../db/schema.ts";
import type { AssignmentRow } from "./access.ts";
import { countsAt, studentWindow, type StudentWindow, type WindowAdjust } from "./deadlines.ts";
import { extraTimeFor, extraTimeOf, windowAdjust } from "./exam/extra-time.ts";
import { ringGradebook } from "./events.ts";
import { cellKey, releasedReviews } from "./grading/released.ts";
import { judgePoints, withReview } from "./grading/score.ts";
import { readSpends } from "./late-days/store.ts";

/** One judged submission as scoring reads it. */
export interface ScoredSubmission {
  id: string;
  verdict: string | null;
  createdAt: number;
  hiddenPassed: number;
  hiddenTotal: number;
  /** A scoring problem's score and maximum (null otherwise). */
  score?: number | null;
  maxScore?: number | null;
}

export interface Cell {
  score: number;
  bestSubmissionId: string | null;
  bestVerdict: string | null;
  attempts: number;
  late: boolean;
}

/** The assignment's window for one student: their extension, if any, moved by `adjust` (extra time, late days spent). */
export function windowOf(a: AssignmentRow, ext: { dueAt: Date; closesAt: Date | null } | undefined, adjust?: WindowAdjust): StudentWindow {
  return studentWindow(
    { opensAt: a.opensAt.getTime(), dueAt: a.dueAt?.getTime() ?? null, closesAt: a.closesAt?.getTime() ?? null },
    ext ? { dueAt: ext.dueAt.getTime(), closesAt: ext.closesAt?.getTime() ?? null } : null,
    adjust,
  );
}

/**
 * The cell for one student and problem from their judged submissions (any order).
 * Ties keep the earlier submission; with no scoring submission the latest verdict shows.
 */
export function bestCell(subs: readonly ScoredSubmission[], a: Pick<AssignmentRow, "scoring" | "latePenaltyPercent" | "latePenaltyUnit">, w: StudentWindow, points: number): Cell {
  const counted = subs.filter((s) => countsAt(s.createdAt, w)).sort((x, y) => x.createdAt - y.createdAt);
  let best: { s: ScoredSubmission; score: number } | null = null;
  for (const s of counted) {
    const score = judgePoints(s, a, w, points);
    if (!best || score > best.score) best = { s, score };
  }
  const last = counted[counted.length - 1];
  const shown = best && best.score > 0 ? best : last ? { s: last, score: 0 } : null;
  return {
    score: shown?.score ?? 0,
    bestSubmissionId: shown?.s.id ?? null,
    bestVerdict: shown?.s.verdict ?? null,
    attempts: counted.length,
    late: shown !== null && w.dueAt !== null && shown.s.createdAt > w.dueAt,
  };
}

async function loadAssignment(db: Database, assignmentId: string): Promise<AssignmentRow | null> {
  const [a] = await db.select().from(assignments).where(eq(assignments.id, assignmentId)).limit(1);
  return a ?? null;
}

const judged = (assignmentId: string) => and(eq(submissions.assignmentId, assignmentId), eq(submissions.status, "done"));
const scoredColumns = {
  id: submissions.id,
  userId: submissions.userId,
  problemId: submissions.problemId,
  verdict: submissions.verdict,
  createdAt: submissions.createdAt,
  hiddenPassed: submissions.hiddenPassed,
  hiddenTotal: submissions.hiddenTotal,
  score: submissions.score,
  maxScore: submissions.maxScore,
};

/**
 * Recomputes the cells of one student (all problems, or one) after a
 * submission of theirs was judged or their extension changed; rings the bell.
 */
export async function recomputeStudent(db: Database, assignmentId: string, userId: string, problemId?: string, notify?: NotifyChanges): Promise<void> {
  const a = await loadAssignment(db, assignmentId);
  if (!a) return;
  const [problemRows, subs, ext, reviews, spends, extra] = await Promise.all([
    db
      .select({ problemId: assignmentProblems.problemId, points: assignmentProblems.points })
      .from(assignmentProblems)
      .where(problemId ? and(eq(assignmentProblems.assignmentId, assignmentId), eq(assignmentProblems.problemId, problemId)) : eq(assignmentProblems.assignmentId, assignmentId)),
    db
      .select(scoredColumns)
      .from(submissions)
      .where(and(judged(assignmentId), eq(submissions.userId, userId), ...(problemId ? [eq(submissions.problemId, problemId)] : []))),
    db.select().from(extensions).where(and(eq(extensions.assignmentId, assignmentId), eq(extensions.userId, userId))).limit(1),
    releasedReviews(db, assignmentId, userId),
    readSpends(db, [assignmentId], userId),
    extraTimeFor(db, a.courseId, userId),
  ]);
  const w = windowOf(a, ext[0], { ...windowAdjust(a, extra), lateDays: spends.get(`${assignmentId}\u0000${userId}`) ?? 0 });
  const cells = problemRows.map((p) => {
    const mine = subs.filter((s) => s.problemId === p.problemId).map((s) => ({ ...s, createdAt: s.createdAt.getTime() }));
    return { problemId: p.problemId, cell: withReview(bestCell(mine, a, w, p.points), reviews.get(cellKey(userId, p.problemId)), mine, a, w, p.points) };
  });
  await writeCells(db, assignmentId, cells.map((c) => ({ userId, ...c })), false, notify && { ...notify, userId });
}

/** Recomputes every cell of an assignment (its dates, penalty, scoring, problems or extensions changed); rings the bell. */
export async function recomputeAssignment(db: Database, assignmentId: string, notify?: NotifyChanges): Promise<void> {
  const a = await loadAssignment(db, assignmentId);
  if (!a) return;
  const [problemRows, subs, exts, reviews, spends] = await Promise.all([
    db.select({ problemId: assignmentProblems.problemId, points: assignmentProblems.points }).from(assignmentProblems).where(eq(assignmentProblems.assignmentId, assignmentId)),
    db.select(scoredColumns).from(submissions).where(judged(assignmentId)),
    db.select().from(extensions).where(eq(extensions.assignmentId, assignmentId)),
    releasedReviews(db, assignmentId),
    readSpends(db, [assignmentId]),
  ]);
  const points = new Map(problemRows.map((p) => [p.problemId, p.points]));
  const extOf = new Map(exts.map((e) => [e.userId, e]));
  const extraOf = await extraTimeOf(db, a.courseId, [...new Set(subs.map((s) => s.userId))]);
  const groups = new Map<string, { userId: string; problemId: string; subs: ScoredSubmission[] }>();
  for (const s of subs) {
    if (!points.has(s.problemId)) continue;
    const key = `${s.userId}\u0000${s.problemId}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { userId: s.userId, problemId: s.problemId, subs: [] }));
    g.subs.push({ ...s, createdAt: s.createdAt.getTime() });
  }
  const cells = [...groups.values()].map((g) => {
    const w = windowOf(a, extOf.get(g.userId), { ...windowAdjust(a, extraOf.get(g.userId)), lateDays: spends.get(`${assignmentId}\u0000${g.userId}`) ?? 0 });
    const p = points.get(g.problemId)!;
    return { userId: g.userId, problemId: g.problemId, cell: withReview(bestCell(g.subs, a, w, p), reviews.get(cellKey(g.userId, g.problemId)), g.subs, a, w, p) };
  });
  await writeCells(db, assignmentId, cells, true, notify);
}

const WRITE_CHUNK = 500;

/**
 * Whether a recomputation tells the students whose total changed (a "grade changed" notice,
 * src/notifications/events.ts): a rejudge, an extension or a staff edit does; a first verdict does not.
 */
export interface NotifyChanges {
  /** The clock (ms since the epoch). */
  nowMs: number;
}

/** Each student's total on an assignment (only `userId`'s when given). */
async function totals(db: Database, assignmentId: string, userId?: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: assignmentScores.userId, total: sql<number>`sum(${assignmentScores.score})` })
    .from(assignmentScores)
    .where(and(eq(assignmentScores.assignmentId, assignmentId), ...(userId ? [eq(assignmentScores.userId, userId)] : [])))
    .groupBy(assignmentScores.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.total)]));
}

/** Writes cells stamped with a fresh scores version (replacing every row first when `replaceAll`), in one transaction. */
async function writeCells(
  db: Database,
  assignmentId: string,
  cells: { userId: string; problemId: string; cell: Cell }[],
  replaceAll: boolean,
  notify?: NotifyChanges & { userId?: string },
): Promise<void> {
  const before = notify ? await totals(db, assignmentId, notify.userId) : null;
  const version = sql`(SELECT ${assignments.scoresVersion} FROM ${assignments} WHERE ${assignments.id} = ${assignmentId})`;
  const bump = db.update(assignments).set({ scoresVersion: sql`${assignments.scoresVersion} + 1` }).where(eq(assignments.id, assignmentId));
  const statements = [];
  if (replaceAll) statements.push(db.delete(assignmentScores).where(eq(assignmentScores.assignmentId, assignmentId)));
  for (let i = 0; i < cells.length; i += WRITE_CHUNK) {
    const chunk = cells.slice(i, i + WRITE_CHUNK).map((c) => ({
      assignmentId,
      userId: c.userId,
      problemId: c.problemId,
      score: c.cell.score,
      bestSubmissionId: c.cell.bestSubmissionId,
      bestVerdict: c.cell.bestVerdict as never,
      attempts: c.cell.attempts,
      late: c.cell.late,
      version,
    }));
    statements.push(
      db
        .insert(assignmentScores)
        .values(chunk as never)
        .onConflictDoUpdate({
          target: [assignmentScores.assignmentId, assignmentScores.userId, assignmentScores.problemId],
          set: {
            score: sql`excluded.score`,
            bestSubmissionId: sql`excluded.best_submission_id`,
            bestVerdict: sql`excluded.best_verdict`,
            attempts: sql`excluded.attempts`,
            late: sql`excluded.late`,
            version: sql`excluded.version`,
          },
        }),
    );
  }
  await db.batch([bump, ...statements]);
  ringGradebook(assignmentId);
  if (before && notify) {
    const after = await totals(db, assignmentId, notify.userId);
    const users = new Set([...before.keys(), ...after.keys()]);
    const changes = [...users].map((userId) => ({ userId, before: before.get(userId) ?? 0, after: after.get(userId) ?? 0 }));
    const [a] = await db.select({ version: assignments.scoresVersion }).from(assignments).where(eq(assignments.id, assignmentId));
    await notifyScoreChanges(db, assignmentId, changes, String(a?.version ?? notify.nowMs), notify.nowMs);
  }
}

/** Score rows of an assignment changed after `sinceVersion` (all rows for -1), and the version now. One query. */
export async function scoreRowsSince(db: Database, assignmentId: string, sinceVersion: number) {
  return db
    .select()
    .from(assignmentScores)
    .where(and(eq(assignmentScores.assignmentId, assignmentId), sql`${assignmentScores.version} > ${sinceVersion}`));
}

/** Removes the cells of problems no longer in an assignment. */
export async function dropCells(db: Database, assignmentId: string, problemIds: string[]): Promise<void> {
  if (!problemIds.length) return;
  await db.delete(assignmentScores).where(and(eq(assignmentScores.assignmentId, assignmentId), inArray(assignmentScores.problemId, problemIds)));
}

/** How far back a closed assignment still counts as active for start-up reconciliation, ms (14 days). */
export const ACTIVE_WINDOW_MS = 14 * 24 * 3_600_000;

/**
 * Recomputes every active assignment (not deleted; closing, or due, no more
 * than ACTIVE_WINDOW_MS ago, or never): a process that died between writing
 * a verdict and updating the gradebook leaves no stale score behind. Run when
 * a judging process starts.
 * @returns how many assignments were recomputed.
 */
export async function recomputeActiveAssignments(db: Database, now: number): Promise<number> {
  const rows = await db
    .select({ id: assignments.id, dueAt: assignments.dueAt, closesAt: assignments.closesAt })
    .from(assignments)
    .where(isNull(assignments.deletedAt));
  const active = rows.filter((a) => {
    const end = a.closesAt ?? a.dueAt;
    return end === null || end.getTime() >= now - ACTIVE_WINDOW_MS;
  });
  for (const a of active) await recomputeAssignment(db, a.id);
  return active.length;
}
