/**
 * The interface languages (issue 34, decision 061): one list shared by the
 * server (the account's stored choice, Accept-Language, error messages) and
 * the client (catalogues, the language menu, `<html lang dir>`).
 *
 * Tags are BCP 47. `en` is the source language; `en-XA` is the pseudo-locale
 * built from it (accented and 40 % longer, client/src/i18n/pseudo.ts): it is
 * never offered in the menu and never negotiated, only chosen by `?lang=en-XA`.
 */

/** Every tag the interface speaks, in the menu's order (English first, then by tag). */
export const LOCALE_TAGS = ["en", "ar", "de", "es", "fr", "ja", "ko", "pt-BR", "ru", "zh-CN"] as const;
export type LocaleTag = (typeof LOCALE_TAGS)[number];

/** The pseudo-locale's tag (CLDR's reserved "accented English"). */
export const PSEUDO_LOCALE = "en-XA" as const;
export type AnyLocaleTag = LocaleTag | typeof PSEUDO_LOCALE;

export const SOURCE_LOCALE: LocaleTag = "en";

/** The language's own name for itself (autonym), as the menu shows it, and its writing direction. */
export const LOCALE_INFO: Record<AnyLocaleTag, { autonym: string; dir: "ltr" | "rtl" }> = {
  en: { autonym: "English", dir: "ltr" },
  ar: { autonym: "العربية", dir: "rtl" },
  de: { autonym: "Deutsch", dir: "ltr" },
  es: { autonym: "Español", dir: "ltr" },
  fr: { autonym: "Français", dir: "ltr" },
  ja: { autonym: "日本語", dir: "ltr" },
  ko: { autonym: "한국어", dir: "ltr" },
  "pt-BR": { autonym: "Português (Brasil)", dir: "ltr" },
  ru: { autonym: "Русский", dir: "ltr" },
  "zh-CN": { autonym: "简体中文", dir: "ltr" },
  "en-XA": { autonym: "[Ƥšéûðö]", dir: "ltr" },
};

/** Each language's English name, for instructions to a model ("Write the review in German"). */
export const ENGLISH_NAMES: Record<LocaleTag, string> = {
  en: "English", ar: "Arabic", de: "German", es: "Spanish", fr: "French", ja: "Japanese", ko: "Korean",
  "pt-BR": "Brazilian Portuguese", ru: "Russian", "zh-CN": "Simplified Chinese",
};

/** The language a person reads server-made text in: the account's choice when it is one of ours, else the request's, else English. */
export function readerLocale(accountLocale: string | null | undefined, requestLocale?: string | null): LocaleTag {
  for (const tag of [accountLocale, requestLocale]) if (isLocaleTag(tag) && tag !== PSEUDO_LOCALE) return tag;
  return SOURCE_LOCALE;
}

/** True for a tag this interface speaks (the pseudo-locale included), compared exactly. */
export function isLocaleTag(value: unknown): value is AnyLocaleTag {
  return typeof value === "string" && (value === PSEUDO_LOCALE || (LOCALE_TAGS as readonly string[]).includes(value));
}

/**
 * The best interface language for a list of BCP 47 tags in preference order
 * (navigator.languages, or an Accept-Language header's ranges after
 * `parseAcceptLanguage`): the first tag that matches a locale exactly
 * (case-insensitive), else by its language alone ("pt-PT" → pt-BR,
 * "zh-TW" / "zh-Hant" → zh-CN since it is the only Chinese we have,
 * "de-AT" → de); `en` when nothing matches. The pseudo-locale never matches.
 */
export function negotiateLocale(tags: readonly string[]): LocaleTag {
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    if (!tag || tag === "*") continue;
    const exact = LOCALE_TAGS.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split("-")[0];
    const byLanguage = LOCALE_TAGS.find((l) => l.toLowerCase().split("-")[0] === language);
    if (byLanguage) return byLanguage;
  }
  return SOURCE_LOCALE;
}

/**
 * The language ranges of an Accept-Language header (RFC 9110 §12.5.4) in
 * preference order: by q-value, descending, ties in header order; ranges
 * with q=0 dropped. Bounded: at most 32 ranges of 1–35 characters each are read.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const ranges: { tag: string; q: number; i: number }[] = [];
  header
    .slice(0, 2048)
    .split(",")
    .slice(0, 32)
    .forEach((part, i) => {
      const [tagPart, ...params] = part.trim().split(";");
      const tag = (tagPart ?? "").trim();
      if (!/^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/.test(tag) || tag.length > 35) return;
      let q = 1;
      for (const p of params) {
        const m = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/.exec(p);
        if (m) q = Number(m[1]);
      }
      if (q > 0) ranges.push({ tag, q, i });
    });
  return ranges.sort((a, b) => b.q - a.q || a.i - b.i).map((r) => r.tag);
}
