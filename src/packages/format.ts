/**
 * Reads a Kattis / ICPC problem package (the problem package format, legacy
 * and 2023-07/2025-09; ../shared/packages.md summarises the keys) into what
 * the judge needs: name, limits, the default validator's flags, the test data
 * in the order the format runs it, the statement, and the example submissions
 * with the verdicts their folders expect. Errors name the file and line.
 */
import { readYaml, type Yaml } from "./yaml.ts";
import { parseValidatorFlags, formatValidatorFlags } from "../problems/validator-flags.ts";
import { isScripted, VALIDATOR_FILE_NAME, VALIDATOR_MAX_BYTES, validatorMain, type ValidatorSpec } from "../problems/validator-spec.ts";
import { PackageError, text, type PackageFiles } from "./files.ts";
import { otherStatements, statementMarkdown } from "./statement.ts";
import { statementAssets, type Asset } from "./assets.ts";
import { readTestlibFolder, TESTLIB_MARKER } from "./testlib-kattis.ts";
import { readKind, readPythonImplementation } from "./kinds.ts";
import { readKeywords } from "./keywords.ts";
import type { PythonImplementation } from "../problems/limits.ts";
import { expectedScoreInCode, readScoring, scoresNamed } from "./scoring.ts";
import { lastMatching, outcomeOfSets, readSubmissionsYaml, SUBMISSIONS_YAML, type SubmissionsRule } from "./submissions-yaml.ts";
import type { ScoringSpec } from "../problems/scoring-spec.ts";
import { LANGUAGE_IDS, LANGUAGES, languageByExtension, languageByPackageCode, type LanguageId } from "../../isolate/languages/index.ts";

/** "C++, C, Java, Python, PyPy, JavaScript, Go and Rust", for messages. */
const JUDGED_LANGUAGES = ((names: string[]) => `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`)(Object.values(LANGUAGES).map((l) => l.name));

/** A test case: `data/<group...>/<name>.in` and its `.ans`. */
export interface PackageTest {
  /** Path without extension, e.g. "data/secret/group1/01". */
  name: string;
  sample: boolean;
  input: string;
  answer: string;
  /** An interactive sample's `.interaction` file: `<` lines the validator sends, `>` lines the submission writes, `---` between passes. */
  interaction?: string;
}

/**
 * What an example submission's folder expects (../shared/packages.md §1), or a
 * Polygon solution's tag (./polygon/programs.ts): `MLE`, `TLE-or-AC` and
 * `TLE-or-MLE` are Polygon's.
 */
export type ExpectedOutcome = "AC" | "WA" | "TLE" | "RE" | "rejected" | "PAC" | "MLE" | "TLE-or-AC" | "TLE-or-MLE";

export interface PackageSubmission {
  /** Package path of the source file, e.g. "submissions/accepted/sol.cpp". */
  path: string;
  expected: ExpectedOutcome;
  language: LanguageId;
  code: string;
  /** A scoring package's expected score range: submissions.yaml `score`, or `@EXPECTED_SCORE@` in the source. */
  expectedScore?: [number, number];
}

export interface ProblemPackage {
  formatVersion: "legacy" | "2023-07-draft" | "2025-09";
  /** A package read from another format: `polygon` (./polygon/read.ts); absent for a Kattis package. */
  origin?: "polygon";
  name: string;
  /** Statement as Markdown with `$…$` math (a .tex statement converted). */
  statement: string;
  /** Where the statement came from, e.g. "statement/problem.en.md". */
  statementFile: string;
  /** The main statement's language code, where statementFile does not name it (a Polygon package's). */
  statementLanguage?: string;
  /** The statement in other languages, Markdown by language code (kept, exported back; the pages show the main one). */
  translations: Record<string, string>;
  /** The stated time limit, ms (see timeLimitSource); null when the package gives none. */
  timeLimitMs: number | null;
  /** Which file gave timeLimitMs (statedTimeLimit); null when none did. */
  timeLimitSource: TimeLimitSource | null;
  /** ac_to_time_limit and time_limit_to_tle (legacy: time_multiplier, time_safety_margin). */
  timeMultipliers: { acToTimeLimit: number; timeLimitToTle: number };
  /** `limits.memory`, KiB; null when not given. */
  memoryLimitKib: number | null;
  /** The default validator's flags in canonical form ("" for none, and with a custom validator). */
  validatorFlags: string;
  /** The package's own output validator (its args from the flags), or null for the default one. */
  validator: ValidatorSpec | null;
  /** `type: interactive` (legacy: `validation: custom interactive`). */
  interactive: boolean;
  /** Runs per test: 1, or `limits.validation_passes` (default 2) for `type: multi-pass`. */
  validationPasses: number;
  /** What runs Python 3 submissions: PyPy when `languages` allows pypy3 and not python3 (./kinds.ts). */
  pythonImplementation: PythonImplementation;
  /** `type: scoring`: the test groups with their points (./scoring.ts); null for pass-fail. */
  scoring: ScoringSpec | null;
  tests: PackageTest[];
  /**
   * Every `data/sample/*.interaction` in the format's order (path without the
   * extension, and the text), whether or not an `.in` beside it makes it a
   * judged test: shown with the statement as the sample exchanges.
   */
  sampleInteractions: { name: string; text: string }[];
  submissions: PackageSubmission[];
  /** Images of the statement's folder, served with the statement. */
  assets: Asset[];
  /** problem.yaml's `keywords` as written (./keywords.ts); the importer maps them to topic tags. */
  keywords: string[];
  /** Where the keywords came from, for warnings ("problem.yaml" when absent; a Polygon package's `tags` file). */
  keywordsSource?: string;
  /** What was read but not kept, for the importer to show. */
  warnings: string[];
}

const FOLDER_VERDICTS: Record<string, ExpectedOutcome> = {
  accepted: "AC",
  wrong_answer: "WA",
  time_limit_exceeded: "TLE",
  run_time_error: "RE",
  runtime_error: "RE",
  rejected: "rejected",
  partially_accepted: "PAC",
};

/**
 * The languages `submissions/submissions.yaml` names (./submissions-yaml.ts):
 * its `language` key, by package code (`python3`, `pypy3`, `rust`, ...;
 * isolate/languages' `package`). Unknown codes are warned about and their
 * files left out (null).
 * @returns path → language (or null: named, but not judged here); paths no glob names are absent.
 * @throws PackageError naming the file and the glob of a language that is not a code.
 */
function languagesNamed(rules: readonly SubmissionsRule[], warnings: string[]): (path: string) => LanguageId | null | undefined {
  const byRule = new Map<SubmissionsRule, LanguageId | null>();
  for (const r of rules) {
    const code = r.settings.language;
    if (code === undefined) continue;
    if (typeof code !== "string") throw new PackageError(SUBMISSIONS_YAML, `${r.pattern}: language must be a language code (${JUDGED_CODES})`);
    const language = languageByPackageCode(code);
    if (!language) warnings.push(`${SUBMISSIONS_YAML}: ${r.pattern}: language ${JSON.stringify(code.slice(0, 40))} is not judged here (codes: ${JUDGED_CODES}); its files are left out`);
    byRule.set(r, language);
  }
  return (path) => lastMatching(rules, path, (r) => byRule.get(r));
}

/** "cpp, c, java, python3, pypy3, javascript, go, rust", for messages. */
const JUDGED_CODES = LANGUAGE_IDS.map((id) => LANGUAGES[id].package.code).join(", ");

function positiveNumber(y: Yaml, file: string, key: string): number | null {
  const v = y.get(key);
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new PackageError(file, `${key} must be a positive number`, y.line(key));
  return v;
}

/**
 * Server ceilings on a package's time multipliers (problemtools' defaults are
 * 2 and 1.5, legacy 5 and 2; real contest packages stay well inside): the
 * derived limit and the verify's TL_high are clamped to the problem ceilings
 * anyway (src/packages/verify.ts), these keep the numbers meaningful.
 */
export const MULTIPLIER_BOUNDS = {
  acToTimeLimit: { min: 1, max: 10 },
  timeLimitToTle: { min: 1, max: 10 },
} as const;

/** Example submissions kept from one package, and their size (one and all). */
export const EXAMPLE_LIMITS = { maxCount: 100, maxBytes: 64 * 1024, totalMaxBytes: 2 * 1024 * 1024 } as const;

/** A number within [min, max] or absent. @throws PackageError naming the key, the value and the range. */
function bounded(y: Yaml, file: string, key: string, range: { min: number; max: number }): number | null {
  const v = positiveNumber(y, file, key);
  if (v !== null && (v < range.min || v > range.max)) throw new PackageError(file, `${key} ${v} is outside this judge's ${range.min}–${range.max}`, y.line(key));
  return v;
}

/**
 * Where a package states its time limit, in the order they are read: the
 * format's own key, then the two files DOMjudge writes into the packages it
 * exports (GCPC, NWERC and many regionals give the limit only there).
 */
export const TIME_LIMIT_SOURCES = ["problem.yaml", ".timelimit", "domjudge-problem.ini", "problem.xml"] as const;
export type TimeLimitSource = (typeof TIME_LIMIT_SOURCES)[number];

/** A positive number of seconds as ms. @throws PackageError naming the file, line and what it holds. */
function secondsToMs(raw: string, file: string, what: string, line: number): number {
  const s = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(s) || s <= 0) throw new PackageError(file, `${what} must be a positive number of seconds (found ${JSON.stringify(raw.slice(0, 40))})`, line);
  return Math.round(s * 1000);
}

/**
 * The time limit a package states, ms, and where: `problem.yaml`'s
 * `limits.time_limit` (seconds), else DOMjudge's `.timelimit` (a number of
 * seconds), else `domjudge-problem.ini`'s `timelimit = '8'` (DOMjudge's
 * export writes the value quoted, hand-written ones often are not).
 * Both DOMjudge files are what the contest judged with: the format's derived
 * limit would differ from it.
 * @returns nulls when none states one.
 * @throws PackageError naming the file and line of a value that is not a positive number.
 */
export function statedTimeLimit(files: PackageFiles, yaml: Yaml): { timeLimitMs: number | null; timeLimitSource: TimeLimitSource | null } {
  const seconds = positiveNumber(yaml, "problem.yaml", "limits.time_limit");
  if (seconds !== null) return { timeLimitMs: Math.round(seconds * 1000), timeLimitSource: "problem.yaml" };
  const dj = text(files, ".timelimit");
  if (dj !== null) return { timeLimitMs: secondsToMs(dj, ".timelimit", "the file", 1), timeLimitSource: ".timelimit" };
  const ini = text(files, "domjudge-problem.ini");
  if (ini !== null) {
    const lines = ini.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const m = /^\s*timelimit\s*=\s*(.*?)\s*$/i.exec(lines[i]!);
      if (!m) continue;
      const value = /^(['"])(.*)\1$/.exec(m[1]!)?.[2] ?? m[1]!;
      return { timeLimitMs: secondsToMs(value, "domjudge-problem.ini", "timelimit", i + 1), timeLimitSource: "domjudge-problem.ini" };
    }
  }
  return { timeLimitMs: null, timeLimitSource: null };
}

/** A source file a program is made of (headers and modules beside it are not programs of their own). */
const PROGRAM_SOURCE = /\.(cpp|cc|cxx|c|py|java|kt)$/;

/**
 * The folder of a legacy package's output validator: `output_validators/`
 * holds programs, each a folder (`output_validators/<name>/`) or a single
 * file. Files directly in it, with the headers they include beside them
 * (DOMjudge exports an interactor as `output_validators/interactor.cpp` with
 * its `testlib.h`), are one program whose folder is `output_validators/`
 * itself; headers and other non-source files never count as programs.
 * @returns null without one.
 * @throws PackageError naming the programs when there is more than one (this judge runs one per problem).
 */
export function legacyValidatorDir(files: PackageFiles): string | null {
  const root = "output_validators/";
  const entries = [...files.keys()].filter((k) => k.startsWith(root)).map((k) => k.slice(root.length));
  const folders = [...new Set(entries.filter((e) => e.includes("/")).map((e) => e.split("/")[0]!))].sort(byPath);
  const loose = entries.filter((e) => !e.includes("/") && (PROGRAM_SOURCE.test(e) || e === "build" || e === "run")).sort(byPath);
  const programs = [...folders.map((f) => `${f}/`), ...(loose.length ? [loose.join(" + ")] : [])];
  if (programs.length > 1) throw new PackageError(root, `${programs.length} output validators (${programs.join(", ")}); this judge runs one per problem`);
  if (folders.length === 1) return `${root}${folders[0]}/`;
  return loose.length ? root : null;
}

/** Byte-wise lexicographic order, as the format runs test data. */
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Reads a package.
 * @throws PackageError naming the file (and line) of the first problem, including
 *   the unsupported kinds (./kinds.ts) and scoring rules (./scoring.ts).
 */
export async function readPackage(files: PackageFiles): Promise<ProblemPackage> {
  const yaml = readYaml(files, "problem.yaml");
  if (!yaml) throw new PackageError("problem.yaml", "missing: a problem package has problem.yaml at its root");
  const warnings: string[] = [];
  const versionRaw = yaml.get("problem_format_version");
  const formatVersion: ProblemPackage["formatVersion"] =
    versionRaw === undefined || versionRaw === "legacy" || versionRaw === "legacy-icpc"
      ? "legacy"
      : versionRaw === "2023-07-draft" || versionRaw === "2023-07"
        ? "2023-07-draft"
        : versionRaw === "2025-09"
          ? "2025-09"
          : (() => {
              throw new PackageError("problem.yaml", `problem_format_version ${JSON.stringify(versionRaw)} is not one this judge reads (legacy, 2023-07-draft, 2025-09)`, yaml.line("problem_format_version"));
            })();

  // A custom output validator: 2025-09's output_validator/, or legacy output_validators/ (one program).
  const validatorDir = [...files.keys()].some((k) => k.startsWith("output_validator/")) ? "output_validator/" : legacyValidatorDir(files);
  const kind = readKind(yaml, formatVersion, validatorDir !== null, warnings);
  const pythonImplementation = readPythonImplementation(yaml);
  let validator: ValidatorSpec | null = null;
  if (validatorDir) {
    const vfiles: Record<string, string> = {};
    const names = [...files.keys()].filter((k) => k.startsWith(validatorDir)).map((k) => k.slice(validatorDir!.length));
    // A folder with build/run scripts keeps every file (the scripts pick among them); else the sources and headers.
    const scripted = isScripted(names);
    for (const name of names) {
      const k = validatorDir + name;
      if (name.includes("/")) throw new PackageError(k, "a validator's files must sit in its folder itself (this judge's validator box holds no subfolders): move it beside the others");
      if (scripted && !VALIDATOR_FILE_NAME.test(name)) throw new PackageError(k, "a validator file's name is letters, digits and _ . + - (at most 64 characters)");
      if (scripted || name === TESTLIB_MARKER || /\.(cpp|cc|cxx|h|hpp|hh|py)$/.test(name)) vfiles[name] = text(files, k)!;
    }
    const vbytes = Object.values(vfiles).reduce((n, c) => n + Buffer.byteLength(c), 0);
    if (vbytes > VALIDATOR_MAX_BYTES) throw new PackageError(validatorDir, `the output validator's files are larger than ${VALIDATOR_MAX_BYTES / (1024 * 1024)} MiB together`);
    if (TESTLIB_MARKER in vfiles) {
      // A testlib checker (decision 080): judged here by testlib's exit codes, its build/run scripts left for other judges.
      validator = readTestlibFolder(validatorDir, vfiles, kind.interactive);
    } else {
      const main = validatorMain(vfiles);
      if ("error" in main) throw new PackageError(validatorDir, `output validator: ${main.error}`);
      validator = { ...main, files: vfiles, args: "" };
    }
  }

  // Name: a string, or a map by language (English preferred).
  const nameRaw = yaml.get("name");
  let name = "";
  if (typeof nameRaw === "string") name = nameRaw;
  else if (nameRaw && typeof nameRaw === "object") {
    const byLang = nameRaw as Record<string, unknown>;
    name = String(byLang.en ?? Object.values(byLang)[0] ?? "");
  }

  // Limits.
  const limitsFile = "problem.yaml";
  const { timeLimitMs, timeLimitSource } = statedTimeLimit(files, yaml);
  // The 2023-07+ key, else the legacy one; the format's default for the version when neither is given.
  const multiplier = (key: string, legacyKey: string, range: { min: number; max: number }, legacyDefault: number, modernDefault: number) =>
    bounded(yaml, limitsFile, yaml.get(key) !== undefined ? key : legacyKey, range) ?? (formatVersion === "legacy" ? legacyDefault : modernDefault);
  const acToTimeLimit = multiplier("limits.time_multipliers.ac_to_time_limit", "limits.time_multiplier", MULTIPLIER_BOUNDS.acToTimeLimit, 5, 2);
  const timeLimitToTle = multiplier("limits.time_multipliers.time_limit_to_tle", "limits.time_safety_margin", MULTIPLIER_BOUNDS.timeLimitToTle, 2, 1.5);
  const memoryMib = positiveNumber(yaml, limitsFile, "limits.memory");
  const memoryLimitKib = memoryMib === null ? null : Math.round(memoryMib * 1024);
  if (yaml.get("limits.output") !== undefined) warnings.push("limits.output is not kept: this judge's output limit is 16 MiB for every problem");

  // Default validator flags: problem.yaml (legacy), then data/testdata.yaml or data/test_group.yaml.
  const flagSources: [string, string, unknown][] = [["problem.yaml", "validator_flags", yaml.get("validator_flags")]];
  for (const f of ["data/testdata.yaml", "data/test_group.yaml"]) {
    const y = readYaml(files, f);
    if (!y) continue;
    flagSources.push([f, "output_validator_flags", y.get("output_validator_flags")], [f, "output_validator_args", y.get("output_validator_args")]);
  }
  const flagWords: string[] = [];
  for (const [file, key, value] of flagSources) {
    if (value === undefined || value === null) continue;
    const words = Array.isArray(value) ? value.map(String) : String(value).split(/\s+/).filter(Boolean);
    // A custom validator takes its arguments as they are; the default one's are checked.
    if (!validator) {
      const parsed = parseValidatorFlags(words);
      if (!parsed.ok) throw new PackageError(file, `${key}: ${parsed.error}`);
    }
    flagWords.push(...words);
  }
  let validatorFlags = "";
  // A testlib checker takes no arguments (its scripts' all_or_nothing is what testlib's rules already do here).
  if (validator) validator.args = validator.testlib ? "" : flagWords.join(" ");
  else {
    const merged = parseValidatorFlags(flagWords);
    if (!merged.ok) throw new PackageError("problem.yaml", merged.error);
    validatorFlags = formatValidatorFlags(merged.options);
  }
  for (const k of files.keys()) {
    if (/^data\/.+\/(testdata|test_group)\.yaml$/.test(k)) {
      const y = readYaml(files, k)!;
      if (!validator?.testlib && (y.get("output_validator_flags") !== undefined || y.get("output_validator_args") !== undefined)) {
        throw new PackageError(k, "validator flags per test group are not supported yet (only in data/)");
      }
    }
  }

  // Test data: sample first, then secret, each in lexicographic order of the path (groups nest).
  const tests: PackageTest[] = [];
  for (const group of ["sample", "secret"] as const) {
    const inputs = [...files.keys()].filter((k) => k.startsWith(`data/${group}/`) && k.endsWith(".in")).sort(byPath);
    for (const inFile of inputs) {
      const base = inFile.slice(0, -3);
      let answer = text(files, `${base}.ans`);
      // An interactive problem's validator may need no answer: a missing one is empty.
      if (answer === null && kind.interactive) answer = "";
      if (answer === null) throw new PackageError(inFile, `has no answer file ${base.split("/").pop()}.ans`);
      const interaction = text(files, `${base}.interaction`);
      tests.push({ name: base, sample: group === "sample", input: text(files, inFile)!, answer, ...(interaction !== null ? { interaction } : {}) });
    }
    for (const ans of [...files.keys()].filter((k) => k.startsWith(`data/${group}/`) && k.endsWith(".ans"))) {
      if (!files.has(`${ans.slice(0, -4)}.in`)) throw new PackageError(ans, `has no input file ${ans.split("/").pop()!.slice(0, -4)}.in`);
    }
  }
  if (!tests.length) throw new PackageError("data/", "no test data (data/sample/*.in and .ans, data/secret/*.in and .ans)");
  // Every sample exchange, judged or not: a sample may be given only as its .interaction (the format's way to show one).
  const sampleInteractions = [...files.keys()]
    .filter((k) => k.startsWith("data/sample/") && k.endsWith(".interaction"))
    .sort(byPath)
    .map((k) => ({ name: k.slice(0, -".interaction".length), text: text(files, k)! }));
  const scoring = kind.scoring ? readScoring(files, tests, formatVersion) : null;

  // Statement.
  const { markdown, file: statementFile, others } = await statementMarkdown(files, formatVersion, warnings);
  const translations = await otherStatements(files, others, warnings);
  // No name in problem.yaml: the LaTeX statement's \problemname{…} (problemtools reads it there), else the first heading.
  if (!name && statementFile.endsWith(".tex")) name = /\\problemname\{([^{}]*)\}/.exec(text(files, statementFile) ?? "")?.[1]?.trim() ?? "";
  if (!name) name = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? "";
  if (!name) throw new PackageError("problem.yaml", "name: missing (and the statement has no title)", yaml.line("name"));

  // Example submissions: submissions/<folder>/<file> or <folder>/<dir>/ (the directory's one source).
  // Their language: what submissions.yaml names, else the file's extension.
  const submissions: PackageSubmission[] = [];
  const submissionsYaml = readSubmissionsYaml(files);
  const namedLanguage = languagesNamed(submissionsYaml, warnings);
  const scoreNamed = scoresNamed(submissionsYaml);
  let exampleBytes = 0;
  for (const path of [...files.keys()].filter((k) => k.startsWith("submissions/")).sort(byPath)) {
    const [, folder, ...rest] = path.split("/");
    // A folder's verdict, or Polygon's TLE-or-AC / TLE-or-MLE as submissions.yaml's verdict lists say them (decision 080).
    const expected = FOLDER_VERDICTS[folder ?? ""] && (lastMatching(submissionsYaml, path, (r) => outcomeOfSets(r.settings)) ?? FOLDER_VERDICTS[folder ?? ""]);
    if (!expected || rest.length === 0) continue;
    const named = namedLanguage(path);
    if (named === null) continue;
    const byExtension = languageByExtension(path.split(".").pop()!);
    if (!byExtension) {
      if (rest.length === 1) warnings.push(`${path}: language not judged here (${JUDGED_LANGUAGES} are)`);
      continue;
    }
    // A named language replaces the extension's for source files only (never a README beside them).
    // (Python 3 on a PyPy package is judged by PyPy: verify maps it as the judge does, src/judge/languages.ts.)
    const language = named ?? byExtension;
    const code = text(files, path)!;
    if (submissions.length >= EXAMPLE_LIMITS.maxCount) {
      warnings.push(`${path}: left out, this judge keeps at most ${EXAMPLE_LIMITS.maxCount} example submissions`);
      continue;
    }
    if (Buffer.byteLength(code) > EXAMPLE_LIMITS.maxBytes) {
      warnings.push(`${path}: left out, larger than ${EXAMPLE_LIMITS.maxBytes / 1024} KiB (a submission's limit)`);
      continue;
    }
    exampleBytes += Buffer.byteLength(code);
    if (exampleBytes > EXAMPLE_LIMITS.totalMaxBytes) {
      warnings.push(`${path}: left out, the example submissions are over ${EXAMPLE_LIMITS.totalMaxBytes / (1024 * 1024)} MiB together`);
      continue;
    }
    const expectedScore = scoreNamed(path) ?? expectedScoreInCode(code);
    submissions.push({ path, expected, language, code, ...(expectedScore ? { expectedScore } : {}) });
  }

  return {
    formatVersion,
    name: name.slice(0, 200),
    statement: markdown,
    statementFile,
    translations,
    timeLimitMs,
    timeLimitSource,
    timeMultipliers: { acToTimeLimit, timeLimitToTle },
    memoryLimitKib,
    validatorFlags,
    validator,
    interactive: kind.interactive,
    validationPasses: kind.validationPasses,
    pythonImplementation,
    scoring,
    tests,
    sampleInteractions,
    submissions,
    assets: statementAssets(files, statementFile),
    keywords: readKeywords(yaml, warnings),
    warnings,
  };
}
