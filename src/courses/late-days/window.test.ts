/** Late-day arithmetic: the penalty applies only past the days spent, on top of an extension; the balance never goes below 0. */
import { describe, expect, test } from "bun:test";
import { DAY_MS, HOUR_MS, lateFactor, studentWindow, windowState } from "../deadlines.ts";
import { LATE_DAY_MS, lateDaysRemaining, withLateDays } from "./window.ts";

const at = (iso: string) => Date.parse(iso);
const a = { opensAt: at("2026-03-02T09:00:00Z"), dueAt: at("2026-03-09T12:00:00Z"), closesAt: at("2026-03-10T12:00:00Z") };

describe("late days move the due time and the close", () => {
  test("two late days: a submission 47 h late has no penalty, 49 h late one started hour's", () => {
    const w = studentWindow(a, null, { lateDays: 2 });
    expect(w.dueAt).toBe(a.dueAt + 2 * LATE_DAY_MS);
    expect(w.close).toBe(a.closesAt + 2 * LATE_DAY_MS);
    expect(lateFactor(a.dueAt + 47 * HOUR_MS, w, 10, "hour")).toBe(1);
    expect(lateFactor(a.dueAt + 49 * HOUR_MS, w, 10, "hour")).toBeCloseTo(0.9);
    // Without them the same submission loses 49 started hours' worth (floored at 0).
    expect(lateFactor(a.dueAt + 49 * HOUR_MS, studentWindow(a), 10, "hour")).toBe(0);
    expect(windowState(w, a.closesAt + DAY_MS + 1)).toBe("late");
    expect(windowState(w, a.closesAt + 2 * DAY_MS)).toBe("closed");
  });

  test("on top of an extension; zero days and practice (no due time) change nothing", () => {
    const ext = { dueAt: at("2026-03-11T12:00:00Z"), closesAt: null };
    expect(studentWindow(a, ext, { lateDays: 1 }).dueAt).toBe(ext.dueAt + LATE_DAY_MS);
    expect(studentWindow(a, ext, { lateDays: 1 }).close).toBe(ext.dueAt + DAY_MS + LATE_DAY_MS);
    expect(studentWindow(a, null, { lateDays: 0 })).toEqual(studentWindow(a));
    const practice = { opensAt: a.opensAt, dueAt: null, close: null };
    expect(withLateDays(practice, 3)).toEqual(practice);
  });

  test("what remains: the allowance less what was spent, never below 0 (the allowance lowered after spending)", () => {
    expect(lateDaysRemaining(3, 0)).toBe(3);
    expect(lateDaysRemaining(3, 2)).toBe(1);
    expect(lateDaysRemaining(1, 2)).toBe(0);
  });
});
