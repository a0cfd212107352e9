/**
 * A verdict as text with an SVG icon (no emoji font needed): a tick for
 * Accepted, a cross for any other verdict, a clock while judging. The icon is
 * decorative (aria-hidden); the verdict's full name is the text. Colours come
 * from the palette (--success / --danger on their soft backgrounds, checked
 * by theme/palette.test.ts). Also the pass/fail icon of the sample's result.
 */
import { verdictName } from "../lib/verdicts.ts";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";
import "./VerdictBadge.css";

export type VerdictTone = "ok" | "fail" | "pending";

/** @returns the tone of a verdict code (null: not judged yet). */
export function verdictTone(verdict: string | null | undefined): VerdictTone {
  if (!verdict) return "pending";
  return verdict === "AC" || verdict === "OK" ? "ok" : "fail";
}

/** The 16 px icon of a tone, drawn in the text's colour. */
export function VerdictIcon({ tone }: { tone: VerdictTone }) {
  return (
    <svg className="verdict-icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.6" />
      {tone === "ok" && <path d="M4.6 8.3l2.3 2.3 4.5-4.9" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />}
      {tone === "fail" && <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />}
      {tone === "pending" && <path d="M8 4.5V8l2.4 1.6" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />}
    </svg>
  );
}

/**
 * @param verdict a verdict code (AC, WA, ...), or null while judging
 * @param pendingText the text while judging (default "Judging...", translated)
 */
export function VerdictBadge({ verdict, pendingText }: { verdict: string | null | undefined; pendingText?: string }) {
  const t = useT(common);
  const tone = verdictTone(verdict);
  return (
    <span className={`verdict verdict-${tone}`} data-verdict={verdict ?? ""}>
      <VerdictIcon tone={tone} />
      {verdict ? verdictName(verdict, t) : (pendingText ?? t("verdict.judging"))}
    </span>
  );
}
