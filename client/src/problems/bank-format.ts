/**
 * Numbers and matched text on the problem bank's cards: counts and
 * acceptance rates in the interface's locale (Intl.NumberFormat with the
 * locale's own grouping and percent sign; Arabic with Latin digits, as
 * i18n/locale.ts's intlLocales gives: callers pass `intlLocales(activeLocale())`), and a search match cut into plain and
 * highlighted runs (rendered as text and <mark>, never as HTML).
 */
import type { BankMatch } from "../../../src/problems/bank/shape.ts";

/** 12345 → "12,345" (en), "12.345" (de), "12 345" (fr). */
export function formatCount(n: number, locales: readonly string[]): string {
  return new Intl.NumberFormat(locales).format(n);
}

/** An acceptance rate in [0, 1] → "42%" (en), "42 %" (de, fr); below 10 % one decimal ("4.5%"). */
export function formatRate(rate: number, locales: readonly string[]): string {
  const digits = rate > 0 && rate < 0.1 ? 1 : 0;
  return new Intl.NumberFormat(locales, { style: "percent", maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(rate);
}

export interface MatchRun {
  text: string;
  marked: boolean;
}

/**
 * `match.text` cut at its highlights' UTF-16 [start, end) offsets into runs, in order. Offsets
 * out of range are clamped, overlapping or unordered ones merged, empty ones dropped: a bad
 * offset never loses or repeats text.
 */
export function matchRuns(match: Pick<BankMatch, "text" | "highlights">): MatchRun[] {
  const { text } = match;
  const spans = match.highlights
    .map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const runs: MatchRun[] = [];
  let at = 0;
  for (const [s, e] of spans) {
    if (e <= at) continue;
    const start = Math.max(s, at);
    if (start > at) runs.push({ text: text.slice(at, start), marked: false });
    runs.push({ text: text.slice(start, e), marked: true });
    at = e;
  }
  if (at < text.length) runs.push({ text: text.slice(at), marked: false });
  return runs;
}
