/**
 * What a problem write accepts, validated by zod: the create and update
 * inputs with the wording every field answers with (`title: Required`,
 * `timeLimitMs: At least 100 ms`, ...). Unknown keys (`_id`, `user`, `__v`,
 * `version`, ...) are stripped, so nobody can set a problem's owner or version.
 */
import { z } from "zod";
import { idField, requiredBlock, requiredText, textBlock } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { CHECKERS, DIFFICULTIES, PROBLEM_LIMITS, PYTHON_IMPLEMENTATIONS } from "./limits.ts";
import { formatValidatorFlags, parseValidatorFlags, VALIDATOR_FLAGS_MAX_CHARS } from "./validator-flags.ts";
import { validatorInput } from "./validator-spec.ts";
import { SCORING_LIMITS, scoringInput } from "./scoring-spec.ts";
import { problemTagsField } from "./tags/input.ts";

const testCaseText = z.string({
  error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text"),
});

/**
 * Test inputs are stored with LF line ends, as Polygon and DMOJ normalise test
 * data: a CRLF input (pasted from Windows, or sent through the API) would
 * otherwise hand `getline`/`strip("\n")`-style solutions a stray `\r` and turn
 * correct code into WA. Expected outputs need no such care: every checker
 * already reads CRLF as LF.
 */
export const toLf = (s: string) => s.replace(/\r\n?/g, "\n");

const fields = {
  title: requiredText(PROBLEM_LIMITS.titleMaxChars),
  description: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  inputFormat: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  outputFormat: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  constraints: requiredBlock(PROBLEM_LIMITS.statementMaxBytes),
  // May be empty: a problem without input (the classic "Hello World!") has an empty sample input.
  sampleInput: textBlock(PROBLEM_LIMITS.statementMaxBytes).transform(toLf),
  // Required unless the problem is interactive (sampleOutputMissing): its validator may need no answer file.
  sampleOutput: textBlock(PROBLEM_LIMITS.statementMaxBytes),
  difficulty: z.enum(DIFFICULTIES, { error: `Must be ${listInWords(DIFFICULTIES)}` }),
  // Missing input/expectedOutput count as empty: the spec's form does not mark them required.
  hiddenTestCases: z
    .array(
      z.object({
        input: testCaseText.transform(toLf).default(""),
        expectedOutput: testCaseText.default(""),
        /** A scoring problem's test: the name of its group. */
        group: z.string({ error: "Must be a group's name" }).max(SCORING_LIMITS.nameMaxChars).optional(),
      }),
      {
        error: "Must be a list of { input, expectedOutput }",
      },
    )
    .max(PROBLEM_LIMITS.maxTestCases, { error: `At most ${PROBLEM_LIMITS.maxTestCases} test cases` }),
  timeLimitMs: z
    .number({ error: "Must be a number of milliseconds" })
    .int({ error: "Must be a whole number of milliseconds" })
    .min(PROBLEM_LIMITS.timeLimitMs.min, { error: `At least ${PROBLEM_LIMITS.timeLimitMs.min} ms` })
    .max(PROBLEM_LIMITS.timeLimitMs.max, { error: `At most ${PROBLEM_LIMITS.timeLimitMs.max} ms` }),
  memoryLimitKib: z
    .number({ error: "Must be a number of KiB" })
    .int({ error: "Must be a whole number of KiB" })
    .min(PROBLEM_LIMITS.memoryLimitKib.min, { error: "At least 16 MiB (16384 KiB)" })
    .max(PROBLEM_LIMITS.memoryLimitKib.max, { error: `At most ${PROBLEM_LIMITS.memoryLimitKib.max / 1024} MiB (${PROBLEM_LIMITS.memoryLimitKib.max} KiB)` }),
  checker: z.enum(CHECKERS, { error: `Must be ${listInWords(CHECKERS)}` }),
  /** The validator talks with the submission over pipes (requires the custom checker). */
  interactive: z.boolean({ error: "Must be true or false" }),
  /** Runs per test (multi-pass); 1 for an ordinary problem (more requires the custom checker). */
  validationPasses: z
    .number({ error: "Must be a number of passes" })
    .int({ error: "Must be a whole number of passes" })
    .min(PROBLEM_LIMITS.validationPasses.min, { error: `At least ${PROBLEM_LIMITS.validationPasses.min}` })
    .max(PROBLEM_LIMITS.validationPasses.max, { error: `At most ${PROBLEM_LIMITS.validationPasses.max}` }),
  timeScaledByLanguage: z.boolean({ error: "Must be true or false" }),
  /** What runs Python 3 submissions: CPython or PyPy. */
  pythonImplementation: z.enum(PYTHON_IMPLEMENTATIONS, { error: `Must be ${listInWords(PYTHON_IMPLEMENTATIONS)}` }),
  /** The `kattis` checker's flags as the package format spells them; stored in canonical form. */
  checkerFlags: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
    .max(VALIDATOR_FLAGS_MAX_CHARS, { error: `At most ${VALIDATOR_FLAGS_MAX_CHARS} characters` })
    .transform((flags, ctx) => {
      const parsed = parseValidatorFlags(flags);
      if (parsed.ok) return formatValidatorFlags(parsed.options);
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }),
};

/**
 * Create input. Unknown keys (`_id`, `user`, `__v`, `version`, ...) are
 * stripped by zod, so nobody can set a problem's owner or version.
 */
export const problemInput = z.object({
  ...fields,
  /** Create the problem in this course (course-private: only its members see it). */
  courseId: idField().optional(),
  hiddenTestCases: fields.hiddenTestCases.default([]),
  timeLimitMs: fields.timeLimitMs.optional(),
  memoryLimitKib: fields.memoryLimitKib.optional(),
  checker: fields.checker.optional(),
  checkerFlags: fields.checkerFlags.optional(),
  timeScaledByLanguage: fields.timeScaledByLanguage.optional(),
  validator: validatorInput.nullable().optional(),
  interactive: fields.interactive.optional(),
  validationPasses: fields.validationPasses.optional(),
  pythonImplementation: fields.pythonImplementation.optional(),
  /** Test groups with points (a scoring problem); null or absent: pass-fail. */
  scoring: scoringInput.nullable().optional(),
  /** Topic tags: slugs or free words the vocabulary resolves (src/problems/tags), at most 8; an unknown word is a 400 naming `tags`. */
  tags: problemTagsField.optional(),
}).superRefine((v, ctx) => {
  if (sampleOutputMissing(v)) ctx.addIssue({ code: "custom", message: "Required", path: ["sampleOutput"] });
  const wrong = checkerProblem(v);
  if (wrong) ctx.addIssue({ code: "custom", message: wrong.message, path: [wrong.field] });
});

/**
 * Whether a write leaves the sample without the answer it needs: every
 * problem's sample has one, except an interactive problem's (the format's
 * interactive samples may have an empty `.ans`; the judge then runs no test 0).
 */
function sampleOutputMissing(v: { sampleOutput?: string; interactive?: boolean }): boolean {
  return v.sampleOutput !== undefined && v.sampleOutput.trim() === "" && v.interactive !== true;
}

/**
 * Why a problem needs the custom checker, or null: an interactive or multi-pass
 * problem is judged by its own validator (the format has no default one for them).
 */
export function validatorNeeded(v: { interactive?: boolean; validationPasses?: number }): string | null {
  if (v.interactive) return "Must be custom for an interactive problem (its validator talks with the submission)";
  if ((v.validationPasses ?? 1) > 1) return "Must be custom for a multi-pass problem (its validator writes the next pass's input)";
  return null;
}
/**
 * What is wrong with a problem's checker and its program, or null: a custom or
 * testlib checker needs its files (a testlib one marked so: a Polygon import
 * gives it), an interactive problem needs the custom checker or a testlib one
 * with its interactor, a multi-pass one the custom checker.
 */
export function checkerProblem(v: { checker?: string; validator?: { language?: string; testlib?: { interactor?: unknown } } | null; interactive?: boolean; validationPasses?: number }): { field: "validator" | "checker"; message: string } | null {
  if (v.checker === "custom" && !v.validator) return { field: "validator", message: "Required when the checker is custom (the validator's files)" };
  if (v.checker === "testlib" && !v.validator?.testlib) return { field: "validator", message: "Required when the checker is testlib (the checker's files with testlib.h, marked testlib: the form and a Polygon import give them)" };
  // Run as `check input output answer` from its one source (decision 080): a build/run program folder is the custom checker's.
  if (v.checker === "testlib" && v.validator?.language === "script") return { field: "validator", message: "A testlib checker is one C++ or Python source with main() (and testlib.h), not build/run scripts" };
  if (v.checker === "custom" && v.validator?.testlib) return { field: "checker", message: "Must be testlib for a testlib checker's files" };
  const why = validatorNeeded(v);
  if (!why) return null;
  if (v.checker === "custom") return null;
  if (v.checker === "testlib" && v.interactive && (v.validationPasses ?? 1) <= 1) {
    return v.validator?.testlib?.interactor ? null : { field: "validator", message: "An interactive problem with a testlib checker needs its interactor" };
  }
  return { field: "checker", message: why };
}
export type ProblemInput = z.infer<typeof problemInput>;

/** Update input: the id plus any subset of the create fields; `hiddenTestCases`, when given, replaces all tests. */
export const problemUpdateInput = z.object({
  id: idField(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  inputFormat: fields.inputFormat.optional(),
  outputFormat: fields.outputFormat.optional(),
  constraints: fields.constraints.optional(),
  sampleInput: fields.sampleInput.optional(),
  sampleOutput: fields.sampleOutput.optional(),
  difficulty: fields.difficulty.optional(),
  hiddenTestCases: fields.hiddenTestCases.optional(),
  timeLimitMs: fields.timeLimitMs.optional(),
  memoryLimitKib: fields.memoryLimitKib.optional(),
  checker: fields.checker.optional(),
  checkerFlags: fields.checkerFlags.optional(),
  timeScaledByLanguage: fields.timeScaledByLanguage.optional(),
  /** A new validator (null removes it); absent keeps the stored one. */
  validator: validatorInput.nullable().optional(),
  interactive: fields.interactive.optional(),
  validationPasses: fields.validationPasses.optional(),
  pythonImplementation: fields.pythonImplementation.optional(),
  /** New test groups (null: the problem becomes pass-fail); absent keeps them (new hidden tests then need their group). */
  scoring: scoringInput.nullable().optional(),
  /** The problem's topic tags, all of them ([] removes every tag); absent keeps them. */
  tags: problemTagsField.optional(),
}).superRefine((v, ctx) => {
  if (sampleOutputMissing(v)) ctx.addIssue({ code: "custom", message: "Required (an interactive problem, sent with interactive: true, may leave it empty)", path: ["sampleOutput"] });
});
export type ProblemUpdate = z.infer<typeof problemUpdateInput>;
