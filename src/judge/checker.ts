/**
 * Output checkers: decide whether a program's output matches the expected
 * output of a test. Pure functions over strings; no I/O.
 *
 * - `lines` (default): line by line, ignoring trailing whitespace on each
 *   line and trailing blank lines; CRLF counts as LF.
 * - `tokens`: the sequences of whitespace-separated tokens are equal.
 * - `float`: tokens equal, except that two numeric tokens match when their
 *   absolute or relative difference is at most 1e-6 (testlib's `doubleCompare`
 *   idea, https://github.com/MikeMirzayanov/testlib).
 * - `kattis`: the Kattis package format's default output validator with the
 *   problem's flags (default-validator.ts, validator-flags.ts).
 * - `custom`: the problem's own output validator, run in the sandbox by the
 *   judge (validator.ts); `check` refuses it.
 * - `testlib`: the problem's testlib checker (a Polygon package's), run in
 *   the sandbox by the judge (validator.ts, testlib.ts); `check` refuses it.
 */

import type { CheckerName } from "../problems/limits.ts";
import { parseValidatorFlags } from "../problems/validator-flags.ts";
import { defaultValidator } from "./default-validator.ts";

export { CHECKERS, type CheckerName } from "../problems/limits.ts";

/** Absolute-or-relative tolerance of the `float` checker. */
export const FLOAT_TOLERANCE = 1e-6;

/**
 * Outcome of a comparison. `reason` says where the first difference is
 * (line/token number only, never the data itself, so it is safe to log for
 * hidden tests).
 */
export type CheckResult =
  | { ok: true }
  | {
      ok: false;
      reason: string;
      /** The checker itself could not judge (the problem's flags are broken): IE, not WA. */
      judgeError?: boolean;
    };

const OK: CheckResult = { ok: true };

/** Splits into lines with CRLF as LF, trailing whitespace removed, trailing blank lines dropped. */
function normalizedLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n").map((l) => l.replace(/[ \t\r\f\v]+$/, ""));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function tokens(text: string): string[] {
  return text.split(/\s+/).filter((t) => t !== "");
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * @returns true when `actual` is within `FLOAT_TOLERANCE` of `expected`,
 * absolutely or relative to `|expected|`.
 */
export function floatsMatch(actual: number, expected: number): boolean {
  const diff = Math.abs(actual - expected);
  return diff <= FLOAT_TOLERANCE || diff <= FLOAT_TOLERANCE * Math.abs(expected);
}

function checkLines(output: string, expected: string): CheckResult {
  const got = normalizedLines(output);
  const want = normalizedLines(expected);
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (got[i] !== want[i]) {
      if (i >= got.length) return { ok: false, reason: `output ends at line ${got.length}, expected ${want.length} lines` };
      if (i >= want.length) return { ok: false, reason: `output has ${got.length} lines, expected ${want.length}` };
      return { ok: false, reason: `line ${i + 1} differs` };
    }
  }
  return OK;
}

function checkTokens(output: string, expected: string, numeric: boolean): CheckResult {
  const got = tokens(output);
  const want = tokens(expected);
  const n = Math.min(got.length, want.length);
  for (let i = 0; i < n; i++) {
    const g = got[i]!;
    const w = want[i]!;
    if (g === w) continue;
    if (numeric && NUMBER.test(g) && NUMBER.test(w) && floatsMatch(Number(g), Number(w))) continue;
    return { ok: false, reason: `token ${i + 1} differs` };
  }
  if (got.length !== want.length) return { ok: false, reason: `output has ${got.length} tokens, expected ${want.length}` };
  return OK;
}

/**
 * Compares a program's output with the expected output.
 * @param checker  the problem's checker name
 * @param output   the program's stdout (text)
 * @param expected the test's expected output
 * @param flags    the `kattis` checker's flags (the problem's checkerFlags); ignored by the others
 * @example check("lines", "1 2  \r\n", "1 2") // { ok: true }
 * @example check("float", "0.3333333", "0.333333333") // { ok: true }
 * @example check("kattis", "YES\n", "yes\n") // { ok: true }
 */
export function check(checker: CheckerName, output: string, expected: string, flags = ""): CheckResult {
  switch (checker) {
    case "lines":
      return checkLines(output, expected);
    case "tokens":
      return checkTokens(output, expected, false);
    case "float":
      return checkTokens(output, expected, true);
    case "kattis": {
      const parsed = parseValidatorFlags(flags);
      if (!parsed.ok) return { ok: false, reason: `the problem's validator flags are invalid: ${parsed.error}`, judgeError: true };
      return defaultValidator(output, expected, parsed.options);
    }
    case "custom":
    case "testlib":
      // The problem's own validator (or testlib checker) runs in the sandbox (src/judge/validator.ts), never here.
      return { ok: false, reason: `a ${checker} checker is run by the judge, not by check()`, judgeError: true };
  }
}
