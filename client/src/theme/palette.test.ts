/**
 * The palette meets WCAG 2.1 AA at its source: every declared pair
 * (palette.ts) of client/src/styles.css's custom properties, in the light
 * theme (:root) and the dark one (:root.dark over :root), computed with the
 * WCAG contrast formula. Also checks the formula on known values.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AA_TEXT, contrastRatio } from "./contrast.ts";
import { PALETTE_PAIRS } from "./palette.ts";

const CSS = readFileSync(join(import.meta.dir, "..", "styles.css"), "utf8");

/** The `--name: #hex` declarations of the first rule whose selector is exactly `selector`. */
function customProperties(selector: string): Record<string, string> {
  const start = CSS.search(new RegExp(`(^|\\n)${selector.replace(/[.:]/g, "\\$&")} \\{`));
  if (start < 0) throw new Error(`no ${selector} rule in styles.css`);
  const body = CSS.slice(start, CSS.indexOf("}", start));
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{3,8})\s*;/g)) out[m[1]!] = m[2]!;
  return out;
}

const light = customProperties(":root");
const themes = { light, dark: { ...light, ...customProperties(":root.dark") } };

describe("contrast formula", () => {
  test("black on white is 21:1, equal colours 1:1, and a known mid grey", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777", "#777")).toBeCloseTo(1, 5);
    // #767676 on white is the classic lightest grey passing 4.5:1 (4.54:1).
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(AA_TEXT);
  });
  test("a translucent foreground is composed over the background", () => {
    expect(contrastRatio("#00000000", "#ffffff")).toBeCloseTo(1, 5);
    expect(contrastRatio("#000000ff", "#ffffff")).toBeCloseTo(21, 5);
  });
});

for (const [name, vars] of Object.entries(themes)) {
  describe(`${name} theme`, () => {
    for (const pair of PALETTE_PAIRS) {
      test(`--${pair.fg} on --${pair.bg} (${pair.where}) ≥ ${pair.min}:1`, () => {
        const fg = vars[pair.fg];
        const bg = vars[pair.bg];
        expect(fg, `--${pair.fg} is declared`).toBeDefined();
        expect(bg, `--${pair.bg} is declared`).toBeDefined();
        const ratio = contrastRatio(fg!, bg!);
        if (ratio < pair.min) throw new Error(`${name}: --${pair.fg} ${fg} on --${pair.bg} ${bg} is ${ratio.toFixed(2)}:1 < ${pair.min}:1 (${pair.where})`);
      });
    }
  });
}
