/**
 * The pool draw (decision 077): stable (same answer every call, whatever the
 * order the pool is listed in) and even over 1,000 students, with a stated
 * bound; slot labels; an editor's slots checked.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { AppError } from "../../errors.ts";
import { drawFor, drawIndex, isDrawn, slotLabels, slotsOf } from "./draw.ts";
import { normalizeSlots } from "./pools.ts";

/** 1,000 user ids shaped like db/ids.ts's (20 base32 characters), fixed so the test gives the same counts every run. */
const USERS = Array.from({ length: 1000 }, (_, i) => createHash("sha256").update(`student-${i}`).digest("hex").slice(0, 20));
const ASSIGNMENT = "k3v7q2m9x4c8b1n6t5r0";

describe("the draw", () => {
  test("is stable: the same student gets the same problem on every call and whatever the pool's listed order", () => {
    const pool = [
      { problemId: "p-c", slot: 1 },
      { problemId: "p-a", slot: 1 },
      { problemId: "p-b", slot: 1 },
      { problemId: "solo", slot: 0 },
    ];
    const reversed = [...pool].reverse();
    for (const u of USERS.slice(0, 200)) {
      const first = drawFor(ASSIGNMENT, pool, u);
      expect(drawFor(ASSIGNMENT, pool, u)).toEqual(first);
      expect(drawFor(ASSIGNMENT, reversed, u)).toEqual(first);
      expect(first[0]).toBe("solo");
      expect(pool.filter((p) => isDrawn(ASSIGNMENT, pool, u, p.problemId)).map((p) => p.problemId).sort()).toEqual([...first].sort());
    }
  });

  test("depends on the assignment and the slot, not only on the student", () => {
    const differs = (f: (u: string) => [number, number]) => USERS.filter((u) => f(u)[0] !== f(u)[1]).length;
    // With three problems two independent draws agree about 1/3 of the time.
    expect(differs((u) => [drawIndex(ASSIGNMENT, 0, u, 3), drawIndex("another-assignment00", 0, u, 3)])).toBeGreaterThan(500);
    expect(differs((u) => [drawIndex(ASSIGNMENT, 0, u, 3), drawIndex(ASSIGNMENT, 1, u, 3)])).toBeGreaterThan(500);
  });

  test("is even over 1,000 students: each count within 4.5 standard deviations of n/k (k = 2…6), and the spread is binomial", () => {
    for (let k = 2; k <= 6; k++) {
      const counts = new Array<number>(k).fill(0);
      for (const u of USERS) counts[drawIndex(ASSIGNMENT, 3, u, k)]!++;
      const mean = USERS.length / k;
      const sd = Math.sqrt(USERS.length * (1 / k) * (1 - 1 / k));
      // The bound: |count − n/k| ≤ 4.5 σ (σ ≈ 15.8 for k = 2, 14.9 for k = 3); a fair draw leaves it with probability < 1e-5 per count.
      for (const c of counts) expect(Math.abs(c - mean)).toBeLessThanOrEqual(4.5 * sd);
      // Pearson's χ² with k − 1 degrees of freedom stays under its 0.999 quantile (≤ 20.5 for 5 degrees).
      const chi2 = counts.reduce((s, c) => s + (c - mean) ** 2 / mean, 0);
      expect(chi2).toBeLessThan(20.5);
      expect(counts.reduce((s, c) => s + c, 0)).toBe(USERS.length);
    }
  });

  test("a slot of one problem gives it to everyone", () => {
    for (const u of USERS.slice(0, 50)) expect(drawIndex(ASSIGNMENT, 0, u, 1)).toBe(0);
  });
});

describe("slots", () => {
  test("slotsOf groups by slot in slot order; labels say the slot and the pool's letter", () => {
    const list = [
      { problemId: "x", slot: 0 },
      { problemId: "q2", slot: 1 },
      { problemId: "q1", slot: 1 },
      { problemId: "z", slot: 2 },
    ];
    expect(slotsOf(list)).toEqual([
      { slot: 0, problemIds: ["x"] },
      { slot: 1, problemIds: ["q1", "q2"] },
      { slot: 2, problemIds: ["z"] },
    ]);
    expect(Object.fromEntries(slotLabels(list))).toEqual({ x: "1", q2: "2a", q1: "2b", z: "3" });
  });

  test("an editor's slots are renumbered in order of appearance; a pool's problems must be worth the same", () => {
    expect(normalizeSlots([{ problemId: "a", points: 10 }, { problemId: "b", points: 20, slot: 7 }, { problemId: "c", points: 20, slot: 7 }, { problemId: "d", points: 5, slot: 2 }])).toEqual([0, 1, 1, 2]);
    try {
      normalizeSlots([{ problemId: "a", points: 10, slot: 1 }, { problemId: "b", points: 20, slot: 1 }]);
      throw new Error("not refused");
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).field).toBe("problems.1.points");
    }
  });
});
