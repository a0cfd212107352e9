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

/**
 * The package's statement: English first (`problem.en.*`, then legacy
 * `problem.*`), Markdown before LaTeX, else the first language found.
 * @returns the Markdown, the file it came from, and the other statement files (not kept).
 * @throws PackageError when there is no statement, or the LaTeX cannot be converted.
 */
export function statementMarkdown(files: PackageFiles, version: string): { markdown: string; file: string; others: string[] } {
  const dirs = version === "legacy" ? ["problem_statement", "statement"] : ["statement", "problem_statement"];
  const candidates: string[] = [];
  for (const dir of dirs) {
    for (const name of ["problem.en.md", "problem.md", "problem.en.tex", "problem.tex"]) candidates.push(`${dir}/${name}`);
  }
  const all = [...files.keys()].filter((k) => /^(problem_)?statement\/problem(\.[a-z]{2,3})?\.(md|tex)$/.test(k)).sort();
  const file = candidates.find((c) => files.has(c)) ?? all[0];
  if (!file) throw new PackageError("statement/", "no statement (statement/problem.en.md or .tex; legacy: problem_statement/problem.en.tex)");
  const source = text(files, file)!;
  let markdown: string;
  if (file.endsWith(".md")) markdown = source;
  else {
    try {
      markdown = latexToMarkdown(source);
    } catch (err) {
      throw new PackageError(file, `cannot convert the LaTeX statement: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  const others = all.filter((k) => k !== file && !(k.replace(/\.(md|tex)$/, "") === file.replace(/\.(md|tex)$/, "")));
  return { markdown, file, others };
}

/**
 * The statements in the other languages, as Markdown by language code
 * (`problem.sv.tex` → "sv"; Markdown preferred when both exist).
 * @throws PackageError when one cannot be converted.
 */
export function otherStatements(files: PackageFiles, others: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of [...others].sort((a, b) => (a.endsWith(".md") === b.endsWith(".md") ? 0 : a.endsWith(".md") ? -1 : 1))) {
    const lang = /problem\.([a-z]{2,3})\.(md|tex)$/.exec(file)?.[1];
    if (!lang || lang in out) continue;
    const source = text(files, file)!;
    try {
      out[lang] = file.endsWith(".md") ? source : latexToMarkdown(source);
    } catch (err) {
      throw new PackageError(file, `cannot convert the LaTeX statement: ${(err as Error).message.split("\n")[0]}`);
    }
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
