/**
 * A Polygon package's names and statements in every language it has, as
 * Markdown with `$…$` math: from `statement-sections/<lang>/*.tex` (legend,
 * input, output, interaction, scoring, notes), else from
 * `statements/<lang>/problem-properties.json` (the same sections, as Polygon
 * writes them for its own rendering). Each section's LaTeX goes through the
 * importer's conversion (../latex.ts, in a worker, with its size and time
 * caps); a section that cannot be converted is kept as preformatted LaTeX
 * with a warning. The sections become one Markdown statement with `## Input`
 * and `## Output` headings, which the importer splits into the problem's
 * fields (../statement.ts splitStatement).
 */
import { PackageError, text, type PackageFiles } from "../files.ts";
import { convertLatex, preformatted } from "../latex.ts";
import { STATEMENT_MAX_BYTES, TRANSLATIONS_TOTAL_MAX_BYTES } from "../statement.ts";
import type { PolygonDescriptor } from "./descriptor.ts";

/** Polygon's language names → the language codes statements are kept under. */
const LANGUAGE_CODES: Record<string, string> = {
  english: "en", russian: "ru", ukrainian: "uk", belarusian: "be", kazakh: "kk", uzbek: "uz", azerbaijani: "az", armenian: "hy", georgian: "ka",
  spanish: "es", portuguese: "pt", french: "fr", german: "de", italian: "it", polish: "pl", czech: "cs", slovak: "sk", hungarian: "hu",
  romanian: "ro", bulgarian: "bg", serbian: "sr", croatian: "hr", swedish: "sv", dutch: "nl", finnish: "fi", greek: "el", turkish: "tr",
  arabic: "ar", persian: "fa", hebrew: "he", chinese: "zh", japanese: "ja", korean: "ko", vietnamese: "vi", indonesian: "id", mongolian: "mn",
};

/** The sections of a statement in the order they are shown, with the heading each gets (null: the legend, no heading). */
const SECTIONS: { key: string; heading: string | null }[] = [
  { key: "legend", heading: null },
  { key: "input", heading: "## Input" },
  { key: "output", heading: "## Output" },
  { key: "interaction", heading: "### Interaction" },
  { key: "scoring", heading: "## Scoring" },
  { key: "notes", heading: "## Notes" },
];

export interface PolygonStatements {
  /** The problem's name in the main language. */
  name: string;
  /** Main language's code (English when the package has it, else its first). */
  language: string;
  statement: string;
  /** Where the main statement came from, e.g. `statement-sections/english/`. */
  statementFile: string;
  /** The other languages' statements, by code, each headed by its name. */
  translations: Record<string, string>;
}

/** A Polygon language name as a code (`english` → `en`); an unknown name its first three letters, with a warning. */
function codeOf(language: string, warnings: string[]): string {
  const known = LANGUAGE_CODES[language.toLowerCase()];
  if (known) return known;
  const code = language.toLowerCase().replace(/[^a-z]/g, "").slice(0, 3) || "xx";
  warnings.push(`statements: language ${JSON.stringify(language)} has no code known here: kept as "${code}"`);
  return code;
}

/** One language's sections as LaTeX, from statement-sections/ or problem-properties.json; null when it has neither. */
function sectionsOf(files: PackageFiles, language: string, warnings: string[]): { sections: Record<string, string>; from: string; name: string | null } | null {
  const dir = `statement-sections/${language}/`;
  if ([...files.keys()].some((k) => k.startsWith(dir))) {
    const sections: Record<string, string> = {};
    for (const { key } of SECTIONS) {
      const t = text(files, `${dir}${key}.tex`);
      if (t !== null && t.trim()) sections[key] = t;
    }
    if (files.has(`${dir}tutorial.tex`)) warnings.push(`${dir}tutorial.tex: the tutorial is not kept (this judge has no editorial field yet)`);
    return { sections, from: dir, name: text(files, `${dir}name.tex`)?.trim() || null };
  }
  const propsFile = `statements/${language}/problem-properties.json`;
  const props = text(files, propsFile);
  if (props === null) return null;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(props) as Record<string, unknown>;
  } catch (err) {
    throw new PackageError(propsFile, `not JSON: ${(err as Error).message}`);
  }
  const sections: Record<string, string> = {};
  for (const { key } of SECTIONS) if (typeof json[key] === "string" && (json[key] as string).trim()) sections[key] = json[key] as string;
  if (typeof json.tutorial === "string" && json.tutorial.trim()) warnings.push(`${propsFile}: the tutorial is not kept (this judge has no editorial field yet)`);
  return { sections, from: propsFile, name: typeof json.name === "string" ? json.name : null };
}

/** Polygon's own macros, rewritten for the converter: `\bf`/`\it` groups, guillemets `<<`/`>>`, `\t{…}` as code. */
function prepare(tex: string): string {
  return tex
    .replace(/\{\\bf\s+([^{}]*)\}/g, "\\textbf{$1}")
    .replace(/\{\\it\s+([^{}]*)\}/g, "\\emph{$1}")
    .replace(/\\t\{([^{}]*)\}/g, "\\texttt{$1}")
    .replace(/<<|>>/g, '"');
}

/** One language's statement as Markdown. */
async function markdownOf(sections: Record<string, string>, from: string, warnings: string[]): Promise<string> {
  const parts: string[] = [];
  for (const { key, heading } of SECTIONS) {
    const tex = sections[key];
    if (tex === undefined) continue;
    if (Buffer.byteLength(tex) > STATEMENT_MAX_BYTES) throw new PackageError(from, `${key}: larger than ${STATEMENT_MAX_BYTES / 1024} KiB`);
    const converted = await convertLatex(prepare(tex));
    let md: string;
    if (converted.ok) md = converted.markdown.trim();
    else {
      warnings.push(`${from} ${key}: the LaTeX could not be converted (${converted.error}); kept as preformatted LaTeX, edit it on the problem's page`);
      md = preformatted(tex).trim();
    }
    parts.push(heading ? `${heading}\n\n${md}` : md);
  }
  return `${parts.join("\n\n")}\n`;
}

/**
 * Every language's name and statement.
 * @throws PackageError when no language has a statement (naming where one was looked for), or a section is too large.
 */
export async function readStatements(files: PackageFiles, d: PolygonDescriptor, warnings: string[]): Promise<PolygonStatements> {
  const languages = [...new Set([...Object.keys(d.names), ...d.statements.map((s) => s.language), ...[...files.keys()].filter((k) => k.startsWith("statement-sections/")).map((k) => k.split("/")[1]!)])];
  const read = languages.map((language) => ({ language, found: sectionsOf(files, language, warnings) })).filter((l) => l.found !== null);
  if (!read.length) {
    throw new PackageError("statement-sections/", "no statement: a Polygon package has statement-sections/<language>/*.tex or statements/<language>/problem-properties.json");
  }
  for (const language of languages) if (!read.some((r) => r.language === language) && d.statements.some((s) => s.language === language)) {
    warnings.push(`statements/${language}: only a rendered statement (PDF/HTML) is there, no sections to read: that language is left out`);
  }
  const main = read.find((r) => r.language === "english") ?? read[0]!;
  const nameOf = (r: (typeof read)[number]) => (d.names[r.language] || r.found!.name || d.shortName).trim();
  const statement = await markdownOf(main.found!.sections, main.found!.from, warnings);
  const translations: Record<string, string> = {};
  let total = 0;
  const mainCode = codeOf(main.language, []);
  for (const r of read) {
    if (r === main) continue;
    const code = codeOf(r.language, warnings);
    if (code === mainCode || code in translations) continue;
    const md = `# ${nameOf(r)}\n\n${await markdownOf(r.found!.sections, r.found!.from, warnings)}`;
    total += Buffer.byteLength(md);
    if (total > TRANSLATIONS_TOTAL_MAX_BYTES) {
      warnings.push(`${r.found!.from}: left out, the translations are over ${TRANSLATIONS_TOTAL_MAX_BYTES / 1024} KiB together`);
      continue;
    }
    translations[code] = md;
  }
  return { name: nameOf(main), language: mainCode, statement, statementFile: main.found!.from, translations };
}
