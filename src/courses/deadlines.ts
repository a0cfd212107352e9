/**
 * Deadline arithmetic, pure: an assignment's window as one student sees it
 * (with their extension), its state at a moment, the late-penalty factor of a
 * submission, and a submission's score. Times are ms since the epoch (UTC):
 * time zones matter only when a person types or reads a date, never here.
 *
 * Rules (after Hydro's homework: begin, penalty since the due time, a hard
 * close; penalty rules as time late → factor):
 * - A submission counts when made at or after `opensAt` and before the close.
 * - The close is `closesAt`, or `dueAt` when there is no late window; a
 *   practice assignment (no `dueAt`) closes at `closesAt` or never.
 * - Late (after the due time, before the close): the score is multiplied by
 *   `max(0, 1 - percent/100 × started units late)`, a unit being an hour or
 *   24 hours (a "day" is 24 h of elapsed time, not a calendar day, so a
 *   daylight-saving change neither adds nor removes penalty).
 * - An extension moves one student's due time; its close defaults to the new
 *   due time plus the assignment's own late window.
 */

import { withLateDays } from "./late-days/window.ts";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export type PenaltyUnit = "hour" | "day";

export interface AssignmentWindow {
  opensAt: number;
  /** Null: a practice assignment with no due time. */
  dueAt: number | null;
  /** Null: no late window (the close is the due time). */
  closesAt: number | null;
}

export interface Extension {
  dueAt: number;
  /** Null: the new due time plus the assignment's own late window. */
  closesAt: number | null;
}

/** One student's window: `close` is when submissions stop counting (null: never). */
export interface StudentWindow {
  opensAt: number;
  dueAt: number | null;
  close: number | null;
}

/** Per-student changes to a window, each computed by its own rule's file (issue 37). */
export interface WindowAdjust {
  /** Extra time (src/courses/exam/rules.ts `extraMs`): moves the due time and the close later, ms. */
  extraMs?: number;
  /** Late days spent (./late-days/window.ts): move the due time and the close by 24 h each. */
  lateDays?: number;
}

/**
 * The window one student sees: the assignment's, moved by their extension, then by their adjustments
 * (extra time, late days: both move the due time and the close later, so their order does not matter).
 * @example studentWindow({ opensAt: 0, dueAt: 100, closesAt: 150 }, { dueAt: 200, closesAt: null }) // { opensAt: 0, dueAt: 200, close: 250 }
 */
export function studentWindow(a: AssignmentWindow, ext?: Extension | null, adjust: WindowAdjust = {}): StudentWindow {
  const w = baseWindow(a, ext);
  const extra = adjust.extraMs ?? 0;
  const moved = extra ? { opensAt: w.opensAt, dueAt: w.dueAt === null ? null : w.dueAt + extra, close: w.close === null ? null : w.close + extra } : w;
  return withLateDays(moved, adjust.lateDays ?? 0);
}

function baseWindow(a: AssignmentWindow, ext?: Extension | null): StudentWindow {
  const lateWindow = a.dueAt !== null && a.closesAt !== null ? Math.max(0, a.closesAt - a.dueAt) : 0;
  if (ext) return { opensAt: a.opensAt, dueAt: ext.dueAt, close: ext.closesAt ?? ext.dueAt + lateWindow };
  if (a.dueAt === null) return { opensAt: a.opensAt, dueAt: null, close: a.closesAt };
  return { opensAt: a.opensAt, dueAt: a.dueAt, close: a.closesAt ?? a.dueAt };
}

export type WindowState = "upcoming" | "open" | "late" | "closed";

/** Where `now` falls in a window: before it opens, open, in the late window, or closed. */
export function windowState(w: StudentWindow, now: number): WindowState {
  if (now < w.opensAt) return "upcoming";
  if (w.close !== null && now >= w.close) return "closed";
  if (w.dueAt !== null && now > w.dueAt) return "late";
  return "open";
}

/**
 * The factor a submission's score is multiplied by: 1 up to the due time,
 * then 1 - percent/100 per started unit late, never below 0.
 * @param percent penalty per unit, 0..100.
 * @example lateFactor(due + 90 * 60_000, { opensAt: 0, dueAt: due, close: null }, 10, "hour") // 0.8 (two started hours)
 */
export function lateFactor(submittedAt: number, w: StudentWindow, percent: number, unit: PenaltyUnit): number {
  if (w.dueAt === null || submittedAt <= w.dueAt) return 1;
  const units = Math.ceil((submittedAt - w.dueAt) / (unit === "hour" ? HOUR_MS : DAY_MS));
  return Math.max(0, 1 - (units * percent) / 100);
}

/** Whether a submission made at `t` counts for the assignment (inside the student's window). */
export function countsAt(t: number, w: StudentWindow): boolean {
  return t >= w.opensAt && (w.close === null || t < w.close);
}

export type Scoring = "all-or-nothing" | "partial";

/**
 * The fraction (0..1) of a problem's points a judged submission earns before
 * any penalty: all-or-nothing gives 1 only for AC; partial gives, on a
 * scoring problem, its score over its maximum (points per test group), else
 * the fraction of hidden tests passed (the sample when there are no hidden
 * tests). A compile error or internal error earns 0.
 */
export function rawScore(
  s: { verdict: string | null; hiddenPassed: number; hiddenTotal: number; samplePassed: boolean; score?: number | null; maxScore?: number | null },
  scoring: Scoring,
): number {
  if (s.verdict === "AC") return 1;
  if (scoring === "all-or-nothing" || s.verdict === null || s.verdict === "CE" || s.verdict === "IE") return 0;
  // A scoring problem (test groups with points): its score's share, group by group (src/judge/groups.ts).
  if (s.score != null && s.maxScore) return Math.min(1, s.score / s.maxScore);
  if (s.hiddenTotal === 0) return s.samplePassed ? 1 : 0;
  return s.hiddenPassed / s.hiddenTotal;
}
