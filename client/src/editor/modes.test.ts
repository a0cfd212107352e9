/**
 * Every language of the registry is highlighted in the editor (a Monaco
 * grammar registered in monaco-setup.ts) and in read-only code (a Prism
 * grammar of prism-react-renderer), so adding a language cannot leave its code
 * grey.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Prism } from "prism-react-renderer";
import { LANGUAGES } from "../../../isolate/languages/index.ts";
import "../components/CodeBlock.tsx";

/** Monaco's basic-language folder registering each id ("c" comes with "cpp"). */
const MONACO_FOLDER: Record<string, string> = { c: "cpp" };

describe("editor modes", () => {
  const setup = readFileSync(join(import.meta.dir, "monaco-setup.ts"), "utf8");
  for (const lang of Object.values(LANGUAGES)) {
    test(`${lang.id}: Monaco registers "${lang.editorMode}" and Prism knows it`, () => {
      const folder = MONACO_FOLDER[lang.editorMode] ?? lang.editorMode;
      expect(setup).toContain(`monaco-editor/languages/definitions/${folder}/register.js`);
      expect(Prism.languages[lang.editorMode]).toBeDefined();
    });
  }
});
