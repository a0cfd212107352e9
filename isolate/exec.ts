/**
 * The two calls the judge and the AI reviewer make: compile a source in a box
 * (inside the sandbox, with the language's compile limits) and run the compiled
 * program under a test's limits. Compile once, keep the artifacts, put them
 * into any box for the run step (after go-judge's "copy out / copy in").
 */
import { getLanguage, type Language, type LanguageId } from "./languages/index.ts";
import type { Box, RunLimits, RunRequest, RunResult } from "./types.ts";

export { COMPILER_FLAGS } from "./languages/index.ts";

/** Compiler output kept for the user, bytes (stdout and stderr together). */
export const DIAGNOSTICS_LIMIT_BYTES = 64 * 1024;

/** Defaults for a test run when the caller does not say otherwise. */
export const RUN_DEFAULTS = {
  /** Threads/processes a program may have (C++/Python); Java adds the JVM's own threads. */
  processLimit: 16,
  /** Stdout kept before OLE, bytes. */
  outputLimitBytes: 64 * 1024 * 1024,
  /** Largest file the program may write in the box, KiB. */
  fileSizeLimitKib: 16 * 1024,
} as const;

/**
 * A run's wall-clock limit for a CPU time limit, ms: the CPU limit plus
 * DOMjudge's default overshoot (`timelimit_overshoot` "1s|10%": the larger of
 * 1 s and 10 %), room for I/O waits and the sandbox's start, never for
 * sleeping. It was 2 × limit + 1 s (CMS's wall clock), which let a program
 * that sleeps hold a box more than twice as long as one that computes
 * (review N1, 2026-11-26).
 * @param cpuTimeLimitMs the run's CPU time limit (after the language's multiplier), ms.
 * @example runWallLimitMs(1000) === 2000; runWallLimitMs(30_000) === 33_000
 */
export function runWallLimitMs(cpuTimeLimitMs: number): number {
  return cpuTimeLimitMs + Math.max(1000, Math.ceil(cpuTimeLimitMs / 10));
}

/** One file the run step needs, as read back from the compile box. */
export interface Artifact {
  /** Plain file name inside the box, e.g. "prog", "Solution.class", "main.py". */
  name: string;
  content: Uint8Array;
  /** Unix mode bits, e.g. 0o755 for an executable. */
  mode: number;
}

export interface CompileOutcome {
  /** True when the program compiled; false is a compile error (CE) unless `result.status === "XX"`. */
  ok: boolean;
  /**
   * Compiler output (stderr then stdout), at most DIAGNOSTICS_LIMIT_BYTES; a
   * line explaining a hit compile limit is appended when one was hit.
   */
  diagnostics: string;
  /** What the run step needs (empty when !ok). Cache them by (language, COMPILER_FLAGS, code) hash. */
  artifacts: Artifact[];
  /**
   * The entry the run step starts from (the source file name: "main.cpp",
   * "Solution.java", "main.py"); pass it to `runProgram` as `entry`.
   */
  entry: string;
  /**
   * The compiler's run. `status === "XX"` means the sandbox failed: an
   * infrastructure error (IE), never the submitter's fault.
   */
  result: RunResult;
}

/**
 * Compiles `code` inside `box` (for Python: a syntax check that writes no
 * bytecode). Compilation runs in the sandbox under `language.compileLimits`
 * (about 10 s CPU, 512 MiB, 64 MiB files), so a compile-time bomb ends as a
 * compile error and nothing of the host is readable through `#include`.
 *
 * @param box      an acquired box; the source and artifacts are left in it, so a
 *                 following `runProgram` on the same box may omit `artifacts`.
 * @param language a language id or record.
 * @param code     the source text.
 * @param opts.extraFlags flags appended to the compiler's (e.g. `["-Wall", "-Wextra"]` for the reviewer).
 * @returns never throws for the code's faults; see `CompileOutcome`.
 * @throws Error only when the box itself fails (e.g. writing the source).
 * @example const c = await compileSource(box, "cpp", src); if (c.ok) await runProgram(box, "cpp", { entry: c.entry, stdin: "1 2\n", timeLimitMs: 1000, memoryLimitKib: 262144 })
 */
export async function compileSource(
  box: Box,
  language: LanguageId | Language,
  code: string,
  opts: { extraFlags?: string[] } = {},
): Promise<CompileOutcome> {
  const lang = typeof language === "string" ? getLanguage(language) : language;
  const entry = lang.sourceFileName(code);
  await box.writeFile(entry, code, 0o644);
  const limits = lang.compileLimits;
  const result = await box.run({
    ...limits,
    argv: lang.compileArgv(entry, opts.extraFlags ?? []),
    env: { ...lang.env },
    stderrLimitBytes: DIAGNOSTICS_LIMIT_BYTES,
    outputLimitBytes: DIAGNOSTICS_LIMIT_BYTES,
  });
  let diagnostics = capUtf8([result.stderr, result.stdout].filter(Boolean).join("\n"), DIAGNOSTICS_LIMIT_BYTES);
  const limitNote = compileLimitNote(result, limits);
  if (limitNote) diagnostics = diagnostics ? `${diagnostics}\n${limitNote}` : limitNote;
  if (result.status !== "OK") return { ok: false, diagnostics, artifacts: [], entry, result };

  const files = box.listFiles ? await box.listFiles() : [entry];
  const names = lang.selectArtifacts(entry, files);
  if (names.length === 0) {
    const failure: RunResult = { ...result, status: "XX", message: `compiler exited 0 but produced no artifact for ${lang.id}` };
    return { ok: false, diagnostics, artifacts: [], entry, result: failure };
  }
  const artifacts: Artifact[] = [];
  for (const name of names) {
    const content = await box.readFile(name, limits.fileSizeLimitKib * 1024);
    if (!content) {
      const failure: RunResult = { ...result, status: "XX", message: `artifact ${name} could not be read back` };
      return { ok: false, diagnostics, artifacts: [], entry, result: failure };
    }
    artifacts.push({ name, content, mode: name === "prog" ? 0o755 : 0o644 });
  }
  return { ok: true, diagnostics, artifacts, entry, result };
}

export interface RunProgramOptions {
  /** `CompileOutcome.entry`; defaults to the language's fixed source name (Java: the only top-level class). */
  entry?: string;
  /** Files to put into the box first; omit when the box already holds them (reuse between tests of one submission). */
  artifacts?: Artifact[];
  stdin: string | Uint8Array;
  /** CPU time limit, ms (the problem's time limit). */
  timeLimitMs: number;
  /** Wall-clock limit, ms; default `runWallLimitMs(timeLimitMs)`. */
  wallTimeLimitMs?: number;
  /** The problem's memory limit, KiB; the language may add runtime overhead (JVM). */
  memoryLimitKib: number;
  /** Default RUN_DEFAULTS.outputLimitBytes. */
  outputLimitBytes?: number;
  /** Default RUN_DEFAULTS.processLimit. */
  processLimit?: number;
  /** Default RUN_DEFAULTS.fileSizeLimitKib. */
  fileSizeLimitKib?: number;
}

/**
 * Runs a compiled program once in `box` under a test's limits, after the
 * language's adjustments (JVM heap and threads, Python's -B/-I, stack size),
 * and maps the runtime's own out-of-memory report to MLE.
 * @returns the sandbox's RunResult; `status === "XX"` is an infrastructure error.
 * @throws Error when writing the artifacts into the box fails, or when `entry`
 *         is omitted for Java and the box holds several top-level classes.
 */
export async function runProgram(
  box: Box,
  language: LanguageId | Language,
  opts: RunProgramOptions,
): Promise<RunResult> {
  const { req, reclassify } = await prepareProgram(box, language, opts);
  return reclassify(await box.run({ ...req, stdin: opts.stdin }));
}

/**
 * What `runProgram` runs, without running it: the artifacts are written, the
 * request built (no stdin), and the language's reclassification returned, for
 * a caller that runs the request itself (two boxes connected by pipes:
 * isolate/pipes.ts).
 * @throws Error as runProgram.
 */
export async function prepareProgram(
  box: Box,
  language: LanguageId | Language,
  opts: Omit<RunProgramOptions, "stdin">,
): Promise<{ req: Omit<RunRequest, "stdin" | "pipes">; reclassify: (result: RunResult) => RunResult }> {
  const lang = typeof language === "string" ? getLanguage(language) : language;
  for (const a of opts.artifacts ?? []) await box.writeFile(a.name, a.content, a.mode);
  const entry = opts.entry ?? (await defaultEntry(box, lang, opts.artifacts));
  const requested: RunLimits = {
    cpuTimeLimitMs: opts.timeLimitMs,
    wallTimeLimitMs: opts.wallTimeLimitMs ?? runWallLimitMs(opts.timeLimitMs),
    memoryLimitKib: opts.memoryLimitKib,
    processLimit: opts.processLimit ?? RUN_DEFAULTS.processLimit,
    outputLimitBytes: opts.outputLimitBytes ?? RUN_DEFAULTS.outputLimitBytes,
    fileSizeLimitKib: opts.fileSizeLimitKib ?? RUN_DEFAULTS.fileSizeLimitKib,
  };
  const { argv, limits, env } = lang.runCommand(entry, requested);
  return {
    req: { ...limits, argv, env: { ...lang.env, ...env } },
    reclassify: (result) => (lang.reclassify ? lang.reclassify(result) : result),
  };
}

async function defaultEntry(box: Box, lang: Language, artifacts: Artifact[] | undefined): Promise<string> {
  if (lang.id !== "java") return lang.sourceFileName("");
  const names = artifacts?.map((a) => a.name) ?? (box.listFiles ? await box.listFiles() : []);
  const topLevel = names.filter((n) => n.endsWith(".class") && !n.includes("$"));
  if (topLevel.length !== 1) throw new Error("runProgram: pass `entry` (CompileOutcome.entry) for Java");
  return topLevel[0]!.replace(/\.class$/, ".java");
}

function compileLimitNote(result: RunResult, limits: RunLimits): string | null {
  switch (result.status) {
    case "TLE":
      return result.tleKind === "wall"
        ? `Compilation exceeded the wall-time limit (${limits.wallTimeLimitMs / 1000} s).`
        : `Compilation exceeded the CPU time limit (${limits.cpuTimeLimitMs / 1000} s).`;
    case "MLE":
      return `Compilation exceeded the memory limit (${limits.memoryLimitKib / 1024} MiB).`;
    case "OLE":
      return "Compiler output was too long and was cut.";
    case "SG":
      return `The compiler was killed by signal ${result.signal}${result.signal === 25 ? " (file size limit exceeded)" : ""}.`;
    case "XX":
      return `Internal error: the sandbox failed while compiling (${result.message ?? "no details"}).`;
    default:
      return null;
  }
}

/** Cuts a string to at most `maxBytes` of UTF-8 without splitting a character. */
export function capUtf8(text: string, maxBytes: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}
