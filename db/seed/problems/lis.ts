import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

export const longestIncreasingSubsequence: SeedProblem = {
  slug: "lis",
  title: "Longest Increasing Subsequence",
  difficulty: "medium",
  description:
    "Given a sequence of n integers, find the length of its longest strictly increasing subsequence (elements keep their order but need not be adjacent).",
  inputFormat: "The first line holds n. The second line holds n integers a1 ... an.",
  outputFormat: "One line with the length of the longest strictly increasing subsequence.",
  constraints: "1 <= n <= 100000; -10^9 <= ai <= 10^9. An O(n log n) algorithm is needed for the largest tests.",
  sampleInput: "8\n10 9 2 5 3 7 101 18\n",
  tests: (rng) => {
    const fmt = (a: number[]) => `${a.length}\n${a.join(" ")}\n`;
    return [
      fmt([5]),
      fmt([3, 3, 3, 3]),
      fmt([5, 4, 3, 2, 1]),
      fmt(Array.from({ length: 100000 }, (_, i) => i - 50000)),
      fmt(Array.from({ length: 2000 }, () => rng.int(1, 50))),
      fmt(Array.from({ length: 100000 }, () => rng.int(-1_000_000_000, 1_000_000_000))),
    ];
  },
  solve(input) {
    const t = tokens(input).map(Number);
    const n = t[0]!;
    // tails[k] = smallest possible tail of an increasing subsequence of length k + 1 (patience sorting).
    const tails: number[] = [];
    for (let i = 1; i <= n; i++) {
      const x = t[i]!;
      let lo = 0;
      let hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (tails[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      tails[lo] = x;
    }
    return `${tails.length}\n`;
  },
};
