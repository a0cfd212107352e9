/**
 * WCAG 2.1 contrast: relative luminance of an sRGB colour and the contrast
 * ratio of two colours (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
 * Colours are "#rgb", "#rrggbb" or "#rrggbbaa" (an alpha is composed over
 * the background given to contrastRatio).
 */

/** [r, g, b] in 0..255 and alpha in 0..1. */
export type Rgba = [number, number, number, number];

/**
 * @returns the colour as [r, g, b, a] (channels 0..255, alpha 0..1).
 * @throws Error naming the text when it is not a hex colour.
 */
export function parseHex(hex: string): Rgba {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a hex colour: ${hex}`);
  let h = m[1]!;
  if (h.length === 3) h = [...h].map((c) => c + c).join("");
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
}

/** The colour `fg` (possibly translucent) painted over the opaque `bg`. */
export function compose(fg: Rgba, bg: Rgba): Rgba {
  const a = fg[3];
  return [fg[0] * a + bg[0] * (1 - a), fg[1] * a + bg[1] * (1 - a), fg[2] * a + bg[2] * (1 - a), 1];
}

/** WCAG relative luminance (0 black .. 1 white) of an opaque colour. */
export function relativeLuminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * The contrast ratio (1..21) of `fg` over `bg`, both hex colours; a translucent
 * `fg` is composed over `bg` first.
 */
export function contrastRatio(fg: string, bg: string): number {
  const back = parseHex(bg);
  const front = compose(parseHex(fg), back);
  const [l1, l2] = [relativeLuminance(front), relativeLuminance(back)].sort((a, b) => b - a) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

/** WCAG 2.1 AA thresholds: body text, and large text or UI components / graphics. */
export const AA_TEXT = 4.5;
export const AA_LARGE_OR_UI = 3;
