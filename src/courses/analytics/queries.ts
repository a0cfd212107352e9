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
      INSERT INTO assignment_analytics_cells (assignment_id, problem_id, user_id, attempts, first_at, first_ac_at, attempts_before_ac, solve_ms, last_failed_at, ${verdictColumns})
      SELECT ${assignmentId}, p, u, count(*), min(t), min(CASE WHEN v = 'AC' THEN t END),
        sum(v <> 'AC' AND coalesce(acs_before, 0) = 0), min(CASE WHEN v = 'AC' THEN t END) - min(t), max(CASE WHEN v <> 'AC' THEN t END), ${verdictSums}
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

/**
 * Per problem with any counted submission: started, solved, the attempts
 * histogram and the verdict mix (one statement); the median attempts before
 * the first AC from each problem's frequencies (attempts are small numbers);
 * the median time to solve read at its rank along
 * `assignment_analytics_cells_solve_idx` (one short statement per problem).
 */
export async function problemRows(db: Database, assignmentId: string, courseId: string): Promise<ProblemRow[]> {
  const bucketSums = ATTEMPT_BUCKETS.map((b, i) => `sum(first_ac_at IS NOT NULL AND attempts_before_ac >= ${b.min}${b.max === null ? "" : ` AND attempts_before_ac <= ${b.max}`}) AS b${i}`).join(", ");
  const verdictSums = CELL_VERDICTS.map((v) => `sum(${v.toLowerCase()}) AS v_${v}`).join(", ");
  const cells = countsFor("assignment_analytics_cells", assignmentId, courseId);
  const [rows, frequencies] = await Promise.all([
    db.all<Record<string, number | string | null>>(sql`
      SELECT problem_id AS p, count(*) AS started, count(first_ac_at) AS solved, ${sql.raw(bucketSums)}, ${sql.raw(verdictSums)}
      FROM assignment_analytics_cells WHERE ${cells} GROUP BY problem_id`),
    db.all<{ p: string; k: number; n: number }>(sql`
      SELECT problem_id AS p, attempts_before_ac AS k, count(*) AS n FROM assignment_analytics_cells
      WHERE ${cells} AND first_ac_at IS NOT NULL GROUP BY problem_id, attempts_before_ac ORDER BY problem_id, attempts_before_ac`),
  ]);
  const out: ProblemRow[] = [];
  for (const r of rows) {
    const solved = Number(r.solved);
    let medianSolveMs: number | null = null;
    if (solved > 0) {
      const [m] = await db.all<{ m: number }>(sql`
        SELECT avg(solve_ms) AS m FROM (
          SELECT solve_ms FROM assignment_analytics_cells INDEXED BY assignment_analytics_cells_solve_idx
          WHERE ${cells} AND problem_id = ${String(r.p)} AND solve_ms IS NOT NULL
          ORDER BY solve_ms LIMIT ${2 - (solved % 2)} OFFSET ${Math.floor((solved - 1) / 2)})`);
      medianSolveMs = m ? Number(m.m) : null;
    }
    out.push({
      p: String(r.p),
      started: Number(r.started),
      solved,
      buckets: ATTEMPT_BUCKETS.map((_, i) => Number(r[`b${i}`] ?? 0)),
      verdicts: Object.fromEntries(CELL_VERDICTS.map((v) => [v, Number(r[`v_${v}`] ?? 0)])) as ProblemRow["verdicts"],
      medianAttempts: medianOfFrequencies(frequencies.filter((f) => f.p === r.p).map((f) => ({ value: Number(f.k), count: Number(f.n) }))),
      medianSolveMs,
    });
  }
  return out;
}

/** The median of values given as (value, count) pairs in ascending order (the mean of the middle two for an even total); null for none. */
export function medianOfFrequencies(pairs: readonly { value: number; count: number }[]): number | null {
  const total = pairs.reduce((n, p) => n + p.count, 0);
  if (total === 0) return null;
  const at = (rank: number) => {
    let seen = 0;
    for (const p of pairs) if ((seen += p.count) > rank) return p.value;
    return pairs[pairs.length - 1]!.value;
  };
  return total % 2 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
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
