/**
 * Deadline arithmetic with extensions, penalties and time zones. Every time
 * is a fixed instant (no clock, no sleeps); dates are written as a person in
 * a time zone would type them, and compared as instants.
 */
import { describe, expect, test } from "bun:test";
import { countsAt, DAY_MS, HOUR_MS, lateFactor, rawScore, studentWindow, windowState } from "./deadlines.ts";

const at = (iso: string) => Date.parse(iso);

describe("student windows", () => {
  const a = { opensAt: at("2026-03-02T09:00:00+01:00"), dueAt: at("2026-03-09T23:59:00+01:00"), closesAt: at("2026-03-11T23:59:00+01:00") };

  test("without an extension: open → late after the due time → closed at the close", () => {
    const w = studentWindow(a);
    expect(windowState(w, at("2026-03-02T07:59:59Z"))).toBe("upcoming");
    expect(windowState(w, at("2026-03-02T08:00:00Z"))).toBe("open");
    // The same instant written in two time zones is the same moment.
    expect(windowState(w, at("2026-03-09T22:59:00Z"))).toBe("open");
    expect(windowState(w, at("2026-03-09T17:59:00-05:00"))).toBe("open");
    expect(windowState(w, at("2026-03-09T23:00:00Z"))).toBe("late");
    expect(windowState(w, at("2026-03-11T22:58:59Z"))).toBe("late");
    expect(windowState(w, at("2026-03-11T22:59:00Z"))).toBe("closed");
  });

  test("no late window: the close is the due time; practice (no due time) never closes unless told", () => {
    const noLate = studentWindow({ ...a, closesAt: null });
    expect(noLate.close).toBe(a.dueAt);
    expect(windowState(noLate, a.dueAt! + 1)).toBe("closed");
    const practice = studentWindow({ opensAt: a.opensAt, dueAt: null, closesAt: null });
    expect(windowState(practice, at("2030-01-01T00:00:00Z"))).toBe("open");
    expect(lateFactor(at("2030-01-01T00:00:00Z"), practice, 50, "day")).toBe(1);
    const practiceClosing = studentWindow({ opensAt: a.opensAt, dueAt: null, closesAt: a.closesAt });
    expect(windowState(practiceClosing, a.closesAt!)).toBe("closed");
  });

  test("an extension moves the due time and keeps the late window's length unless it sets its own close", () => {
    const ext = { dueAt: at("2026-03-12T23:59:00+01:00"), closesAt: null };
    const w = studentWindow(a, ext);
    expect(w.dueAt).toBe(ext.dueAt);
    expect(w.close).toBe(ext.dueAt + 2 * DAY_MS);
    expect(windowState(w, at("2026-03-12T12:00:00Z"))).toBe("open");
    const own = studentWindow(a, { dueAt: ext.dueAt, closesAt: ext.dueAt + HOUR_MS });
    expect(windowState(own, ext.dueAt + HOUR_MS)).toBe("closed");
  });

  test("countsAt: from the opening (inclusive) to the close (exclusive)", () => {
    const w = studentWindow(a);
    expect(countsAt(a.opensAt - 1, w)).toBe(false);
    expect(countsAt(a.opensAt, w)).toBe(true);
    expect(countsAt(a.closesAt! - 1, w)).toBe(true);
    expect(countsAt(a.closesAt!, w)).toBe(false);
  });
});

describe("late penalties", () => {
  const due = at("2026-10-24T23:00:00+02:00");
  const w = studentWindow({ opensAt: 0, dueAt: due, closesAt: due + 10 * DAY_MS });

  test("on time is full score; each started hour costs the percentage", () => {
    expect(lateFactor(due, w, 10, "hour")).toBe(1);
    expect(lateFactor(due + 1, w, 10, "hour")).toBeCloseTo(0.9);
    expect(lateFactor(due + HOUR_MS, w, 10, "hour")).toBeCloseTo(0.9);
    expect(lateFactor(due + 90 * 60_000, w, 10, "hour")).toBeCloseTo(0.8);
  });

  test("never below zero", () => {
    expect(lateFactor(due + 30 * HOUR_MS, w, 10, "hour")).toBe(0);
  });

  test("a day is 24 hours of elapsed time, also across the daylight-saving change (Europe/Berlin, 2026-10-25)", () => {
    // Due Saturday 23:00 CEST; Sunday 23:00 CET is 25 hours later: two started days.
    const sundayEvening = at("2026-10-25T23:00:00+01:00");
    expect(sundayEvening - due).toBe(25 * HOUR_MS);
    expect(lateFactor(sundayEvening, w, 20, "day")).toBeCloseTo(0.6);
    expect(lateFactor(due + DAY_MS, w, 20, "day")).toBeCloseTo(0.8);
  });

  test("the penalty counts from the student's own (extended) due time", () => {
    const ext = studentWindow({ opensAt: 0, dueAt: due, closesAt: due + DAY_MS }, { dueAt: due + 2 * DAY_MS, closesAt: null });
    expect(lateFactor(due + DAY_MS, ext, 50, "day")).toBe(1);
    expect(lateFactor(due + 2 * DAY_MS + 1, ext, 50, "day")).toBe(0.5);
  });
});

describe("raw scores", () => {
  test("all-or-nothing: only AC earns", () => {
    expect(rawScore({ verdict: "AC", hiddenPassed: 3, hiddenTotal: 3, samplePassed: true }, "all-or-nothing")).toBe(1);
    expect(rawScore({ verdict: "WA", hiddenPassed: 2, hiddenTotal: 3, samplePassed: true }, "all-or-nothing")).toBe(0);
  });

  test("partial: the fraction of hidden tests passed; CE, IE and not-yet-judged earn nothing", () => {
    expect(rawScore({ verdict: "WA", hiddenPassed: 2, hiddenTotal: 4, samplePassed: true }, "partial")).toBe(0.5);
    expect(rawScore({ verdict: "TLE", hiddenPassed: 1, hiddenTotal: 4, samplePassed: false }, "partial")).toBe(0.25);
    expect(rawScore({ verdict: "CE", hiddenPassed: 0, hiddenTotal: 4, samplePassed: false }, "partial")).toBe(0);
    expect(rawScore({ verdict: "IE", hiddenPassed: 3, hiddenTotal: 4, samplePassed: true }, "partial")).toBe(0);
    expect(rawScore({ verdict: null, hiddenPassed: 0, hiddenTotal: 4, samplePassed: false }, "partial")).toBe(0);
    expect(rawScore({ verdict: "WA", hiddenPassed: 0, hiddenTotal: 0, samplePassed: true }, "partial")).toBe(1);
  });
});
