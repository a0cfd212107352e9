/**
 * A problem of this judge → a Kattis / ICPC problem package in the 2025-09
 * layout: problem.yaml (name, uuid, time and memory limits), the statement as
 * statement/problem.en.md (the fields under Input, Output and Constraints
 * headings, which the importer splits back), the sample in data/sample, the
 * hidden tests in data/secret (numbered so the format's lexicographic order
 * is the judge's order), and the checker as the default validator's flags in
 * data/test_group.yaml (a testlib checker as its files with a build/run adapter: ./testlib-kattis.ts);
 * the topic tags as problem.yaml's `keywords`; kept example submissions under their folders, with
 * submissions/submissions.yaml naming a language their extension does not
 * (PyPy). importPackage(readPackage(export(p))) gives back the
 * same problem: src/packages/roundtrip.test.ts.
 */
import { AppError } from "../errors.ts";
import { createHash } from "node:crypto";
import { parse, stringify } from "yaml";
import { ALL_OR_NOTHING_ARG, testlibFolder } from "./testlib-kattis.ts";
import { zipSync } from "fflate";
import type { CheckerName } from "../problems/limits.ts";
import { FLOAT_TOLERANCE } from "../judge/checker.ts";
import type { HiddenTestCase, ProblemShape } from "../problems/shape.ts";
import type { PackageExample } from "../../db/schema.ts";
import { readAssets, type Asset } from "./assets.ts";
import type { Database } from "../../db/index.ts";
import type { Caller } from "../accounts/user.ts";
import { requireEditableProblem } from "../problems/access.ts";
import { toProblemShape } from "../problems/shape.ts";
import { readHiddenTests } from "../problems/store.ts";
import { tagsOfProblem } from "../problems/tags/problem-tags.ts";
import { readPackageMeta } from "./verify-service.ts";
import { scoringFiles } from "./scoring.ts";
import { VERDICT_SETS } from "./submissions-yaml.ts";
import { LANGUAGE_IDS, LANGUAGES, languageByExtension } from "../../isolate/languages/index.ts";

/**
 * The default validator's flags closest to a checker: exact for `kattis`
 * (its own flags) and `tokens` (case-sensitive tokens); `float` also
 * compares numbers within 1e-6; `lines` has no exact form (the format cannot
 * ignore trailing spaces per line yet keep line breaks), so it becomes the
 * stricter exact-whitespace comparison.
 * @returns the flags and, when not exact, why.
 */
export function flagsForChecker(checker: CheckerName, checkerFlags: string): { flags: string; note?: string } {
  switch (checker) {
    case "kattis":
      return { flags: checkerFlags };
    case "tokens":
      return { flags: "case_sensitive" };
    case "float":
      return { flags: `case_sensitive float_tolerance ${FLOAT_TOLERANCE}` };
    case "lines":
      return { flags: "case_sensitive space_change_sensitive", note: "the lines checker has no exact form in the format: exported as exact whitespace (stricter)" };
    case "custom":
    case "testlib":
      // The validator's own arguments are written with it (exportPackage); a testlib checker is refused there.
      return { flags: "" };
  }
}

/**
 * Where a testlib checker's partial points cannot count (decision 074: a
 * problem without scored groups, the sample, a pass-fail group), the test
 * groups whose validator is told `all_or_nothing` (./testlib-kattis.ts).
 * @returns test_group.yaml path → the keys to add.
 */
function allOrNothingFiles(problem: Pick<ProblemShape, "scoring">): Record<string, Record<string, unknown>> {
  const args = { output_validator_args: [ALL_OR_NOTHING_ARG] };
  if (!problem.scoring) return { "data/test_group.yaml": args };
  const out: Record<string, Record<string, unknown>> = { "data/sample/test_group.yaml": args };
  for (const g of problem.scoring.groups) if (g.aggregation === "pass-fail") out[`data/secret/${g.name}/test_group.yaml`] = args;
  return out;
}

/** A stable UUID (8-4-4-4-12) for a problem id, as 2025-09's problem.yaml requires one. */
function uuidOf(id: string): string {
  const h = createHash("sha256").update(`codearena-problem:${id}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The statement fields as one Markdown statement with the headings the importer splits at. */
export function statementOf(p: Pick<ProblemShape, "description" | "inputFormat" | "outputFormat" | "constraints">): string {
  return `${p.description.trim()}\n\n## Input\n\n${p.inputFormat.trim()}\n\n## Output\n\n${p.outputFormat.trim()}\n\n## Constraints\n\n${p.constraints.trim()}\n`;
}

/**
 * The sample and hidden tests as the package holds them. An interactive
 * problem may show a sample without an answer (the judge does not run it as
 * test 0), judged instead as its first hidden test (src/packages/import.ts);
 * that copy is the sample's, so it is written once, in data/sample. A sample
 * with neither input nor answer (one given only as its interaction, which
 * the statement shows) writes no sample files.
 */
function hiddenForExport(problem: ProblemShape & { hiddenTestCases: HiddenTestCase[] }): { hidden: HiddenTestCase[]; sampleJudged: boolean } {
  const all = problem.hiddenTestCases;
  if (!problem.interactive || problem.sampleOutput.trim() !== "") return { hidden: all, sampleJudged: true };
  const first = all[0];
  if (problem.sampleInput !== "" && first && first.input === problem.sampleInput && first.expectedOutput === problem.sampleOutput && !problem.scoring) {
    return { hidden: all.slice(1), sampleJudged: true };
  }
  return { hidden: all, sampleJudged: problem.sampleInput !== "" };
}

/**
 * Builds the package zip.
 * @param problem the problem with its hidden tests (the caller may see them).
 * @returns the zip, its file name, and notes on what the format cannot say exactly.
 */
export function exportPackage(
  problem: ProblemShape & { hiddenTestCases: HiddenTestCase[] },
  /** What an imported problem kept of its package: example submissions and time multipliers. */
  kept: { examples: PackageExample[]; acToTimeLimit: number; timeLimitToTle: number; translations: Record<string, string>; statementLanguage?: string } | null = null,
  /** The statement's images. */
  assets: Asset[] = [],
): { zip: Uint8Array; filename: string; notes: string[] } {
  if (problem.checker === "custom" && !problem.validator) throw new Error("exportPackage: a custom-checker problem needs its validator (the owner's shape)");
  if (problem.checker === "testlib" && !problem.validator?.testlib) throw new AppError("BAD_INPUT", { field: "id", message: "id: the problem's testlib checker has no files" });
  const notes: string[] = [];
  const enc = (s: string) => new TextEncoder().encode(s);
  const files: Record<string, Uint8Array> = {};
  files["problem.yaml"] = enc(
    stringify({
      problem_format_version: "2025-09",
      name: problem.title,
      uuid: uuidOf(problem._id),
      limits: {
        time_limit: problem.timeLimitMs / 1000,
        memory: Math.round(problem.memoryLimitKib / 1024),
        ...(kept ? { time_multipliers: { ac_to_time_limit: kept.acToTimeLimit, time_limit_to_tle: kept.timeLimitToTle } } : {}),
        ...(problem.validationPasses > 1 ? { validation_passes: problem.validationPasses } : {}),
      },
      // Python 3 on PyPy: the format says it by allowing pypy3 and not python3 (./kinds.ts reads it back).
      ...(problem.pythonImplementation === "pypy" ? { languages: LANGUAGE_IDS.filter((id) => id !== "py").map((id) => LANGUAGES[id].package.code) } : {}),
      ...(problem.interactive || problem.validationPasses > 1 || problem.scoring
        ? { type: [...(problem.scoring ? ["scoring"] : []), ...(problem.interactive ? ["interactive"] : []), ...(problem.validationPasses > 1 ? ["multi-pass"] : [])] }
        : {}),
      // Topic tags as the format's keywords: their slugs (stable, one word each, read back through the vocabulary).
      ...(problem.tags.length ? { keywords: problem.tags.map((t) => t.slug) } : {}),
    }),
  );
  if (problem.timeScaledByLanguage) notes.push("the time limit applies to every language in the format; here Java and Python had their multipliers on top");
  const mainLanguage = kept?.statementLanguage ?? "en";
  files[`statement/problem.${mainLanguage}.md`] = enc(statementOf(problem));
  for (const a of assets) files[`statement/${a.name}`] = a.content;
  for (const [lang, md] of Object.entries(kept?.translations ?? {})) if (lang !== mainLanguage) files[`statement/problem.${lang}.md`] = enc(md);
  // An interactive sample without an answer was judged as the first hidden test (the importer put it there): it goes back to data/sample only.
  const { hidden, sampleJudged } = hiddenForExport(problem);
  if (sampleJudged) {
    files["data/sample/001.in"] = enc(problem.sampleInput);
    files["data/sample/001.ans"] = enc(problem.sampleOutput);
  }
  const width = Math.max(3, String(hidden.length).length);
  // A scoring problem's tests go to their groups' folders (data/secret/<group>/), numbered in order.
  const folderOf = (i: number) => (problem.scoring ? `${hidden[i]?.group ?? "ungrouped"}/` : "");
  hidden.forEach((tc, i) => {
    const name = String(i + 1).padStart(width, "0");
    files[`data/secret/${folderOf(i)}${name}.in`] = enc(tc.input);
    files[`data/secret/${folderOf(i)}${name}.ans`] = enc(tc.expectedOutput);
  });
  if (problem.scoring) for (const [path, config] of Object.entries(scoringFiles(problem.scoring))) files[path] = enc(stringify(config));
  const { flags, note } = flagsForChecker(problem.checker, problem.checkerFlags);
  if (note) notes.push(note);
  const v = problem.checker === "custom" || problem.checker === "testlib" ? problem.validator : null;
  // A testlib checker: its files with the marker and the build/run scripts that give any Kattis judge its semantics (./testlib-kattis.ts).
  if (v) for (const [name, content] of Object.entries(v.testlib ? testlibFolder(v) : v.files)) files[`output_validator/${name}`] = enc(content);
  if (v?.testlib) for (const [path, config] of Object.entries(allOrNothingFiles(problem))) files[path] = enc(stringify({ ...(path in files ? parse(new TextDecoder().decode(files[path])) : {}), ...config }));
  const args = v ? (v.testlib ? [] : v.args.split(/\s+/).filter(Boolean)) : flags.split(" ").filter(Boolean);
  if (args.length) files["data/test_group.yaml"] = enc(stringify({ output_validator_args: args }));
  const folders: Record<PackageExample["expected"], string> = { AC: "accepted", WA: "wrong_answer", TLE: "time_limit_exceeded", RE: "run_time_error", rejected: "rejected", PAC: "partially_accepted", MLE: "run_time_error", "TLE-or-AC": "time_limit_exceeded", "TLE-or-MLE": "rejected" };
  const named: Record<string, { language?: string; score?: number | [number, number]; permitted?: readonly string[]; required?: readonly string[] }> = {};
  for (const e of kept?.examples ?? []) {
    // Kept under their package path; one that strayed from its folder's name is put back in it.
    const [, folder, ...rest] = e.path.split("/");
    const path = folder === folders[e.expected] ? e.path : `submissions/${folders[e.expected]}/${rest.join("/") || e.path.split("/").pop()}`;
    files[path] = enc(e.code);
    // A language its extension does not say (PyPy for a .py) is named, as the importer reads it.
    const key = path.slice("submissions/".length);
    if (languageByExtension(path.split(".").pop()!) !== e.language) named[key] = { language: LANGUAGES[e.language].package.code };
    // A scoring example's expected score, as submissions.yaml says it.
    if (e.expectedScore) named[key] = { ...named[key], score: e.expectedScore[0] === e.expectedScore[1] ? e.expectedScore[0] : e.expectedScore };
    // Polygon's TLE-or-AC and TLE-or-MLE: the format's verdict lists (a folder alone says TLE, or any rejection).
    if (e.expected === "TLE-or-AC" || e.expected === "TLE-or-MLE") named[key] = { ...named[key], ...VERDICT_SETS[e.expected] };
  }
  if (Object.keys(named).length) files["submissions/submissions.yaml"] = enc(stringify(named));
  const slug = problem.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "problem";
  return { zip: zipSync(files, { level: 6, mtime: new Date("2026-01-01T00:00:00Z") }), filename: `${slug}.zip`, notes };
}

/**
 * A problem as a package for a caller who may change it (its owner, or its
 * course's teachers): the zip as base64, a file name, and notes on what the
 * format cannot say exactly.
 * @throws AppError PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_EXPORT (403).
 */
export async function exportProblem(db: Database, user: Caller, problemId: string, now: number): Promise<{ filename: string; zipBase64: string; notes: string[] }> {
  const row = await requireEditableProblem(db, user, problemId, "NOT_PROBLEM_OWNER_EXPORT", now);
  const hidden = (await readHiddenTests(db, [row.id])).get(row.id) ?? [];
  const [kept, assets, tags] = await Promise.all([readPackageMeta(db, row.id), readAssets(db, row.id), tagsOfProblem(db, row.id)]);
  const shape = toProblemShape(row, hidden.length, tags, hidden);
  const { zip, filename, notes } = exportPackage({ ...shape, hiddenTestCases: shape.hiddenTestCases ?? hidden }, kept, assets);
  return { filename, zipBase64: Buffer.from(zip).toString("base64"), notes };
}
