import type { Rng } from "../rng.ts";
import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

/** Pairs (i, j), i < j, with a[i] + a[j] === target. */
function countPairs(a: number[], target: number): number {
  const seen = new Map<number, number>();
  let pairs = 0;
  for (const x of a) {
    pairs += seen.get(target - x) ?? 0;
    seen.set(x, (seen.get(x) ?? 0) + 1);
  }
  return pairs;
}

/** An array of n values in [-lim, lim] with exactly one pair summing to the target it returns. */
function uniqueTwoSum(rng: Rng, n: number, lim: number): string {
  for (;;) {
    const a = Array.from({ length: n }, () => rng.int(-lim, lim));
    const i = rng.int(0, n - 1);
    let j = rng.int(0, n - 2);
    if (j >= i) j++;
    const target = a[i]! + a[j]!;
    if (countPairs(a, target) === 1) return `${n} ${target}\n${a.join(" ")}\n`;
  }
}

export const twoSum: SeedProblem = {
  slug: "two-sum",
  title: "Two Sum Indices",
  difficulty: "medium",
  description:
    "Given an array a of n integers and a target t, find the two positions i < j with a[i] + a[j] = t. Exactly one such pair exists.",
  inputFormat: "The first line holds n and t. The second line holds n integers a[0] ... a[n-1].",
  outputFormat: "One line with the 0-based indices i and j (i < j).",
  constraints: "2 <= n <= 100000; -10^9 <= a[i] <= 10^9; -2·10^9 <= t <= 2·10^9; exactly one pair sums to t.",
  sampleInput: "4 9\n2 7 11 15\n",
  tests: (rng) => [
    "2 0\n-5 5\n",
    "3 6\n3 2 4\n",
    "5 -3\n1 -1 -2 8 0\n",
    uniqueTwoSum(rng, 50, 1000),
    uniqueTwoSum(rng, 5000, 1_000_000_000),
    uniqueTwoSum(rng, 100000, 1_000_000_000),
  ],
  solve(input) {
    const t = tokens(input).map(Number);
    const n = t[0]!;
    const target = t[1]!;
    const seen = new Map<number, number>();
    for (let j = 0; j < n; j++) {
      const x = t[2 + j]!;
      const i = seen.get(target - x);
      if (i !== undefined) return `${i} ${j}\n`;
      if (!seen.has(x)) seen.set(x, j);
    }
    throw new Error("two-sum: no pair");
  },
};
