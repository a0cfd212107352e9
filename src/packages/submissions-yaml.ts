/**
 * `submissions/submissions.yaml` (2025-09), read once: its globs of
 * submission paths (relative to `submissions/`, e.g. `accepted/fast.py` or
 * `accepted/*.py`) in the file's order, each with its settings (`language`,
 * `score`, ...). A glob names a file or the directory that holds it (a
 * multi-file submission); where several match, the last one wins.
 */
import { parseDocument } from "yaml";
import { PackageError, text, type PackageFiles } from "./files.ts";

export const SUBMISSIONS_YAML = "submissions/submissions.yaml";

/** Longest glob read (a package's paths are shorter; longer ones are refused, not matched). */
export const MAX_GLOB_CHARS = 256;

/** Globs read at most. */
const MAX_RULES = 1000;

export interface SubmissionsRule {
  pattern: string;
  settings: Record<string, unknown>;
  glob: InstanceType<typeof Bun.Glob>;
}

/**
 * Reads the file (none: no rules).
 * @throws PackageError naming the file: not YAML, not a mapping, a glob over MAX_GLOB_CHARS.
 */
export function readSubmissionsYaml(files: PackageFiles): SubmissionsRule[] {
  const source = text(files, SUBMISSIONS_YAML);
  if (source === null) return [];
  const doc = parseDocument(source, { prettyErrors: false });
  if (doc.errors.length) throw new PackageError(SUBMISSIONS_YAML, `not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}`, doc.errors[0]!.linePos?.[0]?.line);
  const root: unknown = doc.toJSON();
  if (root === null || root === undefined) return [];
  if (typeof root !== "object" || Array.isArray(root)) throw new PackageError(SUBMISSIONS_YAML, "must be a mapping of globs to settings", 1);
  const rules: SubmissionsRule[] = [];
  for (const [pattern, settings] of Object.entries(root as Record<string, unknown>).slice(0, MAX_RULES)) {
    if (!settings || typeof settings !== "object") continue;
    if (pattern.length > MAX_GLOB_CHARS) throw new PackageError(SUBMISSIONS_YAML, `${pattern.slice(0, 40)}...: a glob of at most ${MAX_GLOB_CHARS} characters`);
    rules.push({ pattern, settings: settings as Record<string, unknown>, glob: new Bun.Glob(pattern.replace(/\/$/, "")) });
  }
  return rules;
}

/**
 * The value the last matching rule gives a submission's path.
 * @param path the package path, e.g. "submissions/accepted/a.py".
 * @param valueOf a rule's value, or undefined when the rule says nothing of it.
 */
export function lastMatching<T>(rules: readonly SubmissionsRule[], path: string, valueOf: (rule: SubmissionsRule) => T | undefined): T | undefined {
  const parts = path.slice("submissions/".length).split("/");
  let found: T | undefined;
  for (const r of rules) {
    const value = valueOf(r);
    if (value !== undefined && parts.some((_, i) => r.glob.match(parts.slice(0, i + 1).join("/")))) found = value;
  }
  return found;
}

/**
 * Polygon's tags with no folder of their own, as 2025-09's `permitted` and
 * `required` verdict lists say them (decision 080): "TLE or AC" and "TLE or
 * MLE" (MLE is the format's RTE). An export writes them; an import reads
 * them back.
 */
export const VERDICT_SETS = {
  "TLE-or-AC": { permitted: ["AC", "TLE"], required: ["AC", "TLE"] },
  "TLE-or-MLE": { permitted: ["AC", "RTE", "TLE"], required: ["RTE", "TLE"] },
} as const;

/** The outcome a rule's `permitted` and `required` give when they are exactly one of VERDICT_SETS (in any order), else undefined. */
export function outcomeOfSets(settings: Record<string, unknown>): keyof typeof VERDICT_SETS | undefined {
  const sorted = (v: unknown) => (Array.isArray(v) ? v.map(String).sort().join(",") : null);
  const permitted = sorted(settings.permitted);
  const required = sorted(settings.required);
  for (const [outcome, sets] of Object.entries(VERDICT_SETS) as [keyof typeof VERDICT_SETS, (typeof VERDICT_SETS)[keyof typeof VERDICT_SETS]][]) {
    if (permitted === [...sets.permitted].sort().join(",") && required === [...sets.required].sort().join(",")) return outcome;
  }
  return undefined;
}
