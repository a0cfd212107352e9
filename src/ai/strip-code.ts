/**
 * Takes every piece of code out of a markdown review, for assignments whose
 * AI policy is `hints`: fenced blocks tagged with a programming language (or
 * untagged) become a note, and inline code that reads as a statement or a
 * call with arguments (`x = f(a);`) loses its text. Quoted program output
 * (fences tagged `text`) and plain names (`endl`, `Scanner`) stay: naming a
 * problem is a hint, writing its fix is not.
 */

const KEEP_FENCES = new Set(["text", "txt", "output", "console"]);

/** What replaces a removed block of code. */
export const CODE_REMOVED = "*(code removed: this assignment allows hints only)*";

/**
 * @example stripCode("Use:\n```cpp\nint x = 0;\n```\nor `cin.tie(nullptr);`") // "Use:\n*(code removed…)*\nor *(code removed…)*"
 */
export function stripCode(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]!);
    if (!open) {
      out.push(stripInline(lines[i]!));
      continue;
    }
    const fence = open[2]!;
    const lang = open[3]!.toLowerCase();
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence)) j++;
    if (KEEP_FENCES.has(lang)) out.push(...lines.slice(i, j + 1));
    else out.push(CODE_REMOVED);
    i = j;
  }
  return out.join("\n");
}

/** Inline spans that are code, not names: they hold `;`, `=`, `{`, or a call with arguments. */
function stripInline(line: string): string {
  return line.replace(/(`+)([^`]+?)\1/g, (span, _ticks: string, body: string) =>
    /[;={}]|\w\s*\([^)]+\)/.test(body) ? CODE_REMOVED : span,
  );
}
