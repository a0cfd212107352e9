import { tokens } from "../rng.ts";
import type { Rng } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

function items(rng: Rng, n: number, capacity: number, maxWeight: number, maxValue: number): string {
  const lines = Array.from({ length: n }, () => `${rng.int(1, maxWeight)} ${rng.int(0, maxValue)}`);
  return `${n} ${capacity}\n${lines.join("\n")}\n`;
}

export const knapsack: SeedProblem = {
  slug: "knapsack",
  title: "0/1 Knapsack",
  difficulty: "hard",
  description:
    "You have n items, the i-th with weight wi and value vi, and a bag that holds a total weight of at most W. Each item is taken whole or not at all. Find the largest total value that fits.",
  inputFormat: "The first line holds n and W. Each of the next n lines holds wi and vi.",
  outputFormat: "One line with the maximum total value.",
  constraints: "1 <= n <= 100; 1 <= W <= 10000; 1 <= wi <= 10000; 0 <= vi <= 10^9 (the answer fits in 64 bits).",
  sampleInput: "4 7\n1 1\n3 4\n4 5\n5 7\n",
  tests: (rng) => [
    "1 5\n6 100\n",
    "1 5\n5 100\n",
    "3 10\n5 10\n5 10\n5 11\n",
    items(rng, 20, 50, 20, 100),
    items(rng, 100, 10000, 500, 1_000_000_000),
    items(rng, 100, 10000, 10000, 1_000_000_000),
    items(rng, 100, 10000, 200, 1000),
  ],
  solve(input) {
    const t = tokens(input);
    const n = Number(t[0]);
    const capacity = Number(t[1]);
    // Values reach 100 * 10^9 in total: beyond 2^53 is impossible, so doubles stay exact.
    const best = new Float64Array(capacity + 1);
    for (let i = 0; i < n; i++) {
      const w = Number(t[2 + 2 * i]);
      const v = Number(t[3 + 2 * i]);
      for (let c = capacity; c >= w; c--) {
        const candidate = best[c - w]! + v;
        if (candidate > best[c]!) best[c] = candidate;
      }
    }
    return `${best[capacity]}\n`;
  },
};
