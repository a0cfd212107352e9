/**
 * The read side of submissions: one submission with its tests, and a user's
 * history for one problem. Writing submissions is the judge's
 * (src/judge/service.ts and the queue).
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, submissions, submissionTests } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { toSubmissionShape, type SubmissionShape, type SubmissionTestRow } from "./shape.ts";

/**
 * One submission with its finished tests, and whose it is.
 * @returns null when no such submission exists.
 */
export async function readSubmission(db: Database, id: string): Promise<{ userId: string; submission: SubmissionShape } | null> {
  const row = await db.query.submissions.findFirst({ where: eq(submissions.id, id) });
  if (!row) return null;
  const [problem] = await db
    .select({ title: problems.title, deletedAt: problems.deletedAt })
    .from(problems)
    .where(eq(problems.id, row.problemId))
    .limit(1);
  const tests = await db.select().from(submissionTests).where(eq(submissionTests.submissionId, id)).orderBy(asc(submissionTests.index));
  return { userId: row.userId, submission: toSubmissionShape(row, problem, tests) };
}

/**
 * A user's submissions to one problem, newest first, with their tests. Works
 * for deleted problems (history stays readable).
 * @throws AppError PROBLEM_NOT_FOUND (404) when no such problem ever existed.
 */
export async function listUserSubmissions(db: Database, userId: string, problemId: string): Promise<SubmissionShape[]> {
  const [problem] = await db
    .select({ id: problems.id, title: problems.title, deletedAt: problems.deletedAt })
    .from(problems)
    .where(eq(problems.id, problemId))
    .limit(1);
  if (!problem) throw new AppError("PROBLEM_NOT_FOUND");
  const rows = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.userId, userId), eq(submissions.problemId, problemId)))
    .orderBy(desc(submissions.createdAt), desc(submissions.id));
  const tests = rows.length
    ? await db
        .select()
        .from(submissionTests)
        .where(
          inArray(
            submissionTests.submissionId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(submissionTests.submissionId), asc(submissionTests.index))
    : [];
  const bySubmission = new Map<string, SubmissionTestRow[]>();
  for (const t of tests) {
    const list = bySubmission.get(t.submissionId) ?? [];
    list.push(t);
    bySubmission.set(t.submissionId, list);
  }
  return rows.map((r) => toSubmissionShape(r, problem, bySubmission.get(r.id) ?? []));
}
