import type { Rng } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

const PAIRS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** A balanced sequence of 2*pairs brackets, built by random nesting. */
function balanced(rng: Rng, pairs: number): string {
  const out: string[] = [];
  const stack: string[] = [];
  let opened = 0;
  while (out.length < pairs * 2) {
    if (opened < pairs && (stack.length === 0 || rng.next() < 0.5)) {
      const open = rng.pick(["(", "[", "{"]);
      stack.push(open);
      out.push(open);
      opened++;
    } else {
      const open = stack.pop()!;
      out.push(open === "(" ? ")" : open === "[" ? "]" : "}");
    }
  }
  return out.join("");
}

export const balancedBrackets: SeedProblem = {
  slug: "balanced-brackets",
  title: "Balanced Brackets",
  difficulty: "medium",
  description:
    "A bracket sequence made of (), [] and {} is balanced when every opening bracket is closed by the matching kind in the right order, e.g. ([]{}) is balanced while ([)] is not. Decide whether the given sequence is balanced.",
  inputFormat: "One line with the bracket sequence s.",
  outputFormat: "YES if s is balanced, otherwise NO.",
  constraints: "1 <= |s| <= 200000; s consists only of the characters ()[]{}",
  sampleInput: "([]{})\n",
  tests: (rng) => {
    const deep = "(".repeat(100000) + ")".repeat(100000);
    const good = balanced(rng, 90000);
    const swapAt = good.lastIndexOf("(");
    return [
      "(\n",
      ")(\n",
      "([)]\n",
      "{[()()]}\n",
      deep + "\n",
      deep.slice(1) + "\n",
      good + "\n",
      // The same long sequence with its last "(" turned into "[": unbalanced.
      good.slice(0, swapAt) + "[" + good.slice(swapAt + 1) + "\n",
      rng.string(1000, "()[]{}") + "\n",
    ];
  },
  solve(input) {
    const s = input.trim();
    const stack: string[] = [];
    for (const ch of s) {
      if (ch === "(" || ch === "[" || ch === "{") stack.push(ch);
      else if (stack.pop() !== PAIRS[ch]) return "NO\n";
    }
    return stack.length === 0 ? "YES\n" : "NO\n";
  },
};
