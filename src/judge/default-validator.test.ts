/**
 * The Kattis default output validator, case by case against problemtools'
 * default_validator.cc, and its flags as packages spell them.
 */
import { describe, expect, test } from "bun:test";
import { defaultValidator } from "./default-validator.ts";
import { check } from "./checker.ts";
import { decideVerdict } from "./verdict.ts";
import {
  describeValidatorFlags,
  formatValidatorFlags,
  NO_VALIDATOR_FLAGS,
  parseFloatToken,
  parseValidatorFlags,
  type ValidatorOptions,
} from "../problems/validator-flags.ts";
import type { RunResult } from "../../isolate/types.ts";

const flags = (f: string): ValidatorOptions => {
  const p = parseValidatorFlags(f);
  if (!p.ok) throw new Error(p.error);
  return p.options;
};
const ok = (output: string, answer: string, f = "") => defaultValidator(output, answer, flags(f)).ok;

describe("tokens and whitespace (no flags)", () => {
  test("any amount and kind of C whitespace between and around tokens", () => {
    expect(ok("A B", "A B")).toBe(true);
    expect(ok(" A  B \t\n", "A B")).toBe(true);
    expect(ok("A\nB\n\n\n", "A B\n")).toBe(true);
    expect(ok("A\r\nB\r\n", "A\nB\n")).toBe(true);
    expect(ok("A\vB\f", "A B")).toBe(true);
  });

  test("an empty answer accepts only whitespace", () => {
    for (const out of ["", " ", "\n", "\t", " \t\n\t\n \t"]) expect(ok(out, "")).toBe(true);
    for (const out of ["a", "0", " 0 ", ".", "|"]) expect(ok(out, "")).toBe(false);
  });

  test("missing, extra and different tokens are wrong", () => {
    expect(ok("A B X", "A B")).toBe(false);
    expect(ok("X A B", "A B")).toBe(false);
    expect(ok("A B\n\n\n\n \n\n X", "A B")).toBe(false);
    expect(ok("A", "A B")).toBe(false);
    expect(ok("", "A")).toBe(false);
  });

  test("only C's whitespace separates tokens: a no-break space is part of a token", () => {
    expect(ok("A\u00a0B", "A B")).toBe(false);
    expect(ok("A\u00a0B", "A\u00a0B")).toBe(true);
  });
});

describe("letter case", () => {
  test("ignored by default (strcasecmp): YES is yes", () => {
    expect(ok("YES\n", "yes\n")).toBe(true);
    expect(ok("Possible", "POSSIBLE")).toBe(true);
    expect(ok("yes", "no")).toBe(false);
  });

  test("only ASCII letters fold, as in C: É is not é", () => {
    expect(ok("É", "é")).toBe(false);
    expect(ok("ÉA", "Éa")).toBe(true);
  });

  test("case_sensitive compares exactly", () => {
    expect(ok("YES", "yes", "case_sensitive")).toBe(false);
    expect(ok("yes", "yes", "case_sensitive")).toBe(true);
  });
});

describe("space_change_sensitive", () => {
  test("every whitespace character must be the answer's", () => {
    expect(ok("A B\n", "A B\n", "space_change_sensitive")).toBe(true);
    expect(ok("A  B\n", "A B\n", "space_change_sensitive")).toBe(false);
    expect(ok("A\tB\n", "A B\n", "space_change_sensitive")).toBe(false);
    expect(ok("A B", "A B\n", "space_change_sensitive")).toBe(false); // the final newline is missing
    expect(ok("A B\n\n", "A B\n", "space_change_sensitive")).toBe(false);
    expect(ok(" A B\n", "A B\n", "space_change_sensitive")).toBe(false);
    expect(ok("", "", "space_change_sensitive")).toBe(true);
    expect(ok(" ", "", "space_change_sensitive")).toBe(false);
  });

  test("letter case is still ignored unless case_sensitive is set too", () => {
    expect(ok("YES\n", "yes\n", "space_change_sensitive")).toBe(true);
    expect(ok("YES\n", "yes\n", "case_sensitive space_change_sensitive")).toBe(false);
  });
});

describe("float tolerances", () => {
  test("float_tolerance: absolute or relative, on floats and integers", () => {
    expect(ok("0.3333333", "0.333333333", "float_tolerance 1e-6")).toBe(true);
    expect(ok("0.3334", "0.333333333", "float_tolerance 1e-6")).toBe(false);
    expect(ok("1000000.5", "1000000", "float_tolerance 1e-6")).toBe(true); // relative: 0.5 ≤ 1e-6 × 1e6
    expect(ok("3", "3.0000001", "float_tolerance 1e-6")).toBe(true);
    expect(ok("3.0000001", "3", "float_tolerance 1e-6")).toBe(true);
    expect(ok("4", "3", "float_tolerance 1e-6")).toBe(false);
  });

  test("absolute only: a big value needs the absolute difference", () => {
    expect(ok("1000000.5", "1000000", "float_absolute_tolerance 1e-6")).toBe(false);
    expect(ok("0.0000005", "0", "float_absolute_tolerance 1e-6")).toBe(true);
  });

  test("relative only: near zero nothing but the exact value passes", () => {
    expect(ok("1000000.5", "1000000", "float_relative_tolerance 1e-6")).toBe(true);
    expect(ok("0.0000005", "0", "float_relative_tolerance 1e-6")).toBe(false);
    expect(ok("0", "0", "float_relative_tolerance 1e-6")).toBe(true);
  });

  test("an answer float needs an output float; other tokens are still compared as text", () => {
    expect(ok("abc", "1.5", "float_tolerance 1e-6")).toBe(false);
    expect(ok("1.5x", "1.5", "float_tolerance 1e-6")).toBe(false);
    expect(ok("Case #1: 2.0000001", "case #1: 2", "float_tolerance 1e-6")).toBe(true);
    expect(ok("inf", "inf", "float_tolerance 1e-6")).toBe(true); // not a float: text, equal
    expect(ok("1e5", "100000", "float_tolerance 0")).toBe(true);
    expect(ok("0x10", "16", "float_tolerance 0")).toBe(true); // C's %lf reads hexadecimal floats
  });

  test("without a tolerance numbers are text: 1.0 is not 1", () => {
    expect(ok("1.0", "1")).toBe(false);
    expect(ok("1", "1")).toBe(true);
  });
});

describe("reasons name positions, never data", () => {
  test("a wrong token", () => {
    const r = defaultValidator("1\nsecret-output\n", "1\nsecret-answer\n", NO_VALIDATOR_FLAGS);
    expect(r).toEqual({ ok: false, reason: "token 2 differs (line 2 of the output (line 2 of the answer))" });
  });
  test("short and long output", () => {
    expect(defaultValidator("1", "1 2", NO_VALIDATOR_FLAGS)).toMatchObject({ ok: false, reason: expect.stringContaining("output ended at token 1") });
    expect(defaultValidator("1 2 3", "1 2", NO_VALIDATOR_FLAGS)).toMatchObject({ ok: false, reason: expect.stringContaining("more than the answer's 2 tokens") });
  });
});

describe("C's %lf floats (parseFloatToken)", () => {
  test.each([
    ["0", 0],
    ["-0.5", -0.5],
    ["+.5", 0.5],
    ["1.", 1],
    ["1e5", 1e5],
    ["1E-3", 1e-3],
    ["0x1p3", 8],
    ["0x.8", 0.5],
    ["-0X1A", -26],
  ])("%s is %d", (token, value) => expect(parseFloatToken(token)).toBe(value));

  test.each(["", "e5", "1e", "1e+", ".", "-", "0x", "0x1p", "1.5.2", "inf", "nan", "Infinity", "1e999", "1_000", "0b1", " 1", "１"])("%j is not a float", (token) => {
    expect(parseFloatToken(token)).toBeNull();
  });
});

describe("flags as packages spell them", () => {
  test("string and list forms; float_tolerance sets both", () => {
    expect(parseValidatorFlags("float_tolerance 1e-6 case_sensitive")).toEqual({
      ok: true,
      options: { caseSensitive: true, spaceChangeSensitive: false, floatAbsoluteTolerance: 1e-6, floatRelativeTolerance: 1e-6 },
    });
    expect(parseValidatorFlags(["float_relative_tolerance", "0.01", "space_change_sensitive"])).toEqual({
      ok: true,
      options: { caseSensitive: false, spaceChangeSensitive: true, floatAbsoluteTolerance: null, floatRelativeTolerance: 0.01 },
    });
    expect(parseValidatorFlags("")).toEqual({ ok: true, options: NO_VALIDATOR_FLAGS });
  });

  test("errors name the flag", () => {
    expect(parseValidatorFlags("float_tolerance")).toEqual({ ok: false, error: '"float_tolerance" needs a number after it' });
    expect(parseValidatorFlags("float_absolute_tolerance abc")).toEqual({ ok: false, error: '"float_absolute_tolerance" needs a number after it' });
    expect(parseValidatorFlags("float_tolerance -1")).toEqual({ ok: false, error: '"float_tolerance" must not be negative' });
    expect(parseValidatorFlags("ignore_case")).toMatchObject({ ok: false, error: expect.stringContaining('Unknown flag "ignore_case"') });
  });

  test("canonical form round-trips, and reads in plain words", () => {
    for (const f of ["", "case_sensitive", "space_change_sensitive float_tolerance 0.000001", "float_absolute_tolerance 0.1 float_relative_tolerance 0.2"]) {
      expect(formatValidatorFlags(flags(f))).toBe(f);
    }
    expect(formatValidatorFlags(flags("float_absolute_tolerance 1e-6 float_relative_tolerance 1e-6"))).toBe("float_tolerance 0.000001");
    expect(describeValidatorFlags(flags(""))).toBe("Tokens compared ignoring letter case; any spacing");
    expect(describeValidatorFlags(flags("case_sensitive space_change_sensitive float_tolerance 1e-6"))).toBe(
      "Tokens compared with letter case; spacing must match exactly; numbers within 0.000001 (absolute or relative)",
    );
  });
});

describe("through the checker and the verdict", () => {
  const okRun = (stdout: string): RunResult => ({ status: "OK", exitCode: 0, signal: null, cpuTimeMs: 1, wallTimeMs: 1, memoryKib: 1, stdout, stderr: "", stdoutTruncated: false });
  test("kattis uses the problem's flags; the other checkers ignore them", () => {
    expect(check("kattis", "YES", "yes")).toEqual({ ok: true });
    expect(check("kattis", "YES", "yes", "case_sensitive").ok).toBe(false);
    expect(check("tokens", "YES", "yes", "").ok).toBe(false);
    expect(decideVerdict(okRun("0.3333333\n"), "0.333333333\n", "kattis", "float_tolerance 1e-6").verdict).toBe("AC");
    expect(decideVerdict(okRun("yes\n"), "no\n", "kattis").verdict).toBe("WA");
  });

  test("broken flags (stored by hand) are the judge's error: IE, never WA or AC", () => {
    expect(decideVerdict(okRun("1\n"), "1\n", "kattis", "float_tolerance x")).toMatchObject({ verdict: "IE", reason: expect.stringContaining("validator flags are invalid") });
  });
});
