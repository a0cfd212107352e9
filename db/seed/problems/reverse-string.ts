import type { SeedProblem } from "../types.ts";

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export const reverseString: SeedProblem = {
  slug: "reverse-string",
  title: "Reverse a String",
  difficulty: "easy",
  description: "Given a string s, print it reversed.",
  inputFormat: "One line with the string s.",
  outputFormat: "One line with the characters of s in reverse order.",
  constraints: "1 <= |s| <= 100000; s consists of English letters and digits (no spaces).",
  sampleInput: "hello\n",
  tests: (rng) => [
    "a\n",
    "ab\n",
    "racecar\n",
    "Z9y8X7\n",
    rng.string(1000, ALNUM) + "\n",
    rng.string(100000, ALNUM) + "\n",
  ],
  solve(input) {
    const s = input.trim();
    return `${[...s].reverse().join("")}\n`;
  },
};
