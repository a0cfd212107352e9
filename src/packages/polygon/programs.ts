/**
 * A Polygon package's programs: the checker (and the interactor) → the
 * problem's `testlib` checker (src/problems/validator-spec.ts TestlibSpec),
 * and the tagged solutions → example submissions with the verdicts their tags
 * expect (../shared/polygon.md §1.3). What is not run here yet (input
 * validators, generators of a full package, the checker's own tests, stress
 * tests) is a warning naming the element.
 */
import { LANGUAGES, languageByExtension, languageByPackageCode, type LanguageId } from "../../../isolate/languages/index.ts";
import { VALIDATOR_FILE_NAME, VALIDATOR_MAX_BYTES, type ValidatorSpec } from "../../problems/validator-spec.ts";
import { PackageError, text, type PackageFiles } from "../files.ts";
import { EXAMPLE_LIMITS, type ExpectedOutcome, type PackageSubmission } from "../format.ts";
import { DESCRIPTOR, type PolygonDescriptor, type PolygonSource } from "./descriptor.ts";

/** Solution tags → what verify expects (polygon.md §1.3). */
export const TAG_OUTCOMES: Record<string, ExpectedOutcome> = {
  main: "AC",
  accepted: "AC",
  "wrong-answer": "WA",
  "presentation-error": "WA",
  "time-limit-exceeded": "TLE",
  "time-limit-exceeded-or-accepted": "TLE-or-AC",
  "memory-limit-exceeded": "MLE",
  "time-limit-exceeded-or-memory-limit-exceeded": "TLE-or-MLE",
  rejected: "rejected",
  failed: "rejected",
};

/** A file's text, required. @throws PackageError naming the file and the element of problem.xml that names it. */
function required(files: PackageFiles, path: string, element: string): string {
  const t = text(files, path);
  if (t === null) throw new PackageError(path, `missing: ${DESCRIPTOR} names it (${element})`);
  return t;
}

const baseName = (path: string) => path.split("/").pop()!;

/** The language a checker or interactor runs in: C++ (any `cpp.*`) or Python. @throws PackageError naming the element. */
function programLanguage(source: PolygonSource, element: string): "cpp" | "py" {
  if (source.type.startsWith("cpp.") || (!source.type && /\.(cpp|cc|cxx)$/.test(source.path))) return "cpp";
  if (source.type.startsWith("python.") || (!source.type && source.path.endsWith(".py"))) return "py";
  throw new PackageError(DESCRIPTOR, `${element}: source ${source.path} of type ${source.type || "(none)"}: this judge runs C++ and Python checkers and interactors`);
}

/**
 * A program's files for its box: its source and the package's resources of its
 * kind (headers for C++, testlib.h among them; modules for Python), flat.
 */
function programFiles(files: PackageFiles, d: PolygonDescriptor, source: PolygonSource, element: string): { language: "cpp" | "py"; files: Record<string, string>; main: string } {
  const language = programLanguage(source, element);
  const main = baseName(source.path);
  if (!VALIDATOR_FILE_NAME.test(main)) throw new PackageError(source.path, `${element}: a program's file name is letters, digits and _ . + - (at most 64 characters)`);
  const out: Record<string, string> = { [main]: required(files, source.path, `${element}/source`) };
  const kind = language === "cpp" ? /\.(h|hpp|hh)$/ : /\.py$/;
  for (const r of d.resources) {
    const name = baseName(r.path);
    if (!kind.test(name) || name in out) continue;
    if (!VALIDATOR_FILE_NAME.test(name)) continue;
    out[name] = required(files, r.path, "files/resources/file");
  }
  return { language, files: out, main };
}

/**
 * The checker (and interactor) as the problem's testlib checker.
 * @throws PackageError naming the element or file: no checker, a missing source, a type not run here, too large.
 */
export function readChecker(files: PackageFiles, d: PolygonDescriptor, warnings: string[]): ValidatorSpec {
  if (!d.checker) throw new PackageError(DESCRIPTOR, "assets: no <checker>: a Polygon problem is judged by its checker");
  if (d.checker.type !== "testlib") throw new PackageError(DESCRIPTOR, `assets/checker: type ${JSON.stringify(d.checker.type)}: this judge runs testlib checkers`);
  const checker = programFiles(files, d, d.checker.source, "assets/checker");
  if (d.checker.hasTests) warnings.push("assets/checker/testset: the checker's own tests are not run here yet");
  const spec: ValidatorSpec = { language: checker.language, files: checker.files, main: checker.main, args: "", testlib: { pointsAsPercent: d.pointsAsPercent } };
  if (d.interactor) {
    const interactor = programFiles(files, d, d.interactor, "assets/interactor");
    spec.testlib!.interactor = interactor;
  }
  const bytes = [spec.files, spec.testlib!.interactor?.files ?? {}].flatMap((f) => Object.values(f)).reduce((n, c) => n + Buffer.byteLength(c), 0);
  if (bytes > VALIDATOR_MAX_BYTES) throw new PackageError(d.checker.source.path, `the checker's and interactor's files are larger than ${VALIDATOR_MAX_BYTES / (1024 * 1024)} MiB together`);
  return spec;
}

/** A solution's language: Polygon's source type when it names PyPy, else the file's extension. */
function solutionLanguage(source: PolygonSource): LanguageId | null {
  if (/pypy/i.test(source.type)) return languageByPackageCode("pypy3");
  return languageByExtension(source.path.split(".").pop()!);
}

/** The tagged solutions as example submissions (limits as a Kattis package's: EXAMPLE_LIMITS). @throws PackageError naming a missing source. */
export function readSolutions(files: PackageFiles, d: PolygonDescriptor, warnings: string[]): PackageSubmission[] {
  const out: PackageSubmission[] = [];
  let total = 0;
  for (const s of d.solutions) {
    const path = s.source.path;
    const code = required(files, path, `assets/solutions/solution[tag=${s.tag}]/source`);
    const expected = TAG_OUTCOMES[s.tag];
    if (!expected) {
      warnings.push(`assets/solutions/solution ${path}: tag ${JSON.stringify(s.tag)} is not one this judge knows (${Object.keys(TAG_OUTCOMES).join(", ")}): left out of verify`);
      continue;
    }
    const language = solutionLanguage(s.source);
    if (!language) {
      warnings.push(`assets/solutions/solution ${path}: type ${s.source.type || "(none)"} is not judged here (${Object.values(LANGUAGES).map((l) => l.name).join(", ")} are): left out of verify`);
      continue;
    }
    const bytes = Buffer.byteLength(code);
    if (out.length >= EXAMPLE_LIMITS.maxCount || bytes > EXAMPLE_LIMITS.maxBytes || total + bytes > EXAMPLE_LIMITS.totalMaxBytes) {
      warnings.push(`assets/solutions/solution ${path}: left out, past this judge's limits on example submissions (${EXAMPLE_LIMITS.maxCount}, ${EXAMPLE_LIMITS.maxBytes / 1024} KiB each, ${EXAMPLE_LIMITS.totalMaxBytes / (1024 * 1024)} MiB together)`);
      continue;
    }
    total += bytes;
    out.push({ path, expected, language, code });
  }
  return out;
}

/** Warnings for what the package has that is not run here yet. */
export function unhonoured(d: PolygonDescriptor, warnings: string[], generated = false): void {
  const own = new Set([d.checker?.source.path, d.interactor?.path, ...d.validators.map((v) => v.path)]);
  const generators = d.executables.filter((e) => !own.has(e.path));
  if (generators.length && !generated) warnings.push(`files/executables: ${generators.map((g) => g.path).join(", ")} not used (a full package's tests are already generated)`);
  for (const name of d.otherTestsets) warnings.push(`judging/testset[name=${name}]: only the tests testset is judged here`);
  if (d.hasStresses) warnings.push("stresses: stress tests are not run here");
}
