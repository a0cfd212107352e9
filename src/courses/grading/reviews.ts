/**
 * Reviews of submissions (issue 37 §4, decision 076): staff pick rubric items
 * and write line comments on a course submission (`review.grade`), and
 * release it to the student (`review.release`: one submission here, or a
 * whole assignment with `releaseAssignment`). Until released the student is
 * told there is no review (404 REVIEW_NOT_FOUND: a draft's existence does not
 * show); after it, the review's grade is the gradebook cell's score
 * (./score.ts), so it reaches the CSV and the LMS (src/lti/grades.ts reads the
 * scores). Edits to a released review show at once; taking a release back
 * hides it again. Every change to a released grade recomputes the student's
 * cell and tells them (a `grade-changed` notice) when their total moves.
 */
import { and, asc, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { problems, regradeRequests, submissionReviews, type ReviewComment } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField, requiredText } from "../../lib/fields.ts";
import { requireAssignment } from "../access.ts";
import { recomputeAssignment, recomputeStudent } from "../scores.ts";
import { judgePointsOf, loadReviewable, requireRight, type Reviewable } from "./context.ts";
import { rubricOf, type Rubric } from "./rubrics.ts";
import { reviewedPoints } from "./score.ts";

/** Most line comments on one review; most characters of one. */
export const MAX_COMMENTS = 500;
export const MAX_COMMENT_CHARS = 2000;

/** PUT /api/submissions/:id/review: the whole review; `release` (teachers) releases it or takes the release back. */
export const reviewInput = z.object({
  id: idField(),
  itemIds: z.array(idField(), { error: "Must be a list" }).max(200, { error: "At most 200 items" }),
  comments: z
    .array(z.object({ line: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(1, { error: "At least 1" }), text: requiredText(MAX_COMMENT_CHARS) }), {
      error: "Must be a list",
    })
    .max(MAX_COMMENTS, { error: `At most ${MAX_COMMENTS} comments` }),
  /** The problem's points set by hand (an accepted regrade sets it too); null: the rubric's grade. */
  overridePoints: z.number({ error: "Must be a number" }).min(0, { error: "At least 0" }).nullable().optional(),
  release: z.boolean({ error: "Must be true or false" }).optional(),
});

/** A regrade request as a review shows it. */
export interface RegradeShape {
  id: string;
  submissionId: string;
  reason: string;
  status: "open" | "accepted" | "declined";
  answer: string | null;
  points: number | null;
  createdAt: string;
  answeredAt: string | null;
}

/** A review as its reader may see it (GET /api/submissions/:id/review). */
export interface ReviewView {
  viewer: "staff" | "student";
  /** What the caller may do here (the server checks again). */
  rights: { grade: boolean; release: boolean; editRubric: boolean; requestRegrade: boolean };
  submission: {
    id: string;
    assignmentId: string;
    assignmentTitle: string;
    courseId: string;
    problemId: string;
    problemTitle: string;
    language: string;
    code: string;
    verdict: string | null;
    createdAt: string;
    student: { userId: string; firstName: string; lastName: string };
  };
  rubric: Rubric;
  /** The problem's points in the assignment. */
  maxPoints: number;
  /** The judge's points for this submission (late penalty applied). */
  judgePoints: number;
  /** Null: no review yet (staff only; a student gets 404 instead). */
  review: { itemIds: string[]; comments: ReviewComment[]; overridePoints: number | null; releasedAt: string | null; updatedAt: string } | null;
  /** The reviewed grade (points), null without a review. */
  points: number | null;
  regradeRequests: RegradeShape[];
}

export const regradeShape = (r: typeof regradeRequests.$inferSelect): RegradeShape => ({
  id: r.id,
  submissionId: r.submissionId,
  reason: r.reason,
  status: r.status,
  answer: r.answer,
  points: r.points,
  createdAt: r.createdAt.toISOString(),
  answeredAt: r.answeredAt?.toISOString() ?? null,
});

async function reviewRow(db: Database, submissionId: string) {
  const [row] = await db.select().from(submissionReviews).where(eq(submissionReviews.submissionId, submissionId)).limit(1);
  return row ?? null;
}

async function view(db: Database, r: Reviewable): Promise<ReviewView> {
  const s = r.submission;
  const [row, rubric, judge, requests] = await Promise.all([
    reviewRow(db, s.id),
    rubricOf(db, r.assignment.id, s.problemId),
    judgePointsOf(db, r),
    db.select().from(regradeRequests).where(eq(regradeRequests.submissionId, s.id)).orderBy(asc(regradeRequests.createdAt)),
  ]);
  if (!r.staff && !row?.releasedAt) throw new AppError("REVIEW_NOT_FOUND");
  const pointsOf = new Map(rubric.items.map((i) => [i.id, i.points]));
  const itemIds = row ? row.itemIds.filter((id) => pointsOf.has(id)) : [];
  const can = (a: Parameters<typeof requireRight>[1]) => {
    try {
      requireRight(r, a);
      return true;
    } catch {
      return false;
    }
  };
  const open = requests.some((q) => q.status === "open");
  return {
    viewer: r.staff ? "staff" : "student",
    rights: {
      grade: can("review.grade"),
      release: can("review.release"),
      editRubric: can("rubric.edit"),
      // Only the submission's student asks (staff change the grade themselves).
      requestRegrade: !r.staff && !!row?.releasedAt && !open && !r.course.archivedAt,
    },
    submission: {
      id: s.id,
      assignmentId: r.assignment.id,
      assignmentTitle: r.assignment.title,
      courseId: r.course.id,
      problemId: s.problemId,
      problemTitle: r.problemTitle,
      language: s.language,
      code: s.code,
      verdict: s.verdict,
      createdAt: s.createdAt.toISOString(),
      student: r.student,
    },
    rubric,
    maxPoints: r.maxPoints,
    judgePoints: judge,
    review: row && {
      itemIds,
      comments: row.comments,
      overridePoints: row.overridePoints,
      releasedAt: row.releasedAt?.toISOString() ?? null,
      updatedAt: row.updatedAt.toISOString(),
    },
    points: row ? reviewedPoints({ mode: rubric.mode, itemPoints: itemIds.map((id) => pointsOf.get(id)!), overridePoints: row.overridePoints }, judge, r.maxPoints) : null,
    regradeRequests: requests.map(regradeShape),
  };
}

/**
 * The review of a submission: staff (`submission.readAll`) see drafts; its student only a released one.
 * @throws SUBMISSION_NOT_FOUND (404), REVIEW_NOT_FOUND (404: none released, for the student).
 */
export async function readReview(db: Database, user: Caller, submissionId: string, now: number): Promise<ReviewView> {
  return view(db, await loadReviewable(db, user, submissionId, now));
}

/**
 * Saves the whole review (staff: `review.grade`); `release` needs `review.release`. A released grade goes to the gradebook.
 * @throws SUBMISSION_NOT_FOUND (404), NOT_ASSIGNMENT_SUBMISSION (409), FORBIDDEN (403), COURSE_ARCHIVED (403),
 *   BAD_INPUT (400, field `itemIds.N`: not an item of the problem's rubric; `comments.N.line`: past the code's last line;
 *   `overridePoints`: more than the problem's points).
 */
export async function saveReview(db: Database, user: Caller, input: z.infer<typeof reviewInput>, now: number): Promise<ReviewView> {
  const r = await loadReviewable(db, user, input.id, now);
  if (!r.staff) throw new AppError("FORBIDDEN");
  requireRight(r, "review.grade");
  const before = await reviewRow(db, input.id);
  const wasReleased = !!before?.releasedAt;
  const release = input.release ?? wasReleased;
  if (release !== wasReleased) requireRight(r, "review.release");
  const rubric = await rubricOf(db, r.assignment.id, r.submission.problemId);
  const known = new Set(rubric.items.map((i) => i.id));
  input.itemIds.forEach((id, n) => {
    if (!known.has(id)) throw new AppError("BAD_INPUT", { field: `itemIds.${n}`, message: `itemIds.${n}: Not an item of this problem's rubric` });
  });
  const lines = r.submission.code.split("\n").length;
  input.comments.forEach((c, n) => {
    if (c.line > lines) throw new AppError("BAD_INPUT", { field: `comments.${n}.line`, message: `comments.${n}.line: At most ${lines}` });
  });
  const overridePoints = input.overridePoints === undefined ? (before?.overridePoints ?? null) : input.overridePoints;
  if (overridePoints !== null && overridePoints > r.maxPoints) throw new AppError("BAD_INPUT", { field: "overridePoints", message: `overridePoints: At most ${r.maxPoints}` });
  const values = {
    itemIds: [...new Set(input.itemIds)],
    comments: [...input.comments].sort((a, b) => a.line - b.line),
    overridePoints,
    reviewerId: user.id,
    releasedAt: release ? (before?.releasedAt ?? new Date(now)) : null,
    updatedAt: new Date(now),
  };
  await db
    .insert(submissionReviews)
    .values({ submissionId: input.id, assignmentId: r.assignment.id, problemId: r.submission.problemId, userId: r.submission.userId, ...values })
    .onConflictDoUpdate({ target: submissionReviews.submissionId, set: values });
  if (release || wasReleased) await recomputeStudent(db, r.assignment.id, r.submission.userId, r.submission.problemId, { nowMs: now });
  return view(db, r);
}

/** POST /api/assignments/:id/reviews/release `{problemId?}`. */
export const releaseAllInput = z.object({ assignmentId: idField(), problemId: idField().optional() });

/**
 * Releases every draft review of an assignment (of one problem when given) at once (`review.release`).
 * @returns how many reviews were released. @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403), COURSE_ARCHIVED (403).
 */
export async function releaseAssignment(db: Database, user: Caller, input: z.infer<typeof releaseAllInput>, now: number): Promise<{ released: number }> {
  await requireAssignment(db, user, input.assignmentId, "review.release", now);
  const drafts = and(
    eq(submissionReviews.assignmentId, input.assignmentId),
    isNull(submissionReviews.releasedAt),
    ...(input.problemId ? [eq(submissionReviews.problemId, input.problemId)] : []),
  );
  const done = await db.update(submissionReviews).set({ releasedAt: new Date(now) }).where(drafts).returning({ id: submissionReviews.submissionId });
  if (done.length) await recomputeAssignment(db, input.assignmentId, { nowMs: now });
  return { released: done.length };
}

/** Reviews of an assignment for staff (who is reviewed, drafts and released), newest first. @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403). */
export async function listReviews(db: Database, user: Caller, assignmentId: string, now: number) {
  await requireAssignment(db, user, assignmentId, "submission.readAll", now);
  const rows = await db
    .select({ submissionId: submissionReviews.submissionId, userId: submissionReviews.userId, problemId: submissionReviews.problemId, releasedAt: submissionReviews.releasedAt })
    .from(submissionReviews)
    .where(eq(submissionReviews.assignmentId, assignmentId));
  return rows.map((x) => ({ ...x, releasedAt: x.releasedAt?.toISOString() ?? null }));
}


/**
 * The caller's own released reviews on an assignment (a student's list), newest release first.
 * @throws ASSIGNMENT_NOT_FOUND (404).
 */
export async function myReviews(db: Database, user: Caller, assignmentId: string, now: number) {
  await requireAssignment(db, user, assignmentId, "course.view", now);
  const rows = await db
    .select({ submissionId: submissionReviews.submissionId, problemId: submissionReviews.problemId, problemTitle: problems.title, releasedAt: submissionReviews.releasedAt })
    .from(submissionReviews)
    .innerJoin(problems, eq(problems.id, submissionReviews.problemId))
    .where(and(eq(submissionReviews.assignmentId, assignmentId), eq(submissionReviews.userId, user.id), isNotNull(submissionReviews.releasedAt)))
    .orderBy(desc(submissionReviews.releasedAt));
  return rows.map((x) => ({ ...x, releasedAt: x.releasedAt!.toISOString() }));
}
