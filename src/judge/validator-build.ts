/**
 * Validators given as a program folder with `build` and `run` scripts (the
 * problem package format, appendix "Programs"): "Validators, but not
 * submissions, in the form of a directory may include two POSIX-compliant
 * scripts build and run. If build is present it is run, the working
 * directory being (a copy of) the program directory; the run file must exist
 * after build is done. Then run, which must be executable, is invoked as a
 * single-file program." The folder may hold several sources; the scripts pick.
 *
 * The build runs in the validator's own box (never the submission's), under
 * BUILD_LIMITS, with the box's minimal environment (the compilers of the
 * sandbox image on PATH, no network). Its result, every regular file left in
 * the box, is what the validator's box gets before each run; a judge caches
 * it by the folder's content like any compile (src/judge/compile.ts).
 */
import type { Box, RunResult } from "../../isolate/types.ts";
import { getLanguage } from "../../isolate/languages/index.ts";
import { VALIDATOR_SCRIPTS, type ValidatorSpec } from "../problems/validator-spec.ts";
import type { ArtifactFile } from "./compile-cache.ts";

/**
 * Limits of a `build` script, and of compiling a one-source C++ validator: a
 * compile of a few sources, with room for testlib.h (about 10 s of CPU at
 * -O2 on its own, measured 9.5 s on the 2-core test host: a submission's 10 s
 * compile limit refused GCPC's testlib interactor). The format allows a
 * program 60 s to compile (limits.compilation_time); a validator compiles
 * once per version, cached.
 */
export const BUILD_LIMITS = {
  cpuTimeLimitMs: 30_000,
  wallTimeLimitMs: 60_000,
  memoryLimitKib: 1024 * 1024,
  processLimit: 32,
  outputLimitBytes: 64 * 1024,
  fileSizeLimitKib: 64 * 1024,
} as const;

/** Bytes of the built folder kept (all files together): a validator, not a toolchain. */
export const BUILT_MAX_BYTES = 64 * 1024 * 1024;

/** A build's outcome: the files to run from, or what went wrong (the author's fault: ce; the system's: ie). */
export type BuildStep = { kind: "ok"; files: ArtifactFile[] } | { kind: "ce"; diagnostics: string } | { kind: "ie"; detail: string };

/** The mode a validator's own file gets in its box: the scripts executable. */
function modeOf(name: string): number {
  return (VALIDATOR_SCRIPTS as readonly string[]).includes(name) ? 0o755 : 0o644;
}

/**
 * Runs the folder's `build` (when present) in `vbox` and collects what the
 * validator runs from. `cacheable` is false when the sandbox failed (XX).
 */
export async function buildScripted(vbox: Box, spec: ValidatorSpec): Promise<{ step: BuildStep; cacheable: boolean }> {
  for (const [name, content] of Object.entries(spec.files)) await vbox.writeFile(name, content, modeOf(name));
  if ("build" in spec.files) {
    const result: RunResult = await vbox.run({ ...BUILD_LIMITS, argv: ["/bin/sh", "./build"] });
    if (result.status === "XX") return { step: { kind: "ie", detail: `build: sandbox failure: ${result.message ?? "unknown"}` }, cacheable: false };
    if (result.status !== "OK" || result.exitCode !== 0) {
      const how = result.status === "OK" || result.status === "RE" ? `exit ${result.exitCode}` : result.status;
      const said = `${result.stderr}\n${result.stdout}`.trim().split("\n").slice(0, 5).join("\n");
      return { step: { kind: "ce", diagnostics: `build failed (${how})${said ? `: ${said}` : ""}` }, cacheable: result.status !== "TLE" };
    }
  }
  const names = vbox.listFiles ? await vbox.listFiles() : Object.keys(spec.files);
  if (!names.includes("run")) return { step: { kind: "ce", diagnostics: "build did not leave a run file (the format requires one after build)" }, cacheable: true };
  const files: ArtifactFile[] = [];
  let total = 0;
  for (const name of names.sort()) {
    const content = await vbox.readFile(name, BUILT_MAX_BYTES);
    if (!content) continue;
    total += content.byteLength;
    if (total > BUILT_MAX_BYTES) return { step: { kind: "ce", diagnostics: `the built validator is larger than ${BUILT_MAX_BYTES / (1024 * 1024)} MiB` }, cacheable: true };
    // What build made (not among the author's files) is taken as a program: executable, as `run` is.
    files.push({ name, content, mode: name in spec.files ? modeOf(name) : 0o755 });
  }
  const run = files.find((f) => f.name === "run")!;
  run.mode = 0o755;
  return { step: { kind: "ok", files }, cacheable: true };
}

/** The command a one-source C++ validator is compiled with: the C++ submissions' own (compiler, flags), as `prog`. */
export function validatorCppArgv(main: string): string[] {
  return getLanguage("cpp").compileArgv(main, []);
}

/**
 * Compiles a one-source C++ validator (any headers beside it, testlib.h
 * included) in `vbox` under BUILD_LIMITS rather than a submission's compile
 * limits, and collects what it runs from: its other files and the program,
 * named `validator`. `cacheable` is false when the sandbox failed (XX) or the
 * compile ran out of time (a busy host may do better next time).
 * @param programName the program's name in the box (`validator`; a testlib interactor's `interactor`).
 */
export async function compileValidatorCpp(vbox: Box, spec: ValidatorSpec, programName = "validator"): Promise<{ step: BuildStep; cacheable: boolean }> {
  for (const [name, content] of Object.entries(spec.files)) await vbox.writeFile(name, content, 0o644);
  const result: RunResult = await vbox.run({ ...BUILD_LIMITS, argv: validatorCppArgv(spec.main), env: getLanguage("cpp").env });
  if (result.status === "XX") return { step: { kind: "ie", detail: `compile: sandbox failure: ${result.message ?? "unknown"}` }, cacheable: false };
  if (result.status !== "OK" || result.exitCode !== 0) {
    const how = result.status === "OK" || result.status === "RE" ? `exit ${result.exitCode}` : `${result.status} at ${BUILD_LIMITS.cpuTimeLimitMs / 1000} s CPU, ${BUILD_LIMITS.wallTimeLimitMs / 1000} s wall`;
    const said = `${result.stderr}\n${result.stdout}`.trim().split("\n").slice(0, 5).join("\n");
    return { step: { kind: "ce", diagnostics: `${how}${said ? `: ${said}` : ""}` }, cacheable: result.status !== "TLE" };
  }
  const program = await vbox.readFile("prog", BUILT_MAX_BYTES);
  if (!program) return { step: { kind: "ce", diagnostics: "the compiler left no program" }, cacheable: true };
  const others: ArtifactFile[] = Object.entries(spec.files)
    .filter(([name]) => name !== spec.main)
    .map(([name, content]) => ({ name, content: new TextEncoder().encode(content), mode: 0o644 }));
  return { step: { kind: "ok", files: [...others, { name: programName, content: program, mode: 0o755 }] }, cacheable: true };
}
