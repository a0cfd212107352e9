import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

export const largestElement: SeedProblem = {
  slug: "largest-element",
  title: "Largest Element and Its Position",
  difficulty: "easy",
  description:
    "Given an array of n integers, print its largest value and the 1-based position of its first occurrence.",
  inputFormat: "The first line holds n. The second line holds n integers a1 ... an.",
  outputFormat: "One line with two integers: the maximum value and the smallest index i with ai equal to it.",
  constraints: "1 <= n <= 200000; -10^9 <= ai <= 10^9",
  sampleInput: "5\n3 9 2 9 1\n",
  tests: (rng) => {
    const arr = (n: number, lo: number, hi: number) => Array.from({ length: n }, () => rng.int(lo, hi));
    const fmt = (a: number[]) => `${a.length}\n${a.join(" ")}\n`;
    return [
      fmt([42]),
      fmt([-5, -3, -3, -10]),
      fmt(arr(10, 0, 0)),
      fmt(arr(1000, -1_000_000_000, 1_000_000_000)),
      fmt(arr(200000, -1_000_000_000, 1_000_000_000)),
      fmt(arr(200000, -3, 3)),
    ];
  },
  solve(input) {
    const t = tokens(input).map(Number);
    const n = t[0]!;
    let best = t[1]!;
    let at = 1;
    for (let i = 2; i <= n; i++) if (t[i]! > best) [best, at] = [t[i]!, i];
    return `${best} ${at}\n`;
  },
};
