/**
 * What a similarity report is about: an assignment (course staff) or a
 * contest (its jury), and the problems in it. The permission asked is
 * `similarity.review` of the course table or the contest table
 * (src/courses/permissions.ts, src/contests/permissions.ts): students, teams
 * and the public never get past here, whichever door they knock on.
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, contestProblems, problems } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireContest } from "../contests/access.ts";
import { requireAssignment } from "../courses/access.ts";
import { slotLabels } from "../courses/pools/draw.ts";
import { AppError } from "../errors.ts";
import { effectiveSlot } from "../courses/pools/slot-column.ts";

export type ScopeKind = "assignment" | "contest";

export interface Scope {
  kind: ScopeKind;
  id: string;
  title: string;
  /** The course (assignments and course contests), for the gradebook link; null for a public contest. */
  courseId: string | null;
  /** The scope's problems in order, with their labels ("1", "2" for an assignment; "A", "B" for a contest). */
  problems: { id: string; title: string; label: string }[];
}

/**
 * The scope, checked for `similarity.review`.
 * @throws ASSIGNMENT_NOT_FOUND / CONTEST_NOT_FOUND (404) when hidden from the caller; FORBIDDEN (403) for a member who may not review (a student, a team).
 */
export async function requireScope(db: Database, user: Caller, kind: ScopeKind, id: string, now: number): Promise<Scope> {
  if (kind === "assignment") {
    const { assignment, course } = await requireAssignment(db, user, id, "similarity.review", now);
    const rows = await db
      .select({ id: problems.id, title: problems.title, ordinal: assignmentProblems.ordinal, slot: effectiveSlot })
      .from(assignmentProblems)
      .innerJoin(problems, eq(problems.id, assignmentProblems.problemId))
      .where(eq(assignmentProblems.assignmentId, assignment.id))
      .orderBy(asc(assignmentProblems.ordinal));
    // Labelled by slot ("2a", "2b" for a pool's problems: src/courses/pools/draw.ts).
    const labels = slotLabels(rows.map((r) => ({ problemId: r.id, slot: r.slot })));
    return { kind, id: assignment.id, title: assignment.title, courseId: course.id, problems: rows.map((r) => ({ id: r.id, title: r.title, label: labels.get(r.id)! })) };
  }
  const { contest } = await requireContest(db, user, id, "similarity.review");
  const rows = await db
    .select({ id: problems.id, title: problems.title, label: contestProblems.label })
    .from(contestProblems)
    .innerJoin(problems, eq(problems.id, contestProblems.problemId))
    .where(eq(contestProblems.contestId, contest.id))
    .orderBy(asc(contestProblems.ordinal));
  return { kind, id: contest.id, title: contest.title, courseId: contest.courseId, problems: rows };
}

/** The problem asked for, which must be one of the scope's. @throws BAD_INPUT (400, field problemId). */
export function scopeProblem(scope: Scope, problemId: string | undefined): string | null {
  if (problemId === undefined) return null;
  if (!scope.problems.some((p) => p.id === problemId)) {
    throw new AppError("BAD_INPUT", { field: "problemId", message: `problemId: not a problem of this ${scope.kind}` });
  }
  return problemId;
}
