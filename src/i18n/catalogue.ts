/**
 * A server-side message catalogue (issue 34 §6, decision 068): one JSON file
 * per locale of ICU MessageFormat messages (plural, select, number), compiled
 * once at start by Lingui's compiler and formatted by one Lingui instance per
 * locale. English is compiled underneath every translation, so a key a
 * translation lacks reads English (the catalogue tests forbid that anyway).
 * The pseudo-locale en-XA reads the English text accented and bracketed, as
 * the client's pseudo-locale does.
 */
import { setupI18n, type I18n, type Messages } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { LOCALE_TAGS, PSEUDO_LOCALE, SOURCE_LOCALE, isLocaleTag, type AnyLocaleTag, type LocaleTag } from "./locales.ts";
import { accent } from "./pseudo-text.ts";

/** The tag Intl formats a locale's numbers and lists with: Arabic keeps Latin digits, as the client does (decision 061). */
export function intlLocale(locale: LocaleTag): string {
  return locale === "ar" ? "ar-u-nu-latn" : locale;
}

/** Values a message's placeholders take: numbers are formatted for the locale (`#`, `{n, number}`), strings as given. */
export type MessageValues = Record<string, string | number>;

/** Formats one message of a catalogue: `(locale, key, values) => text`. Any tag that is not ours reads English. */
export type CatalogueText<K extends string> = (locale: AnyLocaleTag | string | null | undefined, key: K, values?: MessageValues) => string;

function compiled(messages: Record<string, string>): Messages {
  const out: Messages = {};
  for (const [key, message] of Object.entries(messages)) out[key] = compileMessage(message);
  return out;
}

/**
 * Compiles a namespace's catalogues (one object per locale, English the source of the keys).
 * @example const text = catalogue(sources); text("de", "maxChars", { max: 200 }) // "Höchstens 200 Zeichen"
 */
export function catalogue<K extends string>(sources: Record<LocaleTag, Record<K, string>>): CatalogueText<K> {
  const english = compiled(sources[SOURCE_LOCALE]);
  const instances = new Map<LocaleTag, I18n>(
    LOCALE_TAGS.map((tag) => [tag, setupI18n({ locale: tag, locales: [intlLocale(tag)], messages: { [tag]: { ...english, ...compiled(sources[tag]) } } })] as const),
  );
  return (locale, key, values) => {
    if (locale === PSEUDO_LOCALE) return `[${accent(instances.get(SOURCE_LOCALE)!._(key, values))}]`;
    const tag: LocaleTag = isLocaleTag(locale) ? (locale as LocaleTag) : SOURCE_LOCALE;
    return instances.get(tag)!._(key, values);
  };
}
