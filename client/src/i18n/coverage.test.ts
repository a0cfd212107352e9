/**
 * No text a person reads is written in the code (issue 34 §1): every client
 * source file (not tests, not catalogues) is parsed with TypeScript and fails
 * on text in JSX (`<p>Hello</p>`) and on any string literal that reads as
 * words ("Sign in", "Submit", "Time limit (ms)"): a space between letters, or
 * a capital followed by lower case. Not counted: imports, `className` and
 * other non-text attributes, `console.*` and `new Error(...)` arguments (for
 * developers), type positions, and a line marked `// i18n-ignore: <why>`
 * (or the line after such a comment) for text that is not the interface's
 * (a language's own name, a brand, sample code, a CSS value).
 *
 * `I18N_ONLY=client/src/courses bun test client/src/i18n/coverage.test.ts` checks one folder.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "../../..");
const CLIENT = join(ROOT, "client/src");

/** Attributes whose values are never read by a person. */
const NON_TEXT_ATTRIBUTES = new Set([
  "className", "href", "to", "id", "key", "type", "name", "role", "rel", "target", "autoComplete", "inputMode", "pattern",
  "method", "action", "lang", "dir", "style", "src", "accept", "form", "htmlFor", "aria-controls", "aria-labelledby",
  "aria-describedby", "aria-owns", "aria-live", "aria-current", "aria-haspopup", "variant", "size", "tone", "kind", "as",
  "mode", "language", "theme", "path", "d", "viewBox", "fill", "stroke", "xmlns", "width", "height", "slot", "encType",
  "data-testid", "defaultLanguage", "loading", "decoding", "referrerPolicy", "sandbox", "wrap", "spellCheck", "autoCapitalize",
  "fontFamily", "value", "defaultValue", "tabIndex", "step", "min", "max",
]);

const WORDS = /[A-Za-z]{2,}.*\s+.*[A-Za-z]|^[A-Z][a-z]+/;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "catalog") sources(path, out);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function ignoredLines(text: string): Set<number> {
  const lines = text.split("\n");
  const out = new Set<number>();
  lines.forEach((line, i) => {
    if (line.includes("i18n-ignore")) {
      out.add(i);
      if (/^\s*(\/\/|\{\/\*)/.test(line)) out.add(i + 1);
    }
  });
  return out;
}

function isDeveloperCall(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isCallExpression(n)) {
      const callee = n.expression.getText();
      if (/^console\./.test(callee)) return true;
    }
    if (ts.isNewExpression(n) && /Error$/.test(n.expression.getText())) return true;
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isImportTypeNode(n) || ts.isLiteralTypeNode(n)) return true;
    if (ts.isJsxAttribute(n)) return NON_TEXT_ATTRIBUTES.has(n.name.getText()) || n.name.getText().startsWith("data-");
    if (ts.isPropertyAssignment(n) && ["className", "fontFamily", "href", "id", "key", "language"].includes(n.name.getText())) return true;
    if (ts.isSourceFile(n)) return false;
  }
  return false;
}

/** The text a person would read that is written in `file`'s code: "path:line: text". */
export function untranslated(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const ignored = ignoredLines(text);
  const found: string[] = [];
  const report = (node: ts.Node, value: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
    if (ignored.has(line)) return;
    found.push(`${relative(ROOT, file)}:${line + 1}: ${value.trim().slice(0, 60)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (/[A-Za-z]{2,}/.test(node.text)) report(node, node.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (WORDS.test(node.text) && !isDeveloperCall(node)) report(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ");
      if (/[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(parts) && !isDeveloperCall(node)) report(node, parts);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Files not yet through the catalogue (issue 34 is converting them screen by
 * screen); the list only shrinks. Everything else is checked.
 */
export const PENDING: readonly string[] = [
];

test("no interface text is written in the client's code", () => {
  const only = process.env.I18N_ONLY ? join(ROOT, process.env.I18N_ONLY) : null;
  const files = sources(CLIENT).filter((f) => (only ? f.startsWith(only) : !PENDING.some((p) => relative(ROOT, f).startsWith(p))));
  expect(files.length).toBeGreaterThan(0);
  const found = files.flatMap(untranslated);
  expect(found).toEqual([]);
});
