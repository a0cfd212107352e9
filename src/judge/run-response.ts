/** The answer of Run (POST /api/compiler), shared by the plain run (./run.ts) and the run through a validator (./run-with-validator.ts). */
import type { TestVerdict } from "./verdict.ts";

/**
 * Run's answer. `verdict` is a test verdict when `expectedOutput` was sent;
 * without it a normal exit is `OK` (nothing to compare), otherwise TLE, MLE,
 * RE, OLE or IE. `correct` is present exactly when `expectedOutput` was sent.
 */
export interface RunResponse {
  output: string;
  correct?: boolean;
  verdict: TestVerdict | "OK";
  stderr: string;
  /** Null when the program was killed by a signal or a limit. */
  exitCode: number | null;
  /** CPU time (wall time for a wall-clock TLE), ms. */
  timeMs: number;
  memoryKib: number;
  /** True when `output` was cut to RUN_OUTPUT_RETURN_MAX_BYTES or at the output limit. */
  outputTruncated: boolean;
  /** Whether the compile step was answered from the compile cache. */
  compileCached: boolean;
  /**
   * The problem is interactive or multi-pass: Run judged its sample through the problem's
   * validator (the custom input is not used) and `output` is the interaction's transcript
   * (`<` the validator's lines, `>` the program's, `---` between passes).
   */
  ranSample?: boolean;
}
