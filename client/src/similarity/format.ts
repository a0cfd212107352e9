/** What the similarity screens share in their words: percents as the locale writes them, and the marks' names. */
import { useT } from "../i18n/index.tsx";
import { similarity } from "../i18n/catalog/similarity/index.ts";
import { percentOf } from "../../../src/similarity/threshold.ts";

/** A similarity (0..1) as whole percents, "80%" ("80 %" in German): shown and compared as whole percents (src/similarity/threshold.ts, decision 057). */
export function usePercent(): (fraction: number) => string {
  const t = useT(similarity);
  return (fraction) => t("percent", { value: percentOf(fraction) });
}

/** A pair's mark (src/similarity) to its message; "" (no mark) too, for the mark form's choice. */
export const MARK_KEYS = { "": "marks.none", reviewed: "marks.reviewed", dismissed: "marks.dismissed", flagged: "marks.flagged" } as const;
