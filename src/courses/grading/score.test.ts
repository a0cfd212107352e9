/** The arithmetic of reviewed grades (./score.ts), against hand-computed values. */
import { describe, expect, test } from "bun:test";
import { studentWindow } from "../deadlines.ts";
import { judgePoints, reviewedPoints, withReview, type JudgedSubmission } from "./score.ts";

const due = Date.parse("2026-03-10T00:00:00Z");
const w = studentWindow({ opensAt: due - 7 * 86_400_000, dueAt: due, closesAt: due + 3 * 86_400_000 });
const settings = { scoring: "partial" as const, latePenaltyPercent: 10, latePenaltyUnit: "day" as const };
const sub = (over: Partial<JudgedSubmission> = {}): JudgedSubmission => ({ id: "s1", verdict: "WA", createdAt: due - 1000, hiddenPassed: 2, hiddenTotal: 4, ...over });

describe("reviewedPoints", () => {
  test("add: the judge's points plus the picked items, clamped to [0, points]", () => {
    expect(reviewedPoints({ mode: "add", itemPoints: [-5, 2], overridePoints: null }, 80, 100)).toBe(77);
    expect(reviewedPoints({ mode: "add", itemPoints: [30], overridePoints: null }, 80, 100)).toBe(100);
    expect(reviewedPoints({ mode: "add", itemPoints: [-90], overridePoints: null }, 80, 100)).toBe(0);
    expect(reviewedPoints({ mode: "add", itemPoints: [], overridePoints: null }, 33.333, 100)).toBe(33.33);
  });
  test("replace: the picked items alone; an override wins over both", () => {
    expect(reviewedPoints({ mode: "replace", itemPoints: [20, 15.5], overridePoints: null }, 80, 50)).toBe(35.5);
    expect(reviewedPoints({ mode: "replace", itemPoints: [], overridePoints: null }, 80, 50)).toBe(0);
    expect(reviewedPoints({ mode: "replace", itemPoints: [20], overridePoints: 42 }, 80, 50)).toBe(42);
    expect(reviewedPoints({ mode: "add", itemPoints: [-10], overridePoints: 0 }, 80, 50)).toBe(0);
  });
});

describe("judgePoints and withReview", () => {
  test("partial credit × late factor × points; outside the window nothing", () => {
    expect(judgePoints(sub(), settings, w, 50)).toBe(25);
    // A day and a bit late: two started days, 20 % off.
    expect(judgePoints(sub({ createdAt: due + 86_400_000 + 1 }), settings, w, 50)).toBe(20);
    expect(judgePoints(sub({ createdAt: due + 4 * 86_400_000 }), settings, w, 50)).toBe(0);
  });
  test("a released review makes the cell: the reviewed submission and its grade, even below a better attempt", () => {
    const cell = { score: 50, bestSubmissionId: "s2", bestVerdict: "AC", attempts: 2, late: false };
    const subs = [sub(), sub({ id: "s2", verdict: "AC", hiddenPassed: 4 })];
    expect(withReview(cell, undefined, subs, settings, w, 50)).toBe(cell);
    expect(withReview(cell, { submissionId: "s1", mode: "add", itemPoints: [5], overridePoints: null }, subs, settings, w, 50)).toEqual({
      score: 30,
      bestSubmissionId: "s1",
      bestVerdict: "WA",
      attempts: 2,
      late: false,
    });
  });
});
