/**
 * The plain editor's text edits, as pure functions of the text and the selection (UTF-16 offsets,
 * as a textarea's selectionStart/selectionEnd), so they can be tested without a browser. They do
 * what Monaco does for the same keys, so typing feels the same before and after the swap:
 * Tab indents (spaces to the next tab stop, or a tab when the text is indented with tabs; every
 * selected line when the selection spans lines), Shift+Tab outdents the selected lines, Enter keeps
 * the line's indentation.
 */

/** An edit: replace [start, end) by `text`, then select [selectionStart, selectionEnd) (offsets after the edit). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

/** The indentation one Tab adds: a tab when more lines start with a tab than with a space (Monaco's detectIndentation, simply), else `tabSize` spaces. */
export function indentUnitOf(text: string, tabSize: number): string {
  let tabs = 0;
  let spaces = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("\t")) tabs++;
    else if (line.startsWith(" ")) spaces++;
  }
  return tabs > spaces ? "\t" : " ".repeat(tabSize);
}

const lineStartOf = (text: string, offset: number) => text.lastIndexOf("\n", offset - 1) + 1;

/** The leading whitespace removed by one outdent of `line`: one tab, or up to `tabSize` spaces. */
function outdentWidth(line: string, tabSize: number): number {
  if (line.startsWith("\t")) return 1;
  let n = 0;
  while (n < tabSize && line[n] === " ") n++;
  return n;
}

/**
 * Tab (outdent false) or Shift+Tab (outdent true) on the selection [selStart, selEnd).
 * A caret or a selection within one line gets `unit` (spaces up to the next tab stop); Shift+Tab, or
 * a selection over several lines, (out)dents every line it touches (a selection ending at a line's
 * start leaves that line alone), and the selection follows its text.
 */
export function tabEdit(text: string, selStart: number, selEnd: number, outdent: boolean, unit: string): TextEdit {
  const first = lineStartOf(text, selStart);
  const multiLine = text.slice(selStart, selEnd).includes("\n");
  if (!outdent && !multiLine) {
    const insert = unit === "\t" ? "\t" : " ".repeat(unit.length - ((selStart - first) % unit.length));
    const caret = selStart + insert.length;
    return { start: selStart, end: selEnd, text: insert, selectionStart: caret, selectionEnd: caret };
  }
  const lastOffset = multiLine && text[selEnd - 1] === "\n" ? selEnd - 1 : selEnd;
  const newline = text.indexOf("\n", lastOffset);
  const blockEnd = newline === -1 ? text.length : newline;
  const lines = text.slice(first, blockEnd).split("\n");
  const tabSize = unit === "\t" ? 4 : unit.length;
  const deltas = lines.map((line) => (outdent ? -outdentWidth(line, tabSize) : line.length ? unit.length : 0));
  const changed = lines.map((line, i) => (outdent ? line.slice(-deltas[i]!) : deltas[i] ? unit + line : line));
  const total = deltas.reduce((a, b) => a + b, 0);
  const firstDelta = deltas[0]!;
  // The selection's start moves with its line's indentation but never before the line's start.
  const selectionStart = Math.max(first, selStart + firstDelta);
  const selectionEnd = selEnd === selStart ? selectionStart : Math.max(selectionStart, selEnd + total);
  return { start: first, end: blockEnd, text: changed.join("\n"), selectionStart, selectionEnd };
}

/** Enter: a line break, and the current line's indentation (its leading spaces and tabs before the caret). */
export function newlineEdit(text: string, selStart: number, selEnd: number): TextEdit {
  const first = lineStartOf(text, selStart);
  const indent = /^[ \t]*/.exec(text.slice(first, selStart))![0];
  const insert = `\n${indent}`;
  const caret = selStart + insert.length;
  return { start: selStart, end: selEnd, text: insert, selectionStart: caret, selectionEnd: caret };
}

/** A text offset as Monaco's 1-based line and column (the text's line breaks are "\n", as a textarea's value has them). */
export function positionAt(text: string, offset: number): { lineNumber: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { lineNumber: lines.length, column: lines[lines.length - 1]!.length + 1 };
}
