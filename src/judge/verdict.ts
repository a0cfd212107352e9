/**
 * The verdict of one test, decided from the sandbox's RunResult and the
 * checker. A sandbox failure (XX) is the system's fault and becomes IE, never
 * a user verdict (house style, after CMS Sandbox.py and go-judge).
 */
import type { RunResult } from "../../isolate/types.ts";
import type { Verdict } from "../../db/schema.ts";
import { check, type CheckerName } from "./checker.ts";

/** Verdicts of a single test: CE is decided by the compile step, never here. */
export type TestVerdict = Exclude<Verdict, "CE">;

/** Signal number of SIGXFSZ (file size limit exceeded) on Linux. */
const SIGXFSZ = 25;

/**
 * Decides a test's verdict.
 * Order: XX → IE; TLE; MLE; OLE (incl. SIGXFSZ, a file written past the file
 * size limit); SG/RE → RE; OK → the checker decides AC or WA. A runtime's own
 * out-of-memory report (JVM heap, Python MemoryError) is already MLE: the
 * language records reclassify it (isolate/languages/*.ts).
 * @param result   the sandbox's result of running the program on the test input
 * @param expected the test's expected output
 * @param checker  the problem's checker
 * @param checkerFlags the `kattis` checker's flags (the problem's checkerFlags)
 * @returns the verdict and, for IE/WA, an internal reason (never hidden data).
 */
/** A problem's own output validator for one test: the program's output in, AC/WA (or IE with the reason) out. */
export type ValidateOutput = (output: string) => Promise<{ verdict: "AC" | "WA" | "IE"; reason?: string }>;

/**
 * The verdict of one test's run, the one decision Run and judging share: a
 * program that exited normally is judged by the problem's own validator when
 * it has one, else by its checker; every other outcome as `decideVerdict`.
 * @param validate the problem's validator for this test, or null for the checker.
 */
export async function testVerdict(
  result: RunResult,
  expected: string,
  checker: CheckerName,
  checkerFlags: string,
  validate: ValidateOutput | null,
): Promise<{ verdict: TestVerdict; reason?: string }> {
  if (validate && result.status === "OK") return validate(result.stdout);
  return decideVerdict(result, expected, checker, checkerFlags);
}

export function decideVerdict(
  result: RunResult,
  expected: string,
  checker: CheckerName,
  checkerFlags = "",
): { verdict: TestVerdict; reason?: string } {
  switch (result.status) {
    case "XX":
      return { verdict: "IE", reason: `sandbox failure: ${result.message ?? "unknown"}` };
    case "TLE":
      return { verdict: "TLE" };
    case "MLE":
      return { verdict: "MLE" };
    case "OLE":
      return { verdict: "OLE" };
    case "SG":
    case "RE": {
      if (result.signal === SIGXFSZ) return { verdict: "OLE" };
      return { verdict: "RE" };
    }
    case "OK": {
      const outcome = check(checker, result.stdout, expected, checkerFlags);
      if (outcome.ok) return { verdict: "AC" };
      return { verdict: outcome.judgeError ? "IE" : "WA", reason: outcome.reason };
    }
  }
}
