import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

export const fizzBuzz: SeedProblem = {
  slug: "fizzbuzz",
  title: "FizzBuzz",
  difficulty: "easy",
  description:
    "For every integer i from 1 to n print one line: Fizz if i is divisible by 3, Buzz if by 5, FizzBuzz if by both, and i itself otherwise.",
  inputFormat: "One line with the integer n.",
  outputFormat: "n lines, the i-th for the number i as described.",
  constraints: "1 <= n <= 100000",
  sampleInput: "5\n",
  tests: (rng) => ["1\n", "3\n", "15\n", "16\n", `${rng.int(100, 1000)}\n`, "100000\n"],
  solve(input) {
    const n = Number(tokens(input)[0]);
    const out: string[] = [];
    for (let i = 1; i <= n; i++) out.push(i % 15 === 0 ? "FizzBuzz" : i % 3 === 0 ? "Fizz" : i % 5 === 0 ? "Buzz" : String(i));
    return out.join("\n") + "\n";
  },
};
