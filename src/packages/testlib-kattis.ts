/**
 * A testlib checker (and interactor) in a Kattis / ICPC package
 * (decision 080): the output validator's folder holds the checker's files
 * (its source and testlib.h), the interactor's, a marker `testlib-checker.yaml`
 * naming them, and a `build`/`run` program folder (the format's "Programs")
 * that makes any Kattis judge run them with testlib's semantics:
 *
 *   run <input> <answer> <feedback_dir> [all_or_nothing] < output      (interactive: > the submission's input)
 *
 * `run` writes the output to `<feedback_dir>/testlib_output` (an interactor
 * writes its `tout` there), calls `checker <input> <output> <answer>` with its
 * stderr as judgemessage.txt, and maps testlib's exit codes: 0 → 42;
 * 1 (WA), 2 (PE) → 43; 7 with `points X` first on stderr → 42 and
 * score_multiplier.txt X/100 (points as percent) or score.txt X, or with
 * `all_or_nothing` (a pass-fail group, the sample, a problem without scores)
 * 42 only for 100 % and 43 otherwise; 3 (FAIL), any other exit, a signal →
 * exit 1, the judge's error. An interactor runs as `interactor <input> tout`
 * on the submission's pipes; when it accepts (0), the checker reads tout.
 *
 * This judge reads the marker back (readTestlibFolder) as its own `testlib`
 * checker and never runs the scripts (src/judge/testlib.ts judges natively);
 * without the marker the folder is an ordinary program folder (tests:
 * tests/packages/polygon-export.test.ts judges it both ways).
 */
import { parse } from "yaml";
import { PackageError } from "./files.ts";
import { VALIDATOR_FILE_NAME, type ValidatorSpec } from "../problems/validator-spec.ts";

/** The marker file in the output validator's folder. */
export const TESTLIB_MARKER = "testlib-checker.yaml";
/** The argument that makes partial points a rejection (testlib's exit 7 where points cannot count). */
export const ALL_OR_NOTHING_ARG = "all_or_nothing";
/** The files the export writes around the checker's (never kept on import: they are regenerated). */
const GENERATED = new Set([TESTLIB_MARKER, "build", "run"]);

type Program = { language: "cpp" | "py"; files: Record<string, string>; main: string };

/** The command that builds one C++ program (Polygon compiles checkers as C++17 at -O2). */
const buildLine = (p: Program, out: string) => `g++ -std=gnu++17 -O2 -o ${out} ${p.main}`;
/** How `run` starts a program: the built binary, or Python 3 on its source. */
const runHead = (p: Program, name: string) => (p.language === "cpp" ? `"$dir/${name}"` : `python3 "$dir/${p.main}"`);

/** The `run` script (POSIX sh and awk). */
function runScript(checker: Program, interactor: Program | undefined, pointsAsPercent: boolean): string {
  const check = `${runHead(checker, "checker")} "$in" "$out" "$ans" 2> "$fb/judgemessage.txt" 1>&2`;
  const judged = interactor
    ? [
        `${runHead(interactor, "interactor")} "$in" "$out" 2> "$fb/judgemessage.txt"`,
        "code=$?",
        "# The interactor accepted: the checker reads its tout as the output (Polygon's rule).",
        `if [ "$code" -eq 0 ]; then ${check}; code=$?; fi`,
      ]
    : ['cat > "$out"', check, "code=$?"];
  const score = pointsAsPercent
    ? ['  awk -v p="$pts" \'BEGIN { print p / 100 }\' > "$fb/score_multiplier.txt"']
    : ['  echo "$pts" > "$fb/score.txt"'];
  return [
    "#!/bin/sh",
    "# A testlib checker under the Kattis output validator protocol (written by CodeArena's export, decision 080):",
    `#   run input answer feedback_dir [${ALL_OR_NOTHING_ARG}] < output${interactor ? " > submission's input" : ""}`,
    "# testlib exit 0 -> 42; 1 (WA), 2 (PE) -> 43; 7 with \"points X\" on stderr -> 42 and a score file",
    `# (${pointsAsPercent ? "X % of the test's points: score_multiplier.txt" : "X points: score.txt"}); ${ALL_OR_NOTHING_ARG}: only full marks accept;`,
    "# 3 (FAIL) or anything else -> 1, the judge's error.",
    'dir=$(dirname "$0")',
    'in=$1; ans=$2; fb=$3',
    "shift 3",
    "whole=no",
    `for a in "$@"; do [ "$a" = ${ALL_OR_NOTHING_ARG} ] && whole=yes; done`,
    'out="$fb/testlib_output"',
    ...judged,
    'case "$code" in',
    "  0) exit 42 ;;",
    "  1|2) exit 43 ;;",
    "  7) ;;",
    "  *) exit 1 ;;",
    "esac",
    "pts=$(awk 'NF { if ($1 == \"points\" && match($2, /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?/)) print substr($2, 1, RLENGTH); exit }' \"$fb/judgemessage.txt\")",
    '[ -n "$pts" ] || exit 1',
    'if [ "$whole" = yes ]; then',
    pointsAsPercent ? "  awk -v p=\"$pts\" 'BEGIN { exit !(p >= 100) }' && exit 42" : "  # Absolute points are never full marks where points cannot count.",
    "  exit 43",
    "fi",
    ...score,
    "exit 42",
    "",
  ].join("\n");
}

/**
 * The output validator folder of a testlib checker: its files, the
 * interactor's, the marker, `build` (for C++ programs) and `run`.
 * @throws Error when the spec is not a testlib one.
 */
export function testlibFolder(spec: ValidatorSpec): Record<string, string> {
  const t = spec.testlib;
  if (!t) throw new Error("testlibFolder: not a testlib checker");
  if (spec.language === "script") throw new Error("testlibFolder: a testlib checker is C++ or Python");
  const checker: Program = { language: spec.language, files: spec.files, main: spec.main };
  const interactor = t.interactor;
  if (interactor && interactor.main === checker.main) throw new Error("testlibFolder: the checker and the interactor have the same file name");
  const files: Record<string, string> = { ...checker.files, ...(interactor?.files ?? {}) };
  const builds = [checker.language === "cpp" ? buildLine(checker, "checker") : null, interactor?.language === "cpp" ? buildLine(interactor, "interactor") : null].filter(Boolean);
  if (builds.length) files.build = ["#!/bin/sh", "# Builds the testlib checker and interactor for ./run (decision 080).", "set -e", ...builds, ""].join("\n");
  files.run = runScript(checker, interactor, t.pointsAsPercent);
  files[TESTLIB_MARKER] = [
    "# A testlib checker (testlib.h's exit codes 0, 1, 2, 3, 7), run through ./build and ./run by the Kattis validator protocol.",
    `checker: ${checker.main}`,
    ...(interactor ? [`interactor: ${interactor.main}`] : []),
    `points_as_percent: ${t.pointsAsPercent}`,
    "",
  ].join("\n");
  return files;
}

/** The language of a program's main file. */
function languageOf(main: string, where: string): "cpp" | "py" {
  if (/\.(cpp|cc|cxx)$/.test(main)) return "cpp";
  if (main.endsWith(".py")) return "py";
  throw new PackageError(where, `${main}: a testlib checker or interactor is C++ (.cpp, .cc, .cxx) or Python (.py)`);
}

/**
 * Reads a package's output validator folder that holds the marker: the
 * checker (and the interactor) as this judge's `testlib` checker, each with
 * the headers (C++) or modules (Python) beside it; `build`, `run` and the
 * marker are left out (an export writes them again).
 * @param dir the folder, e.g. "output_validator/".
 * @param files the folder's files by name.
 * @throws PackageError naming the marker (and its key) when it names no file of the folder, or holds something else.
 */
export function readTestlibFolder(dir: string, files: Record<string, string>, interactive: boolean): ValidatorSpec {
  const where = dir + TESTLIB_MARKER;
  let raw: unknown;
  try {
    raw = parse(files[TESTLIB_MARKER] ?? "");
  } catch (err) {
    throw new PackageError(where, `not YAML: ${(err as Error).message.split("\n")[0]}`);
  }
  const m = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  for (const key of Object.keys(m)) if (!["checker", "interactor", "points_as_percent"].includes(key)) throw new PackageError(where, `${key}: not a key of this file (checker, interactor, points_as_percent)`);
  const named = (key: "checker" | "interactor"): string => {
    const v = m[key];
    if (typeof v !== "string" || !VALIDATOR_FILE_NAME.test(v) || !(v in files) || GENERATED.has(v)) throw new PackageError(where, `${key}: must name a source file of ${dir} (found ${JSON.stringify(v ?? null)})`);
    return v;
  };
  if (m.points_as_percent !== undefined && typeof m.points_as_percent !== "boolean") throw new PackageError(where, "points_as_percent: must be true or false");
  const checkerMain = named("checker");
  const interactorMain = m.interactor === undefined ? null : named("interactor");
  if (interactorMain && !interactive) throw new PackageError(where, "interactor: the problem is not interactive (problem.yaml type)");
  if (!interactorMain && interactive) throw new PackageError(where, "interactor: missing, and the problem is interactive");
  const program = (main: string, other: string | null): Program => {
    const language = languageOf(main, where);
    const beside = language === "cpp" ? /\.(h|hpp|hh)$/ : /\.py$/;
    const own: Record<string, string> = { [main]: files[main]! };
    for (const [name, content] of Object.entries(files)) if (name !== other && !GENERATED.has(name) && beside.test(name)) own[name] = content;
    return { language, files: own, main };
  };
  const checker = program(checkerMain, interactorMain);
  return {
    ...checker,
    args: "",
    testlib: { pointsAsPercent: m.points_as_percent === true, ...(interactorMain ? { interactor: program(interactorMain, checkerMain) } : {}) },
  };
}
