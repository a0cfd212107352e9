/** The plain editor's Tab, Shift+Tab and Enter edits (plain-editing.ts), as Monaco makes them. */
import { describe, expect, test } from "bun:test";
import { indentUnitOf, newlineEdit, positionAt, tabEdit, type TextEdit } from "./plain-editing.ts";

/** Applies an edit: the new text and the selected part, marked [ ]. */
function run(text: string, edit: TextEdit): string {
  const out = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return `${out.slice(0, edit.selectionStart)}[${out.slice(edit.selectionStart, edit.selectionEnd)}]${out.slice(edit.selectionEnd)}`;
}

describe("indentUnitOf", () => {
  test("spaces unless more lines start with a tab", () => {
    expect(indentUnitOf("int main() {\n    return 0;\n}", 4)).toBe("    ");
    expect(indentUnitOf("", 4)).toBe("    ");
    expect(indentUnitOf("if x:\n\ty = 1\n\tz = 2\n  w", 4)).toBe("\t");
  });
});

describe("tabEdit", () => {
  test("a caret gets spaces to the next tab stop", () => {
    expect(run("ab", tabEdit("ab", 2, 2, false, "    "))).toBe("ab  []");
    expect(run("x\nabcd", tabEdit("x\nabcd", 6, 6, false, "    "))).toBe("x\nabcd    []");
    expect(run("a", tabEdit("a", 0, 0, false, "\t"))).toBe("\t[]a");
  });
  test("a selection within a line is replaced by the indentation", () => {
    expect(run("abc", tabEdit("abc", 1, 2, false, "    "))).toBe("a   []c");
  });
  test("a selection over lines indents each (an empty line stays empty; a line the selection ends at the start of is left)", () => {
    const text = "a\n\nb\nc";
    // Selected: from "a" to the start of "c".
    expect(run(text, tabEdit(text, 0, 5, false, "  "))).toBe("  [a\n\n  b\n]c");
  });
  test("Shift+Tab outdents the caret's line, or every selected line, by one unit at most", () => {
    expect(run("      x", tabEdit("      x", 7, 7, true, "    "))).toBe("  x[]");
    expect(run("  x", tabEdit("  x", 1, 1, true, "    "))).toBe("[]x");
    const text = "    a\n\tb\nc";
    expect(run(text, tabEdit(text, 4, 10, true, "    "))).toBe("[a\nb\nc]");
  });
});

describe("newlineEdit", () => {
  test("keeps the line's indentation", () => {
    expect(run("    x = 1", newlineEdit("    x = 1", 9, 9))).toBe("    x = 1\n    []");
    expect(run("\tab", newlineEdit("\tab", 2, 3))).toBe("\ta\n\t[]");
    expect(run("a", newlineEdit("a", 0, 0))).toBe("\n[]a");
  });
});

describe("positionAt", () => {
  test("1-based line and column", () => {
    expect(positionAt("ab\ncd", 0)).toEqual({ lineNumber: 1, column: 1 });
    expect(positionAt("ab\ncd", 3)).toEqual({ lineNumber: 2, column: 1 });
    expect(positionAt("ab\ncd", 5)).toEqual({ lineNumber: 2, column: 3 });
    expect(positionAt("ab", 99)).toEqual({ lineNumber: 1, column: 3 });
  });
});
