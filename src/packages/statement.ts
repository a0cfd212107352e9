/**
 * A package's statement as Markdown with `$…$` math: a Markdown statement
 * (`statement/problem.en.md`) as written; a LaTeX one
 * (`problem_statement/problem.en.tex`, `statement/problem.en.tex`) converted
 * by the @unified-latex packages (sections, itemize/enumerate, math,
 * `\texttt`, `\textbf`, `\emph`, tables, `\includegraphics`), after the
 * format's own macros are rewritten: `\problemname{…}` dropped (the name comes
 * from problem.yaml), `\illustration{w}{file}{caption}` → an image, `\hline`
 * dropped (table rules have no Markdown form).
 */
import { unified } from "unified";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkStringify from "remark-stringify";
import { unifiedLatexFromString } from "@unified-latex/unified-latex-util-parse";
import { unifiedLatexToMdast } from "@unified-latex/unified-latex-to-mdast";
import { htmlLike } from "@unified-latex/unified-latex-util-html-like";
import { getArgsContent } from "@unified-latex/unified-latex-util-arguments";
import type * as Ast from "@unified-latex/unified-latex-types";
import { PackageError, text, type PackageFiles } from "./files.ts";
import { convertLatex, preformatted } from "./latex.ts";

/**
 * LaTeX statement text → Markdown.
 * @example latexToMarkdown("\\section*{Input}\nAn integer $n$.") // "### Input\n\nAn integer $n$.\n"
 */
export function latexToMarkdown(tex: string): string {
  const prepared = tex
    .replace(/(^|[^\\])%[^\n]*/gm, "$1")
    .replace(/\\problemname\{[^{}]*\}/g, "")
    .replace(/\\illustration\{[^{}]*\}\{([^{}]*)\}\{([^{}]*)\}/g, "\\includegraphics{$1}")
    .replace(/\\hline/g, "");
  const code = (node: Ast.Macro) => htmlLike({ tag: "code", content: getArgsContent(node).at(-1) ?? [] });
  // unified-latex is typed against unified 10, the remark plugins against 11; the chain runs on 11.
  type Chain = { use(plugin: unknown, options?: unknown): Chain; processSync(input: string): { toString(): string } };
  const out = (unified() as unknown as Chain)
    .use(unifiedLatexFromString)
    .use(unifiedLatexToMdast, { macroReplacements: { texttt: code, verb: code } })
    .use(remarkGfm)
    .use(remarkMath)
    .use(remarkStringify)
    .processSync(prepared);
  return String(out).trim() + "\n";
}

/** Largest statement (of any language) kept, bytes: a real one is a few KiB. */
export const STATEMENT_MAX_BYTES = 256 * 1024;
/** All translations of one problem together, bytes. */
export const TRANSLATIONS_TOTAL_MAX_BYTES = 1024 * 1024;

/**
 * One statement file as Markdown: Markdown as written, LaTeX converted in a
 * worker (src/packages/latex.ts); a conversion that fails keeps the LaTeX as
 * preformatted text and says so in `warnings`.
 * @throws PackageError when the file is over STATEMENT_MAX_BYTES.
 */
async function statementOf(files: PackageFiles, file: string, warnings: string[]): Promise<string> {
  const source = text(files, file)!;
  if (Buffer.byteLength(source) > STATEMENT_MAX_BYTES) throw new PackageError(file, `statement larger than ${STATEMENT_MAX_BYTES / 1024} KiB`);
  if (file.endsWith(".md")) return source;
  const converted = await convertLatex(source);
  if (converted.ok) return converted.markdown;
  warnings.push(`${file}: the LaTeX could not be converted (${converted.error}); the statement is kept as preformatted LaTeX, edit it on the problem's page`);
  return preformatted(source);
}

/**
 * The package's statement: English first (`problem.en.*`, then legacy
 * `problem.*`), Markdown before LaTeX, else the first language found.
 * @returns the Markdown, the file it came from, and the other statement files (not kept).
 * @throws PackageError when there is no statement, or it is too large (a LaTeX that cannot be converted is a warning).
 */
export async function statementMarkdown(files: PackageFiles, version: string, warnings: string[] = []): Promise<{ markdown: string; file: string; others: string[] }> {
  const dirs = version === "legacy" ? ["problem_statement", "statement"] : ["statement", "problem_statement"];
  const candidates: string[] = [];
  for (const dir of dirs) {
    for (const name of ["problem.en.md", "problem.md", "problem.en.tex", "problem.tex"]) candidates.push(`${dir}/${name}`);
  }
  const all = [...files.keys()].filter((k) => /^(problem_)?statement\/problem(\.[a-z]{2,3})?\.(md|tex)$/.test(k)).sort();
  const file = candidates.find((c) => files.has(c)) ?? all[0];
  if (!file) throw new PackageError("statement/", "no statement (statement/problem.en.md or .tex; legacy: problem_statement/problem.en.tex)");
  const markdown = await statementOf(files, file, warnings);
  const others = all.filter((k) => k !== file && !(k.replace(/\.(md|tex)$/, "") === file.replace(/\.(md|tex)$/, "")));
  return { markdown, file, others };
}

/**
 * The statements in the other languages, as Markdown by language code
 * (`problem.sv.tex` → "sv"; Markdown preferred when both exist), at most
 * TRANSLATIONS_TOTAL_MAX_BYTES together (the rest are left out with a warning).
 */
export async function otherStatements(files: PackageFiles, others: string[], warnings: string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let total = 0;
  for (const file of [...others].sort((a, b) => (a.endsWith(".md") === b.endsWith(".md") ? 0 : a.endsWith(".md") ? -1 : 1))) {
    const lang = /problem\.([a-z]{2,3})\.(md|tex)$/.exec(file)?.[1];
    if (!lang || lang in out) continue;
    const markdown = await statementOf(files, file, warnings);
    total += Buffer.byteLength(markdown);
    if (total > TRANSLATIONS_TOTAL_MAX_BYTES) {
      warnings.push(`${file}: left out, the translations are over ${TRANSLATIONS_TOTAL_MAX_BYTES / 1024} KiB together`);
      continue;
    }
    out[lang] = markdown;
  }
  return out;
}

/**
 * Splits a Markdown statement at its "Input", "Output" and "Constraints"
 * headings (any level, case-insensitive) into the problem's fields.
 * @returns the text before Input, and the three sections ("" when absent).
 */
export function splitStatement(markdown: string): { description: string; input: string; output: string; constraints: string } {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const parts = { description: [] as string[], input: [] as string[], output: [] as string[], constraints: [] as string[] };
  let into: keyof typeof parts = "description";
  let fence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const title = heading?.[1]?.toLowerCase();
    if (title === "input") {
      into = "input";
      continue;
    }
    if (title === "output") {
      into = "output";
      continue;
    }
    if (title === "constraints") {
      into = "constraints";
      continue;
    }
    if (heading && into !== "description" && /^#{1,2}\s/.test(line)) into = "description";
    parts[into].push(line);
  }
  const join = (l: string[]) => l.join("\n").trim();
  return { description: join(parts.description), input: join(parts.input), output: join(parts.output), constraints: join(parts.constraints) };
}
