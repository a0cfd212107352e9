/** The shape of one seeded problem: statement, test generator and reference solution. */
import type { Rng } from "./rng.ts";

export interface SeedProblem {
  /** Stable key (file name); titles are what the database matches on. */
  slug: string;
  title: string;
  difficulty: "easy" | "medium" | "hard";
  description: string;
  inputFormat: string;
  outputFormat: string;
  constraints: string;
  sampleInput: string;
  timeLimitMs?: number;
  memoryLimitKib?: number;
  checker?: "lines" | "tokens" | "float";
  /** Hidden test inputs (at least 5): edge cases first, then random ones from `rng`. */
  tests(rng: Rng): string[];
  /** Reference solution: the expected output for an input (ends with a newline). */
  solve(input: string): string;
}
