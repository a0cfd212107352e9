/**
 * testlib's standard checkers judged by this judge's built-in comparison of
 * the same semantics (issue 38's fast path, decision 080): a Polygon
 * package's `<checker name="std::wcmp.cpp">` needs no compile of testlib.h
 * (about 10 s of CPU) and no box of its own per test. Only the checkers
 * whose verdicts equal the default output validator's (src/judge/default-validator.ts)
 * on every output, given a valid answer file, are mapped (testlib 0.9.45,
 * ../shared/vendor/testlib/checkers/):
 *
 * | checker | testlib | here |
 * |---|---|---|
 * | wcmp | tokens equal byte for byte, extra or missing tokens WA | `case_sensitive` |
 * | ncmp | 64-bit integers in canonical form (no `+`, no leading zeros, no `-0`: anything else PE) equal, so their texts are | `case_sensitive` |
 * | hcmp | huge integers in canonical form, compared as text | `case_sensitive` |
 * | rcmp4, rcmp6, rcmp9 | doubles within 1e-4, 1e-6, 1e-9 absolute or relative; a token that is no number PE | `float_tolerance 1e-4` … |
 * | yesno, nyesno | YES / NO in any letter case (one, or a sequence) | the default (letter case ignored) |
 *
 * Where the two could part (said in decision 080): whitespace (testlib's
 * is space, tab, CR, LF; the default validator's adds \v and \f), and
 * rcmp's 1e-15 of slack past the tolerance. PE folds into WA here, so a
 * token testlib refuses to read is WA both ways. Every other standard
 * checker (lcmp, fcmp, rcmp, acmp, dcmp, icmp, uncmp, casewcmp, …) is
 * compiled from the package as any testlib checker.
 */
import { formatValidatorFlags, parseValidatorFlags } from "../problems/validator-flags.ts";

/** Standard checker (without `std::` and `.cpp`) → the default validator's flags of the same semantics. */
export const STD_CHECKER_FLAGS: Readonly<Record<string, string>> = {
  wcmp: "case_sensitive",
  ncmp: "case_sensitive",
  hcmp: "case_sensitive",
  rcmp4: "float_tolerance 1e-4",
  rcmp6: "float_tolerance 1e-6",
  rcmp9: "float_tolerance 1e-9",
  yesno: "",
  nyesno: "",
};

/**
 * The built-in comparison for a package's checker, by its Polygon name.
 * @param name the `<checker name>` attribute, e.g. "std::rcmp6.cpp" (null: none).
 * @returns the default validator's flags (formatted as stored), or null to compile the checker.
 */
export function stdCheckerFlags(name: string | null): string | null {
  const m = /^std::([a-z0-9]+)(?:\.cpp)?$/.exec(name ?? "");
  const flags = m ? STD_CHECKER_FLAGS[m[1]!] : undefined;
  if (flags === undefined) return null;
  const parsed = parseValidatorFlags(flags);
  if (!parsed.ok) throw new Error(`STD_CHECKER_FLAGS ${m![1]}: ${parsed.error}`);
  return formatValidatorFlags(parsed.options);
}
