import type { SeedProblem } from "../types.ts";

function palindrome(n: number, rng: { string(n: number, a: string): string }): string {
  const half = rng.string(Math.floor(n / 2), "abc");
  const mid = n % 2 ? rng.string(1, "abc") : "";
  return half + mid + [...half].reverse().join("");
}

export const palindromeCheck: SeedProblem = {
  slug: "palindrome",
  title: "Palindrome Check",
  difficulty: "easy",
  description: "A string is a palindrome when it reads the same forwards and backwards. Decide whether s is one.",
  inputFormat: "One line with the string s.",
  outputFormat: "YES if s is a palindrome, otherwise NO.",
  constraints: "1 <= |s| <= 200000; s consists of lowercase English letters.",
  sampleInput: "level\n",
  tests: (rng) => [
    "a\n",
    "ab\n",
    "aa\n",
    "abca\n",
    palindrome(199999, rng) + "\n",
    // A long near-palindrome: one character changed in the middle.
    (() => {
      const p = [...palindrome(200000, rng)];
      p[100000] = p[100000] === "a" ? "b" : "a";
      return p.join("") + "\n";
    })(),
    rng.string(5000, "ab") + "\n",
  ],
  solve(input) {
    const s = input.trim();
    return s === [...s].reverse().join("") ? "YES\n" : "NO\n";
  },
};
