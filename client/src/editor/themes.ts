/**
 * The code colours of the product, one light and one dark, shared by the
 * Monaco editor (EDITOR_THEMES, registered in monaco-setup.ts) and the
 * read-only code of the history (PRISM_THEMES, CodeBlock.tsx). Colours after
 * GitHub's Primer light and dark syntax palettes; every token colour and the
 * line numbers reach WCAG 2.1 AA 4.5:1 on their background (themes.test.ts).
 * Pure data: no Monaco import, so the test and the history need no editor chunk.
 */
import type { PrismTheme } from "prism-react-renderer";

export interface CodePalette {
  background: string;
  foreground: string;
  lineNumber: string;
  activeLineNumber: string;
  selection: string;
  comment: string;
  keyword: string;
  string: string;
  number: string;
  function: string;
  type: string;
}

export const CODE_PALETTES: Record<"light" | "dark", CodePalette> = {
  light: {
    background: "#ffffff",
    foreground: "#1f2328",
    lineNumber: "#59636e",
    activeLineNumber: "#1f2328",
    selection: "#add6ff",
    comment: "#59636e",
    keyword: "#cf222e",
    string: "#0a3069",
    number: "#0550ae",
    function: "#6639ba",
    type: "#953800",
  },
  dark: {
    background: "#0d1117",
    foreground: "#e6edf3",
    lineNumber: "#8b949e",
    activeLineNumber: "#e6edf3",
    selection: "#264f78",
    comment: "#8b949e",
    keyword: "#ff7b72",
    string: "#a5d6ff",
    number: "#79c0ff",
    function: "#d2a8ff",
    type: "#ffa657",
  },
};

/** Monaco theme names: the editor follows the page's theme. */
export const EDITOR_THEME_NAME = { light: "codearena-light", dark: "codearena-dark" } as const;

/** The shape of monaco.editor.IStandaloneThemeData (kept here so this file needs no Monaco import). */
export interface EditorThemeData {
  base: "vs" | "vs-dark";
  inherit: boolean;
  rules: { token: string; foreground?: string; fontStyle?: string }[];
  colors: Record<string, string>;
}

const hex = (c: string) => c.replace(/^#/, "");

function editorTheme(p: CodePalette, base: "vs" | "vs-dark"): EditorThemeData {
  return {
    base,
    inherit: true,
    rules: [
      { token: "", foreground: hex(p.foreground) },
      { token: "comment", foreground: hex(p.comment), fontStyle: "italic" },
      { token: "keyword", foreground: hex(p.keyword) },
      { token: "string", foreground: hex(p.string) },
      { token: "string.escape", foreground: hex(p.number) },
      { token: "number", foreground: hex(p.number) },
      { token: "type", foreground: hex(p.type) },
      { token: "type.identifier", foreground: hex(p.type) },
      { token: "identifier", foreground: hex(p.foreground) },
      { token: "delimiter", foreground: hex(p.foreground) },
      { token: "operator", foreground: hex(p.foreground) },
      { token: "annotation", foreground: hex(p.function) },
      { token: "regexp", foreground: hex(p.string) },
    ],
    colors: {
      "editor.background": p.background,
      "editor.foreground": p.foreground,
      "editorLineNumber.foreground": p.lineNumber,
      "editorLineNumber.activeForeground": p.activeLineNumber,
      // The number of the empty line after a final newline (Monaco dims it by default, 1.8:1).
      "editorLineNumber.dimmedForeground": p.lineNumber,
      "editor.selectionBackground": p.selection,
      "editorGutter.background": p.background,
    },
  };
}

export const EDITOR_THEMES: Record<"light" | "dark", EditorThemeData> = {
  light: editorTheme(CODE_PALETTES.light, "vs"),
  dark: editorTheme(CODE_PALETTES.dark, "vs-dark"),
};

function prismTheme(p: CodePalette): PrismTheme {
  return {
    plain: { color: p.foreground, backgroundColor: p.background },
    styles: [
      { types: ["comment", "prolog", "doctype", "cdata"], style: { color: p.comment, fontStyle: "italic" } },
      { types: ["keyword", "boolean", "important", "atrule"], style: { color: p.keyword } },
      { types: ["string", "char", "attr-value", "regex", "url"], style: { color: p.string } },
      { types: ["number", "constant", "symbol", "builtin"], style: { color: p.number } },
      { types: ["function", "macro", "property"], style: { color: p.function } },
      { types: ["class-name", "tag", "namespace"], style: { color: p.type } },
      { types: ["punctuation", "operator", "variable", "attr-name", "directive", "directive-hash"], style: { color: p.foreground } },
    ],
  };
}

/** The history's read-only code (prism-react-renderer) in the same colours as the editor. */
export const PRISM_THEMES: Record<"light" | "dark", PrismTheme> = {
  light: prismTheme(CODE_PALETTES.light),
  dark: prismTheme(CODE_PALETTES.dark),
};
