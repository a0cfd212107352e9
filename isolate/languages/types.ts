/**
 * What a language is, as data: the judge and the sandbox runner read these
 * records; adding a language is one new file plus one line in the registry.
 * Shape after DMOJ judge-server's executors (source name, commands, self-test).
 */
import type { RunLimits, RunResult } from "../types.ts";

/** Limits for the compile step (or Python's syntax check), fixed per language. */
export interface CompileLimits extends RunLimits {}

/**
 * One language. `Id` is its registry key (`"cpp"`); the registry
 * (./index.ts) derives the `LanguageId` union from its entries.
 */
export interface Language<Id extends string = string> {
  readonly id: Id;
  /** Short name for the language selector and labels, e.g. "C++". */
  readonly name: string;
  /** Full name with compiler or runtime, e.g. "C++17 (GCC)": doctor, the AI review. */
  readonly displayName: string;
  /**
   * CPU time multiplier applied to a problem's time limit for this language
   * (docs/decisions/011-judge-limits-and-time-multipliers.md).
   */
  readonly timeMultiplier: number;
  /** Syntax name for the editor (Monaco), code highlighting (Prism) and Markdown code fences, e.g. "python". */
  readonly editorMode: string;
  /** Starting code in the editor: a main skeleton with a `Your code here` comment. */
  readonly boilerplate: string;
  /**
   * File name the source must be written under, derived from the code when the
   * language needs it (Java: `<class declaring main>.java`). Always a plain name.
   */
  sourceFileName(code: string): string;
  /**
   * Compile step, run inside the box with `compileLimits`. For Python it is a
   * syntax check that writes no bytecode. `extraFlags` (e.g. warnings) are
   * appended before the source file.
   */
  compileArgv(sourceFile: string, extraFlags: readonly string[]): string[];
  /** Exact compiler flags; the judge hashes them into its compile-cache key. */
  readonly compilerFlags: readonly string[];
  readonly compileLimits: CompileLimits;
  /** Extra environment for compile and run (on top of the backend's minimal one). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Which files of the box, after a successful compile, the run step needs.
   * `boxFiles` lists the box's regular files after compiling.
   */
  selectArtifacts(sourceFile: string, boxFiles: readonly string[]): string[];
  /**
   * Run argv and sandbox limits for a requested memory limit; this is where a
   * language adjusts limits (JVM heap inside the cgroup limit, thread allowance).
   * `mainFile` is the source file name the code was compiled from. `env`, when
   * given, is added over the language's `env` for the run (a limit the runtime reads).
   */
  runCommand(mainFile: string, limits: RunLimits): { argv: string[]; limits: RunLimits; env?: Readonly<Record<string, string>> };
  /**
   * Turns a runtime's own out-of-memory report into MLE (Java's
   * OutOfMemoryError, Python's MemoryError); other results pass unchanged.
   */
  reclassify?(result: RunResult): RunResult;
  /**
   * Host programs the language runs inside the box (at these absolute paths),
   * how to print their version, and the Debian package that provides them;
   * `bun run doctor` checks each and names the package to install.
   */
  readonly requires: readonly { readonly path: string; readonly versionArgs: readonly string[]; readonly debianPackage: string }[];
  /**
   * How problem packages name this language (Kattis / ICPC problem package
   * format; codes after problemtools' languages.yaml): its language `code`
   * (`submissions/submissions.yaml`'s `language`), other spellings accepted on
   * import, and the source extensions an example submission is recognised by
   * (case-sensitive: `.C` is C++ there, `.c` C). No extensions: chosen only
   * when a package names it (PyPy).
   */
  readonly package: { readonly code: string; readonly aliases: readonly string[]; readonly extensions: readonly string[] };
  /** A program, its input and the expected output; `bun run doctor` runs it through the real sandbox. */
  readonly selfTest: { readonly code: string; readonly stdin: string; readonly expectedStdout: string };
}
