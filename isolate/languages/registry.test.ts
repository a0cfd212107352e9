/** The language registry: every entry is complete, ids match keys, and derived facts come from the entries. */
import { describe, expect, test } from "bun:test";
import { COMPILER_FLAGS, DEFAULT_LANGUAGE, effectiveTimeLimitMs, getLanguage, isLanguageId, LANGUAGE_IDS, LANGUAGES } from "./index.ts";

describe("language registry", () => {
  test("ids are the registry's keys, in display order, and the first is the default", () => {
    // The ICPC set first, in display order (a language added later follows them).
    expect(LANGUAGE_IDS.slice(0, 8)).toEqual(["cpp", "c", "java", "py", "pypy", "js", "go", "rust"]);
    expect([...LANGUAGE_IDS] as string[]).toEqual(Object.keys(LANGUAGES));
    for (const id of LANGUAGE_IDS) expect(LANGUAGES[id].id).toBe(id);
    expect(DEFAULT_LANGUAGE).toBe("cpp");
  });

  test("every entry carries what the server and the client read from it", () => {
    for (const id of LANGUAGE_IDS) {
      const l = LANGUAGES[id];
      expect(l.name.length).toBeGreaterThan(0);
      expect(l.displayName.length).toBeGreaterThan(l.name.length - 1);
      expect(l.editorMode).toMatch(/^[a-z+]+$/);
      expect(l.timeMultiplier).toBeGreaterThanOrEqual(1);
      // The editor's starting code: a main skeleton with the comment learners replace.
      expect(l.boilerplate).toContain("Your code here");
      expect(l.sourceFileName(l.boilerplate)).toMatch(/^[\w.]+$/);
      expect(COMPILER_FLAGS[id]).toBe(l.compilerFlags);
    }
  });

  test("time multipliers: C++ 1x, Java 2x, Python 3x (docs/decisions/011)", () => {
    expect(effectiveTimeLimitMs("cpp", 1000)).toBe(1000);
    expect(effectiveTimeLimitMs("java", 1000)).toBe(2000);
    expect(effectiveTimeLimitMs("py", 1500)).toBe(4500);
  });

  test("lookups refuse unknown ids", () => {
    expect(isLanguageId("py")).toBe(true);
    expect(isLanguageId("cobol")).toBe(false);
    expect(isLanguageId("toString")).toBe(false);
    expect(() => getLanguage("cobol")).toThrow("unknown language");
  });
});
