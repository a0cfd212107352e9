import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

export const sumTwo: SeedProblem = {
  slug: "sum-two",
  title: "Sum of Two Numbers",
  difficulty: "easy",
  description: "Read two integers a and b and print their sum a + b.",
  inputFormat: "One line with two integers a and b separated by a space.",
  outputFormat: "One line with the integer a + b.",
  constraints: "-10^18 <= a, b <= 10^18 (the sum fits in a signed 64-bit integer).",
  sampleInput: "3 5\n",
  tests: (rng) => [
    "0 0\n",
    "-7 7\n",
    "1000000000000000000 1000000000000000000\n",
    "-1000000000000000000 -1000000000000000000\n",
    "2147483647 1\n",
    ...Array.from({ length: 3 }, () => `${rng.bigint(-(10n ** 18n), 10n ** 18n)} ${rng.bigint(-(10n ** 18n), 10n ** 18n)}\n`),
  ],
  solve(input) {
    const [a, b] = tokens(input).map(BigInt);
    return `${a! + b!}\n`;
  },
};
