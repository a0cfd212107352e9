/**
 * Small problem packages written by the tests (the Kattis / ICPC format,
 * legacy and 2025-09), as file maps, folders and zips.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";

export type Files = Record<string, string | Uint8Array>;

/** A 2025-09 package: Markdown statement with math, flags as a list in data/test_group.yaml, nested secret groups. */
export function modernPackage(extra: Files = {}): Files {
  return {
    "problem.yaml": [
      "problem_format_version: 2025-09",
      "name:",
      "  en: Yes Or Thirds",
      "  sv: Ja eller tredjedelar",
      "uuid: 3f0f2b5c-0000-4000-8000-000000000001",
      "limits:",
      "  time_limit: 1.5",
      "  memory: 512",
      "",
    ].join("\n"),
    "statement/problem.en.md": [
      "Print **yes** and then $\\frac{1}{n}$.",
      "",
      "## Input",
      "",
      "One integer $n$ ($1 \\le n \\le 10^9$).",
      "",
      "## Output",
      "",
      "`yes`, then $1/n$ within $10^{-6}$.",
      "",
    ].join("\n"),
    "statement/problem.sv.md": "Skriv **ja**.\n",
    "data/test_group.yaml": "output_validator_args: [float_tolerance, '1e-6']\n",
    "data/sample/1.in": "3\n",
    "data/sample/1.ans": "yes\n0.333333333\n",
    "data/sample/2.in": "1\n",
    "data/sample/2.ans": "yes\n1\n",
    "data/secret/group2/01.in": "7\n",
    "data/secret/group2/01.ans": "yes\n0.142857142857\n",
    "data/secret/group1/02.in": "4\n",
    "data/secret/group1/02.ans": "yes\n0.25\n",
    "data/secret/group1/01.in": "8\n",
    "data/secret/group1/01.ans": "yes\n0.125\n",
    "submissions/accepted/sol.py": "n = int(input())\nprint('YES')\nprint('%.7f' % (1 / n))\n",
    "submissions/wrong_answer/no.py": "input()\nprint('no')\nprint(0)\n",
    "submissions/accepted/Thirds.java":
      "import java.util.*;\npublic class Thirds { public static void main(String[] a) { long n = new Scanner(System.in).nextLong(); System.out.println(\"Yes\"); System.out.printf(\"%.9f%n\", 1.0 / n); } }\n",
    ...extra,
  };
}

/** A legacy package: LaTeX statement, validator_flags in problem.yaml, no time limit. */
export function legacyPackage(extra: Files = {}): Files {
  return {
    "problem.yaml": ["source: Test Contest", "name: Hello Sum", "validation: default", "validator_flags: case_sensitive", ""].join("\n"),
    "problem_statement/problem.en.tex": [
      "\\problemname{Hello Sum}",
      "% a comment the statement must not show",
      "Given $n$ integers $a_1, \\ldots, a_n$, print $\\sum_{i=1}^n a_i$ and the word \\texttt{Done}.",
      "",
      "\\section*{Input}",
      "The first line holds $n$ ($1 \\le n \\le 10^5$), then the integers.",
      "\\begin{itemize}",
      "\\item \\textbf{bold} item",
      "\\item \\emph{second} item",
      "\\end{itemize}",
      "",
      "\\section*{Output}",
      "The sum, then \\texttt{Done}.",
      "",
    ].join("\n"),
    "data/sample/1.in": "2\n1 2\n",
    "data/sample/1.ans": "3\nDone\n",
    "data/secret/1.in": "3\n1 1 1\n",
    "data/secret/1.ans": "3\nDone\n",
    ...extra,
  };
}

/** A 1×1 PNG. */
export const TINY_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

export function writeFolder(dir: string, files: Files): string {
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

/** The package as a zip, under a top folder (as zipping a package folder gives) unless `flat`. */
export function zipOf(files: Files, opts: { top?: string; flat?: boolean } = {}): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(files)) {
    entries[opts.flat ? name : `${opts.top ?? "pkg"}/${name}`] = typeof content === "string" ? new TextEncoder().encode(content) : content;
  }
  return zipSync(entries);
}
