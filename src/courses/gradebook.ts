/**
 * The gradebook: students × problems of one assignment with each cell's best
 * score, verdict, attempts and late mark, kept current by ./scores.ts. Built
 * from three queries (students, problems, score rows) whatever the size; a
 * live stream then sends only the rows changed since the version it holds
 * (one query per update batch). Exports: CSV of the grades, and a zip of
 * every student's best submission per problem (for plagiarism tools).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import { zipSync, strToU8 } from "fflate";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments, courseMembers, problems, submissions, users } from "../../db/schema.ts";
import { getLanguage } from "../../isolate/languages/index.ts";
import type { Caller } from "../accounts/user.ts";
import { answerText, type AnswerKey } from "../i18n/answers.ts";
import type { LocaleTag } from "../i18n/locales.ts";
import { requireAssignment, type AssignmentRow } from "./access.ts";
import { waitGradebook } from "./events.ts";
import { scoreRowsSince } from "./scores.ts";
import { lateDayColumn, slotColumns, type GradebookSlot } from "./pools/gradebook-slots.ts";
import type { SubmissionShape } from "../submissions/shape.ts";
import { viewHistory } from "../submissions/view.ts";
import { effectiveSlot } from "./pools/slot-column.ts";

export interface GradebookCell {
  userId: string;
  problemId: string;
  score: number;
  verdict: string | null;
  attempts: number;
  late: boolean;
  bestSubmissionId: string | null;
}

export interface Gradebook {
  assignment: { id: string; courseId: string; title: string; dueAt: string | null };
  problems: { problemId: string; title: string; points: number; slot: number }[];
  /** One column per slot (issue 37 §3): a pool's problems share it; a student's cell there is the one of the problem given to them. */
  slots: GradebookSlot[];
  /** Per student, the problem of each slot given to them, in slot order. */
  drawn: Record<string, string[]>;
  /** The course's late days per student and the days each student spent on this assignment (absent: none). */
  lateDays: { allowed: number; spent: Record<string, number> };
  students: { userId: string; firstName: string; lastName: string; email: string }[];
  /** Only cells with at least one counted submission; a missing cell is "not attempted". */
  cells: GradebookCell[];
  /** Pass it to `gradebookChanges` to get what changes after this read. */
  version: number;
}

const toCell = (r: Awaited<ReturnType<typeof scoreRowsSince>>[number]): GradebookCell => ({
  userId: r.userId,
  problemId: r.problemId,
  score: r.score,
  verdict: r.bestVerdict,
  attempts: r.attempts,
  late: r.late,
  bestSubmissionId: r.bestSubmissionId,
});

async function problemsOf(db: Database, assignmentId: string) {
  return db
    .select({ problemId: assignmentProblems.problemId, title: problems.title, points: assignmentProblems.points, slot: effectiveSlot })
    .from(assignmentProblems)
    .innerJoin(problems, eq(problems.id, assignmentProblems.problemId))
    .where(eq(assignmentProblems.assignmentId, assignmentId))
    .orderBy(asc(assignmentProblems.ordinal));
}

async function studentsOf(db: Database, courseId: string) {
  return db
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(courseMembers)
    .innerJoin(users, eq(users.id, courseMembers.userId))
    .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.role, "student")))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
}

async function build(db: Database, a: AssignmentRow): Promise<Gradebook> {
  // The version is read before the rows: a change racing this read is sent again by the stream, never lost.
  const [v] = await db.select({ version: assignments.scoresVersion }).from(assignments).where(eq(assignments.id, a.id));
  const [ps, students, rows, lateDays] = await Promise.all([problemsOf(db, a.id), studentsOf(db, a.courseId), scoreRowsSince(db, a.id, -1), lateDayColumn(db, a)]);
  const studentIds = new Set(students.map((s) => s.userId));
  return {
    assignment: { id: a.id, courseId: a.courseId, title: a.title, dueAt: a.dueAt?.toISOString() ?? null },
    problems: ps,
    ...slotColumns(a.id, ps, [...studentIds]),
    lateDays,
    students,
    cells: rows.filter((r) => studentIds.has(r.userId)).map(toCell),
    version: v?.version ?? 0,
  };
}

/** The gradebook of an assignment. @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: grades.view). */
export async function readGradebook(db: Database, user: Caller, assignmentId: string, now: number): Promise<Gradebook> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "grades.view", now);
  return build(db, assignment);
}

/** How often a gradebook stream re-checks without a doorbell (changes made by another process), ms. */
export const GRADEBOOK_POLL_MS = 1000;

/**
 * Streams the cells that change after `version`: one query per batch, woken
 * by the assignment's doorbell (scores written in this process) or every
 * GRADEBOOK_POLL_MS. Ends when `signal` aborts.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: grades.view) before the first event.
 */
export async function* gradebookChanges(
  db: Database,
  user: Caller,
  assignmentId: string,
  version: number,
  now: () => number,
  signal?: AbortSignal,
): AsyncGenerator<{ version: number; cells: GradebookCell[] }> {
  await requireAssignment(db, user, assignmentId, "grades.view", now());
  let since = version;
  while (!signal?.aborted) {
    const rows = await scoreRowsSince(db, assignmentId, since);
    if (rows.length) {
      since = Math.max(...rows.map((r) => r.version));
      yield { version: since, cells: rows.map(toCell) };
      continue;
    }
    await waitGradebook(assignmentId, GRADEBOOK_POLL_MS, signal);
  }
}

/**
 * The grades as CSV: student id, email, name, each problem's score and late
 * flag, and the total. The header's labels and the "late" mark are in
 * `locale` (src/i18n/answers/<locale>.json: English `student_id,email,name,
 * <title> (<points>),<title> late,...,total`); the columns, their order, ids,
 * e-mail addresses and numbers (scores, points, totals as `12.5`) are the same
 * in every language. @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: grades.export).
 */
export async function gradesCsv(db: Database, user: Caller, assignmentId: string, now: number, locale: LocaleTag = "en"): Promise<string> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "grades.export", now);
  const g = await build(db, assignment);
  const cell = new Map(g.cells.map((c) => [`${c.userId}\u0000${c.problemId}`, c]));
  const words = (key: AnswerKey, values?: Record<string, string>) => answerText(locale, key, values);
  const late = words("grades.late");
  const titles = new Map(g.problems.map((p) => [p.problemId, p.title]));
  // One column per slot; a pool's (issue 37 §3) is named by its number and followed by the problem each student was given.
  const slotTitle = (s: GradebookSlot, i: number) => (s.problemIds.length > 1 ? words("grades.pool", { slot: String(i + 1) }) : titles.get(s.problemIds[0]!) ?? "");
  const showLateDays = g.lateDays.allowed > 0 || Object.keys(g.lateDays.spent).length > 0;
  const header = [
    words("grades.studentId"),
    words("grades.email"),
    words("grades.name"),
    ...g.slots.flatMap((s, i) => [
      words("grades.score", { problem: slotTitle(s, i), points: String(s.points) }),
      words("grades.lateColumn", { problem: slotTitle(s, i) }),
      ...(s.problemIds.length > 1 ? [words("grades.poolProblem", { pool: slotTitle(s, i) })] : []),
    ]),
    ...(showLateDays ? [words("grades.lateDays")] : []),
    words("grades.total"),
  ];
  const rows = g.students.map((s) => {
    let total = 0;
    const perSlot = g.slots.flatMap((slot, i) => {
      const problemId = g.drawn[s.userId]![i]!;
      const c = cell.get(`${s.userId}\u0000${problemId}`);
      total += c?.score ?? 0;
      return [c ? String(c.score) : "", c?.late ? late : "", ...(slot.problemIds.length > 1 ? [titles.get(problemId) ?? ""] : [])];
    });
    const lateDays = showLateDays ? [String(g.lateDays.spent[s.userId] ?? 0)] : [];
    return [s.userId, s.email, `${s.firstName} ${s.lastName}`.trim(), ...perSlot, ...lateDays, String(Math.round(total * 100) / 100)];
  });
  return stringify([header, ...rows].map((r) => r.map(spreadsheetSafe)));
}

/**
 * A cell a spreadsheet shows as text: one that starts with `=`, `+`, `-`, `@`,
 * a tab or a carriage return (a formula to Excel, LibreOffice and Sheets: a
 * student named `=HYPERLINK(...)`) gets a leading `'` (OWASP's CSV injection
 * advice). Scores are never negative, so numbers are untouched.
 */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** A safe path part: letters, digits, dot, dash, underscore, @. */
const part = (s: string) => s.replace(/[^\w.@-]+/g, "_").slice(0, 80) || "_";

/**
 * Every student's best submission per problem as a zip: `<email>/<problem>/<source file>`.
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: grades.export).
 */
export async function bestSubmissionsZip(db: Database, user: Caller, assignmentId: string, now: number): Promise<Uint8Array> {
  const { assignment } = await requireAssignment(db, user, assignmentId, "grades.export", now);
  const g = await build(db, assignment);
  const ids = g.cells.map((c) => c.bestSubmissionId).filter((id): id is string => id !== null);
  const subs = ids.length
    ? await db.select({ id: submissions.id, code: submissions.code, language: submissions.language }).from(submissions).where(inArray(submissions.id, ids))
    : [];
  const byId = new Map(subs.map((s) => [s.id, s]));
  const students = new Map(g.students.map((s) => [s.userId, s]));
  const titles = new Map(g.problems.map((p) => [p.problemId, p.title]));
  const files: Record<string, Uint8Array> = {};
  for (const c of g.cells) {
    const s = c.bestSubmissionId ? byId.get(c.bestSubmissionId) : undefined;
    const student = students.get(c.userId);
    if (!s || !student) continue;
    files[`${part(student.email)}/${part(titles.get(c.problemId) ?? c.problemId)}/${getLanguage(s.language).sourceFileName(s.code)}`] = strToU8(s.code);
  }
  return zipSync(files, { level: 6 });
}

/**
 * One student's submissions to a problem of the assignment, newest first (a
 * gradebook cell, for staff), each as the viewer may see it.
 * @throws AppError ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403: submission.readAll).
 */
export async function cellSubmissions(db: Database, viewer: Caller, assignmentId: string, userId: string, problemId: string, now: number): Promise<SubmissionShape[]> {
  await requireAssignment(db, viewer, assignmentId, "submission.readAll", now);
  const all = await viewHistory(db, viewer, userId, problemId, now);
  return all.filter((s) => s.assignmentId === assignmentId);
}
