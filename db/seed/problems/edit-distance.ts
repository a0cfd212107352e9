import type { Rng } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

/** `base` with about `edits` random insertions, deletions and substitutions. */
function mutate(rng: Rng, base: string, edits: number, alphabet: string): string {
  const s = [...base];
  for (let k = 0; k < edits; k++) {
    const at = rng.int(0, s.length);
    const op = rng.int(0, 2);
    if (op === 0) s.splice(at, 0, rng.pick([...alphabet]));
    else if (op === 1 && s.length > 1 && at < s.length) s.splice(at, 1);
    else if (at < s.length) s[at] = rng.pick([...alphabet]);
  }
  return s.join("");
}

export const editDistance: SeedProblem = {
  slug: "edit-distance",
  title: "Edit Distance",
  difficulty: "hard",
  description:
    "The edit distance between two strings is the fewest single-character insertions, deletions and substitutions that turn the first into the second. Compute it.",
  inputFormat: "Two lines: the string a, then the string b.",
  outputFormat: "One line with the edit distance between a and b.",
  constraints: "1 <= |a|, |b| <= 1000; both consist of lowercase English letters.",
  sampleInput: "kitten\nsitting\n",
  tests: (rng) => {
    const base = rng.string(1000, "acgt");
    return [
      "a\na\n",
      "a\nb\n",
      "abc\nyabd\n",
      "intention\nexecution\n",
      `${rng.string(300, "ab")}\n${rng.string(250, "ab")}\n`,
      `${base}\n${mutate(rng, base, 80, "acgt").slice(0, 1000)}\n`,
      `${rng.string(1000, "abcdefghijklmnopqrstuvwxyz")}\n${rng.string(1000, "abcdefghijklmnopqrstuvwxyz")}\n`,
    ];
  },
  solve(input) {
    const [a = "", b = ""] = input.split("\n").map((l) => l.trim());
    let prev = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
    let cur = new Int32Array(b.length + 1);
    for (let i = 1; i <= a.length; i++) {
      cur[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const substitute = prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
        cur[j] = Math.min(substitute, prev[j]! + 1, cur[j - 1]! + 1);
      }
      [prev, cur] = [cur, prev];
    }
    return `${prev[b.length]}\n`;
  },
};
