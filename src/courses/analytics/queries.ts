/**
 * The analytics' SQL. Two layers (decision 078):
 * - `refreshCells` rewrites the per-(assignment, problem, author) summary rows
 *   (assignment_analytics_cells, assignment_analytics_tests) from the counted
 *   submissions, with one INSERT … SELECT each: for one cell after a verdict,
 *   or for a whole assignment the first time its analytics are read. The
 *   submissions are read through the covering index
 *   `submissions_assignment_analytics_idx` (migration 0042).
 * - the reads aggregate those rows (a few per student) in SQL: one row back per
 *   problem, per (problem, test), per stuck student. The stuck list counts the
 *   window's failures from the index only for cells that may qualify.
 * No submission row is loaded into JavaScript. Definitions: ./rules.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import type { VerdictCode } from "../../verdicts.ts";
import { ATTEMPT_BUCKETS, STUCK_LIST_MAX } from "./rules.ts";

/** Counted submissions (./rules.ts, before the student and problem filters, applied when read) of an assignment or one cell. */
function counted(assignmentId: string, cell?: { userId: string; problemId: string }): SQL {
  return sql`SELECT s.problem_id AS p, s.user_id AS u, s.created_at AS t, s.verdict AS v, s.id AS id
    FROM submissions s INDEXED BY submissions_assignment_analytics_idx
    WHERE s.assignment_id = ${assignmentId} ${cell ? sql`AND s.problem_id = ${cell.problemId} AND s.user_id = ${cell.userId}` : sql``}
      AND s.status = 'done' AND s.verdict IS NOT NULL AND s.verdict <> 'IE'`;
}

/** The verdicts kept as columns of a cell (IE is not counted). */
export const CELL_VERDICTS = ["AC", "WA", "TLE", "MLE", "RE", "CE", "OLE"] as const satisfies readonly VerdictCode[];

/**
 * Rewrites the summary rows of an assignment (all of them, or one student's
 * problem) from its counted submissions, in one transaction.
 */
export async function refreshCells(db: Database, assignmentId: string, cell?: { userId: string; problemId: string }): Promise<void> {
  const where = cell ? sql`assignment_id = ${assignmentId} AND problem_id = ${cell.problemId} AND user_id = ${cell.userId}` : sql`assignment_id = ${assignmentId}`;
  const verdictColumns = sql.raw(CELL_VERDICTS.map((v) => v.toLowerCase()).join(", "));
  const verdictSums = sql.raw(CELL_VERDICTS.map((v) => `sum(v = '${v}')`).join(", "));
  await db.batch([
    db.run(sql`DELETE FROM assignment_analytics_cells WHERE ${where}`),
    db.run(sql`DELETE FROM assignment_analytics_tests WHERE ${where}`),
    db.run(sql`
      INSERT INTO assignment_analytics_cells (assignment_id, problem_id, user_id, attempts, first_at, first_ac_at, attempts_before_ac, last_failed_at, ${verdictColumns})
      SELECT ${assignmentId}, p, u, count(*), min(t), min(CASE WHEN v = 'AC' THEN t END),
        sum(v <> 'AC' AND coalesce(acs_before, 0) = 0), max(CASE WHEN v <> 'AC' THEN t END), ${verdictSums}
      FROM (
        SELECT p, u, t, v, sum(v = 'AC') OVER (PARTITION BY p, u ORDER BY t, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS acs_before
        FROM (${counted(assignmentId, cell)})
      ) GROUP BY p, u`),
    db.run(sql`
      INSERT INTO assignment_analytics_tests (assignment_id, problem_id, user_id, test_index, submissions)
      SELECT ${assignmentId}, c.p, c.u, f.test_index, count(*)
      FROM (${counted(assignmentId, cell)}) c JOIN submission_failures f ON f.submission_id = c.id
      WHERE c.v <> 'AC' GROUP BY c.p, c.u, f.test_index`),
  ]);
}

/** Rows of the summary tables that count: the assignment's problems, the course's students. */
const countsFor = (table: string, assignmentId: string, courseId: string) =>
  sql`${sql.raw(table)}.assignment_id = ${assignmentId}
    AND ${sql.raw(table)}.problem_id IN (SELECT problem_id FROM assignment_problems WHERE assignment_id = ${assignmentId})
    AND ${sql.raw(table)}.user_id IN (SELECT user_id FROM course_members WHERE course_id = ${courseId} AND role = 'student')`;

export interface ProblemRow {
  p: string;
  started: number;
  solved: number;
  /** Solvers per ATTEMPT_BUCKETS entry. */
  buckets: number[];
  /** Counted submissions per verdict. */
  verdicts: Record<(typeof CELL_VERDICTS)[number], number>;
  medianAttempts: number | null;
  medianSolveMs: number | null;
}

const median = (column: string) =>
  sql.raw(`SELECT p, avg(x) AS m FROM (
    SELECT p, ${column} AS x, row_number() OVER (PARTITION BY p ORDER BY ${column}) AS rn, count(*) OVER (PARTITION BY p) AS n
    FROM cell WHERE ac_at IS NOT NULL) WHERE rn IN ((n + 1) / 2, (n + 2) / 2) GROUP BY p`);

/** Per problem with any counted submission: started, solved, the attempts histogram, the verdict mix and both medians. One statement. */
export async function problemRows(db: Database, assignmentId: string, courseId: string): Promise<ProblemRow[]> {
  const bucketSums = ATTEMPT_BUCKETS.map((b, i) => `sum(ac_at IS NOT NULL AND k >= ${b.min}${b.max === null ? "" : ` AND k <= ${b.max}`}) AS b${i}`).join(", ");
  const verdictSums = CELL_VERDICTS.map((v) => `sum(${v.toLowerCase()}) AS v_${v}`).join(", ");
  const rows = await db.all<Record<string, number | string | null>>(sql`
    WITH cell AS MATERIALIZED (
      SELECT problem_id AS p, first_at, first_ac_at AS ac_at, attempts_before_ac AS k, ${sql.raw(CELL_VERDICTS.map((v) => v.toLowerCase()).join(", "))}
      FROM assignment_analytics_cells WHERE ${countsFor("assignment_analytics_cells", assignmentId, courseId)}
    ),
    agg AS (SELECT p, count(*) AS started, count(ac_at) AS solved, ${sql.raw(bucketSums)}, ${sql.raw(verdictSums)} FROM cell GROUP BY p),
    med_k AS (${median("k")}),
    med_d AS (${median("ac_at - first_at")})
    SELECT agg.*, med_k.m AS median_attempts, med_d.m AS median_solve_ms
    FROM agg LEFT JOIN med_k ON med_k.p = agg.p LEFT JOIN med_d ON med_d.p = agg.p`);
  return rows.map((r) => ({
    p: String(r.p),
    started: Number(r.started),
    solved: Number(r.solved),
    buckets: ATTEMPT_BUCKETS.map((_, i) => Number(r[`b${i}`] ?? 0)),
    verdicts: Object.fromEntries(CELL_VERDICTS.map((v) => [v, Number(r[`v_${v}`] ?? 0)])) as ProblemRow["verdicts"],
    medianAttempts: r.median_attempts === null ? null : Number(r.median_attempts),
    medianSolveMs: r.median_solve_ms === null ? null : Number(r.median_solve_ms),
  }));
}

/** Failed counted submissions per problem and first failing hidden test. */
export async function failedTestRows(db: Database, assignmentId: string, courseId: string): Promise<{ p: string; testIndex: number; n: number }[]> {
  const rows = await db.all<{ p: string; test_index: number; n: number }>(sql`
    SELECT problem_id AS p, test_index, sum(submissions) AS n FROM assignment_analytics_tests
    WHERE ${countsFor("assignment_analytics_tests", assignmentId, courseId)}
    GROUP BY problem_id, test_index ORDER BY problem_id, test_index`);
  return rows.map((r) => ({ p: r.p, testIndex: Number(r.test_index), n: Number(r.n) }));
}

export interface StuckRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  problemId: string;
  failed: number;
  lastVerdict: VerdictCode;
  lastAt: number;
}

/**
 * Students with at least `minFailed` failed counted submissions to a problem
 * made in (sinceMs, untilMs] and no AC on it at all: the most failed first,
 * then the latest, at most STUCK_LIST_MAX. Only cells that may qualify (no AC,
 * a failure after `sinceMs`, enough attempts) are counted from the index.
 */
export async function stuckRows(db: Database, assignmentId: string, courseId: string, sinceMs: number, untilMs: number, minFailed: number): Promise<StuckRow[]> {
  // The latest failure in the window as "time|verdict" (zero-padded, so the text maximum is the latest).
  const rows = await db.all<{ u: string; p: string; failed: number; last: string; first_name: string; last_name: string; email: string }>(sql`
    SELECT w.u, w.p, w.failed, w.last, users.first_name, users.last_name, users.email FROM (
      SELECT c.user_id AS u, c.problem_id AS p, count(*) AS failed, max(printf('%015d|%s', s.created_at, s.verdict)) AS last
      FROM assignment_analytics_cells c
      JOIN submissions s INDEXED BY submissions_assignment_analytics_idx
        ON s.assignment_id = c.assignment_id AND s.problem_id = c.problem_id AND s.user_id = c.user_id
        AND s.created_at > ${sinceMs} AND s.created_at <= ${untilMs}
        AND s.status = 'done' AND s.verdict IS NOT NULL AND s.verdict NOT IN ('AC', 'IE')
      WHERE ${countsFor("c", assignmentId, courseId)} AND c.first_ac_at IS NULL AND c.last_failed_at > ${sinceMs} AND c.attempts >= ${minFailed}
      GROUP BY c.user_id, c.problem_id
    ) w JOIN users ON users.id = w.u
    WHERE w.failed >= ${minFailed}
    ORDER BY w.failed DESC, w.last DESC, users.last_name, users.first_name
    LIMIT ${STUCK_LIST_MAX}`);
  return rows.map((r) => ({
    userId: r.u,
    problemId: r.p,
    failed: Number(r.failed),
    lastAt: Number(r.last.slice(0, 15)),
    lastVerdict: r.last.slice(16) as VerdictCode,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
  }));
}
