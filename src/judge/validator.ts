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
 * run under their own limits in a box of their own: the judge takes it with
 * the submission's (`SandboxBackend.acquireMany(2)`), so the program never
 * sees the validator's files (it cannot print its source through the sample)
 * and never had write access where the validator runs (it cannot plant a
 * module the validator imports). The program's output comes in on stdin; the
 * test's input and answer are written read-only; Python runs in isolated mode
 * (`-I`: no environment, no user site, no script directory from elsewhere),
 * with only the author's own files beside it. The feedback directory is the
 * validator's own working directory (`./`), so the judge can read what it
 * writes there (`nextpass.in` of a multi-pass problem); the format's feedback
 * directory is emptied of all but the validator's own files before each test,
 * and between the passes of one test only `nextpass.in` is removed (the
 * others persist, as the format says).
 *
 * A `testlib` checker (a Polygon package's, ./testlib.ts) takes the same box
 * and compile path but its own command, `check input output answer` (the
 * output written to a file), and its exit codes; an interactor beside it is
 * compiled into the same box as `interactor`.
 */
import type { Box, RunLimits, RunRequest, RunResult } from "../../isolate/types.ts";
import type { ValidatorSpec } from "../problems/validator-spec.ts";
import type { ArtifactFile } from "./compile-cache.ts";
import type { ScoreFile } from "./groups.ts";
import { buildScripted, compileValidatorCpp, validatorCppArgv, type BuildStep } from "./validator-build.ts";
import { testlibOutcome, TESTLIB_OUTPUT_FILE, TESTLIB_TOUT_FILE } from "./testlib.ts";

/**
 * How the judge compiles a validator (its compile cache, keyed by `keyText`): given by the caller.
 * `compile` builds one C++ or Python source; `cached` keeps a program folder's build
 * (./validator-build.ts) under `keyText`, running `make` on a miss.
 */
export interface CompileValidator {
  compile(language: "cpp" | "py", code: string, keyText: string): Promise<BuildStep>;
  cached(keyText: string, make: () => Promise<{ step: BuildStep; cacheable: boolean }>): Promise<BuildStep>;
}

/** Exit codes of the protocol. */
export const VALIDATOR_ACCEPT = 42;
export const VALIDATOR_REJECT = 43;

/**
 * A validator's own limits (problemtools' validation_time default is 60 s; a
 * judge answers sooner). The stack is as large as its memory: problemtools
 * runs every validator with an unlimited stack (bounded by its memory), and
 * a validator's parser may recurse once per token of one long line (NWERC
 * 2023 higherarithmetic's: a 2·10^6-term expression needs ~112 MB), which
 * the sandbox's default stack (the smaller of the memory and 64 MiB) ended
 * as a crash, IE for an accepted submission.
 */
export const VALIDATOR_LIMITS = {
  cpuTimeLimitMs: 10_000,
  wallTimeLimitMs: 20_000,
  memoryLimitKib: 1024 * 1024,
  stackLimitKib: 1024 * 1024,
  processLimit: 16,
  outputLimitBytes: 1024 * 1024,
  fileSizeLimitKib: 64 * 1024,
} as const;

/** Names in the validator's box. */
const INPUT_FILE = "judge_input.in";
const ANSWER_FILE = "judge_answer.ans";
/** The feedback directory as the validator is told it: its working directory. */
const FEEDBACK_DIR = "./";

/**
 * What a validator may write in its feedback directory (the package format,
 * "Output validators" and "Multi-pass"): removed before each run so that no
 * run reads an earlier one's.
 */
export const FEEDBACK_FILES = ["judgemessage.txt", "teammessage.txt", "judgeerror.txt", "score.txt", "score_multiplier.txt", "nextpass.in"] as const;

/**
 * Python in isolated mode (-I implies -E -s -P: no PYTHON* variables, no user
 * site, no script directory on sys.path), then the validator's own box
 * directory put back first on sys.path so the author's helper modules import;
 * nothing else is in that box.
 */
const PY_BOOTSTRAP = "import runpy,sys;sys.argv=sys.argv[1:];sys.path.insert(0,'');runpy.run_path(sys.argv[0],run_name='__main__')";

/** A validator ready to run in its own box: the compiled artifacts and its other files, already written there. */
export interface ReadyValidator {
  spec: ValidatorSpec;
  /** Written into the validator's box before each validation (the box is the validator's alone). */
  files: ArtifactFile[];
  argv: string[];
  /** A testlib checker (./testlib.ts): `argv` is `check input output answer`; an interactive problem's interactor runs as `interactorArgv`. */
  testlib?: { pointsAsPercent: boolean; interactorArgv?: string[] };
}

/** A validator's verdict; a testlib checker's WA carries its message, its partial credit a score file. */
export type ValidatorOutcome = { verdict: "AC" | "WA"; reason?: string; scoreFile?: ScoreFile } | { verdict: "IE"; reason: string };

/**
 * Compiles the problem's validator in its own box `vbox` (through the cache:
 * one compile per validator version, whatever the submission). `compile` must
 * compile in `vbox` too; the submission's box is never given here.
 * @returns the validator, or an IE reason (a validator that does not compile is the setter's fault).
 */
export async function prepareValidator(compiler: CompileValidator, vbox: Box, spec: ValidatorSpec): Promise<ReadyValidator | { error: string }> {
  if (spec.testlib) return prepareTestlib(compiler, vbox, spec);
  const main = spec.main;
  const args = spec.args.split(/\s+/).filter(Boolean);
  if (spec.language === "script") {
    // A program folder with build/run scripts: built once in this box (cached by its files), then `./run`.
    const built = await compiler.cached(keyTextOf("validator-build", spec.files), () => buildScripted(vbox, spec));
    if (built.kind === "ie") return { error: `output validator: ${built.detail}` };
    if (built.kind === "ce") return { error: `output validator does not build: ${built.diagnostics.split("\n").slice(0, 3).join(" ")}` };
    return { spec, files: built.files, argv: ["./run", INPUT_FILE, ANSWER_FILE, FEEDBACK_DIR, ...args] };
  }
  if (spec.language === "cpp") {
    // Compiled under the build's limits, not a submission's (testlib.h alone nearly fills those); the command is part of the key.
    const built = await compiler.cached(keyTextOf(`validator-cpp\0${validatorCppArgv(main).join(" ")}`, spec.files), () => compileValidatorCpp(vbox, spec));
    if (built.kind === "ie") return { error: `output validator: ${built.detail}` };
    if (built.kind === "ce") return { error: `output validator does not compile: ${built.diagnostics.split("\n").slice(0, 3).join(" ")}` };
    return { spec, files: built.files, argv: ["./validator", INPUT_FILE, ANSWER_FILE, FEEDBACK_DIR, ...args] };
  }
  const others: ArtifactFile[] = Object.entries(spec.files)
    .filter(([name]) => name !== main)
    .map(([name, content]) => ({ name, content: new TextEncoder().encode(content), mode: 0o644 }));
  for (const f of others) await vbox.writeFile(f.name, f.content, f.mode);
  const step = await compiler.compile(spec.language, spec.files[main]!, keyTextOf("validator", spec.files));
  if (step.kind === "ie") return { error: `output validator: ${step.detail}` };
  if (step.kind === "ce") return { error: `output validator does not compile: ${step.diagnostics.split("\n").slice(0, 3).join(" ")}` };
  const renamed = step.files.map((f) => ({ ...f, name: "validator.py" }));
  const argv = ["/usr/bin/python3", "-I", "-B", "-c", PY_BOOTSTRAP, "validator.py", INPUT_FILE, ANSWER_FILE, FEEDBACK_DIR, ...args];
  return { spec, files: [...others, ...renamed], argv };
}

/**
 * One C++ or Python program of the problem compiled in `vbox` as `name`
 * (`validator`, or `interactor`): its files to write and the command before its arguments.
 */
async function prepareProgram(
  compiler: CompileValidator,
  vbox: Box,
  p: { language: string; files: Record<string, string>; main: string },
  name: "validator" | "interactor",
): Promise<{ files: ArtifactFile[]; head: string[] } | { error: string }> {
  const what = name === "validator" ? "checker" : "interactor";
  if (p.language === "cpp") {
    const built = await compiler.cached(keyTextOf(`${name}-cpp\0${validatorCppArgv(p.main).join(" ")}`, p.files), () => compileValidatorCpp(vbox, { language: "cpp", files: p.files, main: p.main, args: "" }, name));
    if (built.kind === "ie") return { error: `${what}: ${built.detail}` };
    if (built.kind === "ce") return { error: `${what} does not compile: ${built.diagnostics.split("\n").slice(0, 3).join(" ")}` };
    return { files: built.files, head: [`./${name}`] };
  }
  if (p.language !== "py") return { error: `${what}: language ${p.language} is not run here` };
  const others: ArtifactFile[] = Object.entries(p.files)
    .filter(([n]) => n !== p.main)
    .map(([n, content]) => ({ name: n, content: new TextEncoder().encode(content), mode: 0o644 }));
  for (const f of others) await vbox.writeFile(f.name, f.content, f.mode);
  const step = await compiler.compile("py", p.files[p.main]!, keyTextOf(name, p.files));
  if (step.kind === "ie") return { error: `${what}: ${step.detail}` };
  if (step.kind === "ce") return { error: `${what} does not compile: ${step.diagnostics.split("\n").slice(0, 3).join(" ")}` };
  return { files: [...others, ...step.files.map((f) => ({ ...f, name: `${name}.py` }))], head: ["/usr/bin/python3", "-I", "-B", "-c", PY_BOOTSTRAP, `${name}.py`] };
}

/**
 * A testlib checker (and an interactive problem's interactor) ready in its box:
 * `check input output answer`, the output being the program's (written to a
 * file) or, with an interactor, its `tout`; `interactor input tout`.
 */
async function prepareTestlib(compiler: CompileValidator, vbox: Box, spec: ValidatorSpec): Promise<ReadyValidator | { error: string }> {
  const t = spec.testlib!;
  const checker = await prepareProgram(compiler, vbox, spec, "validator");
  if ("error" in checker) return checker;
  const output = t.interactor ? TESTLIB_TOUT_FILE : TESTLIB_OUTPUT_FILE;
  const ready: ReadyValidator = { spec, files: checker.files, argv: [...checker.head, INPUT_FILE, output, ANSWER_FILE], testlib: { pointsAsPercent: t.pointsAsPercent } };
  if (t.interactor) {
    const interactor = await prepareProgram(compiler, vbox, t.interactor, "interactor");
    if ("error" in interactor) return interactor;
    // Both come from the package's files/: a header both use is the same file.
    const names = new Set(ready.files.map((f) => f.name));
    ready.files.push(...interactor.files.filter((f) => !names.has(f.name)));
    ready.testlib!.interactorArgv = [...interactor.head, INPUT_FILE, TESTLIB_TOUT_FILE];
  }
  return ready;
}

/** A finished run of the validator read by its protocol: testlib's exit codes for a testlib checker, else the Kattis protocol's. */
export function judgedBy(v: ReadyValidator, result: RunResult, who: "checker" | "interactor" = "checker"): ValidatorOutcome {
  return v.testlib ? testlibOutcome(result, v.testlib.pointsAsPercent, who) : validatorOutcome(result);
}

/** What a validator's (or another of a problem's own programs') cache key hashes: a kind, then every file by name. */
export function keyTextOf(kind: string, files: Record<string, string>): string {
  return `${kind}\0${Object.entries(files)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([n, c]) => `${n}\0${c}`)
    .join("\0\0")}`;
}

/**
 * Puts the validator, the test's input and answer into its box, removes any
 * earlier feedback files, and returns the request that runs it (no stdin:
 * the caller gives the program's output, or connects it to the program).
 * @param limits the validator's limits (default VALIDATOR_LIMITS).
 */
export async function validatorRequest(
  vbox: Box,
  v: ReadyValidator,
  input: string,
  answer: string,
  limits: Partial<RunLimits> = {},
  /** A later pass of a multi-pass test: the feedback files persist, only nextpass.in is removed (the format, "Multi-pass validation"). */
  laterPass = false,
): Promise<Omit<RunRequest, "stdin" | "pipes">> {
  if (laterPass) await vbox.removeFile?.("nextpass.in");
  else {
    // A new test: the feedback directory (the box's working directory) starts empty of all but the validator itself.
    const own = new Set(v.files.map((f) => f.name));
    const present = vbox.listFiles ? await vbox.listFiles() : [...FEEDBACK_FILES];
    for (const name of present) if (!own.has(name)) await vbox.removeFile?.(name);
  }
  for (const f of v.files) await vbox.writeFile(f.name, f.content, f.mode);
  // Handed in read-only: the validator reads the test, it does not change it.
  await vbox.writeFile(INPUT_FILE, input, 0o444);
  await vbox.writeFile(ANSWER_FILE, answer, 0o444);
  return { ...VALIDATOR_LIMITS, ...limits, argv: v.argv };
}

/**
 * A validator's run as the protocol reads it: exit 42 accepts, 43 rejects,
 * anything else (a crash, a limit, another code, a sandbox failure) is IE
 * with the reason for the operator.
 */
export function validatorOutcome(result: RunResult): ValidatorOutcome {
  if (result.status === "XX") return { verdict: "IE", reason: `output validator: sandbox failure: ${result.message ?? "unknown"}` };
  if (result.status === "OK" || result.status === "RE") {
    if (result.exitCode === VALIDATOR_ACCEPT) return { verdict: "AC" };
    if (result.exitCode === VALIDATOR_REJECT) return { verdict: "WA" };
  }
  const how = result.status === "OK" || result.status === "RE" ? `exit ${result.exitCode}` : result.status === "SG" ? `signal ${result.signal}` : result.status;
  return { verdict: "IE", reason: `output validator failed (${how}): neither accept (42) nor reject (43)` };
}

/**
 * Validates one test's output in the validator's own box.
 * @param vbox  the validator's box (never the submission's).
 * @param run   runs a request in `vbox` (the judge retries sandbox failures there).
 * @param output the program's stdout (the validator's stdin).
 */
export async function runValidator(
  vbox: Box,
  run: (req: RunRequest) => Promise<RunResult>,
  v: ReadyValidator,
  input: string,
  answer: string,
  output: string,
): Promise<ValidatorOutcome> {
  const req = await validatorRequest(vbox, v, input, answer);
  if (v.testlib) {
    // testlib reads the output from a file named on its command line.
    await vbox.writeFile(TESTLIB_OUTPUT_FILE, output, 0o444);
    return judgedBy(v, await run(req));
  }
  return validatorOutcome(await run({ ...req, stdin: output }));
}

/**
 * The score file a validator wrote in its feedback directory for the test it
 * just judged (a scoring problem): `score.txt`, `score_multiplier.txt`, both
 * (a judge error, src/judge/groups.ts), or neither (undefined).
 */
export async function readScoreFile(vbox: Box): Promise<ScoreFile | undefined> {
  const [score, multiplier] = await Promise.all([vbox.readFile("score.txt", 4096), vbox.readFile("score_multiplier.txt", 4096)]);
  if (score && multiplier) return { kind: "both" };
  if (score) return { kind: "score", text: new TextDecoder().decode(score) };
  if (multiplier) return { kind: "multiplier", text: new TextDecoder().decode(multiplier) };
  return undefined;
}
