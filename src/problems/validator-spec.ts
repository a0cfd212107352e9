/**
 * A problem's custom output validator (the `custom` checker): its language,
 * its files (the one C++ or Python source with a `main`, plus any headers or
 * modules it uses, testlib.h included when the author ships it) and the
 * arguments it is called with (the format's output_validator_args). Stored as
 * JSON on the problem; src/judge/validator.ts runs it.
 */
import { z } from "zod";

/** Size of all of a validator's files together, UTF-8 bytes. */
export const VALIDATOR_MAX_BYTES = 1024 * 1024;
/** A validator file's name: plain, no folders (its box holds one flat folder). */
export const VALIDATOR_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}$/;

export interface ValidatorSpec {
  /** `script`: a program folder with `build` and/or `run` scripts (the format's "Programs"), run as `./run`. */
  language: "cpp" | "py" | "script";
  /** File name → content. */
  files: Record<string, string>;
  /** The source with the program's entry (a key of `files`). */
  main: string;
  /** Arguments after the feedback directory, space-separated. */
  args: string;
  /**
   * A testlib checker (the `testlib` checker, a Polygon package's): run as
   * `check <input> <output> <answer>`, read by its exit code (src/judge/testlib.ts).
   */
  testlib?: TestlibSpec;
}

/** What a testlib checker carries besides its files. */
export interface TestlibSpec {
  /** Polygon's `treat-points-from-checker-as-percent`: `points X` (exit 7) is X % of the test's points, else X points. */
  pointsAsPercent: boolean;
  /** An interactive problem's interactor (`interactor <input> <tout>`): its one source with a main, and headers beside it. */
  interactor?: { language: "cpp" | "py"; files: Record<string, string>; main: string };
}

/** The format's scripts of a validator program folder ("Programs"): with either, the scripts build and run it. */
export const VALIDATOR_SCRIPTS = ["build", "run"] as const;

/** Whether a validator's file names make a program folder with scripts (`build` and/or `run`). */
export function isScripted(names: Iterable<string>): boolean {
  for (const n of names) if ((VALIDATOR_SCRIPTS as readonly string[]).includes(n)) return true;
  return false;
}

/**
 * The source file a validator starts from: `run` for a program folder with
 * `build`/`run` scripts (they pick among its sources), else the one .cpp/.cc
 * (C++) or .py whose text has an entry point.
 */
export function validatorMain(files: Record<string, string>): { language: ValidatorSpec["language"]; main: string } | { error: string } {
  const names = Object.keys(files);
  if (isScripted(names)) return { language: "script", main: "run" };
  const cpp = names.filter((n) => /\.(cpp|cc|cxx)$/.test(n));
  const py = names.filter((n) => n.endsWith(".py"));
  if (cpp.length) {
    const withMain = cpp.filter((n) => /\bmain\s*\(/.test(files[n]!));
    if (withMain.length !== 1) return { error: `exactly one C++ source must define main() (found ${withMain.length} of ${cpp.length})` };
    return { language: "cpp", main: withMain[0]! };
  }
  if (py.length === 1) return { language: "py", main: py[0]! };
  if (py.length > 1) {
    const named = py.filter((n) => /^(validate|validator|output_validator|main)\.py$/.test(n));
    if (named.length === 1) return { language: "py", main: named[0]! };
    return { error: "several Python files: name the validator validate.py" };
  }
  return { error: "no C++ (.cpp, .cc) or Python (.py) source" };
}

const testlibInput = z.object({
  pointsAsPercent: z.boolean({ error: "Must be true or false" }),
  interactor: z
    .object({
      language: z.enum(["cpp", "py"], { error: "Must be cpp or py" }),
      files: z.record(z.string().regex(VALIDATOR_FILE_NAME, { error: "File names are letters, digits, _ . + - (no folders)" }), z.string({ error: "Must be text" })),
      main: z.string({ error: "Must be a file name" }),
    })
    .refine((i) => i.main in i.files, { error: "main must name one of the interactor's files", path: ["main"] })
    .optional(),
});

/** The zod input of a validator, as the form and the API send it: files and args; language and main are derived. */
export const validatorInput = z
  .object({
    files: z.record(
      z.string().regex(VALIDATOR_FILE_NAME, { error: "File names are letters, digits, _ . + - (no folders)" }),
      z.string({ error: "Must be text" }),
      { error: "Must be an object of file name to text" },
    ),
    args: z.string({ error: "Must be text" }).max(500, { error: "At most 500 characters" }).default(""),
    /** Set by a Polygon import (the `testlib` checker); the form does not send it. */
    testlib: testlibInput.optional(),
  })
  .transform((v, ctx): ValidatorSpec => {
    const size = Object.values(v.files).reduce((n, c) => n + Buffer.byteLength(c, "utf8"), 0);
    if (size > VALIDATOR_MAX_BYTES) {
      ctx.addIssue({ code: "custom", message: `At most ${VALIDATOR_MAX_BYTES / (1024 * 1024)} MiB of validator files`, path: ["files"] });
      return z.NEVER;
    }
    const m = validatorMain(v.files);
    if ("error" in m) {
      ctx.addIssue({ code: "custom", message: m.error[0]!.toUpperCase() + m.error.slice(1), path: ["files"] });
      return z.NEVER;
    }
    if (v.testlib?.interactor) {
      const all = { ...v.files, ...v.testlib.interactor.files };
      if (Object.values(all).reduce((n, c) => n + Buffer.byteLength(c, "utf8"), 0) > VALIDATOR_MAX_BYTES) {
        ctx.addIssue({ code: "custom", message: `At most ${VALIDATOR_MAX_BYTES / (1024 * 1024)} MiB of checker and interactor files`, path: ["testlib", "interactor"] });
        return z.NEVER;
      }
    }
    return { ...m, files: v.files, args: v.args, ...(v.testlib ? { testlib: v.testlib } : {}) };
  });
