/**
 * The Kattis problem package format's default output validator, as
 * problemtools implements it (`support/default_validator/default_validator.cc`,
 * the reference every Kattis/DOMjudge/BAPCtools package is judged by):
 *
 * - whitespace is C's `isspace` set (space, \t, \n, \v, \f, \r), nothing else;
 *   tokens are the runs between it;
 * - without `space_change_sensitive` the amount and kind of whitespace do not
 *   matter; with it, every whitespace character of the answer must be the next
 *   character of the output, and the output may have no other whitespace
 *   (a missing final newline is wrong);
 * - with a float tolerance set, an answer token that is a float (C's `%lf`,
 *   integers included, finite) is compared numerically: the output token must
 *   be a float too, and is accepted when |answer − output| ≤ the absolute
 *   tolerance or ≤ the relative tolerance × |answer|;
 * - every other token is compared byte for byte, ignoring ASCII letter case
 *   unless `case_sensitive` (C's `strcasecmp`: only A–Z fold);
 * - more output tokens than answer tokens is wrong.
 *
 * Works on the decoded text: the whitespace set and the case folding are
 * ASCII, so they see what the C++ validator sees. Reasons name lines and
 * token numbers only, never data (they are logged for hidden tests).
 */
import type { ValidatorOptions } from "../problems/validator-flags.ts";
import { parseFloatToken } from "../problems/validator-flags.ts";

export type ValidatorVerdict = { ok: true } | { ok: false; reason: string };

const OK: ValidatorVerdict = { ok: true };

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** strcasecmp(a, b) == 0: equal after folding ASCII A–Z only. */
function equalIgnoringAsciiCase(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 65 && x <= 90) x += 32;
    if (y >= 65 && y <= 90) y += 32;
    if (x !== y) return false;
  }
  return true;
}

/**
 * Judges `output` against `answer` with the default validator's rules.
 * @param output  the program's stdout
 * @param answer  the test's answer (`.ans`)
 * @param options parsed flags (validator-flags.ts)
 * @example defaultValidator("YES\n", "yes\n", NO_VALIDATOR_FLAGS) // { ok: true }
 */
export function defaultValidator(output: string, answer: string, options: ValidatorOptions): ValidatorVerdict {
  const spaceSensitive = options.spaceChangeSensitive;
  const absTol = options.floatAbsoluteTolerance;
  const relTol = options.floatRelativeTolerance;
  const useFloats = absTol !== null || relTol !== null;
  let a = 0;
  let o = 0;
  let answerLine = 1;
  let outputLine = 1;
  let token = 0;
  const where = () => `line ${outputLine} of the output (line ${answerLine} of the answer)`;
  for (;;) {
    while (a < answer.length && isSpace(answer.charCodeAt(a))) {
      const c = answer.charCodeAt(a++);
      if (spaceSensitive) {
        const d = o < output.length ? output.charCodeAt(o++) : -1;
        if (c !== d) return { ok: false, reason: `whitespace differs on ${where()}` };
        if (d === 10) outputLine++;
      }
      if (c === 10) answerLine++;
    }
    while (o < output.length && isSpace(output.charCodeAt(o))) {
      if (spaceSensitive) return { ok: false, reason: `extra whitespace on ${where()}` };
      if (output.charCodeAt(o) === 10) outputLine++;
      o++;
    }
    if (a >= answer.length) break;
    const aStart = a;
    while (a < answer.length && !isSpace(answer.charCodeAt(a))) a++;
    token++;
    if (o >= output.length) return { ok: false, reason: `output ended at token ${token - 1}, the answer has more (${where()})` };
    const oStart = o;
    while (o < output.length && !isSpace(output.charCodeAt(o))) o++;
    const want = answer.slice(aStart, a);
    const got = output.slice(oStart, o);
    const wantValue = useFloats ? parseFloatToken(want) : null;
    if (wantValue !== null) {
      const gotValue = parseFloatToken(got);
      if (gotValue === null) return { ok: false, reason: `token ${token} should be a number (${where()})` };
      const diff = Math.abs(wantValue - gotValue);
      if (!(absTol !== null && diff <= absTol) && !(relTol !== null && diff <= relTol * Math.abs(wantValue))) {
        return { ok: false, reason: `token ${token}: number outside the tolerance (${where()})` };
      }
    } else if (options.caseSensitive ? got !== want : !equalIgnoringAsciiCase(got, want)) {
      return { ok: false, reason: `token ${token} differs (${where()})` };
    }
  }
  while (o < output.length && isSpace(output.charCodeAt(o))) o++;
  if (o < output.length) return { ok: false, reason: `output has more than the answer's ${token} tokens (${where()})` };
  return OK;
}
