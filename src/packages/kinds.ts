/**
 * What kind of problem a package is (the package format's `type` and, in the
 * legacy version, `validation`), and the keys that go with each kind:
 *
 * - 2023-07-draft / 2025-09: `type` is one or a list of `pass-fail`,
 *   `scoring`, `interactive`, `multi-pass`, `submit-answer` (pass-fail and
 *   scoring exclude each other; pass-fail when absent);
 * - legacy: `type: pass-fail | scoring` and `validation: default | custom`,
 *   with `interactive` and/or `score` after `custom`;
 * - multi-pass: `limits.validation_passes` (default 2).
 *
 * Interactive and multi-pass problems are judged by the package's own
 * validator, so it must have one. Submit-answer problems are refused here,
 * with the reason; a scoring problem's groups are read by ./scoring.ts.
 */
import { languageByPackageCode } from "../../isolate/languages/index.ts";
import { PROBLEM_LIMITS, type PythonImplementation } from "../problems/limits.ts";
import { PackageError } from "./files.ts";

/** The kind of a package's problem. */
export interface PackageKind {
  interactive: boolean;
  /** `type: scoring` (legacy: `type: scoring`, or `validation: custom score`): test groups with points (./scoring.ts). */
  scoring: boolean;
  /** Runs per test: 1, or `limits.validation_passes` (default 2) for multi-pass. */
  validationPasses: number;
}

/** A YAML document's reader, as format.ts reads problem.yaml. */
interface YamlReader {
  get(key: string): unknown;
  line(key: string): number | undefined;
}

const TYPES = ["pass-fail", "scoring", "interactive", "multi-pass", "submit-answer"] as const;

/**
 * Reads the problem's kind from problem.yaml.
 * @param hasValidator the package has an output validator folder.
 * @throws PackageError naming problem.yaml, the key and its line.
 */
export function readKind(yaml: YamlReader, formatVersion: "legacy" | "2023-07-draft" | "2025-09", hasValidator: boolean, warnings: string[]): PackageKind {
  const file = "problem.yaml";
  const typeRaw = yaml.get("type");
  const types = Array.isArray(typeRaw) ? typeRaw.map(String) : typeof typeRaw === "string" ? typeRaw.split(/\s+/).filter(Boolean) : ["pass-fail"];
  for (const t of types) {
    if (!(TYPES as readonly string[]).includes(t)) throw new PackageError(file, `type ${t}: not a problem type of the format (${TYPES.join(", ")})`, yaml.line("type"));
    if (formatVersion === "legacy" && t !== "pass-fail" && t !== "scoring") {
      throw new PackageError(file, `type ${t}: the legacy format's types are pass-fail and scoring (an interactive problem says validation: custom interactive)`, yaml.line("type"));
    }
  }
  if (types.includes("pass-fail") && types.includes("scoring")) throw new PackageError(file, "type: pass-fail and scoring exclude each other", yaml.line("type"));
  if (types.includes("submit-answer")) throw new PackageError(file, "type submit-answer: not judged here (this judge runs programs, not submitted output files)", yaml.line("type"));
  let interactive = types.includes("interactive");
  let scoring = types.includes("scoring");
  const validation = yaml.get("validation");
  if (validation !== undefined) {
    const words = typeof validation === "string" ? validation.split(/\s+/).filter(Boolean) : [];
    const known = words.length > 0 && (words[0] === "default" ? words.length === 1 : words[0] === "custom" && words.slice(1).every((w) => w === "interactive" || w === "score"));
    if (!known) throw new PackageError(file, `validation: ${String(validation)} is not one the format has (default, custom, custom interactive, custom score)`, yaml.line("validation"));
    if (words[0] === "custom" && !hasValidator) throw new PackageError(file, `validation: ${validation}, but there is no output_validators/ folder`, yaml.line("validation"));
    if (words.includes("interactive")) interactive = true;
    if (words.includes("score")) scoring = true;
  }
  const multiPass = types.includes("multi-pass");
  const what = interactive && multiPass ? "interactive multi-pass" : interactive ? "interactive" : "multi-pass";
  if ((interactive || multiPass) && !hasValidator) {
    throw new PackageError(file, `type ${what}: the package has no output validator (output_validator/), which ${interactive ? "talks with the submission" : "writes each pass's input"}`, yaml.line("type") ?? yaml.line("validation"));
  }
  const passesRaw = yaml.get("limits.validation_passes");
  const bounds = PROBLEM_LIMITS.validationPasses;
  let validationPasses = 1;
  if (multiPass) {
    validationPasses = bounds.multiPassDefault;
    if (passesRaw !== undefined) {
      if (typeof passesRaw !== "number" || !Number.isInteger(passesRaw) || passesRaw < 2) {
        throw new PackageError(file, "limits.validation_passes must be a whole number of at least 2", yaml.line("limits.validation_passes"));
      }
      if (passesRaw > bounds.max) {
        throw new PackageError(file, `limits.validation_passes ${passesRaw} is over this judge's ${bounds.max} (PROBLEM_LIMITS.validationPasses)`, yaml.line("limits.validation_passes"));
      }
      validationPasses = passesRaw;
    }
  } else if (passesRaw !== undefined) {
    warnings.push("limits.validation_passes is ignored: the problem is not multi-pass");
  }
  return { interactive, scoring, validationPasses };
}

/**
 * What runs Python 3 submissions, from problem.yaml's `languages` (a list, or
 * a string of codes, or `all`): PyPy when the package allows `pypy3` but not
 * `python3` (the contest judged Python on PyPy, as DOMjudge does by default),
 * else CPython.
 * @throws PackageError naming problem.yaml and the line when `languages` is neither a list nor a string.
 */
export function readPythonImplementation(yaml: YamlReader): PythonImplementation {
  const raw = yaml.get("languages");
  if (raw === undefined || raw === null) return "cpython";
  const codes = Array.isArray(raw) ? raw.map((c) => String(c).trim().toLowerCase()) : typeof raw === "string" ? raw.split(/[\s,]+/).filter(Boolean).map((c) => c.toLowerCase()) : null;
  if (!codes) throw new PackageError("problem.yaml", "languages: must be a list of language codes (or all)", yaml.line("languages"));
  if (codes.includes("all")) return "cpython";
  const ids = new Set(codes.map(languageByPackageCode));
  return ids.has("pypy") && !ids.has("py") ? "pypy" : "cpython";
}
