/**
 * Who-is-stuck analytics of one assignment, for course staff (`analytics.view`):
 * per problem the students not started, attempting and solved, the attempts
 * before the first AC, the verdict mix, the median time to solve and the hidden
 * test most often failed first; and the students stuck in the last hour or day.
 * Read as SQL aggregates (./queries.ts); definitions in ./rules.ts (decision 078).
 * A live stream sends the whole analytics again after each verdict.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { assignmentAnalyticsBuilt, assignmentProblems, assignments, courseMembers, problems } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { requireAssignment, type AssignmentRow } from "../access.ts";
import { waitGradebook } from "../events.ts";
import { failedTestRows, problemRows, refreshCells, stuckRows } from "./queries.ts";
import { ATTEMPT_BUCKETS, STUCK_WINDOWS_MS, type AnalyticsOptions, type AssignmentAnalytics, type ProblemAnalytics } from "./rules.ts";

async function scoresVersion(db: Database, assignmentId: string): Promise<number> {
  const [v] = await db.select({ version: assignments.scoresVersion }).from(assignments).where(eq(assignments.id, assignmentId));
  return v?.version ?? 0;
}

/**
 * After a verdict on a submission that counts for an assignment: its author's
 * summary row for the problem is rewritten (src/courses/judging.ts calls it
 * before the gradebook's recompute, whose doorbell wakes the live analytics).
 */
export async function refreshAnalyticsAfterJudged(db: Database, s: { assignmentId: string | null; userId: string; problemId: string }): Promise<void> {
  if (s.assignmentId) await refreshCells(db, s.assignmentId, { userId: s.userId, problemId: s.problemId });
}

/**
 * Builds the assignment's summary rows from all its submissions the first time
 * its analytics are read (an assignment judged before migration 0042, or whose
 * rows were never read); verdicts keep them current afterwards.
 */
async function ensureBuilt(db: Database, assignmentId: string, nowMs: number): Promise<void> {
  const [built] = await db.select({ id: assignmentAnalyticsBuilt.assignmentId }).from(assignmentAnalyticsBuilt).where(eq(assignmentAnalyticsBuilt.assignmentId, assignmentId));
  if (built) return;
  await refreshCells(db, assignmentId);
  await db.insert(assignmentAnalyticsBuilt).values({ assignmentId, builtAt: new Date(nowMs) }).onConflictDoNothing();
}

/** The analytics of an assignment already checked for the caller. */
export async function computeAnalytics(db: Database, a: AssignmentRow, options: AnalyticsOptions, nowMs: number): Promise<AssignmentAnalytics> {
  // The version is read first: a verdict racing this read bumps it again, so a stream never misses it.
  const version = await scoresVersion(db, a.id);
  await ensureBuilt(db, a.id, nowMs);
  const [ps, [count], rows, failed] = await Promise.all([
    db
      .select({ problemId: assignmentProblems.problemId, title: problems.title })
      .from(assignmentProblems)
      .innerJoin(problems, eq(problems.id, assignmentProblems.problemId))
      .where(eq(assignmentProblems.assignmentId, a.id))
      .orderBy(asc(assignmentProblems.ordinal)),
    db.select({ n: sql<number>`count(*)` }).from(courseMembers).where(and(eq(courseMembers.courseId, a.courseId), eq(courseMembers.role, "student"))),
    problemRows(db, a.id, a.courseId),
    failedTestRows(db, a.id, a.courseId),
  ]);
  const sinceMs = nowMs - STUCK_WINDOWS_MS[options.window];
  const stuck = await stuckRows(db, a.id, a.courseId, sinceMs, nowMs, options.minFailed);
  const students = Number(count?.n ?? 0);
  const byProblem = new Map(rows.map((r) => [r.p, r]));
  const problemsOut: ProblemAnalytics[] = ps.map((p) => {
    const r = byProblem.get(p.problemId);
    const tests = failed.filter((f) => f.p === p.problemId).map((f) => ({ testIndex: f.testIndex, submissions: f.n }));
    const top = tests.reduce<{ testIndex: number; submissions: number } | null>((best, f) => (!best || f.submissions > best.submissions ? f : best), null);
    const started = r?.started ?? 0;
    const solved = r?.solved ?? 0;
    return {
      problemId: p.problemId,
      title: p.title,
      notStarted: Math.max(0, students - started),
      attempting: started - solved,
      solved,
      attemptsBeforeAc: ATTEMPT_BUCKETS.map((b, i) => ({ min: b.min, max: b.max, students: r?.buckets[i] ?? 0 })),
      medianAttemptsBeforeAc: r?.medianAttempts ?? null,
      medianTimeToSolveMs: r?.medianSolveMs ?? null,
      verdicts: r
        ? Object.entries(r.verdicts)
            .filter(([, n]) => n > 0)
            .map(([verdict, n]) => ({ verdict: verdict as keyof typeof r.verdicts, submissions: n }))
            .sort((x, y) => y.submissions - x.submissions)
        : [],
      failedTests: tests,
      topFailedTest: top?.testIndex ?? null,
    };
  });
  return {
    assignment: { id: a.id, courseId: a.courseId, title: a.title },
    students,
    problems: problemsOut,
    stuck: {
      window: options.window,
      minFailed: options.minFailed,
      since: new Date(sinceMs).toISOString(),
      until: new Date(nowMs).toISOString(),
      students: stuck.map((s) => ({
        userId: s.userId,
        firstName: s.firstName,
        lastName: s.lastName,
        email: s.email,
        problemId: s.problemId,
        failedInWindow: s.failed,
        lastVerdict: s.lastVerdict,
        lastSubmittedAt: new Date(s.lastAt).toISOString(),
      })),
    },
    version,
    computedAt: new Date(nowMs).toISOString(),
  };
}

/**
 * An assignment's analytics for course staff.
 * @throws AppError ASSIGNMENT_NOT_FOUND (404: absent, deleted, or the caller is not in its course), FORBIDDEN (403: analytics.view, e.g. a student).
 */
export async function readAnalytics(db: Database, user: Caller, assignmentId: string, options: AnalyticsOptions, nowMs: number): Promise<AssignmentAnalytics> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "analytics.view", nowMs);
  return computeAnalytics(db, assignment, options, nowMs);
}

/** How often a stream checks for verdicts judged by another process, ms. */
export const ANALYTICS_POLL_MS = 1000;
/** A stream sends the analytics again at least this often, ms: the stuck window slides with the clock. */
export const ANALYTICS_REFRESH_MS = 30_000;
/** The least time between two sends while verdicts pour in, ms (a lab of 200 submitting at once). */
export const ANALYTICS_MIN_GAP_MS = 1000;

/**
 * The analytics now and again after each verdict (the assignment's scores
 * version moves: this process's gradebook doorbell, or a poll every
 * ANALYTICS_POLL_MS for another process's), at most once per
 * ANALYTICS_MIN_GAP_MS, and every ANALYTICS_REFRESH_MS. Ends when `signal` aborts.
 * @throws AppError ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: analytics.view) before the first event.
 */
export async function* analyticsChanges(
  db: Database,
  user: Caller,
  assignmentId: string,
  options: AnalyticsOptions,
  now: () => number,
  signal?: AbortSignal,
): AsyncGenerator<AssignmentAnalytics> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "analytics.view", now());
  let sent = await computeAnalytics(db, assignment, options, now());
  yield sent;
  let sentAt = Date.now();
  while (!signal?.aborted) {
    await waitGradebook(assignmentId, ANALYTICS_POLL_MS, signal);
    if (signal?.aborted) break;
    const due = Date.now() - sentAt >= ANALYTICS_REFRESH_MS;
    if (!due && (await scoresVersion(db, assignmentId)) === sent.version) continue;
    const gap = ANALYTICS_MIN_GAP_MS - (Date.now() - sentAt);
    if (gap > 0) await new Promise((r) => setTimeout(r, gap));
    if (signal?.aborted) break;
    sent = await computeAnalytics(db, assignment, options, now());
    sentAt = Date.now();
    yield sent;
  }
}
