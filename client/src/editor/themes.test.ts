/**
 * The code themes meet WCAG 2.1 AA: every colour the Monaco themes and the
 * history's Prism themes paint text with (tokens, line numbers) reaches
 * 4.5:1 on the theme's background, and the editor follows the page (a light
 * theme on a light base, a dark one on a dark base).
 */
import { describe, expect, test } from "bun:test";
import { AA_TEXT, contrastRatio } from "../theme/contrast.ts";
import { CODE_PALETTES, EDITOR_THEMES, PRISM_THEMES } from "./themes.ts";

for (const mode of ["light", "dark"] as const) {
  describe(`${mode} code theme`, () => {
    const bg = CODE_PALETTES[mode].background;
    test("Monaco: line numbers, the active line number, the text and every token rule ≥ 4.5:1", () => {
      const t = EDITOR_THEMES[mode];
      expect(t.base).toBe(mode === "light" ? "vs" : "vs-dark");
      expect(t.colors["editor.background"]).toBe(bg);
      const painted: [string, string][] = [
        ["editorLineNumber.foreground", t.colors["editorLineNumber.foreground"]!],
        ["editorLineNumber.activeForeground", t.colors["editorLineNumber.activeForeground"]!],
        ["editor.foreground", t.colors["editor.foreground"]!],
        ...t.rules.filter((r) => r.foreground).map((r): [string, string] => [`token ${r.token || "(default)"}`, `#${r.foreground}`]),
      ];
      for (const [what, color] of painted) {
        const ratio = contrastRatio(color, bg);
        if (ratio < AA_TEXT) throw new Error(`${mode} ${what} ${color} on ${bg}: ${ratio.toFixed(2)}:1`);
      }
      expect(painted.length).toBeGreaterThan(8);
    });
    test("Prism (history): the plain text and every token style ≥ 4.5:1", () => {
      const t = PRISM_THEMES[mode];
      expect(t.plain.backgroundColor).toBe(bg);
      const colors = [t.plain.color!, ...t.styles.map((s) => s.style.color!).filter(Boolean)];
      for (const c of colors) {
        const ratio = contrastRatio(c, bg);
        if (ratio < AA_TEXT) throw new Error(`${mode} history colour ${c} on ${bg}: ${ratio.toFixed(2)}:1`);
      }
    });
  });
}
