/**
 * The read side of submissions: one submission with its tests, and a user's
 * history (of one problem, or of every problem), each with where it was made
 * (practice, assignment or contest, with its title). Writing submissions is
 * the judge's (src/judge/service.ts and the queue).
 */
import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignments, contests, problems, submissions, submissionTests } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { SubmissionRow } from "./row.ts";
import { toSubmissionShape, type SubmissionShape, type SubmissionTestRow } from "./shape.ts";

/** Most submissions one history answer holds (newest first). */
export const HISTORY_MAX = 200;

/** A history entry with the course of its problem (for the feedback policy), null for a public problem. */
export interface HistoryEntry {
  submission: SubmissionShape;
  courseId: string | null;
}

interface Titles {
  problems: Map<string, { title: string; deletedAt: Date | null; courseId: string | null }>;
  assignments: Map<string, string>;
  contests: Map<string, string>;
}

/** The titles of the problems, assignments and contests `rows` refer to, in three reads. */
async function titlesOf(db: Database, rows: SubmissionRow[]): Promise<Titles> {
  const ids = (pick: (r: SubmissionRow) => string | null) => [...new Set(rows.map(pick).filter((x): x is string => x !== null))];
  const problemIds = ids((r) => r.problemId);
  const assignmentIds = ids((r) => r.assignmentId);
  const contestIds = ids((r) => r.contestId);
  const [p, a, c] = await Promise.all([
    problemIds.length
      ? db.select({ id: problems.id, title: problems.title, deletedAt: problems.deletedAt, courseId: problems.courseId }).from(problems).where(inArray(problems.id, problemIds))
      : [],
    assignmentIds.length ? db.select({ id: assignments.id, title: assignments.title }).from(assignments).where(inArray(assignments.id, assignmentIds)) : [],
    contestIds.length ? db.select({ id: contests.id, title: contests.title }).from(contests).where(inArray(contests.id, contestIds)) : [],
  ]);
  return {
    problems: new Map(p.map((x) => [x.id, x])),
    assignments: new Map(a.map((x) => [x.id, x.title])),
    contests: new Map(c.map((x) => [x.id, x.title])),
  };
}

function shapeOf(row: SubmissionRow, titles: Titles, tests: SubmissionTestRow[]): SubmissionShape {
  return toSubmissionShape(row, titles.problems.get(row.problemId), tests, {
    assignment: row.assignmentId ? titles.assignments.get(row.assignmentId) : null,
    contest: row.contestId ? titles.contests.get(row.contestId) : null,
  });
}

/**
 * One submission with its finished tests, and whose it is.
 * @returns null when no such submission exists.
 */
export async function readSubmission(db: Database, id: string): Promise<{ userId: string; submission: SubmissionShape } | null> {
  const row = await db.query.submissions.findFirst({ where: eq(submissions.id, id) });
  if (!row) return null;
  const titles = await titlesOf(db, [row]);
  const tests = await db.select().from(submissionTests).where(eq(submissionTests.submissionId, id)).orderBy(asc(submissionTests.index));
  return { userId: row.userId, submission: shapeOf(row, titles, tests) };
}

/**
 * A user's submissions, newest first, with their tests and the course of
 * each problem: all of them to one problem when `problemId` is given (works
 * for deleted problems: history stays readable), else the newest HISTORY_MAX to every problem.
 * @throws AppError PROBLEM_NOT_FOUND (404) when `problemId` names no problem that ever existed.
 */
export async function listUserHistory(db: Database, userId: string, problemId: string | null): Promise<HistoryEntry[]> {
  if (problemId !== null) {
    const [problem] = await db.select({ id: problems.id }).from(problems).where(eq(problems.id, problemId)).limit(1);
    if (!problem) throw new AppError("PROBLEM_NOT_FOUND");
  }
  const where: SQL | undefined = problemId !== null ? and(eq(submissions.userId, userId), eq(submissions.problemId, problemId)) : eq(submissions.userId, userId);
  const rows = await db.select().from(submissions).where(where).orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(problemId !== null ? -1 : HISTORY_MAX);
  if (!rows.length) return [];
  const [titles, tests] = await Promise.all([
    titlesOf(db, rows),
    db
      .select()
      .from(submissionTests)
      .where(
        inArray(
          submissionTests.submissionId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(submissionTests.submissionId), asc(submissionTests.index)),
  ]);
  const bySubmission = new Map<string, SubmissionTestRow[]>();
  for (const t of tests) {
    const list = bySubmission.get(t.submissionId) ?? [];
    list.push(t);
    bySubmission.set(t.submissionId, list);
  }
  return rows.map((r) => ({ submission: shapeOf(r, titles, bySubmission.get(r.id) ?? []), courseId: titles.problems.get(r.problemId)?.courseId ?? null }));
}

/**
 * A user's submissions to one problem, newest first, with their tests. Works
 * for deleted problems (history stays readable).
 * @throws AppError PROBLEM_NOT_FOUND (404) when no such problem ever existed.
 */
export async function listUserSubmissions(db: Database, userId: string, problemId: string): Promise<SubmissionShape[]> {
  return (await listUserHistory(db, userId, problemId)).map((e) => e.submission);
}
