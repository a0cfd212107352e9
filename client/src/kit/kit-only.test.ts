/**
 * The form kit is the only place that renders form controls (docs/decisions/055-form-kit.md):
 * no client file outside client/src/kit/ writes `<input`, `<select` or `<textarea` in JSX, so
 * every field has the kit's label, description, error wiring and styles. The code editor
 * (client/src/editor/: Monaco and the plain editor that stands in until Monaco has loaded,
 * decision 062) is a control of its own with its own name, description and keys, and is left out.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const CLIENT = join(import.meta.dir, "..");
const RAW_CONTROL = /<(input|select|textarea)(\s|>|\/|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return path === join(CLIENT, "kit") || path === join(CLIENT, "editor") ? [] : sources(path);
    return path.endsWith(".tsx") ? [path] : [];
  });
}

/** `file:line: text` of every raw form control in `text`. */
function rawControls(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (RAW_CONTROL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test("no client file outside the kit renders a raw input, select or textarea", () => {
  const offences = sources(CLIENT).flatMap((path) => rawControls(relative(CLIENT, path), readFileSync(path, "utf8")));
  expect(offences).toEqual([]);
});

test("the check sees each raw control, and not the kit's components", () => {
  expect(rawControls("x.tsx", '<input id="a" />\n<select value={v}>\n<textarea\n<TextField label="t" />\n<Select label="s">')).toEqual([
    'x.tsx:1: <input id="a" />',
    "x.tsx:2: <select value={v}>",
    "x.tsx:3: <textarea",
  ]);
});
