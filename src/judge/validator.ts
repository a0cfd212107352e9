/**
 * Custom output validators, with the Kattis validator protocol
 * (problem package format, "Output validators"):
 *
 *   validator input_file answer_file feedback_dir [args...] < team_output
 *
 * exit 42 = accept, 43 = reject, anything else (a crash, a limit, another
 * code) is the judge's error: IE for the submission, never AC. Validators are
 * C++ (any headers the author ships, testlib.h included, are compiled with it)
 * or Python, compiled once per problem version through the compile cache, and
 * run in the submission's box after the program's run, under their own
 * limits. Before each validation the validator's files, the test's input and
 * answer are written into the box; afterwards the input and answer are
 * emptied, so a later test's program never reads them. The feedback directory
 * is the run's private /tmp.
 */
import type { Box, RunRequest, RunResult } from "../../isolate/types.ts";
import type { ValidatorSpec } from "../problems/validator-spec.ts";
import type { ArtifactFile } from "./compile-cache.ts";

/** How the judge compiles (its compile cache, keyed by `keyText`): given by the caller. */
export type CompileValidator = (
  language: ValidatorSpec["language"],
  code: string,
  keyText: string,
) => Promise<{ kind: "ok"; files: ArtifactFile[] } | { kind: "ce"; diagnostics: string } | { kind: "ie"; detail: string }>;

/** Exit codes of the protocol. */
export const VALIDATOR_ACCEPT = 42;
export const VALIDATOR_REJECT = 43;

/** A validator's own limits (problemtools' validation_time default is 60 s; a judge answers sooner). */
export const VALIDATOR_LIMITS = {
  cpuTimeLimitMs: 10_000,
  wallTimeLimitMs: 20_000,
  memoryLimitKib: 1024 * 1024,
  processLimit: 16,
  outputLimitBytes: 1024 * 1024,
  fileSizeLimitKib: 64 * 1024,
} as const;

/** Names in the box (the program's own files are main.*, prog, *.class). */
const INPUT_FILE = "judge_input.in";
const ANSWER_FILE = "judge_answer.ans";

/** A validator ready to run: the compiled artifacts (renamed so they never meet the program's) and its other files. */
export interface ReadyValidator {
  spec: ValidatorSpec;
  /** Written into the box before each validation. */
  files: ArtifactFile[];
  argv: string[];
}

export type ValidatorOutcome = { verdict: "AC" | "WA" } | { verdict: "IE"; reason: string };

/**
 * Compiles the problem's validator in `box` (through the cache: one compile per
 * validator version, whatever the submission).
 * @returns the validator, or an IE reason (a validator that does not compile is the setter's fault).
 */
export async function prepareValidator(compile: CompileValidator, box: Box, spec: ValidatorSpec): Promise<ReadyValidator | { error: string }> {
  const main = spec.main;
  const others: ArtifactFile[] = Object.entries(spec.files)
    .filter(([name]) => name !== main)
    .map(([name, content]) => ({ name, content: new TextEncoder().encode(content), mode: 0o644 }));
  for (const f of others) await box.writeFile(f.name, f.content, f.mode);
  const keyText = `validator\0${Object.entries(spec.files)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([n, c]) => `${n}\0${c}`)
    .join("\0\0")}`;
  const step = await compile(spec.language, spec.files[main]!, keyText);
  if (step.kind === "ie") return { error: `output validator: ${step.detail}` };
  if (step.kind === "ce") return { error: `output validator does not compile: ${step.diagnostics.split("\n").slice(0, 3).join(" ")}` };
  const renamed = step.files.map((f) =>
    spec.language === "cpp" ? { ...f, name: "validator" } : { ...f, name: "validator.py" },
  );
  const args = spec.args.split(/\s+/).filter(Boolean);
  const argv =
    spec.language === "cpp"
      ? ["./validator", INPUT_FILE, ANSWER_FILE, "/tmp/", ...args]
      : ["/usr/bin/python3", "-B", "validator.py", INPUT_FILE, ANSWER_FILE, "/tmp/", ...args];
  return { spec, files: [...others, ...renamed], argv };
}

/**
 * Validates one test's output.
 * @param run   runs a request in `box` (the judge retries sandbox failures there).
 * @param output the program's stdout (the validator's stdin).
 */
export async function runValidator(
  box: Box,
  run: (req: RunRequest) => Promise<RunResult>,
  v: ReadyValidator,
  input: string,
  answer: string,
  output: string,
): Promise<ValidatorOutcome> {
  for (const f of v.files) await box.writeFile(f.name, f.content, f.mode);
  await box.writeFile(INPUT_FILE, input, 0o644);
  await box.writeFile(ANSWER_FILE, answer, 0o644);
  let result: RunResult;
  try {
    result = await run({ ...VALIDATOR_LIMITS, argv: v.argv, stdin: output, env: { PYTHONDONTWRITEBYTECODE: "1" } });
  } finally {
    // The hidden data must not stay where the next test's program runs.
    await box.writeFile(INPUT_FILE, "", 0o644);
    await box.writeFile(ANSWER_FILE, "", 0o644);
  }
  if (result.status === "XX") return { verdict: "IE", reason: `output validator: sandbox failure: ${result.message ?? "unknown"}` };
  if (result.exitCode === VALIDATOR_ACCEPT) return { verdict: "AC" };
  if (result.exitCode === VALIDATOR_REJECT) return { verdict: "WA" };
  const how = result.status === "OK" || result.status === "RE" ? `exit ${result.exitCode}` : result.status === "SG" ? `signal ${result.signal}` : result.status;
  return { verdict: "IE", reason: `output validator failed (${how}): neither accept (42) nor reject (43)` };
}
