/**
 * A standard Polygon package's tests made here, and every package's tests
 * checked by its validators (docs/decisions/079-polygon-generated-tests.md):
 *
 * - each `method="generated"` test whose file is not in the package runs its
 *   `cmd` (`gen --n=10 3`: the generator named by the first word, built from
 *   its source in `files/`, the rest its arguments, testlib seeding `rnd` from
 *   them) in a box of its own; its stdout is the input;
 * - a standard package's answers are the `main` solution's output on each
 *   input (as doall.sh's gen-answer.sh writes them), under the problem's limits;
 * - every input, manual or generated, of a full or standard package goes to
 *   each validator as `validator --testset tests [--group G] < input`
 *   (doall.sh's order); a non-zero exit rejects the test;
 * - generated inputs and answers have CRLF turned into LF (CMS runs dos2unix
 *   on every test);
 * - bounded before anything runs by the problem ceilings (the test count),
 *   and while running by them (each test's and all tests' bytes, memory), by
 *   each run's limits and by GENERATION_MAX_MS in all.
 *
 * A failure is a PackageError naming the test, the program and what it did.
 */
import type { CompileCache } from "../../judge/compile-cache.ts";
import type { RunLimits, SandboxBackend } from "../../../isolate/types.ts";
import { runWallLimitMs } from "../../../isolate/exec.ts";
import { effectiveTimeLimitMs } from "../../../isolate/languages/index.ts";
import { ceilingMessage, type ProblemCeilings } from "../../problems/ceilings.ts";
import { PackageError, text, type PackageFiles } from "../files.ts";
import { buildProgram, failureOf, runOnce, type BuiltProgram } from "./build.ts";
import { DESCRIPTOR, isPolygonPackage, readDescriptor, testPath, type PolygonDescriptor, type PolygonTest } from "./descriptor.ts";

/** What generation reports as it goes: programs built, then tests done of all. */
export type GenerationProgress = { phase: "build"; program: string } | { phase: "tests"; done: number; total: number };

export interface GenerationOptions {
  /** The judge's sandbox (the server's pool, or the CLI's own); null: nothing can run here. */
  backend: SandboxBackend | null;
  ceilings: ProblemCeilings;
  onProgress?: (p: GenerationProgress) => void;
  /** A generator's CPU limit, ms (default GENERATOR_CPU_MS; the tests shorten it to see a loop end sooner). */
  generatorCpuMs?: number;
  /** The judge's compile cache (DATA_DIR/compile-cache): C++ programs built once per content; null: built every time. */
  cache?: CompileCache | null;
}

/** A test's input and answer made or checked here, by its 1-based Polygon index. */
export type MadeTests = Map<number, { input: string; answer: string }>;

/** A generator's run: 10 s of CPU (Polygon's own generators take well under one), its output bounded by the test ceiling. */
export const GENERATOR_CPU_MS = 10_000;
/** A validator's run on one input. */
export const VALIDATOR_CPU_MS = 10_000;
/** Memory of a generator or validator run, KiB (and never above the server's memory ceiling). */
export const PROGRAM_MEMORY_KIB = 1024 * 1024;
/** Wall-clock time the whole generation may take, ms: past it the import fails naming the test it reached. */
export const GENERATION_MAX_MS = 30 * 60 * 1000;

const WHERE = "judging/testset[name=tests]/tests/test";

/** CRLF (and a lone CR) as LF, as CMS's dos2unix does. */
export const unixLines = (s: string) => s.replace(/\r\n?/g, "\n");

/**
 * A test's `cmd` as words, the way doall.sh's `eval` splits it (quotes group,
 * backslash escapes); redirections are not Polygon's to store.
 */
export function commandWords(cmd: string): string[] {
  const words: string[] = [];
  let cur = "";
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < cmd.length; i++) {
    const ch = cmd[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < cmd.length) cur += cmd[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === "\\" && i + 1 < cmd.length) {
      cur += cmd[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has) words.push(cur);
      cur = "";
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

const stem = (path: string) => path.split("/").pop()!.replace(/\.[^.]*$/, "");

/** Whether reading the package runs programs: a Polygon package that is standard or has validators. */
export function runsPrograms(files: PackageFiles): boolean {
  if (!isPolygonPackage(files)) return false;
  try {
    const d = readDescriptor(files);
    return d.validators.length > 0 || needsGeneration(files, d);
  } catch {
    return false; // the read names what is wrong
  }
}

/** Whether the package is a standard one: a generated test whose input is not in it. */
export function needsGeneration(files: PackageFiles, d: PolygonDescriptor): boolean {
  return d.tests.tests.some((t) => t.method === "generated" && !files.has(testPath(d.tests.inputPattern, t.index)));
}

/**
 * Makes a standard package's tests and validates every test.
 * @returns the tests made here (inputs generated, answers written); empty for a full package.
 * @throws PackageError naming the test and the program: a generator, validator or the main solution that fails
 *   (its exit, limit or signal, and the first line of its stderr), a generator with no source, too many tests.
 */
export async function makeTests(files: PackageFiles, d: PolygonDescriptor, o: GenerationOptions, warnings: string[]): Promise<MadeTests> {
  const made: MadeTests = new Map();
  const generate = needsGeneration(files, d);
  if (!generate && !d.validators.length) return made;
  const hidden = d.tests.tests.filter((t) => !t.sample).length;
  if (hidden > o.ceilings.testCount) {
    throw new PackageError(DESCRIPTOR, `judging/testset[name=tests]: ${d.tests.tests.length} tests (${hidden} not samples): a problem has ${ceilingMessage("testCount", o.ceilings)}; nothing was generated`);
  }
  if (generate && d.interactor) throw new PackageError(DESCRIPTOR, "assets/interactor: an interactive standard package: writing answers through the interactor is not supported yet; download the full package (Linux) from Polygon");
  if (!o.backend) {
    if (generate) {
      const first = d.tests.tests.find((t) => t.method === "generated" && !files.has(testPath(d.tests.inputPattern, t.index)))!;
      throw new PackageError(DESCRIPTOR, `${WHERE} ${first.index}: method="generated" and ${testPath(d.tests.inputPattern, first.index)} is not in the package: this is a standard package, and generating its tests needs the judge's sandbox, which is not available here`);
    }
    for (const v of d.validators) warnings.push(`assets/validators/validator ${v.path}: not run (no sandbox here): the tests are taken as they are`);
    return made;
  }
  const backend = o.backend;
  const started = Date.now();
  const built = new Map<string, BuiltProgram>();
  const build = async (key: string, source: PolygonDescriptor["executables"][number], element: string) => {
    let p = built.get(key);
    if (!p) {
      o.onProgress?.({ phase: "build", program: source.path });
      p = await buildProgram(backend, files, d, source, element, o.cache ?? null);
      built.set(key, p);
    }
    return p;
  };
  // Every generator a missing test names is found (and built, below) before any test runs: a missing or
  // unbuildable one fails the import at once, not after minutes of tests.
  const pending = generate ? d.tests.tests.filter((t) => t.method === "generated" && !files.has(testPath(d.tests.inputPattern, t.index))) : [];
  const generators = new Map<number, { source: PolygonDescriptor["executables"][number]; args: string[] }>();
  for (const t of pending) {
    const [name, ...args] = commandWords(t.cmd ?? "");
    if (name === undefined) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index}: method="generated" with no cmd`);
    generators.set(t.index, { source: generatorSource(files, d, t, name), args });
  }
  const validators: BuiltProgram[] = [];
  for (const v of d.validators) validators.push(await build(`validator ${v.path}`, v, "assets/validators/validator"));
  let main: BuiltProgram | null = null;
  if (generate) {
    const m = d.solutions.find((s) => s.tag === "main");
    if (!m) throw new PackageError(DESCRIPTOR, 'assets/solutions: no solution tagged "main": a standard package\'s answers are its main solution\'s output');
    main = await build(`main ${m.source.path}`, m.source, "the main solution");
  }
  for (const { source } of generators.values()) await build(`generator ${source.path}`, source, `the generator ${stem(source.path)}`);
  const memoryKib = Math.min(PROGRAM_MEMORY_KIB, o.ceilings.memoryLimitKib);
  const testKib = Math.ceil(o.ceilings.testCaseBytes / 1024);
  const genCpuMs = o.generatorCpuMs ?? GENERATOR_CPU_MS;
  const genLimits: RunLimits = { cpuTimeLimitMs: genCpuMs, wallTimeLimitMs: runWallLimitMs(genCpuMs), memoryLimitKib: memoryKib, processLimit: 16, outputLimitBytes: o.ceilings.testCaseBytes, fileSizeLimitKib: testKib };
  const valLimits: RunLimits = { cpuTimeLimitMs: VALIDATOR_CPU_MS, wallTimeLimitMs: runWallLimitMs(VALIDATOR_CPU_MS), memoryLimitKib: memoryKib, processLimit: 16, outputLimitBytes: 64 * 1024, fileSizeLimitKib: 1024 };
  let totalBytes = 0;
  const total = d.tests.tests.length;
  for (const t of d.tests.tests) {
    if (Date.now() - started > GENERATION_MAX_MS) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index}: generating and validating the tests took longer than ${GENERATION_MAX_MS / 60_000} minutes: stopped here`);
    const inputPath = testPath(d.tests.inputPattern, t.index);
    const file = text(files, inputPath);
    let input = file === null ? null : unixLines(file);
    const generated = file === null && t.method === "generated";
    if (generated) {
      const g = generators.get(t.index)!;
      const gen = built.get(`generator ${g.source.path}`)!;
      const r = await runOnce(backend, gen, g.args, "", genLimits);
      const failed = failureOf(r);
      if (failed) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index} (cmd "${t.cmd!.slice(0, 80)}"): the generator ${g.source.path} failed (${failed})`);
      input = unixLines(r.stdout);
    }
    if (input === null) {
      o.onProgress?.({ phase: "tests", done: t.index, total });
      continue; // a manual test's missing file: readTests names it.
    }
    for (const v of validators) {
      const args = ["--testset", "tests", ...(t.group ? ["--group", t.group] : [])];
      const r = await runOnce(backend, v, args, input, valLimits);
      const failed = failureOf(r);
      if (failed) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index}${t.cmd && generated ? ` (cmd "${t.cmd.slice(0, 80)}")` : ""}: the validator ${v.path} rejected it (${failed})`);
    }
    if (main) {
      const limits = mainLimits(d, main, o.ceilings);
      const r = await runOnce(backend, main, [], input, limits);
      const failed = failureOf(r);
      if (failed) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index}: the main solution ${main.path} failed on it (${failed}), so its answer cannot be written`);
      const answer = unixLines(r.stdout);
      const bytes = Buffer.byteLength(input) + Buffer.byteLength(answer);
      if (bytes > o.ceilings.testCaseBytes) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index}: its input and answer are ${bytes} bytes; a test is ${ceilingMessage("testCaseBytes", o.ceilings)}`);
      totalBytes += bytes;
      if (totalBytes > o.ceilings.testsTotalBytes) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index}: the tests reach ${totalBytes} bytes; a problem's tests are ${ceilingMessage("testsTotalBytes", o.ceilings)}`);
      made.set(t.index, { input, answer });
    }
    o.onProgress?.({ phase: "tests", done: t.index, total });
  }
  return made;
}

/** The main solution's limits: the problem's time limit (the language's multiplier applied) and memory, never above the ceilings. */
function mainLimits(d: PolygonDescriptor, main: BuiltProgram, c: ProblemCeilings): RunLimits {
  const cpu = effectiveTimeLimitMs(main.language, d.tests.timeLimitMs);
  return {
    cpuTimeLimitMs: cpu,
    wallTimeLimitMs: runWallLimitMs(cpu),
    memoryLimitKib: Math.min(Math.ceil(d.tests.memoryLimitBytes / 1024), c.memoryLimitKib),
    processLimit: 16,
    outputLimitBytes: c.testCaseBytes,
    fileSizeLimitKib: Math.ceil(c.testCaseBytes / 1024),
  };
}

/**
 * The source of the generator a test's cmd names: the executable (or a file
 * in `files/`) whose name without its extension is the cmd's first word.
 * @throws PackageError naming the test and the generator: none by that name, or only a Windows executable.
 */
function generatorSource(files: PackageFiles, d: PolygonDescriptor, t: PolygonTest, name: string) {
  const own = d.executables.find((e) => stem(e.path) === name);
  if (own) return own;
  const exe = [...d.binaries, ...files.keys()].find((p) => /\.exe$/i.test(p) && stem(p) === name);
  if (exe) throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index} (cmd "${t.cmd!.slice(0, 80)}"): the generator ${name} is only ${exe}, a Windows executable with no source in the package: it cannot be built here (add its source to files/executables on Polygon)`);
  throw new PackageError(DESCRIPTOR, `${WHERE} ${t.index} (cmd "${t.cmd!.slice(0, 80)}"): no generator named ${name} in files/executables`);
}
