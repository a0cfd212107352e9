/**
 * The flags of the Kattis problem package format's default output validator
 * (problemtools `support/default_validator/default_validator.cc`; the
 * format's `validator_flags` / `output_validator_flags` /
 * `output_validator_args`): `case_sensitive`, `space_change_sensitive`,
 * `float_absolute_tolerance ε`, `float_relative_tolerance ε`,
 * `float_tolerance ε` (sets both). A problem stores them as the format spells
 * them (the `kattis` checker's `checkerFlags`), so packages import and export
 * them unchanged; the form shows them in plain words. No imports: the client
 * bundles this file as it is.
 */

/** What the flags set. A tolerance of null is not set (problemtools' -1). */
export interface ValidatorOptions {
  caseSensitive: boolean;
  spaceChangeSensitive: boolean;
  floatAbsoluteTolerance: number | null;
  floatRelativeTolerance: number | null;
}

/** No flags: case-insensitive tokens, any whitespace, no number tolerance. */
export const NO_VALIDATOR_FLAGS: ValidatorOptions = Object.freeze({
  caseSensitive: false,
  spaceChangeSensitive: false,
  floatAbsoluteTolerance: null,
  floatRelativeTolerance: null,
});

/** Longest flag string a problem stores, characters. */
export const VALIDATOR_FLAGS_MAX_CHARS = 200;

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;

/**
 * A token as C's `sscanf(s, "%lf%10s", ...) == 1` reads it, as the default
 * validator's `isfloat` does: the whole token is one decimal or hexadecimal
 * floating-point number (integers included), and it is finite (`inf`, `nan`
 * and overflowing numbers are not floats).
 * @returns the value, or null when the token is not a float.
 * @example parseFloatToken("0.5") // 0.5
 * @example parseFloatToken("1e") // null (C reads "1" and leaves "e")
 */
export function parseFloatToken(token: string): number | null {
  if (DECIMAL.test(token)) {
    const v = Number(token);
    return Number.isFinite(v) ? v : null;
  }
  const hex = HEX.exec(token);
  if (!hex) return null;
  const [, sign, whole = "", frac = "", exp = "0"] = hex;
  if (whole === "" && frac === "") return null;
  // Exact integer mantissa, correctly rounded once (Number(bigint)), then scaled by a power of two.
  const mantissa = Number(BigInt(`0x${whole}${frac}`));
  const v = mantissa * 2 ** (Number(exp) - 4 * frac.length);
  if (!Number.isFinite(v)) return null;
  return sign === "-" ? -v : v;
}

/**
 * Parses validator flags, given as the format's string (`"float_tolerance 1e-6"`)
 * or list (`["float_tolerance", "1e-6"]`).
 * @returns the options, or an error naming the flag that is wrong.
 */
export function parseValidatorFlags(flags: string | readonly string[]): { ok: true; options: ValidatorOptions } | { ok: false; error: string } {
  const words = typeof flags === "string" ? flags.split(/\s+/).filter((w) => w !== "") : flags.map(String);
  const o: ValidatorOptions = { ...NO_VALIDATOR_FLAGS };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === "case_sensitive") o.caseSensitive = true;
    else if (w === "space_change_sensitive") o.spaceChangeSensitive = true;
    else if (w === "float_absolute_tolerance" || w === "float_relative_tolerance" || w === "float_tolerance") {
      const raw = words[i + 1];
      const value = raw === undefined ? null : parseFloatToken(raw);
      if (value === null) return { ok: false, error: `"${w}" needs a number after it` };
      if (value < 0) return { ok: false, error: `"${w}" must not be negative` };
      if (w !== "float_relative_tolerance") o.floatAbsoluteTolerance = value;
      if (w !== "float_absolute_tolerance") o.floatRelativeTolerance = value;
      i++;
    } else {
      return { ok: false, error: `Unknown flag "${w.slice(0, 40)}" (known: case_sensitive, space_change_sensitive, float_absolute_tolerance, float_relative_tolerance, float_tolerance)` };
    }
  }
  return { ok: true, options: o };
}

/** The canonical flag string of `o` (`float_tolerance ε` when both tolerances are equal); "" for none. */
export function formatValidatorFlags(o: ValidatorOptions): string {
  const out: string[] = [];
  if (o.caseSensitive) out.push("case_sensitive");
  if (o.spaceChangeSensitive) out.push("space_change_sensitive");
  const abs = o.floatAbsoluteTolerance;
  const rel = o.floatRelativeTolerance;
  if (abs !== null && abs === rel) out.push("float_tolerance", String(abs));
  else {
    if (abs !== null) out.push("float_absolute_tolerance", String(abs));
    if (rel !== null) out.push("float_relative_tolerance", String(rel));
  }
  return out.join(" ");
}

/**
 * The flags in plain words, for the solving page and the form, e.g.
 * "Tokens compared ignoring letter case and spacing; numbers within 1e-6 (absolute or relative)".
 */
export function describeValidatorFlags(o: ValidatorOptions): string {
  const parts = [
    `Tokens compared ${o.caseSensitive ? "with" : "ignoring"} letter case`,
    o.spaceChangeSensitive ? "spacing must match exactly" : "any spacing",
  ];
  const abs = o.floatAbsoluteTolerance;
  const rel = o.floatRelativeTolerance;
  if (abs !== null && abs === rel) parts.push(`numbers within ${abs} (absolute or relative)`);
  else {
    if (abs !== null) parts.push(`numbers within ${abs} absolute`);
    if (rel !== null) parts.push(`numbers within ${rel} relative`);
  }
  return parts.join("; ");
}
