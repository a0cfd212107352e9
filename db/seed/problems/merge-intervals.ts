import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

export const mergeIntervals: SeedProblem = {
  slug: "merge-intervals",
  title: "Merge Intervals",
  difficulty: "medium",
  description:
    "Given n closed intervals [l, r], merge every group of overlapping intervals (intervals that share at least one point overlap, so [1,3] and [3,5] merge into [1,5]) and print the result sorted by start.",
  inputFormat: "The first line holds n. Each of the next n lines holds two integers l and r.",
  outputFormat: "The first line holds k, the number of merged intervals. Each of the next k lines holds one merged interval l r, in increasing order of l.",
  constraints: "1 <= n <= 100000; 0 <= l <= r <= 10^9",
  sampleInput: "4\n1 3\n2 6\n8 10\n15 18\n",
  tests: (rng) => {
    const fmt = (a: [number, number][]) => `${a.length}\n${a.map(([l, r]) => `${l} ${r}`).join("\n")}\n`;
    const random = (n: number, span: number, maxLen: number) =>
      Array.from({ length: n }, (): [number, number] => {
        const l = rng.int(0, span);
        return [l, Math.min(1_000_000_000, l + rng.int(0, maxLen))];
      });
    return [
      fmt([[5, 5]]),
      fmt([
        [1, 3],
        [3, 5],
      ]),
      fmt([
        [1, 10],
        [2, 3],
        [4, 5],
      ]),
      fmt([
        [6, 7],
        [1, 2],
        [3, 4],
      ]),
      fmt(random(1000, 100000, 50)),
      fmt(random(100000, 1_000_000_000, 20000)),
    ];
  },
  solve(input) {
    const t = tokens(input).map(Number);
    const n = t[0]!;
    const iv: [number, number][] = [];
    for (let i = 0; i < n; i++) iv.push([t[1 + 2 * i]!, t[2 + 2 * i]!]);
    iv.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const merged: [number, number][] = [];
    for (const [l, r] of iv) {
      const last = merged[merged.length - 1];
      if (last && l <= last[1]) last[1] = Math.max(last[1], r);
      else merged.push([l, r]);
    }
    return `${merged.length}\n${merged.map(([l, r]) => `${l} ${r}`).join("\n")}\n`;
  },
};
