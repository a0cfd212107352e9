/**
 * Reads a Codeforces Polygon package (a full one: every test present) into
 * the ProblemPackage the Kattis reader gives (../format.ts), so import,
 * storage, export and judging take it as they take a Kattis package. What
 * maps to what: docs/decisions/074-polygon-packages.md.
 */
import { stdCheckerFlags } from "../std-checkers.ts";
import { PackageError, text, type PackageFiles } from "../files.ts";
import type { ProblemPackage } from "../format.ts";
import { TAG_WORD_MAX_CHARS } from "../../problems/tags/words.ts";
import { KEYWORDS_MAX } from "../keywords.ts";
import { DESCRIPTOR, readDescriptor } from "./descriptor.ts";
import { readChecker, readSolutions, unhonoured } from "./programs.ts";
import { readStatements } from "./statements.ts";
import { readScoring, readTests } from "./tests.ts";
import { makeTests, type GenerationOptions } from "./generate.ts";
import { DEFAULT_CEILINGS } from "../../problems/ceilings.ts";

/** Bytes in a KiB: Polygon's memory limit is in bytes, the problem's in KiB. */
const KIB = 1024;

/** The `tags` file (one tag per line) and `<tags>` of problem.xml, as keywords; what cannot be one is a warning. */
function readTags(files: PackageFiles, fromXml: string[], warnings: string[]): string[] {
  const lines = (text(files, "tags") ?? "").split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const out: string[] = [];
  for (const tag of [...lines, ...fromXml]) {
    if (out.includes(tag)) continue;
    if (tag.length > TAG_WORD_MAX_CHARS) warnings.push(`tags: ${JSON.stringify(tag.slice(0, 40))}… is longer than ${TAG_WORD_MAX_CHARS} characters: left out`);
    else if (out.length >= KEYWORDS_MAX) warnings.push(`tags: ${JSON.stringify(tag)} left out (at most ${KEYWORDS_MAX} are read)`);
    else out.push(tag);
  }
  return out;
}

/**
 * Reads a Polygon package; a standard package's tests are generated, and every
 * package's tests validated, in `generation.backend` (./generate.ts).
 * @param generation the sandbox, ceilings and progress callback; without a sandbox a standard package is refused
 *   and validators are not run (a warning).
 * @throws PackageError naming the file or problem.xml's element of the first problem: a generator, validator or main
 *   solution that fails (naming the test and the program), a file problem.xml names that is missing, file
 *   input/output, no checker, more tests than the ceiling.
 */
export async function readPolygonPackage(files: PackageFiles, generation: Partial<GenerationOptions> = {}): Promise<ProblemPackage> {
  const warnings: string[] = [];
  const d = readDescriptor(files);
  if (d.inputFile.trim() || d.outputFile.trim()) {
    throw new PackageError(DESCRIPTOR, `judging: input-file ${JSON.stringify(d.inputFile)} / output-file ${JSON.stringify(d.outputFile)}: this judge gives programs standard input and output only (file input/output is not supported yet)`);
  }
  const interactive = d.interactor !== null;
  const validator = readChecker(files, d, warnings);
  // testlib's standard checkers: the built-in comparison of the same semantics (../std-checkers.ts), unless it reads an interactor's tout.
  const stdFlags = interactive ? null : stdCheckerFlags(d.checker?.name ?? null);
  if (stdFlags !== null) warnings.push(`assets/checker ${d.checker!.name}: judged by the built-in comparison of the same semantics (default validator${stdFlags ? ` with ${stdFlags}` : ""}), not compiled`);
  const made = await makeTests(files, d, { backend: generation.backend ?? null, ceilings: generation.ceilings ?? DEFAULT_CEILINGS, onProgress: generation.onProgress, generatorCpuMs: generation.generatorCpuMs, cache: generation.cache ?? null }, warnings);
  const { tests, polygon } = readTests(files, d.tests, interactive, made);
  const scoring = readScoring(d.tests, polygon, warnings);
  const statements = await readStatements(files, d, warnings);
  const submissions = readSolutions(files, d, warnings);
  unhonoured(d, warnings, made.size > 0);
  if (!statements.name) throw new PackageError(DESCRIPTOR, "names: the problem has no name (and no short-name)");
  return {
    // What an export writes back (a Kattis package of the current version).
    formatVersion: "2025-09",
    origin: "polygon",
    name: statements.name.slice(0, 200),
    statement: statements.statement,
    statementFile: statements.statementFile,
    statementLanguage: statements.language,
    translations: statements.translations,
    timeLimitMs: d.tests.timeLimitMs,
    timeLimitSource: "problem.xml",
    // problemtools' defaults: verify's TL_high = TL × 1.5 (Polygon has no such margin).
    timeMultipliers: { acToTimeLimit: 2, timeLimitToTle: 1.5 },
    memoryLimitKib: Math.ceil(d.tests.memoryLimitBytes / KIB),
    validatorFlags: stdFlags ?? "",
    validator: stdFlags === null ? validator : null,
    interactive,
    validationPasses: 1,
    pythonImplementation: "cpython",
    scoring,
    tests,
    sampleInteractions: [],
    submissions,
    assets: [],
    keywords: readTags(files, d.tags, warnings),
    keywordsSource: "tags",
    warnings,
  };
}
