/**
 * The arithmetic of a reviewed grade (issue 37 §4, decision 076), pure:
 *
 * - a submission's judge points: raw score (all-or-nothing or partial) × late
 *   factor × the problem's points, rounded to 0.01 (what ../scores.ts uses for
 *   every cell);
 * - a reviewed grade: the override an accepted regrade set, else the judge
 *   points plus the picked items' points (rubric mode `add`), else the picked
 *   items' points alone (mode `replace`); clamped to [0, the problem's points]
 *   and rounded to 0.01 points;
 * - the gradebook cell of a student and problem with a released review: the
 *   reviewed grade of the reviewed submission, whatever their other submissions
 *   scored (staff graded that one).
 */
import { countsAt, lateFactor, rawScore, type StudentWindow } from "../deadlines.ts";

export const RUBRIC_MODES = ["add", "replace"] as const;
/** `add`: picked items are added to the judge's score; `replace`: they are the score. */
export type RubricMode = (typeof RUBRIC_MODES)[number];

/** One judged submission as scoring reads it (createdAt in ms since the epoch). */
export interface JudgedSubmission {
  id: string;
  verdict: string | null;
  createdAt: number;
  hiddenPassed: number;
  hiddenTotal: number;
  score?: number | null;
  maxScore?: number | null;
}

/** The assignment's scoring settings the arithmetic needs. */
export interface ScoringSettings {
  scoring: "all-or-nothing" | "partial";
  latePenaltyPercent: number;
  latePenaltyUnit: "hour" | "day";
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A submission's judge points for a problem worth `points` (0 when it does not count in the window `w`). */
export function judgePoints(s: JudgedSubmission, a: ScoringSettings, w: StudentWindow, points: number): number {
  if (!countsAt(s.createdAt, w)) return 0;
  const raw = rawScore({ verdict: s.verdict, hiddenPassed: s.hiddenPassed, hiddenTotal: s.hiddenTotal, samplePassed: s.verdict === "AC", score: s.score, maxScore: s.maxScore }, a.scoring);
  return round2(raw * lateFactor(s.createdAt, w, a.latePenaltyPercent, a.latePenaltyUnit) * points);
}

/** What a released (or draft) review grades with. */
export interface ReviewGrade {
  mode: RubricMode;
  /** The picked items' points (negative: deductions). */
  itemPoints: readonly number[];
  /** Set by an accepted regrade (points), else null. */
  overridePoints: number | null;
}

/**
 * The reviewed grade in points, in [0, maxPoints].
 * @example reviewedPoints({ mode: "add", itemPoints: [-5, 2], overridePoints: null }, 80, 100) // 77
 */
export function reviewedPoints(g: ReviewGrade, judge: number, maxPoints: number): number {
  const items = g.itemPoints.reduce((sum, p) => sum + p, 0);
  const raw = g.overridePoints ?? (g.mode === "add" ? judge + items : items);
  return round2(Math.min(maxPoints, Math.max(0, raw)));
}

/** A released review of one cell: the reviewed submission and its grade. */
export interface ReleasedReview extends ReviewGrade {
  submissionId: string;
}

/** The gradebook cell fields a review changes. */
export interface CellFields {
  score: number;
  bestSubmissionId: string | null;
  bestVerdict: string | null;
  late: boolean;
}

/**
 * The cell as a released review makes it (unchanged without one): its score is
 * the reviewed grade of the reviewed submission, which becomes the cell's
 * submission. `subs` are the student's judged submissions to the problem.
 */
export function withReview<C extends CellFields>(cell: C, review: ReleasedReview | undefined, subs: readonly JudgedSubmission[], a: ScoringSettings, w: StudentWindow, points: number): C {
  if (!review) return cell;
  const s = subs.find((x) => x.id === review.submissionId);
  const judge = s ? judgePoints(s, a, w, points) : 0;
  return {
    ...cell,
    score: reviewedPoints(review, judge, points),
    bestSubmissionId: review.submissionId,
    bestVerdict: s?.verdict ?? cell.bestVerdict,
    late: s ? w.dueAt !== null && s.createdAt > w.dueAt : cell.late,
  };
}
