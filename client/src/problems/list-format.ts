/**
 * A list of short items ("2 AC", "1 WA"; "small: 40", "large: 60") joined as
 * the active locale joins them ("2 AC, 1 WA" in English, "2 AC、1 WA" in
 * Japanese), through Intl.ListFormat (narrow: English without "and").
 */
import { activeLocale, intlLocales } from "../i18n/locale.ts";

/** The items joined for the interface's language; an empty list is "". */
export function listOf(items: readonly string[]): string {
  return new Intl.ListFormat(intlLocales(activeLocale()), { type: "conjunction", style: "narrow" }).format(items);
}
