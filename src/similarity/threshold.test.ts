import { describe, expect, test } from "bun:test";
import { binWeight, clusters, coarseHistogram, fineBin, FINE_BINS, localMinima, suggestThreshold, atOrAbove, percentOf } from "./threshold.ts";

/** A fine histogram from similarities. */
const hist = (values: number[]) => {
  const fine = new Array<number>(FINE_BINS).fill(0);
  for (const v of values) fine[fineBin(v)]!++;
  return fine;
};

describe("suggested threshold (Dolos's method)", () => {
  test("lands in the valley between independent pairs and copies", () => {
    const independent = Array.from({ length: 400 }, (_, i) => 0.1 + 0.3 * ((i * 7919) % 400) / 400); // 0.10..0.40
    const copies = Array.from({ length: 12 }, (_, i) => 0.82 + i * 0.01);
    const t = suggestThreshold(hist([...independent, ...copies]));
    expect(t).toBeGreaterThan(0.4);
    expect(t).toBeLessThan(0.82);
  });

  test("is never below the mean similarity", () => {
    const values = [...Array.from({ length: 50 }, () => 0.9), 0.05, 0.1, 0.3];
    const fine = hist(values);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(suggestThreshold(fine)).toBeGreaterThanOrEqual(mean - 0.001);
  });

  test("no pairs, or no valley: 0.8 or the mean", () => {
    expect(suggestThreshold(new Array(FINE_BINS).fill(0))).toBe(0.8);
    expect(suggestThreshold(hist([0.95, 0.95]))).toBeCloseTo(0.9505, 3);
  });

  test("the weighting parabola is lowest (0.1) at 0.8 and rises both ways; local minima are where counts turn up", () => {
    expect(binWeight(0)).toBeCloseTo(3.423, 3);
    expect(binWeight(1)).toBeGreaterThan(binWeight(0.8));
    expect(binWeight(0.8)).toBeCloseTo(0.1, 2);
    expect(binWeight(0.5)).toBeGreaterThan(binWeight(0.7));
    expect(localMinima([5, 3, 1, 4, 6, 2, 8])).toEqual([2, 5]);
  });

  test("the display histogram folds the fine one and keeps every pair", () => {
    const h = coarseHistogram(hist([0, 0.04, 0.05, 0.5, 0.99, 1]), 20);
    expect(h.reduce((a, b) => a + b, 0)).toBe(6);
    expect(h[0]).toBe(2);
    expect(h[1]).toBe(1);
    expect(h[19]).toBe(2);
  });
});

describe("clusters (single linkage)", () => {
  test("joins through chains at or above the threshold, largest first, ignoring weaker links", () => {
    const pairs = [
      { left: "a", right: "b", similarity: 0.9 },
      { left: "b", right: "c", similarity: 0.8 },
      { left: "d", right: "e", similarity: 0.75 },
      { left: "c", right: "d", similarity: 0.3 },
    ];
    expect(clusters(pairs, 0.75)).toEqual([["a", "b", "c"], ["d", "e"]]);
    expect(clusters(pairs, 0.85)).toEqual([["a", "b"]]);
    expect(clusters(pairs, 0.2)).toEqual([["a", "b", "c", "d", "e"]]);
    expect(clusters(pairs, 0.95)).toEqual([]);
  });
});

describe("pairs and thresholds compared as shown (whole percents, decision 057)", () => {
  test("a pair shown as 82 % is at a threshold shown as 82 %", () => {
    // The report that said "No pair at or above the threshold" while both read 82 %.
    expect(percentOf(0.8182)).toBe(82);
    expect(percentOf(0.8185)).toBe(82);
    expect(atOrAbove(0.8182, 0.8185)).toBe(true);
    expect(clusters([{ left: "a", right: "b", similarity: 0.8182 }], 0.8185)).toEqual([["a", "b"]]);
    // One shown percent below is below.
    expect(atOrAbove(0.8149, 0.8185)).toBe(false);
    expect(clusters([{ left: "a", right: "b", similarity: 0.8149 }], 0.8185)).toEqual([]);
  });
});
