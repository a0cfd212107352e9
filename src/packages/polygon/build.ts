/**
 * A Polygon package's own programs (generators, validators, the main
 * solution) built and run in this judge's sandbox, for generating a standard
 * package's tests and validating every test (./generate.ts):
 *
 * - C++ (`cpp.*`) is compiled with the package's headers beside it (its own
 *   `testlib.h`) under the validators' BUILD_LIMITS (testlib.h alone takes
 *   ~10 s of CPU), as the checker is (src/judge/validator-build.ts);
 * - every other language goes through the language registry
 *   (isolate/languages: its compile step, its run command), Python with the
 *   package's `.py` resources beside it; the program's arguments follow the
 *   language's run command;
 * - a build is done once, in a box of its own; each run takes a fresh box from
 *   the pool (the judge's queue: `acquire` waits for a free box), writes the
 *   built files, runs once and gives the box back, so no run sees another's
 *   files. Sandbox failures (XX) are retried as the judge retries them.
 */
import { compileSource, type Artifact } from "../../../isolate/exec.ts";
import { getLanguage, languageByExtension, type LanguageId } from "../../../isolate/languages/index.ts";
import type { RunLimits, RunResult, SandboxBackend } from "../../../isolate/types.ts";
import { cachedBuild, retryOnSandboxFailure } from "../../judge/compile.ts";
import type { CompileCache } from "../../judge/compile-cache.ts";
import { keyTextOf } from "../../judge/validator.ts";
import { compileValidatorCpp, validatorCppArgv } from "../../judge/validator-build.ts";
import { VALIDATOR_FILE_NAME } from "../../problems/validator-spec.ts";
import { PackageError, text, type PackageFiles } from "../files.ts";
import type { PolygonDescriptor, PolygonSource } from "./descriptor.ts";

/** A program built once: the files its box gets before each run and the command before its arguments. */
export interface BuiltProgram {
  /** The source's path in the package (`files/gen.cpp`), for messages. */
  path: string;
  language: LanguageId;
  files: Artifact[];
  argv: (limits: RunLimits) => { argv: string[]; limits: RunLimits; env?: Record<string, string> };
  reclassify: (r: RunResult) => RunResult;
}

const baseName = (path: string) => path.split("/").pop()!;

/**
 * A source's language: Polygon's type (`cpp.g++17`, `python.3`, `java11`,
 * `c.gcc`, `pypy.3`…) where it names one of ours, else the file's extension.
 * @returns null for a language not run here (Pascal, C#, a Windows binary).
 */
export function sourceLanguage(source: PolygonSource): LanguageId | null {
  const t = source.type.toLowerCase();
  if (t.startsWith("cpp.")) return "cpp";
  if (t.startsWith("c.")) return "c";
  if (/pypy/.test(t)) return "pypy";
  if (t.startsWith("python.")) return "py";
  if (t.startsWith("java")) return "java";
  if (t.startsWith("go")) return "go";
  if (t.startsWith("rust")) return "rust";
  if (t.startsWith("js") || t.startsWith("node")) return "js";
  return languageByExtension(source.path.split(".").pop() ?? "");
}

/** The package's resources of a language's kind (headers for C and C++, modules for Python), flat by file name. */
function resourcesFor(files: PackageFiles, d: PolygonDescriptor, language: LanguageId, own: string): Record<string, string> {
  const kind = language === "cpp" || language === "c" ? /\.(h|hpp|hh)$/ : language === "py" || language === "pypy" ? /\.py$/ : null;
  const out: Record<string, string> = {};
  if (!kind) return out;
  const paths = [...d.resources.map((r) => r.path), ...[...files.keys()].filter((p) => p.startsWith("files/") && !p.slice(6).includes("/"))];
  for (const path of paths) {
    const name = baseName(path);
    if (!kind.test(name) || name === own || name in out || !VALIDATOR_FILE_NAME.test(name)) continue;
    const content = text(files, path);
    if (content !== null) out[name] = content;
  }
  return out;
}

/**
 * Builds one program of the package in a box of its own.
 * @param element what problem.xml calls it, for messages (`generator gen`, `assets/validators/validator`, `main solution`).
 * @throws PackageError naming the source file: missing, a language not run here, or a build that failed (with the compiler's first lines).
 */
export async function buildProgram(
  backend: SandboxBackend,
  files: PackageFiles,
  d: PolygonDescriptor,
  source: PolygonSource,
  element: string,
  /** The judge's compile cache: a C++ program is built once per content (every file it is built from), then taken from it. */
  cache: CompileCache | null = null,
): Promise<BuiltProgram> {
  const code = text(files, source.path);
  if (code === null) throw new PackageError(source.path, `missing: problem.xml names it (${element})`);
  const language = sourceLanguage(source);
  if (!language) throw new PackageError(source.path, `${element}: type ${source.type || "(none)"} is not a language this judge builds (C++, C, Java, Python, PyPy, JavaScript, Go, Rust)`);
  const main = baseName(source.path);
  const box = await backend.acquire();
  try {
    if (language === "cpp") {
      if (!VALIDATOR_FILE_NAME.test(main)) throw new PackageError(source.path, `${element}: a program's file name is letters, digits and _ . + - (at most 64 characters)`);
      const spec = { language: "cpp" as const, files: { ...resourcesFor(files, d, language, main), [main]: code }, main, args: "" };
      const make = () =>
        retryOnSandboxFailure(
          () => compileValidatorCpp(box, spec, "program"),
          (s) => ({ status: s.step.kind === "ie" ? "XX" : "OK" }) as RunResult,
        );
      const step = cache ? await cachedBuild(cache, keyTextOf(`polygon-cpp\0${validatorCppArgv(main).join(" ")}`, spec.files), make) : (await make()).step;
      if (step.kind !== "ok") throw new PackageError(source.path, `${element} does not compile: ${(step.kind === "ce" ? step.diagnostics : step.detail).split("\n").slice(0, 3).join(" ")}`);
      const lang = getLanguage("cpp");
      return { path: source.path, language, files: step.files, argv: (limits) => ({ argv: ["./program"], limits, env: { ...lang.env } }), reclassify: (r) => r };
    }
    const extra = resourcesFor(files, d, language, main);
    for (const [name, content] of Object.entries(extra)) await box.writeFile(name, content, 0o644);
    const c = await retryOnSandboxFailure(() => compileSource(box, language, code), (o) => o.result);
    if (!c.ok) throw new PackageError(source.path, `${element} does not compile: ${c.diagnostics.split("\n").slice(0, 3).join(" ") || c.result.message || c.result.status}`);
    const lang = getLanguage(language);
    const resources: Artifact[] = Object.entries(extra).map(([name, content]) => ({ name, content: new TextEncoder().encode(content), mode: 0o644 }));
    return {
      path: source.path,
      language,
      files: [...resources, ...c.artifacts],
      argv: (limits) => {
        const r = lang.runCommand(c.entry, limits);
        return { argv: r.argv, limits: r.limits, env: { ...lang.env, ...(r.env ?? {}) } };
      },
      reclassify: (r) => (lang.reclassify ? lang.reclassify(r) : r),
    };
  } finally {
    await backend.release(box);
  }
}

/**
 * Runs a built program once, in a fresh box: `program args… < stdin`.
 * @returns the sandbox's result (XX only after the judge's retries).
 */
export async function runOnce(backend: SandboxBackend, p: BuiltProgram, args: string[], stdin: string, limits: RunLimits): Promise<RunResult> {
  return retryOnSandboxFailure(
    async () => {
      const box = await backend.acquire();
      try {
        for (const f of p.files) await box.writeFile(f.name, f.content, f.mode);
        const cmd = p.argv(limits);
        return p.reclassify(await box.run({ ...cmd.limits, argv: [...cmd.argv, ...args], stdin, ...(cmd.env ? { env: cmd.env } : {}) }));
      } finally {
        await backend.release(box);
      }
    },
    (r) => r,
  );
}

/** A run that did not end with exit 0, in words: `exit 3`, `TLE (10000 ms CPU)`, `killed by signal 11`, and the first line it wrote to stderr. */
export function failureOf(r: RunResult): string | null {
  if (r.status === "OK" && r.exitCode === 0) return null;
  const how =
    r.status === "TLE"
      ? `time limit (${r.tleKind === "wall" ? `${Math.round(r.wallTimeMs)} ms wall` : `${Math.round(r.cpuTimeMs)} ms CPU`})`
      : r.status === "MLE"
        ? `memory limit (${Math.round(r.memoryKib / 1024)} MiB)`
        : r.status === "OLE"
          ? "output limit"
          : r.status === "XX"
            ? `sandbox failure (${r.message ?? "unknown"})`
            : r.signal !== null
              ? `killed by signal ${r.signal}`
              : `exit ${r.exitCode}`;
  const said = r.stderr.trim().split("\n")[0]?.slice(0, 200);
  return said ? `${how}: ${said}` : how;
}
